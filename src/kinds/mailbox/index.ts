/**
 * The mailbox's room (`mailboxes` under a domain; the panel's `/emails`): its parts gathered for
 * the stages. The kind is in the table of kinds (./kind.ts, src/kinds/index.ts KINDS): its
 * manifest section (./section.ts: `mailboxes` under a domain item, `prune.mailboxes`, address
 * patterns in `prune.keep`; its diff puts what frees an address before what takes it, ./order.ts),
 * its changes planned, saved, rendered and applied like any kind's, its list read (./read.ts,
 * GET /emails, taken only when the run's ask asks for mailboxes), its doctor check, its secret,
 * and its schema fragment (`schema.json`) composed into the published schemas. Export writes
 * its list (./export.ts, ./export-edits.ts). Pure.
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
