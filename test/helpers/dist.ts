import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The CLI that process-level tests run: the bundle, as the package's bin runs it
 * (scripts/bundle.ts; test/global-setup.ts builds it before any test).
 */
export const BIN = join(ROOT, 'bundle', 'bin.js');

/** The compiled modules (tsc's dist/), for tests that import a part in a fresh process. */
export const DIST = join(ROOT, 'dist');
