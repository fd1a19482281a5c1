import { execFileSync } from 'node:child_process';

/**
 * Builds dist/ from the current sources once per test run: the tests that run `provision` as a
 * whole process (kill, signal and start-up tests) must not run a stale build.
 */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
