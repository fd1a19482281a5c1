/**
 * One run at a time per secrets file (design.md, "Working at scale"): apply and `secrets reset`
 * (and the library's executePlan when it writes the journal) hold an exclusive lock on it for
 * the whole run; a second one refuses at once, naming the holder's process.
 *
 * Node has no flock, so the lock is a file beside the secrets file, `<secrets>.lock`, made
 * with an exclusive create (O_EXCL, mode 0600) and holding its holder: pid, host, command,
 * since when, and a token of its own. It is removed when the run ends, on an exit through the
 * signal paths too (process 'exit'). A holder that died without removing it (SIGKILL, a power
 * loss) leaves a stale file: on this host, a pid that is not alive (process.kill(pid, 0) says
 * ESRCH), or alive but started later than the holder (the pid was reused: /proc, where there
 * is one), or our own pid when this process holds no such lock (a container's pid 1 again).
 * A stale lock is taken over, never waited on; a lock from another host cannot be checked
 * from here and is refused with its path, for a person to remove.
 *
 * Taking over is atomic against a second run doing the same: the taker first creates
 * `<lock>.takeover` exclusively, then reads the lock again and removes it only if it is
 * still the very file judged stale, then creates its own exclusively (which a run starting
 * afresh may win: then that one holds it, alive, and this one refuses). A takeover file left
 * by a taker that died is removed once its pid is dead (or it is older than TAKEOVER_STALE_MS).
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { constants, type FileHandle, open, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import { safeText } from '../escape.js';
import { isRecord } from '../util.js';

/** Who holds a lock, as its file says. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** The command that holds it: 'apply', 'secrets reset', 'executePlan'. */
  readonly command: string;
  /** ISO time the lock was taken. */
  readonly since: string;
  /** The holder's process start time (Linux: clock ticks after boot, /proc/<pid>/stat), to tell a reused pid. */
  readonly started?: number;
  /** Ours alone: a lock is released only by the run whose token it holds. */
  readonly token: string;
}

/** A lock file whose holder cannot be read (being written, or torn) is stale after this long. */
const UNREADABLE_STALE_MS = 10_000;
/** A takeover takes milliseconds: a takeover file older than this is left over. */
const TAKEOVER_STALE_MS = 10_000;
/** Rounds of create / judge / take over before giving up (each round ends in a lock or a refusal, but for races). */
const ROUNDS = 5;
/** The largest lock file read: a holder is a few hundred bytes. */
const MAX_LOCK_BYTES = 4096;

/** Lock files this process holds, by absolute path: a second run in the same process is refused too. */
const heldHere = new Set<string>();

/** The lock a run holds on its secrets file; `release` it when the run ends. */
export class SecretsLock {
  private released = false;
  private readonly onExit = (): void => {
    this.releaseSync();
  };

  private constructor(
    /** `<secrets>.lock` */
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    heldHere.add(resolve(path));
    process.on('exit', this.onExit);
  }

  /**
   * Takes the lock on `secretsPath` for `command`, or refuses at once (ProvisionError
   * 'secrets', exit 1) naming the run that holds it. Takes a stale lock over (see above).
   */
  static async acquire(secretsPath: string, command: string, now: () => Date = () => new Date()): Promise<SecretsLock> {
    const path = `${secretsPath}.lock`;
    const me: LockHolder = {
      pid: process.pid,
      host: hostname(),
      command,
      since: now().toISOString(),
      ...startedOf(process.pid),
      token: process.getBuiltinModule('node:crypto').randomBytes(12).toString('hex'),
    };
    let last: Seen | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      if (await createExclusive(path, me)) return new SecretsLock(path, me);
      const seen = await readLock(path);
      if (seen === undefined) continue; // released meanwhile: try again
      last = seen;
      if (!isStale(path, seen)) break;
      if (await takeOver(path, seen, me)) return new SecretsLock(path, me);
      await new Promise((done) => setTimeout(done, 20 * (round + 1)));
    }
    throw inUse(secretsPath, path, last);
  }

  /** Removes the lock file if it is still ours; idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    process.off('exit', this.onExit);
    heldHere.delete(resolve(this.path));
    const seen = await readLock(this.path);
    if (seen?.holder?.token === this.holder.token) await unlink(this.path).catch(() => undefined);
  }

  /** The same, synchronously: on process exit, where nothing asynchronous runs any more. */
  private releaseSync(): void {
    if (this.released) return;
    this.released = true;
    try {
      if (parseHolder(readFileSync(this.path, 'utf8'))?.token === this.holder.token) unlinkSync(this.path);
    } catch {
      // Gone already, or unreadable: the next run judges it.
    }
  }
}

