import { type FileHandle, lstat, open, readFile, rename, rm } from 'node:fs/promises';
import { rmSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import { readCapped, type SizeLimit } from './capped-read.js';
import type { Io } from './io.js';
import { atExit } from '../exit-cleanup.js';

export type { SizeLimit } from './capped-read.js';

/**
 * Reading and writing the user's files, each failure a ProvisionError 'io' that names the file
 * and the errno. With manifest-files.ts (a manifest directory's parts), the one place the CLI
 * opens a file; what is in it is parsed by its format's owner (manifest/, plan/, secrets/).
 */

/** The path that means standard input. */
export const STDIN = '-';

/**
 * Names of standard input itself: read from the process's own stream, since opening them by
 * path fails when stdin is a socket (ENXIO: a parent process that spawned this one).
 */
export const STDIN_PATHS = new Set([STDIN, '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/**
 * A file's bytes, read once; `-` (or /dev/stdin) reads standard input to its end. `named`: the
 * file as the error that it cannot be read names it (`the manifest m.yaml` by default). With
 * `limit`, never more than its `maxBytes` + 1 bytes are held.
 */
export async function readBytes(
  path: string,
  io: Io,
  what = 'file',
  named = `the ${what} ${path}`,
  limit?: SizeLimit,
): Promise<Uint8Array> {
  if (STDIN_PATHS.has(path)) {
    if (io.readStdin === undefined)
      throw new ProvisionError('usage', `no standard input to read the ${what} from`, {
        hint: 'give the path of the file',
      });
    const bytes = await io.readStdin(limit?.maxBytes);
    if (limit !== undefined && bytes.length > limit.maxBytes)
      throw limit.refuse(named === `the ${what} ${path}` ? `the ${what} on standard input` : named, undefined);
    return bytes;
  }
  try {
    return limit === undefined ? await readFile(path) : await readCapped(path, named, limit);
  } catch (error) {
    if (error instanceof ProvisionError) throw error; // the limit's refusal
    // Node's message ends with the system call and the path again (", open 'x.yaml'"): keep
    // "ENOENT: no such file or directory" only.
    const reason = error instanceof Error ? error.message.replace(/, \w+( '.*')?$/s, '') : String(error);
    throw new ProvisionError('io', `cannot read ${named}: ${reason}`, {
      hint: readHint(errnoCode(error)),
      meta: pathMeta(path, named),
      cause: error,
    });
  }
}

/**
 * The path as the data of an error (`meta.path`), only where its message names it: the API
 * key file's is not named (it may be the key itself, pasted by mistake: connection.ts).
 */
function pathMeta(path: string, named: string): { path?: string } {
  return named.includes(path) ? { path } : {};
}

/**
 * The first `n` bytes of a regular file (fewer when it is shorter); undefined for standard input
 * and for anything that cannot be opened or is not a regular file (the read proper then says why).
 */
export async function readHead(path: string, n: number): Promise<Uint8Array | undefined> {
  if (STDIN_PATHS.has(path)) return undefined;
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buffer, 0, n, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** A file's text (UTF-8). */
export async function readText(path: string, io: Io, what = 'file', named = `the ${what} ${path}`): Promise<string> {
  return new TextDecoder().decode(await readBytes(path, io, what, named));
}

/**
 * A small file's text, refused past `maxBytes` without reading further (a key file that is a
 * device, a pipe that never ends, a file given by mistake). `named`: the file as an error that
 * it cannot be read names it; a file too large, which exists, is named by its path.
 */
export async function readSmallText(
  path: string,
  io: Io,
  what: string,
  maxBytes: number,
  named = `the ${what} ${path}`,
): Promise<string> {
  if (STDIN_PATHS.has(path)) return readText(path, io, what, named);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return readText(path, io, what, named); // the same error, worded in one place
  }
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes)
        throw new ProvisionError('usage', `the ${what} ${path} holds more than ${maxBytes} bytes: too much for one`, {
          hint: 'give the path of the file that holds it, and nothing else',
        });
    }
    return new TextDecoder().decode(buffer.subarray(0, size));
  } catch (error) {
    if (error instanceof ProvisionError) throw error;
    throw new ProvisionError('io', `cannot read ${named}: ${errnoCode(error)}`, {
      hint: readHint(errnoCode(error)),
      meta: pathMeta(path, named),
      cause: error,
    });
  } finally {
    await handle.close();
  }
}

