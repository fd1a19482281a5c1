/**
 * The secrets file's lock where things are not as expected (secrets/lock.ts, lock-file.ts):
 * two runs of one process at once; odd things at the lock's path; a directory that takes no
 * lock file; two names for one secrets file; a path that needs escaping; and the ways a process
 * ends by a signal, which must not leave the lock behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, chown, link, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { SecretsLock } from '../../src/secrets/lock.js';
import { CAN_RUN_AS_NOBODY, DIST } from '../helpers/dist.js';

let dir: string;
let secrets: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-lock-'));
  secrets = join(dir, 'secrets.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<ProvisionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProvisionError);
  return error as ProvisionError;
}

describe('two runs in one process', () => {
  it('started at once on a fresh path: exactly one gets the lock, every time', async () => {
    for (let i = 0; i < 100; i++) {
      const path = join(dir, `s${i}.jsonl`);
      const results = await Promise.allSettled([
        SecretsLock.acquire(path, 'apply'),
        SecretsLock.acquire(path, 'apply'),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won, `round ${i}`).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected');
      expect((lost?.reason as ProvisionError).message).toContain(`in use by apply (pid ${process.pid}`);
      await (won[0] as PromiseFulfilledResult<SecretsLock>).value.release();
    }
  });

  it('one releasing while the other starts: the second never takes the first one over', async () => {
    const first = await SecretsLock.acquire(secrets, 'apply');
    const [, second] = await Promise.allSettled([first.release(), SecretsLock.acquire(secrets, 'apply')]);
    if (second.status === 'fulfilled') await second.value.release();
    await expect(stat(`${secrets}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('odd things at the lock path: refused, naming the path to remove, never an internal error', () => {
  it.each([
    ['a directory', async (p: string) => mkdir(p)],
    [
      'a FIFO',
      (p: string) => {
        spawnSync('mkfifo', [p]);
        return Promise.resolve();
      },
    ],
    ['a symbolic link', async (p: string) => symlink(join(dir, 'elsewhere'), p)],
  ])('%s', async (what, make) => {
    await make(`${secrets}.lock`);
    const error = await refusal(SecretsLock.acquire(secrets, 'apply'));
    expect(error.code).toBe('secrets');
    expect(error.message).toBe(
      `the lock file ${secrets}.lock of the secrets file ${secrets} is ${what}, not a lock file: nothing was sent`,
    );
    expect(error.hint).toContain(`remove ${secrets}.lock`);
    // It stays refused: never taken for a run starting right now, nor taken over.
    expect((await refusal(SecretsLock.acquire(secrets, 'apply'))).message).toContain(`is ${what}`);
  });

  it.runIf(CAN_RUN_AS_NOBODY)(
    "another user's lock file, which cannot be read: refused, never taken for a fresh one",
    async () => {
      await chmod(dir, 0o777);
      await writeFile(`${secrets}.lock`, '{}', { mode: 0o600 });
      const script = `
      const { SecretsLock } = await import(${JSON.stringify(join(DIST, 'secrets', 'lock.js'))});
      await SecretsLock.acquire(process.argv[1], 'apply').then(() => process.stdout.write('taken'), (e) => process.stdout.write(e.message));`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, secrets], {
        uid: 65534,
        gid: 65534,
        env: { PATH: process.env.PATH ?? '' },
      });
      expect(child.stdout.toString()).toBe(
        `the lock file ${secrets}.lock of the secrets file ${secrets} cannot be read (EACCES): nothing was sent`,
      );
    },
  );

  it('a path with a newline is printed escaped', async () => {
    const odd = join(dir, 'a\nb.jsonl');
    const lock = await SecretsLock.acquire(odd, 'apply');
    const error = await refusal(SecretsLock.acquire(odd, 'apply'));
    expect(error.message).toContain(`the secrets file ${dir}/a\\nb.jsonl is in use`);
    expect(error.message).not.toContain('\n');
    await lock.release();
  });
});

describe('where the lock lives', () => {
  it('a secrets file whose directory does not exist: nothing to lock, nothing refused', async () => {
    const lock = await SecretsLock.acquire(join(dir, 'missing', 's.jsonl'), 'apply');
    expect(lock.paths).toEqual([]);
    await lock.release();
  });

  it('two names of one secrets file (a hard link): the second run is refused', async () => {
    await writeFile(secrets, '', { mode: 0o600 });
    await mkdir(join(dir, 'other'));
    const other = join(dir, 'other', 'same.jsonl');
    await link(secrets, other);
    const lock = await SecretsLock.acquire(secrets, 'apply');
    expect(lock.paths).toHaveLength(2);
    const error = await refusal(SecretsLock.acquire(other, 'secrets reset'));
    expect(error.message).toContain(`the secrets file ${other} is in use by apply (pid ${process.pid}`);
    await lock.release();
    const again = await SecretsLock.acquire(other, 'secrets reset');
    await again.release();
    for (const path of again.paths) await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('two names of its directory (a symbolic link to it): one lock', async () => {
    const alias = join(dir, 'alias');
    await symlink(dir, alias);
    const lock = await SecretsLock.acquire(secrets, 'apply');
    const error = await refusal(SecretsLock.acquire(join(alias, 'secrets.jsonl'), 'apply'));
    expect(error.message).toContain(`is in use by apply (pid ${process.pid}`);
    await lock.release();
  });

  // A user's own secrets file in a directory it cannot write to (root's): the lock goes to the
  // user's directory under the temporary directory, keyed by the file, and still excludes.
  it.runIf(CAN_RUN_AS_NOBODY)('a directory that takes no lock file: a lock keyed by the file in tmpdir', async () => {
    await chmod(dir, 0o755);
    await writeFile(secrets, '', { mode: 0o600 });
    await chown(secrets, 65534, 65534);
    const script = `
      const { SecretsLock } = await import(${JSON.stringify(join(DIST, 'secrets', 'lock.js'))});
      const lock = await SecretsLock.acquire(process.argv[1], 'apply');
      const second = await SecretsLock.acquire(process.argv[1], 'apply').then(() => 'taken twice', (e) => e.code);
      process.stdout.write(JSON.stringify({ paths: lock.paths, second }));
      await lock.release();`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, secrets], {
      uid: 65534,
      gid: 65534,
      env: { PATH: process.env.PATH ?? '', TMPDIR: tmpdir() },
    });
    expect(child.stderr.toString()).toBe('');
    const info = await stat(secrets, { bigint: true });
    const said = JSON.parse(child.stdout.toString()) as { paths: string[]; second: string };
    expect(said).toEqual({
      paths: [join(tmpdir(), 'provision-locks-65534', `secrets-${info.dev}-${info.ino}.lock`)],
      second: 'secrets',
    });
    expect(await readdir(dir)).toEqual(['secrets.jsonl']);
  });
  // A run that can write the directory holds the lock beside the file; another user's run, which
  // can write the file but not the directory, must meet it there, not take a lock in its tmpdir.
  it.runIf(CAN_RUN_AS_NOBODY)('a lock beside the file is met by a run whose directory takes no file', async () => {
    await chmod(dir, 0o755);
    await writeFile(secrets, '', { mode: 0o600 });
    await chown(secrets, 65534, 65534);
    const held = await SecretsLock.acquire(secrets, 'apply');
    try {
      expect(held.paths).toEqual([`${secrets}.lock`]);
      const script = `
      const { SecretsLock } = await import(${JSON.stringify(join(DIST, 'secrets', 'lock.js'))});
      const said = await SecretsLock.acquire(process.argv[1], 'apply').then(
        async (lock) => { await lock.release(); return 'taken: ' + lock.paths.join(' '); },
        (e) => e.code + ': ' + e.message,
      );
      process.stdout.write(said);`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, secrets], {
        uid: 65534,
        gid: 65534,
        env: { PATH: process.env.PATH ?? '', TMPDIR: tmpdir() },
      });
      expect(child.stderr.toString()).toBe('');
      expect(child.stdout.toString()).toMatch(/^secrets: the lock file .*secrets\.jsonl\.lock .*: nothing was sent$/);
    } finally {
      await held.release();
    }
  });
});

describe('a process ended by a signal does not leave its lock', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s while it holds the lock and handles no signal',
    async (signal) => {
      const script = `
      const { SecretsLock } = await import(${JSON.stringify(join(DIST, 'secrets', 'lock.js'))});
      await SecretsLock.acquire(process.argv[1], 'apply');
      process.stdout.write('held');
      setInterval(() => {}, 1000);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, secrets], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise((resolve) => child.stdout.once('data', resolve));
      await stat(`${secrets}.lock`);
      const ended = new Promise((resolve) =>
        child.on('close', (code, sig) => {
          resolve({ code, sig });
        }),
      );
      child.kill(signal);
      expect(await ended).toEqual({ code: null, sig: signal });
      await expect(stat(`${secrets}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );
});
