import { lstat, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import type { Redactions } from '../redact.js';
import type { Io } from './io.js';

/**
 * Reading and writing the user's files, each failure a ProvisionError 'io' that names the file
 * and the errno. The one place the CLI opens a file; what is in it is parsed by its format's
 * owner (manifest/, plan/, secrets/).
 */

/** The path that means standard input. */
export const STDIN = '-';

/**
 * Names of standard input itself: read from the process's own stream, since opening them by
 * path fails when stdin is a socket (ENXIO: a parent process that spawned this one).
 */
const STDIN_PATHS = new Set([STDIN, '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** A file's bytes, read once; `-` (or /dev/stdin) reads standard input to its end. */
export async function readBytes(path: string, io: Io, what = 'file'): Promise<Uint8Array> {
  if (STDIN_PATHS.has(path)) {
    if (io.readStdin === undefined)
      throw new ProvisionError('usage', `no standard input to read the ${what} from`, {
        hint: 'give the path of the file',
      });
    return io.readStdin();
  }
  try {
    return await readFile(path);
  } catch (error) {
    // Node's message ends with the system call and the path again (", open 'x.yaml'"): keep
    // "ENOENT: no such file or directory" only.
    const reason = error instanceof Error ? error.message.replace(/, \w+( '.*')?$/s, '') : String(error);
    throw new ProvisionError('io', `cannot read the ${what} ${path}: ${reason}`, {
      hint: readHint(errnoCode(error)),
      cause: error,
    });
  }
}

/** A file's text (UTF-8). */
export async function readText(path: string, io: Io, what = 'file'): Promise<string> {
  return new TextDecoder().decode(await readBytes(path, io, what));
}

/**
 * A small file's text, refused past `maxBytes` without reading further (a key file that is a
 * device, a pipe that never ends, a file given by mistake).
 */
export async function readSmallText(path: string, io: Io, what: string, maxBytes: number): Promise<string> {
  if (STDIN_PATHS.has(path)) return readText(path, io, what);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return readText(path, io, what); // the same error, worded in one place
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
    throw new ProvisionError('io', `cannot read the ${what} ${path}: ${errnoCode(error)}`, {
      hint: readHint(errnoCode(error)),
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
    throw new ProvisionError('io', `the ${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function readHint(code: string): string {
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
 * link at `path` is refused, and nothing is written. `text` passes the run's redaction filter
 * first, as everything the run prints does: a file is output too.
 */
export async function writeAtomically(path: string, text: string, redactions: Redactions): Promise<void> {
  const kind = await lstat(path).then(
    (info) =>
      info.isFile()
        ? undefined
        : info.isSymbolicLink()
          ? 'a symbolic link'
          : info.isDirectory()
            ? 'a directory'
            : info.isFIFO()
              ? 'a pipe (FIFO)'
              : info.isSocket()
                ? 'a socket'
                : 'a device',
    (error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw new ProvisionError('io', `cannot write ${path}: ${errnoCode(error)}`, {
        hint: 'check that the directory exists and is writable',
      });
    },
  );
  if (kind !== undefined) {
    throw new ProvisionError('io', `${path} is ${kind}, not a regular file: nothing was written`, {
      hint: 'give the path of a regular file (it is created when missing)',
    });
  }
  // node:crypto at the first write, not at start-up: most runs write no file.
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, redactions.redact(text), { mode: 0o644, flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new ProvisionError('io', `cannot write ${path}: ${errnoCode(error)}`, {
      hint: 'check that the directory exists and is writable',
    });
  }
}
