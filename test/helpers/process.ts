/**
 * The built CLI as a real process: for the tests that kill it (test/e2e/crash*.test.ts), or that
 * need a real process for another reason (a working directory, the bundle as shipped).
 */
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { BIN } from './dist.js';

/** How a process ended, and what it printed. */
export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `provision` as a process. `killAfterMs`: SIGKILL it then; `signalWhen`: send
 * a signal once its stdout so far satisfies the test.
 */
export function runBin(
  args: string[],
  env: Record<string, string>,
  options: {
    /** The working directory; default this process's. */
    cwd?: string;
    killAfterMs?: number;
    signalWhen?: {
      signal: NodeJS.Signals;
      stdout: (text: string) => boolean;
      again?: (stderr: string) => boolean;
    };
  } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    let again = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const when = options.signalWhen;
      if (when !== undefined && !signalled && when.stdout(stdout)) {
        signalled = true;
        child.kill(when.signal);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const when = options.signalWhen;
      if (when?.again !== undefined && signalled && !again && when.again(stderr)) {
        again = true;
        child.kill(when.signal);
      }
    });
    const { killAfterMs } = options;
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * Runs `args`, killing it with SIGKILL at pseudo-random moments (from `seed`), round after
 * round, then once to the end, which must succeed. Bounded: at most 15 rounds or about 20
 * seconds of killing, whichever comes first; it stops early once a run finds nothing to do.
 */
export async function killRounds(
  args: string[],
  env: Record<string, string>,
  seed: number,
): Promise<{ runs: Run[]; kills: number }> {
  const runs: Run[] = [];
  let kills = 0;
  let state = seed;
  const started = Date.now();
  for (let round = 0; round < 15 && Date.now() - started < 20_000; round++) {
    state = (state * 48_271) % 2_147_483_647;
    const run = await runBin(args, env, { killAfterMs: 80 + (state % 400) });
    runs.push(run);
    if (run.signal === 'SIGKILL') kills++;
    else if (run.code === 0 && run.stdout.includes('No changes')) break;
  }
  const last = await runBin(args, env);
  runs.push(last);
  expect(last.code, last.stderr).toBe(0);
  expect(kills).toBeGreaterThan(0);
  return { runs, kills };
}
