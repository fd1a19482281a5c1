/**
 * A takeover file left by a taker that died is cleared by the next taker; a live taker's
 * takeover file that replaced it meanwhile must survive (secrets/lock-file.ts, takeOver). Were
 * it removed, two takers could each hold the takeover, remove each other's new lock, and both
 * hold the lock. The replacement is made at the moment an asynchronous removal would run: the
 * gap between judging a file and removing it by its path, which the removal must not have.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

const replaceOnUnlink = vi.hoisted(() => ({ path: '', text: '' }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    unlink: async (path: string) => {
      if (path === replaceOnUnlink.path) {
        // Meanwhile a live taker cleared the dead one's file and made its own.
        replaceOnUnlink.path = '';
        await actual.unlink(path);
        writeFileSync(path, replaceOnUnlink.text);
      }
      return actual.unlink(path);
    },
  };
});

const { readLock, takeOver } = await import('../../src/secrets/lock.js');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'provision-guard-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function holder(pid: number, token: string): string {
  return JSON.stringify({ pid, host: hostname(), command: 'apply', since: '2030-01-01T00:00:00.000Z', token });
}

it("a live taker's takeover file, put in place of a dead taker's after it was judged, is kept", async () => {
  const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
  const lock = join(dir, 's.jsonl.lock');
  const guard = `${lock}.takeover`;
  writeFileSync(lock, holder(dead, 'stale'));
  writeFileSync(guard, holder(dead, 'dead taker'));
  const live = holder(process.ppid, 'live taker');
  Object.assign(replaceOnUnlink, { path: guard, text: live });
  const seen = await readLock(lock);
  const me = { pid: process.pid, host: hostname(), command: 'apply', since: 'now', token: 'me' };
  expect(await takeOver(lock, seen as NonNullable<typeof seen>, me)).toBe(false);
  // Either the dead one's file was removed and nothing replaced it yet, or the live one's stays.
  let now = '';
  try {
    now = readFileSync(guard, 'utf8');
  } catch {
    now = 'gone';
  }
  expect(['gone', live]).toContain(now);
  if (now === 'gone') expect(replaceOnUnlink.path).toBe(guard);
});
