/**
 * The database's room (`databases` under a client; the panel's `/databases`): its parts gathered
 * for the stages. The kind is in the table of kinds (./kind.ts DATABASE_KIND, src/kinds/index.ts
 * KINDS): its manifest section (./section.ts: `databases` under a client item, `prune.databases`
 * refused), its changes planned, saved, rendered and applied like any kind's, its list read
 * (./read.ts, GET /databases, taken only when the run's ask asks for databases), its doctor
 * check, its secret, and its schema fragment (`schema.json`) composed into the published
 * schemas; export writes its list (./export.ts, ./export-edits.ts). Pure.
 */
export * from './changes.js';
export * from './diff-rule.js';
export * from './document.js';
export * from './export.js';
export * from './fields.js';
export * from './hosts.js';
export * from './manifest.js';
export * from './phrases.js';
export * from './record.js';
export * from './secret.js';
