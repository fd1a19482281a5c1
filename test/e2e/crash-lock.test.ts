/**
 * `provision apply` as a real process, ended by a signal at moments where it handles none of
 * its own (while it plans; SIGHUP at any time; a SIGPIPE): the secrets file's lock goes with it
 * (src/exit-cleanup.ts), and the process still ends by that signal, as the shell expects.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { workspace } from '../helpers/cli.js';
import { BIN } from '../helpers/dist.js';

/** Runs apply; once it plans and holds the lock, `act` is called with the process. */
async function applyUntil(
  env: Record<string, string>,
  manifest: string,
  act: (child: ReturnType<typeof spawn>) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'apply', manifest], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let acted = false;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (!acted && stderr.includes('planning against the panel now')) {
      acted = true;
      act(child);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code, signal, stderr });
    });
  });
}

describe('apply ended by a signal it does not handle', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s while planning: ends by it, and the lock is gone',
    async (signal) => {
      let reading!: () => void;
      const read = new Promise<void>((resolve) => (reading = resolve));
      const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
        intercept: async ({ method, path }) => {
          // The panel's client list never comes: the run is planning when the signal arrives.
          if (method === 'GET' && path.startsWith('/clients')) {
            reading();
            await sleep(20_000);
          }
          return undefined;
        },
      });
      const lock = `${w.secrets}.lock`;
      const ended = await applyUntil(w.envWithSecrets, w.file, (child) => {
        void read.then(() => {
          expect(existsSync(lock)).toBe(true);
          child.kill(signal);
        });
      });
      expect({ code: ended.code, signal: ended.signal }, ended.stderr).toEqual({ code: null, signal });
      expect(existsSync(lock)).toBe(false);
    },
    30_000,
  );

  it('a closed stdout (SIGPIPE) when the plan is printed: ends by SIGPIPE, and the lock is gone', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n');
    const ended = await applyUntil(w.envWithSecrets, w.file, (child) => {
      child.stdout?.destroy();
    });
    expect({ code: ended.code, signal: ended.signal }, ended.stderr).toEqual({ code: null, signal: 'SIGPIPE' });
    expect(existsSync(`${w.secrets}.lock`)).toBe(false);
  }, 30_000);
});
