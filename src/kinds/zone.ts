/**
 * The DNS zone's room: a domain's records as the panel holds them and the manifest lists them,
 * their values per type, the diff rule, the one change a zone has (an update: `PUT /dns/{id}`
 * replaces the record list), its plan-document fields, its fingerprint facts and its phrases.
 * Stages import it from here; its parts are in src/kinds/zone/.
 */
export * from './zone/values.js';
export * from './zone/record.js';
export * from './zone/diff.js';
export * from './zone/places.js';
export * from './zone/changes.js';
export * from './zone/document.js';
export * from './zone/facts.js';
export * from './zone/phrases.js';
export * from './zone/export.js';
export * from './zone/check.js';
export * from './zone/conflicts.js';
export * from './zone/new-zone.js';
