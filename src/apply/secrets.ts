import { execFile } from 'node:child_process';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ProvisionError } from '../errors.js';

/** One line of the secrets file (JSON Lines). The only place a password is ever written. */
export interface SecretRecord {
  readonly created_at: string;
  readonly panel_url: string;
  readonly username: string;
  readonly id: number;
  readonly password: string;
}

/** Where passwords go; the executor awaits `record` before anything depends on the client. */
export interface SecretsSink {
  record(entry: SecretRecord): Promise<void>;
}

/**
 * An append-only JSON Lines file, created with mode 0600. Each record is written and flushed
 * to disk (fdatasync) before `record` resolves, so a password is never only in memory. A file
 * that others can read is refused rather than appended to.
 */
export class SecretsFile implements SecretsSink {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /** Opens (or creates) the file before any request is sent, so a bad path fails early. */
  static async open(path: string): Promise<SecretsFile> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'a', 0o600);
    } catch (error) {
      throw new ProvisionError('secrets', `cannot open the secrets file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
        hint: 'give a writable path with --secrets-file or PROVISION_SECRETS_FILE',
      });
    }
    const { mode } = await handle.stat();
    if ((mode & 0o077) !== 0) {
      await handle.close();
      throw new ProvisionError('secrets', `the secrets file ${path} can be read by others (mode ${(mode & 0o777).toString(8)})`, {
        hint: `restrict it first: chmod 600 ${path}`,
      });
    }
    return new SecretsFile(path, handle);
  }

  async record(entry: SecretRecord): Promise<void> {
    await this.handle.appendFile(`${JSON.stringify(entry)}\n`);
    await this.handle.datasync();
  }

  async close(): Promise<void> {
    await this.handle.close();
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
