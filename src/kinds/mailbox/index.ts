/**
 * The mailbox's room (`mailboxes` under a domain; the panel's `/emails`): its parts gathered for
 * the stages. The kind is in the table of kinds (./kind.ts, src/kinds/index.ts KINDS): its
 * changes are planned, saved, rendered and applied like any kind's, its list read is taken when
 * the run's ask asks for mailboxes (./read.ts), and its schema fragment (`schema.json`) is
 * composed into the plan, apply-result and snapshot schemas. Not wired yet: the manifest's
 * `mailboxes` (its schema part waits in `schema.manifest.pending.json`), the diff rule in the
 * planner (./diff-rule.ts; its free-before-take order is the kind's `sequence`, which
 * plan/order.ts sequenceChanges runs once the planner calls it), and export (./export.ts).
 * Pure.
 */
export * from './address.js';
export * from './changes.js';
export * from './diff-rule.js';
export * from './document.js';
export * from './export.js';
export * from './fields.js';
export * from './manifest.js';
export * from './order.js';
export * from './phrases.js';
export * from './quota.js';
export * from './read.js';
export * from './facts.js';
export * from './record.js';
export * from './secret.js';
