/**
 * The domain's room: everything the engine knows of a domain (its record and forms, its
 * changes, requests and phrases, its plan-document fields, its fingerprint facts, its manifest
 * keys, its settings' table). A domain's identity is its ASCII name; its settings (PHP version,
 * HTTPS, redirect) are rows of SETTING_ROWS. Stages import it from here; its parts
 * are in src/kinds/domain/.
 */
export * from './domain/record.js';
export * from './domain/changes.js';
export * from './domain/create.js';
export * from './domain/document.js';
export * from './domain/facts.js';
export * from './domain/manifest.js';
export * from './domain/settings.js';
export * from './domain/export.js';
