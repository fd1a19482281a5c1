/**
 * A lock killed while being made (secrets/lock-file.ts createExclusive): SIGKILL at any moment
 * of taking a lock, or of taking a stale one over, leaves nothing the next run must wait for.
 * Before the holder was written into a draft and linked into place, a kill between creating
 * the lock (or the takeover file) and writing its holder left an empty file, and the next run
 * refused for ten seconds, naming a process that was gone (seen in CI: test/e2e/crash.test.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { holdFile, type LockHolder, releaseFile } from '../../src/secrets/lock-file.js';
import { DIST } from '../helpers/dist.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-lock-kill-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const holder = (token: string): LockHolder => ({
  pid: process.pid,
  host: hostname(),
  command: 'apply',
  since: new Date().toISOString(),
  token,
});

/**
 * A process taking and releasing the locks at `paths` as fast as it can, each taken over from a
 * planted stale holder every other time, until it is killed; it says 'ready' first.
 */
const HAMMER = `
  import { rename, writeFile } from 'node:fs/promises';
  import { hostname } from 'node:os';
  const { holdFile, releaseFile } = await import(${JSON.stringify(join(DIST, 'secrets', 'lock-file.js'))});
  const [deadPid, ...paths] = process.argv.slice(1);
  const stale = JSON.stringify({ pid: Number(deadPid), host: hostname(), command: 'apply', since: 'x', token: 'dead' });
  process.stdout.write('ready');
  await Promise.all(paths.map(async (path, i) => {
    for (let n = 0; ; n++) {
      if (n % 2 === 0) {
        await writeFile(path + '.plant', stale);
        await rename(path + '.plant', path);
      }
      const me = { pid: process.pid, host: hostname(), command: 'apply', since: new Date().toISOString(), token: 't' + i + '-' + n };
      const attempt = await holdFile(path, me);
      if (attempt.kind === 'held') await releaseFile(path, me.token);
    }
  }));`;

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

/** Runs HAMMER on `paths` and kills it `afterMs` after it is ready. */
async function killedWhileLocking(paths: readonly string[], afterMs: number): Promise<void> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HAMMER, String(deadPid()), ...paths], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const closed = new Promise((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => {
      setTimeout(() => child.kill('SIGKILL'), afterMs);
      resolve();
    });
    child.on('error', reject);
  });
  await closed;
}

it('a run killed while taking a lock, or taking one over, never leaves one the next run must wait for', async () => {
  const paths = Array.from({ length: 12 }, (_, i) => join(dir, `secrets-${i}.jsonl.lock`));
  let state = 7;
  for (let round = 0; round < 12; round++) {
    state = (state * 48_271) % 2_147_483_647;
    await killedWhileLocking(paths, 20 + (state % 120));
    for (const path of paths) {
      const me = holder(`after-${round}`);
      const attempt = await holdFile(path, me);
      expect(attempt.kind, `${path} after kill ${round}: ${JSON.stringify(attempt)}`).toBe('held');
      await releaseFile(path, me.token);
    }
  }
}, 60_000);

it('sweeps the drafts that killed runs left, once old, and keeps a fresh one', async () => {
  const path = join(dir, 'secrets.jsonl.lock');
  const old = [`${path}.0123456789ab.new`, `${path}.takeover.cdef01234567.new`];
  const fresh = `${path}.89abcdef0123.new`;
  const others = [`${path}.plant`, join(dir, 'secrets.jsonl.0123456789ab.new'), `${path}.4242.new`];
  for (const file of [...old, fresh, ...others]) await writeFile(file, '');
  const long = new Date(Date.now() - 60_000);
  for (const file of [...old, ...others]) await utimes(file, long, long);
  const me = holder('sweeper');
  expect((await holdFile(path, me)).kind).toBe('held');
  await releaseFile(path, me.token);
  expect((await readdir(dir)).sort()).toEqual(
    [
      'secrets.jsonl.0123456789ab.new',
      'secrets.jsonl.lock.4242.new',
      'secrets.jsonl.lock.89abcdef0123.new',
      'secrets.jsonl.lock.plant',
    ].sort(),
  );
});

it('a lock whose name leaves no room for a draft is made in place, and still excludes', async () => {
  const path = join(dir, `${'s'.repeat(245)}.lock`);
  const me = holder('long');
  expect((await holdFile(path, me)).kind).toBe('held');
  const second = holder('second');
  expect((await holdFile(path, second)).kind).toBe('busy');
  await releaseFile(path, me.token);
  expect(await readdir(dir)).toEqual([]);
});
