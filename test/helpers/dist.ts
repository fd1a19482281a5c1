import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The CLI that process-level tests run: the bundle, as the package's bin runs it
 * (scripts/bundle.ts; test/global-setup.ts builds it before any test).
 */
export const BIN = join(ROOT, 'bundle', 'bin.js');

/** The compiled modules (tsc's dist/), for tests that import a part in a fresh process. */
export const DIST = join(ROOT, 'dist');

/**
 * Root, and a process of another user (nobody) can reach the build: every directory from the
 * filesystem's root down to the package is searchable by others. A clone in a 0700 temporary
 * directory is not, and there the tests that run provision as another user cannot run.
 */
export const CAN_RUN_AS_NOBODY: boolean = (() => {
  if (process.getuid?.() !== 0) return false;
  for (let dir = ROOT; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
})();