/** A JSON file's value; its syntax errors are named with the file. */
export async function readJson(path: string, io: Io, what = 'file'): Promise<unknown> {
  const text = await readText(path, io, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProvisionError('io', `the ${what} ${path} is not valid JSON: ${(error as Error).message}`, {
      meta: { path },
    });
  }
}

export function readHint(code: string): string {
  switch (code) {
    case 'ENOENT':
      return 'check the path: a relative path starts from the current directory';
    case 'EISDIR':
      return 'give the file itself, not its directory';
    case 'EACCES':
    case 'EPERM':
      return 'check the file permissions';
    default:
      return 'check that the file exists and can be read';
  }
}

/**
 * Writes to a temporary file beside `path` (an unpredictable name, created exclusively, so a
 * link planted in advance is never followed), then renames it over `path`: a reader never sees
 * half a file. Only a regular file is replaced: a device, a pipe, a directory or a symbolic
 * link at `path` is refused, and nothing is written; so is `-`, which means standard output
 * elsewhere (checkOutPath refuses it where the flag is read; this is the backstop).
 *
 * A replaced file keeps its mode and owner (a 0440 or 0755 manifest, a 0600 file of another
 * user's): the temporary file is made 0600, given the old owner and then the old mode before
 * the rename; when the owner cannot be kept (not root), nothing is written. A new file is
 * 0644 less the umask.
 *
 * `text` is written as given: the run's redaction filter is for what the run prints, not for
 * a document the user asked for (a manifest, a plan), which must hold no credential in the
 * first place (test/e2e/leaks.test.ts) and would no longer parse, or match its hash, with a
 * word blanked.
 *
 * `text` may come in pieces (a plan of a hundred megabytes, made as it is written): each is
 * written as it is taken, and a failure in between (a full disk, a piece that cannot be made)
 * leaves nothing under `path`, as for a text given whole.
 */
export async function writeAtomically(path: string, text: string | Iterable<string>): Promise<void> {
  await (await stageWrite(path, text)).commit();
}

/**
 * Several files written as writeAtomically writes one, all or none as far as a file system
 * allows: every file is written and synced beside its path first (a file that cannot be, its
 * owner or mode that cannot be kept, refuses them all, nothing replaced), then each is renamed
 * into place. Only a rename failing in between (a file made immutable meanwhile) leaves some
 * replaced: the error then names the ones that were.
 */
export async function writeAllAtomically(
  files: readonly {
    readonly path: string;
    readonly text: string;
    /** The bytes the file held when it was read: one that changed since is refused (an edit is never lost). */
    readonly unchangedFrom?: Uint8Array;
  }[],
): Promise<void> {
  const staged: StagedWrite[] = [];
  // What a refusal says of the others: none of them is written either.
  const nothing = files.length > 1 ? 'no file was written' : NOTHING_WRITTEN;
  try {
    for (const { path, text, unchangedFrom } of files) {
      if (unchangedFrom !== undefined) await refuseChanged(path, unchangedFrom, nothing);
      staged.push(await stageWrite(path, text, nothing));
    }
  } catch (error) {
    for (const s of staged) await s.discard();
    throw error;
  }
  const done: string[] = [];
  for (const [i, s] of staged.entries()) {
    try {
      await s.commit();
      done.push(s.path);
    } catch (error) {
      for (const rest of staged.slice(i + 1)) await rest.discard();
      if (done.length === 0 || !(error instanceof ProvisionError)) throw error;
      throw new ProvisionError('io', `${error.message}; already rewritten: ${done.join(', ')}`, {
        hint: 'the files named were replaced whole; fix the cause and run again, which rewrites only what still differs',
        meta: error.meta,
        cause: error,
      });
    }
  }
}

/** The end of a refusal to write one file. */
const NOTHING_WRITTEN = 'nothing was written';

/** Refuses to replace `path` when it no longer holds `bytes` (someone saved it meanwhile). */
async function refuseChanged(path: string, bytes: Uint8Array, nothing: string): Promise<void> {
  const now = await readFile(path).catch(() => undefined);
  if (now !== undefined && Buffer.compare(now, bytes) === 0) return;
  throw new ProvisionError('io', `${path} changed since it was read: ${nothing}`, {
    hint: 'run the command again: it starts from the file as it is now',
    meta: { path },
  });
}

