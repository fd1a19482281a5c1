import { join } from 'node:path';

/** The built CLI that process-level tests run; test/global-setup.ts builds it before any test. */
export const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bin.js');