/** A lock file as read: its text (compared before a takeover) and its holder, when readable. */
export interface Seen {
  readonly text: string;
  readonly holder: LockHolder | undefined;
  readonly mtimeMs: number;
}

/** Creates `path` exclusively (0600) holding `holder`; false when it exists. */
async function createExclusive(path: string, holder: LockHolder): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw new ProvisionError('secrets', `cannot create the lock file ${path}: ${errnoCode(error)}: nothing was sent`, {
      hint: 'the secrets file needs a writable directory: give a path in one with --secrets-file or PROVISION_SECRETS_FILE',
    });
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`);
    await handle.datasync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw new ProvisionError('secrets', `cannot write the lock file ${path}: ${errnoCode(error)}: nothing was sent`);
  }
  await handle.close();
  return true;
}

/** The lock file as it is now, or undefined when there is none. Never follows a link. (Exported for its test.) */
export async function readLock(path: string): Promise<Seen | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    // A link or something unreadable where the lock should be: judged as a holder we cannot read.
    return { text: '', holder: undefined, mtimeMs: Date.now() };
  }
  try {
    const info = await handle.stat();
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_LOCK_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return { text, holder: info.isFile() ? parseHolder(text) : undefined, mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

function parseHolder(text: string): LockHolder | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { pid, host, command, since, started, token } = value;
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return undefined;
  if (typeof host !== 'string' || typeof command !== 'string' || typeof since !== 'string') return undefined;
  if (typeof token !== 'string') return undefined;
  return {
    pid: pid as number,
    host,
    command,
    since,
    token,
    ...(typeof started === 'number' ? { started } : {}),
  };
}

/** Whether the run that holds `seen` is gone (see the module's comment). */
function isStale(path: string, seen: Seen): boolean {
  const holder = seen.holder;
  if (holder === undefined) return Date.now() - seen.mtimeMs > UNREADABLE_STALE_MS;
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !heldHere.has(resolve(path));
  if (!alive(holder.pid)) return true;
  // Alive: the same process, unless it started at another time than the holder (a reused pid).
  const now = startedOf(holder.pid).started;
  return holder.started !== undefined && now !== undefined && now !== holder.started;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return errnoCode(error) !== 'ESRCH';
  }
}

/** A process's start time on Linux (field 22 of /proc/<pid>/stat); nothing elsewhere. */
function startedOf(pid: number): { readonly started?: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const started = Number(fields[19]);
    return Number.isSafeInteger(started) ? { started } : {};
  } catch {
    return {};
  }
}

/**
 * Replaces the stale lock `seen` with ours, under `<lock>.takeover` (see the module's
 * comment); false when another run got there first, or the lock changed meanwhile. (Exported
 * for its test: the race it closes is too narrow to hit on purpose through acquire.)
 */
export async function takeOver(path: string, seen: Seen, me: LockHolder): Promise<boolean> {
  const guard = `${path}.takeover`;
  if (!(await createExclusive(guard, me))) {
    const other = await readLock(guard);
    const leftOver =
      other !== undefined &&
      (Date.now() - other.mtimeMs > TAKEOVER_STALE_MS ||
        (other.holder !== undefined && other.holder.host === hostname() && !alive(other.holder.pid)));
    if (leftOver) await unlink(guard).catch(() => undefined);
    return false;
  }
  try {
    const now = await readLock(path);
    if (now !== undefined && now.text !== seen.text) return false;
    if (now !== undefined) await unlink(path).catch(() => undefined);
    return await createExclusive(path, me);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/** The refusal: who holds the lock, and what to do. */
function inUse(secretsPath: string, path: string, seen: Seen | undefined): ProvisionError {
  const holder = seen?.holder;
  const who =
    holder === undefined
      ? 'a run whose lock file cannot be read (one starting right now?)'
      : `${safeText(holder.command)} (pid ${holder.pid} on ${safeText(holder.host)}, since ${safeText(holder.since)})`;
  const elsewhere = holder !== undefined && holder.host !== hostname();
  return new ProvisionError('secrets', `the secrets file ${secretsPath} is in use by ${who}: nothing was sent`, {
    hint: elsewhere
      ? `one apply or secrets reset at a time per secrets file; that run is on another host, which cannot be checked from here: once it is over, remove ${path}`
      : `one apply or secrets reset at a time per secrets file: wait for that run to end, then run this again (a lock left by a process that is gone is taken over by itself)`,
  });
}
