import { execFile } from 'node:child_process';
import { type FileHandle, open, readFile, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ProvisionError } from '../errors.js';

/**
 * A line of the secrets file (JSON Lines) saying a client was created. The only place a
 * password is ever written. `password` is null when it is unknown (the client was adopted
 * after its answer was lost): the user must set a new one in the panel.
 */
export interface SecretRecord extends CreatedRecord {
  readonly password: string | null;
}

/** What every "created" line holds beside its password. */
export interface CreatedRecord {
  readonly created_at: string;
  readonly panel_url: string;
  readonly username: string;
  readonly id: number;
}

/**
 * A created record whose password is encrypted to an age recipient (src/apply/encrypt.ts):
 * `password_age` holds the armored ciphertext, and there is no `password`.
 */
export interface EncryptedSecretRecord extends CreatedRecord {
  readonly password_age: string;
}

/** A line written before a POST /clients leaves (write-ahead), so a killed run leaves a trace. */
export interface IntentRecord {
  readonly at: string;
  readonly panel_url: string;
  readonly username: string;
}

/** Where passwords go; the executor awaits each call before the step that depends on it. */
export interface SecretsSink {
  intend(entry: IntentRecord): Promise<void>;
  record(entry: SecretRecord): Promise<void>;
}

interface Queued {
  readonly line: string;
  readonly done: (error?: unknown) => void;
}

/**
 * An append-only JSON Lines file, created with mode 0600. Every line is flushed to disk
 * (fdatasync) before its call resolves; lines that arrive while a flush runs share the next
 * one (group commit), so a burst of creates costs few flushes. A file that others can read is
 * refused rather than appended to.
 */
export class SecretsFile implements SecretsSink {
  private queue: Queued[] = [];
  private flushing = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /** Opens (or creates) the file before any request is sent, so a bad path fails early. */
  static async open(path: string): Promise<SecretsFile> {
    const existing = await regularFileOrNothing(path);
    let handle: FileHandle;
    try {
      handle = await open(path, 'a+', 0o600);
    } catch (error) {
      throw new ProvisionError('secrets', `cannot open the secrets file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
        hint: 'give a writable path with --secrets-file or PROVISION_SECRETS_FILE',
      });
    }
    const { mode, size } = await handle.stat();
    if ((mode & 0o077) !== 0) {
      await handle.close();
      throw new ProvisionError('secrets', `the secrets file ${path} can be read by others (mode ${(mode & 0o777).toString(8)})`, {
        hint: `restrict it first: chmod 600 ${path}`,
      });
    }
    // A run killed mid-write can leave a last line without its newline: end it, so the next
    // record starts a line of its own instead of being glued to (and lost with) the torn one.
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await handle.appendFile('\n');
    }
    // A new file's directory entry is flushed too, so the file itself survives a power loss.
    if (!existing) await syncDirectory(dirname(resolve(path)));
    return new SecretsFile(path, handle);
  }

  intend(entry: IntentRecord): Promise<void> {
    return this.append({ intent: 'create_client', ...entry });
  }

  record(entry: SecretRecord | EncryptedSecretRecord): Promise<void> {
    return this.append(entry);
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
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let failure: unknown;
      try {
        await this.handle.appendFile(batch.map((q) => q.line).join(''));
        await this.handle.datasync();
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
 * Usernames whose POST /clients was announced in the secrets file (write-ahead) for this panel
 * but never answered there: a run was killed while the request was in flight. Those that exist
 * on the panel now were created with a password nobody saw. A missing file has none.
 */
export async function unansweredIntents(path: string, panelUrl: string): Promise<Set<string>> {
  if (!(await regularFileOrNothing(path))) return new Set();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw new ProvisionError('secrets', `cannot read the secrets file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const open = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a line torn by a crash mid-write: nothing to learn from it
    }
    if (entry.panel_url !== panelUrl || typeof entry.username !== 'string') continue;
    if (entry.intent === 'create_client') open.add(entry.username);
    else if ('id' in entry) open.delete(entry.username);
  }
  return open;
}

/**
 * true when `path` is a regular file, false when nothing is there; refuses anything else (a
 * pipe, a device, a directory): passwords must land in a file that stays, and reading a pipe
 * for old records would never end.
 */
async function regularFileOrNothing(path: string): Promise<boolean> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ProvisionError('secrets', `cannot use the secrets file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (!info.isFile()) {
    throw new ProvisionError('secrets', `the secrets file ${path} is not a regular file`, { hint: 'give the path of a file (it is created when missing), not a pipe, device or directory' });
  }
  return true;
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A warning when `path` lies in a git work tree and git does not ignore it: one `git add -A`
 * would commit passwords. Undefined when it is ignored, outside a work tree, or git is absent.
 */
export async function secretsGitWarning(path: string): Promise<string | undefined> {
  const absolute = resolve(path);
  const status = await new Promise<number | undefined>((done) => {
    execFile('git', ['check-ignore', '-q', '--', basename(absolute)], { cwd: dirname(absolute) }, (error) => {
      if (error === null) done(0);
      else done(typeof error.code === 'number' ? error.code : undefined);
    });
  });
  // 0: ignored; 1: in a work tree and not ignored; 128 or no git: not our concern.
  return status === 1
    ? `the secrets file ${path} is inside a git work tree and not ignored: add it to .gitignore so passwords are never committed`
    : undefined;
}
