/**
 * The secrets file's lock (secrets/lock.ts): one run at a time, a refusal that names the
 * holder, and a stale lock (its process gone, its pid reused, or unreadable for long) taken
 * over, atomically: of several runs taking over the same stale lock at once, in this process
 * or in others, exactly one gets it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { readLock, SecretsLock, takeOver } from '../../src/secrets/lock.js';
import { DIST } from '../helpers/dist.js';

let dir: string;
let secrets: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-lock-'));
  secrets = join(dir, 'secrets.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

/** A lock file as another run would have left it. */
async function planted(holder: Record<string, unknown>): Promise<void> {
  await writeFile(
    `${secrets}.lock`,
    JSON.stringify({
      host: hostname(),
      command: 'apply',
      since: '2030-01-01T00:00:00.000Z',
      token: 'theirs',
      ...holder,
    }),
    { mode: 0o600 },
  );
}

async function refusal(promise: Promise<unknown>): Promise<ProvisionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProvisionError);
  return error as ProvisionError;
}

describe('SecretsLock', () => {
  it('is a 0600 file beside the secrets file naming its holder; a second run refuses, naming it; released, it can be taken again', async () => {
    const lock = await SecretsLock.acquire(secrets, 'apply');
    const info = await stat(`${secrets}.lock`);
    expect(info.mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(`${secrets}.lock`, 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
      command: 'apply',
    });
    const error = await refusal(SecretsLock.acquire(secrets, 'secrets reset'));
    expect(error.code).toBe('secrets');
    expect(error.message).toBe(
      `the secrets file ${secrets} is in use by apply (pid ${process.pid} on ${hostname()}, since ${lock.holder.since}): nothing was sent`,
    );
    await lock.release();
    await expect(stat(`${secrets}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    const again = await SecretsLock.acquire(secrets, 'secrets reset');
    await again.release();
    await again.release();
  });

  it('a live holder of this host is never taken over', async () => {
    await planted({ pid: process.ppid });
    const error = await refusal(SecretsLock.acquire(secrets, 'apply'));
    expect(error.message).toContain(`in use by apply (pid ${process.ppid} on ${hostname()}`);
    expect(JSON.parse(await readFile(`${secrets}.lock`, 'utf8'))).toMatchObject({ token: 'theirs' });
  });

  it('a holder that is gone (a killed run) is taken over', async () => {
    await planted({ pid: deadPid() });
    const lock = await SecretsLock.acquire(secrets, 'apply');
    expect(JSON.parse(await readFile(`${secrets}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it.runIf(process.platform === 'linux')(
    'a pid reused by another process (its start time differs) is taken over',
    async () => {
      await planted({ pid: process.ppid, started: 1 });
      const lock = await SecretsLock.acquire(secrets, 'apply');
      await lock.release();
    },
  );

  it("this process's own pid, when it holds no such lock (a container's pid again), is taken over", async () => {
    await planted({ pid: process.pid });
    const lock = await SecretsLock.acquire(secrets, 'apply');
    await lock.release();
  });

  it('a holder on another host is refused with the path to remove', async () => {
    await planted({ pid: 1, host: 'elsewhere.example' });
    const error = await refusal(SecretsLock.acquire(secrets, 'apply'));
    expect(error.message).toContain('in use by apply (pid 1 on elsewhere.example');
    expect(error.hint).toContain(`remove ${secrets}.lock`);
  });

  it('an unreadable lock is a run starting right now; once old, it is taken over', async () => {
    await writeFile(`${secrets}.lock`, '', { mode: 0o600 });
    const error = await refusal(SecretsLock.acquire(secrets, 'apply'));
    expect(error.message).toContain('cannot be read yet (one starting right now?)');
    const old = new Date(Date.now() - 60_000);
    await utimes(`${secrets}.lock`, old, old);
    const lock = await SecretsLock.acquire(secrets, 'apply');
    await lock.release();
  });

  it('a run that judged a lock stale takes nothing over once another run has taken it over meanwhile', async () => {
    await planted({ pid: deadPid() });
    const judged = await readLock(`${secrets}.lock`);
    expect(judged?.holder?.token).toBe('theirs');
    // Meanwhile, another run took the stale lock over.
    const other = await SecretsLock.acquire(secrets, 'apply');
    const late = { ...other.holder, pid: process.pid + 1, token: 'late' };
    expect(await takeOver(`${secrets}.lock`, judged as NonNullable<typeof judged>, late)).toBe(false);
    expect((await readLock(`${secrets}.lock`))?.holder?.token).toBe(other.holder.token);
    await expect(stat(`${secrets}.lock.takeover`)).rejects.toMatchObject({ code: 'ENOENT' });
    await other.release();
  });

  it('a takeover left over by a taker that died is cleared, and the stale lock then taken over', async () => {
    await planted({ pid: deadPid() });
    await writeFile(
      `${secrets}.lock.takeover`,
      JSON.stringify({ pid: deadPid(), host: hostname(), command: 'apply', since: 'then', token: 'dead' }),
    );
    const lock = await SecretsLock.acquire(secrets, 'apply');
    await lock.release();
  });

  it('several runs in this process taking over the same stale lock at once: exactly one gets it', async () => {
    await planted({ pid: deadPid() });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => SecretsLock.acquire(secrets, 'apply')));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as ProvisionError).code).toBe('secrets');
    await (won[0] as PromiseFulfilledResult<SecretsLock>).value.release();
  });

  it('several processes taking over the same stale lock at once: exactly one gets it', async () => {
    await planted({ pid: deadPid() });
    // Each says whether it got the lock; a winner holds it until its stdin ends, which comes
    // once every process has said: no process can start after the winner let go.
    const script = `
      const { SecretsLock } = await import(${JSON.stringify(join(DIST, 'secrets', 'lock.js'))});
      try {
        const lock = await SecretsLock.acquire(process.argv[1], 'apply');
        process.stdout.write('won');
        process.stdin.resume();
        await new Promise((r) => process.stdin.on('end', r));
        await lock.release();
      } catch (error) {
        process.stdout.write(error.code === 'secrets' ? 'refused' : String(error));
      }`;
    const children = Array.from({ length: 6 }, () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, secrets], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      return Object.assign(child, { closed: new Promise((resolve) => child.on('close', resolve)) });
    });
    const said = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve, reject) => {
            child.stdout.once('data', (chunk: Buffer) => {
              resolve(chunk.toString());
            });
            child.on('error', reject);
          }),
      ),
    );
    for (const child of children) child.stdin.end();
    await Promise.all(children.map((child) => child.closed));
    expect(said.sort()).toEqual(['refused', 'refused', 'refused', 'refused', 'refused', 'won']);
    await expect(stat(`${secrets}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
