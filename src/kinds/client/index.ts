/**
 * The client's room: everything the engine knows of a client (its field table, record,
 * changes, requests, plan-document fields and phrases). Stages import it from here.
 */
export * from './changes.js';
export * from './fields.js';
export * from './record.js';
export * from './document.js';
export * from './facts.js';
