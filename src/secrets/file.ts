/**
 * The secrets journal on disk: an append-only JSON Lines file of our own (secrets/journal.ts
 * says what its records mean), and the one reader of it.
 */
import { constants } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import type {
  EncryptedIntentRecord,
  EncryptedSecretRecord,
  Entry,
  IntentRecord,
  RefusedRecord,
  SecretRecord,
  SecretsSink,
} from './journal.js';

interface Queued {
  readonly line: string;
  readonly done: (error?: unknown) => void;
}

/**
 * An append-only JSON Lines file, created with mode 0600. Every line is flushed to disk
 * (fdatasync) before its call resolves; lines that arrive while a flush runs share the next
 * one (group commit), and so do the lines of one turn of the event loop (a flush starts at the
 * turn's end: the intents of the creates an apply starts at once share the first flush rather
 * than the first going alone and the others waiting for two), so a burst of creates costs few
 * flushes. A file that others can read is refused rather than appended to.
 */
export class SecretsFile implements SecretsSink {
  private queue: Queued[] = [];
  private flushing = false;
  /** A write failed: the file may end in a torn line, checked before the next one. */
  private suspect = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Opens (or creates) the file before any request is sent, so a bad path fails early. It must
   * be ours alone: a regular file (a symbolic link is not followed: the passwords would go to
   * its target), owned by the user running the tool, readable by nobody else.
   */
  static async open(path: string): Promise<SecretsFile> {
    const existing = await regularFileOrNothing(path);
    let handle: FileHandle;
    try {
      // O_NOFOLLOW: a link planted after the check above is refused by the kernel (ELOOP).
      handle = await open(
        path,
        constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
    } catch (error) {
      throw errnoCode(error) === 'ELOOP'
        ? notOurs(path, 'is a symbolic link')
        : new ProvisionError('secrets', `cannot open the secrets file ${path}: ${errnoCode(error)}`, {
            hint: 'give a writable path with --secrets-file or PROVISION_SECRETS_FILE',
            meta: { path },
            cause: error,
          });
    }
    const file = new SecretsFile(path, handle);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw notOurs(path, 'is not a regular file');
      const uid = process.getuid?.();
      if (uid !== undefined && info.uid !== uid) throw notOurs(path, `belongs to another user (uid ${info.uid})`);
      if ((info.mode & 0o077) !== 0) {
        throw new ProvisionError(
          'secrets',
          `the secrets file ${path} can be read by others (mode ${(info.mode & 0o777).toString(8)})`,
          {
            hint: `restrict it first: chmod 600 ${path}`,
          },
        );
      }
      // A run killed mid-write can leave a last line without its newline: end it, so the next
      // record starts a line of its own instead of being glued to (and lost with) the torn one.
      await file.endTornLine();
      // A new file's directory entry is flushed too, so the file itself survives a power loss.
      if (!existing) await syncDirectory(dirname(resolve(path)));
    } catch (error) {
      await handle.close();
      throw error;
    }
    return file;
  }

  /** Ends a last line that lacks its newline (a crash, or a write that failed halfway). */
  private async endTornLine(): Promise<void> {
    const { size } = await this.handle.stat();
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await this.handle.read(last, 0, 1, size - 1);
    if (last[0] !== 0x0a) await this.handle.appendFile('\n');
  }

  intend(entry: IntentRecord | EncryptedIntentRecord): Promise<void> {
    return this.append(entry);
  }

  record(entry: SecretRecord | EncryptedSecretRecord): Promise<void> {
    return this.append(entry);
  }

  refused(entry: RefusedRecord): Promise<void> {
    return this.append(entry);
  }

  /** A copy of a record saved without its id (`entry`, as read back), now with `id`. */
  completed(entry: Entry, id: number): Promise<void> {
    return this.append({ ...entry, id });
  }

  private append(entry: object): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (error?: unknown): void => {
        if (error === undefined) resolve();
        else reject(error instanceof Error ? error : new Error('the secrets file could not be written'));
      };
      this.queue.push({ line: `${JSON.stringify(entry)}\n`, done });
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    // The other lines of this turn join the first batch (setImmediate runs after the turn's
    // callbacks and promise jobs).
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let failure: unknown;
      try {
        // After a failed write (a full disk, EIO) the file may end halfway through a line:
        // never append to that, or the next record is glued to it and lost with it.
        if (this.suspect) await this.endTornLine();
        this.suspect = true;
        await this.handle.appendFile(batch.map((q) => q.line).join(''));
        await this.handle.datasync();
        this.suspect = false;
      } catch (error) {
        failure = error ?? new Error('write failed');
      }
      for (const q of batch) q.done(failure);
    }
    this.flushing = false;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/**
 * The journal's text, for every reader of it (apply, `secrets decrypt`): '' when the file does
 * not exist, unless `required` (then that is an error). Opened without following a symbolic
 * link (O_NOFOLLOW) nor waiting on a pipe (O_NONBLOCK), then refused unless it is a regular
 * file: the same file is checked as it is read, so nothing swapped in between is read.
 */
export async function readJournal(path: string, options: { readonly required?: boolean } = {}): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' && options.required !== true) return '';
    if (code === 'ELOOP') throw notOurs(path, 'is a symbolic link');
    throw new ProvisionError('secrets', `cannot read the secrets file ${path}: ${code}`, {
      hint:
        code === 'ENOENT'
          ? 'check the path: a relative path starts from the current directory'
          : 'check that the file exists and can be read',
      meta: { path },
      cause: error,
    });
  }
  try {
    if (!(await handle.stat()).isFile()) throw notOurs(path, 'is not a regular file');
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof ProvisionError) throw error;
    throw new ProvisionError('secrets', `cannot read the secrets file ${path}: ${errnoCode(error)}`, {
      meta: { path },
      cause: error,
    });
  } finally {
    await handle.close();
  }
}

/**
 * true when `path` is a regular file, false when nothing is there; refuses anything else (a
 * pipe, a device, a directory): passwords must land in a file that stays, and reading a pipe
 * for old records would never end.
 */
async function regularFileOrNothing(path: string): Promise<boolean> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw new ProvisionError('secrets', `cannot use the secrets file ${path}: ${errnoCode(error)}`, {
      meta: { path },
      cause: error,
    });
  }
  if (info.isSymbolicLink()) throw notOurs(path, 'is a symbolic link');
  if (!info.isFile()) throw notOurs(path, 'is not a regular file');
  return true;
}

function notOurs(path: string, what: string): ProvisionError {
  return new ProvisionError('secrets', `the secrets file ${path} ${what}`, {
    meta: { path },
    hint:
      'passwords are written only to a regular file of your own: ' +
      'give the path of one (it is created, mode 0600, when missing), not a link, pipe, device or directory',
  });
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
