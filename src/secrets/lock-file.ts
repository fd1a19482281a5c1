/**
 * One lock file, for secrets/lock.ts (which says where it lives and what a refusal says).
 *
 * Node has no flock, so a lock is a file made exclusively (mode 0600) holding its holder: pid,
 * host, command, since when, and a token of its own; written whole in a draft and then linked
 * into place, so that no kill leaves it empty (createExclusive). A holder that
 * died without removing it (SIGKILL, a power loss) leaves a stale file: on this host, a pid that
 * is not alive (process.kill(pid, 0) says ESRCH), or alive but started later than the holder
 * (the pid was reused: /proc, where there is one), or our own pid with another token (a
 * container's pid 1 again: a lock of this process is refused before its file is looked at, see
 * heldHere). A stale lock is taken over, never waited on; a lock from another host cannot be
 * checked from here and is refused. Anything at the path that is not a regular file we can
 * read (a directory, a FIFO, a link, another user's file) is refused, never taken over.
 *
 * Taking over is atomic against a second run doing the same: the taker first creates
 * `<lock>.takeover` exclusively, then reads the lock again and removes it only if it is
 * still the very file judged stale, then creates its own exclusively (which a run starting
 * afresh may win: then that one holds it, alive, and this one refuses). A takeover file left
 * by a taker that died is removed once its pid is dead (or it is older than TAKEOVER_STALE_MS),
 * judged and removed in one synchronous step: no other taker of this process can replace it in
 * between, and another process only within the microseconds between two system calls.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, unlinkSync } from 'node:fs';
import { type FileHandle, link, lstat, open, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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

/** A lock file as read: its text (compared before a takeover) and its holder, when readable. */
export interface Seen {
  readonly text: string;
  readonly holder: LockHolder | undefined;
  readonly mtimeMs: number;
  /**
   * Set when the path holds no lock file this program can judge: what is there, as a predicate ("is
   * a directory, not a lock file").
   */
  readonly odd?: string;
}

/** What holdFile did. */
type Attempt =
  | { readonly kind: 'held' }
  | { readonly kind: 'busy'; readonly seen: Seen | undefined }
  /** The directory takes no file (its errno: EACCES, EROFS, ENOENT…): the caller decides. */
  | { readonly kind: 'cannot'; readonly code: string };

/** A lock file whose holder cannot be read (being written, or torn) is stale after this long. */
export const UNREADABLE_STALE_MS = 10_000;
/** A takeover takes milliseconds: a takeover file older than this is left over. */
const TAKEOVER_STALE_MS = 10_000;
/** Rounds of create / judge / take over before giving up (each round ends in a lock or a refusal, but for races). */
const ROUNDS = 5;
/** The largest lock file read: a holder is a few hundred bytes. */
const MAX_LOCK_BYTES = 4096;
/** Errors of an exclusive create that say the directory takes no new file. */
const NO_ROOM = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR']);
/** Errors of link(2) that say the filesystem has no hard links (FAT, some FUSE and network mounts). */
const NO_LINKS = new Set(['EPERM', 'ENOSYS', 'ENOTSUP', 'EOPNOTSUPP']);
/** The end of a draft's name: `<lock>.<12 hex digits>.new` (createExclusive). */
const DRAFT = '.new';
/** A draft's name after `<lock>.`: its own, or its takeover file's. */
const DRAFT_NAME = /^(takeover\.)?[0-9a-f]{12}\.new$/;
/** Open flags that never follow a link, nor block on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Lock files this process holds, or is taking, by absolute path, with their holder. A path is
 * reserved here synchronously, before the first await of holdFile, and freed only after its
 * file is gone: a second run in this process is refused without looking at the file, so it can
 * never read a lock of ours half-made (or half-removed) and judge it stale.
 */
const heldHere = new Map<string, LockHolder>();

