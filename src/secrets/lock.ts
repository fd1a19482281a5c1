/**
 * One run at a time per secrets file (docs/passwords.md, "One run at a time per secrets
 * file"): apply and `secrets reset` (and the library's executePlan when it writes the
 * journal) hold an exclusive lock on it for the whole run; a second one refuses at once,
 * naming the holder's process. How one lock file
 * is taken, judged stale and taken over is secrets/lock-file.ts; this is where it lives.
 *
 * - `<secrets>.lock`, beside the secrets file, where its directory takes a new file (the usual
 *   case, and what the help names), in the directory's real path: a symbolic link to the
 *   directory names the same lock.
 * - Where the directory takes none (not writable: a 0600 secrets file of one's own in a
 *   directory of root's; a read-only mount), a lock keyed by the secrets file itself (device
 *   and inode) in a directory of this user's own under os.tmpdir(): the file can still be
 *   written, so two runs must still exclude each other (and a lock beside it, of a run that
 *   could write the directory, is met all the same). The same key is also taken when the
 *   file has other names (hard links), so two runs through two names exclude each other too.
 *   (Two runs whose TMPDIR differ, or in separate containers, do not meet there: the price of
 *   a directory that takes no lock.)
 * - Neither, when the secrets file does not exist and its directory cannot take a file (it is
 *   missing, or not writable): no run can write a journal there, so there is nothing to guard;
 *   a run that needs to write one fails when it opens it, before anything is sent.
 *
 * The lock is removed when the run ends, and on every way out of the process: 'exit', and a
 * signal that ends it (exit-cleanup.ts: SIGINT, SIGTERM and SIGHUP while planning, the second
 * Ctrl-C, a SIGPIPE). Only SIGKILL and a power loss leave it, for the next run to take over.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import { safeText } from '../escape.js';
import { atExit } from '../exit-cleanup.js';
import {
  type LockHolder,
  holdFile,
  readLock,
  releaseFile,
  releaseFileSync,
  type Seen,
  startedOf,
  UNREADABLE_STALE_MS,
} from './lock-file.js';

export { type LockHolder, readLock, type Seen, takeOver } from './lock-file.js';

/** The lock a run holds on its secrets file; `release` it when the run ends. */
export class SecretsLock {
  private released = false;

  private constructor(
    /**
     * The lock files held (absolute): beside the secrets file, in the user's lock directory, both,
     * or none (see the module's comment).
     */
    readonly paths: readonly string[],
    readonly holder: LockHolder,
    /** Ends the release on the way out of the process (exit-cleanup.ts). */
    private readonly forget: () => void,
  ) {}

  /**
   * Takes the lock on `secretsPath` for `command`, or refuses at once (ProvisionError
   * 'secrets', exit 1) naming the run that holds it. Takes a stale lock over (lock-file.ts).
   */
  static async acquire(secretsPath: string, command: string, now: () => Date = () => new Date()): Promise<SecretsLock> {
    const me: LockHolder = {
      pid: process.pid,
      host: hostname(),
      command,
      since: now().toISOString(),
      ...startedOf(process.pid),
      token: process.getBuiltinModule('node:crypto').randomBytes(12).toString('hex'),
    };
    // Resolved once, and reserved in this process before the first await (holdFile).
    const beside = besidePath(secretsPath);
    // Each path is released on the way out of the process from the moment it is tried (one
    // that turns out not to be ours holds another token: releasing it does nothing).
    const tried = [beside];
    const forget = atExit(() => {
      for (const path of tried) releaseFileSync(path, me.token);
    });
    try {
      const first = await holdFile(beside, me);
      if (first.kind === 'busy') throw refusal(secretsPath, beside, first.seen);
      // A directory that takes no new file may still hold a lock beside the file, of a run that
      // could write there (another user's, root's): it is met, never passed for one in tmpdir.
      const there = first.kind === 'cannot' ? await readLock(beside) : undefined;
      if (there !== undefined) throw refusal(secretsPath, beside, there);
      const held = first.kind === 'held' ? [beside] : [];
      const file = await identity(secretsPath);
      if (file !== undefined && (first.kind === 'cannot' || file.nlink > 1)) {
        const keyed = join(await lockDirectory(), `secrets-${file.dev}-${file.ino}.lock`);
        tried.push(keyed);
        const second = await holdFile(keyed, me);
        if (second.kind === 'busy') throw refusal(secretsPath, keyed, second.seen);
        if (second.kind === 'cannot')
          throw new ProvisionError(
            'secrets',
            `cannot create the lock file ${safeText(keyed)}: ${second.code}: nothing was sent`,
            {
              hint: 'set TMPDIR to a directory of your own, or give a secrets file in a writable directory',
            },
          );
        held.push(keyed);
      }
      return new SecretsLock(held, me, forget);
    } catch (error) {
      for (const path of tried) await releaseFile(path, me.token);
      forget();
      throw error;
    }
  }