/** A file written and synced beside `path`, not yet in place: commit renames it over `path`, discard removes it. */
interface StagedWrite {
  readonly path: string;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** The first half of writeAtomically: checks, the temporary file written, synced, given the old owner and mode. */
async function stageWrite(
  path: string,
  text: string | Iterable<string>,
  nothing = NOTHING_WRITTEN,
): Promise<StagedWrite> {
  if (path === STDOUT) throw dashRefused();
  const failed = (error: unknown): ProvisionError =>
    error instanceof ProvisionError
      ? error
      : new ProvisionError(
          'io',
          `cannot write ${path}: ${errnoCode(error)}${nothing === NOTHING_WRITTEN ? '' : `: ${nothing}`}`,
          {
            hint: 'check that the directory exists and is writable',
            meta: { path },
            cause: error,
          },
        );
  const existing = await lstat(path).then(
    (info) => info,
    (error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw failed(error);
    },
  );
  const kind = existing === undefined ? undefined : fileKind(existing);
  if (kind !== undefined) {
    throw new ProvisionError('io', `${path} is ${kind}, not a regular file: ${nothing}`, {
      hint: 'give the path of a regular file (it is created when missing)',
      meta: { path },
    });
  }
  // node:crypto at the first write, not at start-up: most runs write no file.
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  // However the process ends before the temporary file is renamed or removed, it is removed.
  const forget = atExit(() => {
    rmSync(temp, { force: true });
  });
  const discard = async (): Promise<void> => {
    await rm(temp, { force: true }).catch(() => undefined);
    forget();
  };
  let created = false;
  try {
    const handle = await open(temp, 'wx', existing === undefined ? 0o644 : 0o600);
    created = true;
    try {
      if (typeof text === 'string') await handle.writeFile(text);
      else for (const piece of text) await writeAll(handle, Buffer.from(piece));
      if (existing !== undefined) await keepOwnerAndMode(handle, existing, path, nothing);
      // On disk before the rename: a crash after it never leaves an empty or partial file.
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (created) await discard();
    else forget();
    throw failed(error);
  }
  return {
    path,
    discard,
    commit: async () => {
      try {
        await rename(temp, path);
        forget();
      } catch (error) {
        await discard();
        throw failed(error);
      }
    },
  };
}

/** All of `bytes` at the file's current end (a write may take part of them). */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await handle.write(bytes, at)).bytesWritten;
}

/** What a path that is not a regular file is, for the refusal; undefined for a regular file. */
export function fileKind(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Gives the open temporary file `old`'s owner, then its mode (in that order: a change of owner
 * clears the set-user-ID and set-group-ID bits). The owner is changed only where it differs
 * from the new file's: a user who owns the file rewrites it without privileges.
 */
async function keepOwnerAndMode(handle: FileHandle, old: Stats, path: string, nothing: string): Promise<void> {
  const made = await handle.stat();
  if (made.uid !== old.uid || made.gid !== old.gid) {
    try {
      await handle.chown(old.uid, old.gid);
    } catch (error) {
      // The file's owner may give it only a group they are in: say which of the two is the trouble.
      const ours = made.uid === old.uid;
      const what = ours
        ? `the group of ${path} (group ${old.gid})`
        : `the owner of ${path} (user ${old.uid}, group ${old.gid})`;
      throw new ProvisionError('io', `cannot keep ${what}: ${errnoCode(error)}: ${nothing}`, {
        hint: ours
          ? "change the file's group to one of yours (chgrp), or give the path of a new file"
          : "run as the file's owner (or root), or give the path of a new file",
        meta: { path },
        cause: error,
      });
    }
  }
  await handle.chmod(old.mode & 0o7777);
}

/** `-` as the path of a file to write. */
const STDOUT = '-';

/**
 * The refusal of `-` as a file to write (`plan --out -` made a file named "-"). `flag` and
 * `hint`: the flag that took it, and how the command prints its document on stdout instead.
 */
function dashRefused(flag?: string, hint?: string): ProvisionError {
  return new ProvisionError(
    'usage',
    `${flag === undefined ? 'a file to write needs' : `${flag} takes`} a file path, ` +
      "not '-' (standard output): nothing was written",
    { hint: `${hint === undefined ? '' : `${hint}; `}for a file named -, give ./-` },
  );
}

/**
 * `value` of an output flag (`--out FILE`), refused as `-` before the command reads or sends
 * anything: `-` is standard output by convention, and a file named `-` is never what was meant.
 * `stdoutHint` says how the command prints its document on stdout instead.
 */
export function checkOutPath<T extends string | undefined>(value: T, flag: string, stdoutHint: string): T {
  if (value === STDOUT) throw dashRefused(flag, stdoutHint);
  return value;
}