/** Takes the lock file at `path` (absolute) for `me`, taking a stale one over (see above). */
export async function holdFile(path: string, me: LockHolder): Promise<Attempt> {
  const here = heldHere.get(path);
  if (here !== undefined) return { kind: 'busy', seen: { text: '', holder: here, mtimeMs: Date.now() } };
  heldHere.set(path, me);
  let held = false;
  try {
    const attempt = await attemptHold(path, me);
    held = attempt.kind === 'held';
    return attempt;
  } finally {
    if (!held) heldHere.delete(path);
  }
}

async function attemptHold(path: string, me: LockHolder): Promise<Attempt> {
  let last: Seen | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const made = await createExclusive(path, me);
    if (made === true) return held(path);
    if (made !== false) return { kind: 'cannot', code: made };
    const seen = await readLock(path);
    if (seen === undefined) continue; // released meanwhile: try again
    last = seen;
    if (seen.odd !== undefined || !isStale(seen, me)) break;
    if (await takeOver(path, seen, me)) return held(path);
    await new Promise((done) => setTimeout(done, 20 * (round + 1)));
  }
  return { kind: 'busy', seen: last };
}

async function held(path: string): Promise<Attempt> {
  await sweepDrafts(path);
  return { kind: 'held' };
}

/** Removes the lock file at `path` if it still holds `token`, then frees the path in this process. */
export async function releaseFile(path: string, token: string): Promise<void> {
  try {
    const seen = await readLock(path);
    if (seen?.holder?.token === token) await unlink(path).catch(() => undefined);
  } finally {
    if (heldHere.get(path)?.token === token) heldHere.delete(path);
  }
}

/** The same, synchronously: on process exit, where nothing asynchronous runs any more. */
export function releaseFileSync(path: string, token: string): void {
  try {
    if (parseHolder(readSmallSync(path)?.text ?? '')?.token === token) unlinkSync(path);
  } catch {
    // Gone already, or unreadable: the next run judges it.
  } finally {
    if (heldHere.get(path)?.token === token) heldHere.delete(path);
  }
}

/**
 * A regular file's first MAX_LOCK_BYTES and its time, read without following a link or blocking;
 * undefined when it is no regular file.
 */