  /** Removes the lock files if they are still ours; idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    for (const path of this.paths) await releaseFile(path, this.holder.token);
    this.forget();
  }
}

/**
 * `<secrets>.lock`, absolute, in its directory's real path: two names of one directory (a
 * symbolic link to it) give one lock. Synchronous, so that it comes before holdFile's
 * reservation with no await in between.
 */
function besidePath(secretsPath: string): string {
  const absolute = resolve(secretsPath);
  try {
    return join(realpathSync(dirname(absolute)), `${basename(absolute)}.lock`);
  } catch {
    return `${absolute}.lock`; // its directory is missing: nothing is written there (see the module's comment)
  }
}

/**
 * The secrets file's device, inode and link count, when it exists (a link is not followed: the
 * journal refuses one).
 */
async function identity(path: string): Promise<{ dev: bigint; ino: bigint; nlink: bigint } | undefined> {
  try {
    const info = await lstat(path, { bigint: true });
    return info.isFile() ? { dev: info.dev, ino: info.ino, nlink: info.nlink } : undefined;
  } catch {
    return undefined; // missing, or its directory cannot be searched: no journal is written there
  }
}

/** This user's directory for locks keyed by file, under os.tmpdir(): made 0700, and refused unless it is ours alone. */
async function lockDirectory(): Promise<string> {
  const uid = process.getuid?.();
  const dir = join(tmpdir(), `provision-locks-${uid ?? 'user'}`);
  await mkdir(dir, { mode: 0o700 }).catch((error: unknown) => {
    if (errnoCode(error) !== 'EEXIST')
      throw new ProvisionError(
        'secrets',
        `cannot create the lock directory ${safeText(dir)}: ${errnoCode(error)}: nothing was sent`,
        {
          hint: 'set TMPDIR to a writable directory of your own, or give a secrets file in a writable directory',
        },
      );
  });
  const info = await lstat(dir);
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o077) !== 0)
    throw new ProvisionError(
      'secrets',
      `the lock directory ${safeText(dir)} is not this user's alone: nothing was sent`,
      {
        hint: `remove it (another user may have made it), or set TMPDIR to a directory of your own`,
      },
    );
  return dir;
}

/** The refusal: who holds the lock, or what is in its place, and what to do. */
function refusal(secretsPath: string, path: string, seen: Seen | undefined): ProvisionError {
  const file = safeText(secretsPath);
  const lock = safeText(path);
  if (seen?.odd !== undefined)
    return new ProvisionError(
      'secrets',
      `the lock file ${lock} of the secrets file ${file} ${seen.odd}: nothing was sent`,
      {
        hint:
          'no apply or secrets reset can start while it is there: ' +
          `once none is running, remove ${lock}, then run this again`,
      },
    );
  const holder = seen?.holder;
  const who =
    holder === undefined
      ? 'a run whose lock file cannot be read yet (one starting right now?)'
      : `${safeText(holder.command)} (pid ${holder.pid} on ${safeText(holder.host)}, since ${safeText(holder.since)})`;
  const hint =
    holder === undefined
      ? 'one apply or secrets reset at a time per secrets file: run this again; ' +
        `a lock file still unreadable ${UNREADABLE_STALE_MS / 1000} seconds after it was written is taken over`
      : holder.host !== hostname()
        ? 'one apply or secrets reset at a time per secrets file; that run is on another host, ' +
          `which cannot be checked from here: once it is over, remove ${lock}`
        : 'one apply or secrets reset at a time per secrets file: wait for that run to end, then run this again ' +
          '(a lock left by a process that is gone is taken over by itself)';
  return new ProvisionError('secrets', `the secrets file ${file} is in use by ${who}: nothing was sent`, { hint });
}
