/**
 * The database's room (`databases` under a client; the panel's `/databases`): its parts gathered
 * for the stages. Not wired yet: the room is in no table of kinds (src/kinds/index.ts KINDS), and
 * its schema fragment is `schema.pending.json`, which the schema composer does not read; when the
 * room is wired, the fragment is renamed `schema.json` (and `DATABASE_KIND_NAME` in changes.ts
 * becomes a name of the table). Its descriptor is `kind.ts` DATABASE_KIND (with read.ts, apply.ts,
 * doctor.ts, facts.ts); wiring adds it to KINDS, its read to src/kinds/reads.ts (KIND_READS,
 * READ_ORDER), its ask (read.ts DatabasesAsk) to what plan/reads.ts asks, and removes the kind
 * from the simulator's SIM_ONLY_KINDS. Pure.
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
