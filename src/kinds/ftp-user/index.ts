/**
 * The FTP user's room (`ftp_users` under a client; the panel's `/ftp-users`): its parts gathered
 * for the stages. The kind is in the table of kinds (./kind.ts FTP_USER_KIND, src/kinds/index.ts
 * KINDS): its manifest section (./section.ts: `ftp_users` under a client item, `prune.ftp_users`),
 * its changes planned, saved, rendered and applied like any kind's, its list read (./read.ts,
 * GET /ftp-users, taken only when the run's ask asks for FTP users), its doctor check, its
 * secret, and its schema fragment (`schema.json`) composed into the published schemas. Export
 * writes its list (./export.ts, ./export-edits.ts). Pure.
 */
export * from './changes.js';
export * from './diff-rule.js';
export * from './document.js';
export * from './export.js';
export * from './fields.js';
export * from './home.js';
export * from './manifest.js';
export * from './phrases.js';
export * from './record.js';
export * from './secret.js';
