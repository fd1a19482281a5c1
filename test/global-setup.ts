/**
 * Runs once before any test file: builds dist/ from the current sources and bundles the CLI
 * into bundle/ (what the package's bin runs), so the tests that run `provision` as a whole
 * process (kills, signals) never meet a stale build, and no test's hook waits for a compiler
 * (one build for the run, not one per file).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundle } from '../scripts/bundle.js';

const ROOT = join(import.meta.dirname, '..');

export async function setup(): Promise<void> {
  await Promise.all([
    promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')],
      { cwd: ROOT },
    ),
    bundle(ROOT, { clean: false }),
  ]);
}