function readSmallSync(path: string): { readonly text: string; readonly mtimeMs: number } | undefined {
  const fd = openSync(path, READ_FLAGS);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0)).toString('utf8');
    return { text, mtimeMs: info.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates `path` exclusively (0600) holding `holder`: true; false when something is there; the
 * errno when the directory takes no file.
 *
 * The holder is written whole into a draft beside it first, then the draft is linked into place
 * (link(2) fails with EEXIST like O_EXCL): a kill at any moment leaves at `path` either nothing
 * or a file naming its holder, never an empty one, which the next run would have to judge as a
 * run starting right now and refuse for UNREADABLE_STALE_MS. A draft left by a kill is swept by
 * the next run that gets the lock (sweepDrafts). Where the filesystem has no hard links, the file
 * is created in place as before.
 */
async function createExclusive(path: string, holder: LockHolder): Promise<boolean | string> {
  // A name of its own (not the pid: runs in containers sharing the directory may share a pid).
  const draft = `${path}.${randomBytes(6).toString('hex')}${DRAFT}`;
  // No draft there (a directory that takes no new file, a name too long): the lock's own name
  // still says whether a lock is there (EEXIST), as before drafts.
  if ((await createWritten(draft, holder, { quiet: true })) !== true) return await createWritten(path, holder);
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') return false;
    // The draft swept away by a run that judged it left over (a stall of TAKEOVER_STALE_MS): again.
    if (code === 'ENOENT') return false;
    if (NO_LINKS.has(code)) return await createWritten(path, holder);
    return code;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/**
 * Creates `path` exclusively (0600) and writes `holder` into it (see createExclusive); `quiet`:
 * any errno of the create is returned, not thrown (a draft's).
 */
async function createWritten(
  path: string,
  holder: LockHolder,
  options: { readonly quiet?: boolean } = {},
): Promise<boolean | string> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') return false;
    if (NO_ROOM.has(code) || options.quiet === true) return code;
    throw new ProvisionError('secrets', `cannot create the lock file ${safeText(path)}: ${code}: nothing was sent`, {
      hint:
        'the secrets file needs a writable directory: ' +
        'give a path in one with --secrets-file or PROVISION_SECRETS_FILE',
    });
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`);
    await handle.datasync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw new ProvisionError(
      'secrets',
      `cannot write the lock file ${safeText(path)}: ${errnoCode(error)}: nothing was sent`,
    );
  }
  await handle.close();
  return true;
}

/**
 * Removes the drafts of the lock at `path` and of its takeover file that runs killed between
 * writing and linking them left (createExclusive), once older than TAKEOVER_STALE_MS: a live
 * run's draft lives for milliseconds. Never throws: litter is no reason to fail a run.
 */
async function sweepDrafts(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  try {
    for (const name of await readdir(dirname(path))) {
      if (!name.startsWith(prefix) || !DRAFT_NAME.test(name.slice(prefix.length))) continue;
      const draft = join(dirname(path), name);
      const info = await lstat(draft).catch(() => undefined);
      if (info?.isFile() === true && Date.now() - info.mtimeMs > TAKEOVER_STALE_MS)
        await unlink(draft).catch(() => undefined);
    }
  } catch {
    // An unreadable directory: the drafts stay, harmless.
  }
}

/**
 * The lock file as it is now, or undefined when there is none. Never follows a link, never
 * blocks on a FIFO, never throws: what is not a regular file it can read is `odd`. (Exported
 * for its test.)
 */
export async function readLock(path: string): Promise<Seen | undefined> {
  const odd = (what: string): Seen => ({ text: '', holder: undefined, mtimeMs: 0, odd: what });
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return undefined;
    return odd(code === 'ELOOP' ? 'is a symbolic link, not a lock file' : `cannot be read (${code})`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      const what = info.isDirectory() ? 'a directory' : info.isFIFO() ? 'a FIFO' : 'a socket or a device';
      return odd(`is ${what}, not a lock file`);
    }
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_LOCK_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return { text, holder: parseHolder(text), mtimeMs: info.mtimeMs };
  } catch (error) {
    return odd(`cannot be read (${errnoCode(error)})`);
  } finally {
    await handle.close().catch(() => undefined);
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

/** Whether the run that holds `seen` is gone (see the module's comment); `me` is the run asking. */
function isStale(seen: Seen, me: LockHolder): boolean {
  const holder = seen.holder;
  if (holder === undefined) return Date.now() - seen.mtimeMs > UNREADABLE_STALE_MS;
  if (holder.host !== hostname()) return false;
  // A run of this process holding it was refused before (heldHere): this is a leftover.
  if (holder.pid === process.pid) return holder.token !== me.token;
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
export function startedOf(pid: number): { readonly started?: number } {
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
 * for its test: the race it closes is too narrow to hit on purpose through holdFile.)
 */
export async function takeOver(path: string, seen: Seen, me: LockHolder): Promise<boolean> {
  const guard = `${path}.takeover`;
  const made = await createExclusive(guard, me);
  if (made !== true) {
    if (made === false) clearLeftOverGuard(guard);
    return false;
  }
  try {
    const now = await readLock(path);
    if (now !== undefined && (now.odd !== undefined || now.text !== seen.text)) return false;
    if (now !== undefined) await unlink(path).catch(() => undefined);
    return (await createExclusive(path, me)) === true;
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/**
 * Removes the takeover file at `guard` if its taker is gone, judged and removed in one
 * synchronous step (no await in between): a live taker's new file is never removed for a dead
 * one's (see the module's comment).
 */
function clearLeftOverGuard(guard: string): void {
  try {
    const read = readSmallSync(guard);
    if (read === undefined) return;
    const other = parseHolder(read.text);
    const leftOver =
      Date.now() - read.mtimeMs > TAKEOVER_STALE_MS ||
      (other !== undefined && other.host === hostname() && !alive(other.pid));
    if (leftOver) unlinkSync(guard);
  } catch {
    // Gone meanwhile, or unreadable: the next round judges it again.
  }
}
