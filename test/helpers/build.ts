import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..', '..');

/** The built CLI that process-level tests run. */
export const BIN = join(ROOT, 'dist', 'cli', 'bin.js');

/**
 * Builds dist/ from the current sources: a test that runs `provision` as a whole process
 * (kills, signals) must not run a stale build. Called from such a test's beforeAll only, so
 * the rest of the suite does not depend on the build.
 */
export function buildCli(): Promise<void> {
  built ??= promisify(execFile)(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT }).then(
    () => undefined,
  );
  return built;
}

/** Once per test file (each file runs in a worker of its own). */
let built: Promise<void> | undefined;
