/**
 * The hosting plan's room: a plan's keys and values (the panel's own nested objects), its diff
 * rule, its changes and requests, its plan-document fields, its fingerprint facts and its
 * phrases. Stages import it from here; its parts are in src/kinds/hosting-plan/.
 */
export * from './hosting-plan/fields.js';
export * from './hosting-plan/diff.js';
export * from './hosting-plan/changes.js';
export * from './hosting-plan/document.js';
export * from './hosting-plan/facts.js';
export * from './hosting-plan/export.js';
