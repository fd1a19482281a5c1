import { constants } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errnoCode, ProvisionError } from '../errors.js';
import { isRecord } from '../util.js';

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
  /**
   * The panel's id of the client; null when the panel's answer lacked one: the password was
   * saved first, and a later record (this run's look-up, or the next run) completes it.
   */
  readonly id: number | null;
}

/**
 * A created record whose password is encrypted to an age recipient (src/secrets/encrypt.ts):
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

/**
 * Closes an intent whose request the panel surely refused (4xx): no client, no password, so a
 * later run must not warn that one was lost. `refused` says why, in the program's own words.
 */
export interface RefusedRecord extends IntentRecord {
  readonly refused: string;
}

/** Where passwords go; the executor awaits each call before the step that depends on it. */
export interface SecretsSink {
  intend(entry: IntentRecord): Promise<void>;
  record(entry: SecretRecord): Promise<void>;
  refused(entry: RefusedRecord): Promise<void>;
}

/** The `intent` of a write-ahead line. */
const INTENT_CREATE_CLIENT = 'create_client';

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
      handle = await open(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    } catch (error) {
      throw errnoCode(error) === 'ELOOP'
        ? notOurs(path, 'is a symbolic link')
        : new ProvisionError('secrets', `cannot open the secrets file ${path}: ${errnoCode(error)}`, {
            hint: 'give a writable path with --secrets-file or PROVISION_SECRETS_FILE',
          });
    }
    const file = new SecretsFile(path, handle);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw notOurs(path, 'is not a regular file');
      const uid = process.getuid?.();
      if (uid !== undefined && info.uid !== uid) throw notOurs(path, `belongs to another user (uid ${info.uid})`);
      if ((info.mode & 0o077) !== 0) {
        throw new ProvisionError('secrets', `the secrets file ${path} can be read by others (mode ${(info.mode & 0o777).toString(8)})`, {
          hint: `restrict it first: chmod 600 ${path}`,
        });
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

  intend(entry: IntentRecord): Promise<void> {
    return this.append({ intent: INTENT_CREATE_CLIENT, ...entry });
  }

  record(entry: SecretRecord | EncryptedSecretRecord): Promise<void> {
    return this.append(entry);
  }

  refused(entry: RefusedRecord): Promise<void> {
    return this.append(entry);
  }

  /** A copy of a record saved without its id (`entry`, as read back), now with `id`. */
  completed(entry: Readonly<Record<string, unknown>>, id: number): Promise<void> {
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
 * One line of the journal, parsed: a write-ahead `intent`, a `created` record (it has an `id`:
 * a password, an encrypted one, or `password: null`), `refused` (closes an intent whose request
 * the panel refused), `other` (an object this version does not
 * know, from a newer one), or `unreadable` (not JSON, or not an object: a line torn by a crash,
 * a hand edit). `line` counts from 1. Fields are checked by whoever uses them: the file is
 * read back after crashes and edits, so nothing in it is trusted to be well formed.
 */
export type JournalLine =
  | { readonly line: number; readonly kind: 'intent' | 'created' | 'refused' | 'other'; readonly entry: Readonly<Record<string, unknown>> }
  | { readonly line: number; readonly kind: 'unreadable'; readonly why: string };

/** The warning for a line parseJournal could not read: where it is, and that it was skipped. */
export function skippedLineWarning(path: string, line: JournalLine & { kind: 'unreadable' }): string {
  return `warning: ${path}:${line.line}: ${line.why}: skipped`;
}

/** The one parser of the secrets journal (JSON Lines): apply, `secrets decrypt` and the tests use it. */
export function parseJournal(text: string): JournalLine[] {
  const lines: JournalLine[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const line = i + 1;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      lines.push({ line, kind: 'unreadable', why: 'not a JSON record (torn by a crash?)' });
      continue;
    }
    if (!isRecord(entry)) lines.push({ line, kind: 'unreadable', why: 'not a JSON object' });
    else if (entry.intent === INTENT_CREATE_CLIENT) lines.push({ line, kind: 'intent', entry });
    else if ('id' in entry) lines.push({ line, kind: 'created', entry });
    else if (typeof entry.refused === 'string') lines.push({ line, kind: 'refused', entry });
    else lines.push({ line, kind: 'other', entry });
  }
  return lines;
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
      hint: code === 'ENOENT' ? 'check the path: a relative path starts from the current directory' : 'check that the file exists and can be read',
    });
  }
  try {
    if (!(await handle.stat()).isFile()) throw notOurs(path, 'is not a regular file');
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof ProvisionError) throw error;
    throw new ProvisionError('secrets', `cannot read the secrets file ${path}: ${errnoCode(error)}`);
  } finally {
    await handle.close();
  }
}

/**
 * Usernames whose POST /clients was announced in the secrets file (write-ahead) for this panel
 * but never answered there: a run was killed while the request was in flight. Those that exist
 * on the panel now were created with a password nobody saw. A missing file has none.
 */
export async function unansweredIntents(path: string, panelUrl: string): Promise<Set<string>> {
  return openIntents(parseJournal(await readJournal(path)), panelUrl);
}

function openIntents(lines: readonly JournalLine[], panelUrl: string): Set<string> {
  const open = new Set<string>();
  for (const line of lines) {
    if (line.kind === 'unreadable' || line.kind === 'other') continue;
    const { entry } = line;
    if (entry.panel_url !== panelUrl || typeof entry.username !== 'string') continue;
    if (line.kind === 'intent') open.add(entry.username);
    else open.delete(entry.username); // answered: created (with or without its password), or refused
  }
  return open;
}

/** A client as the lost-intent recovery needs it (the panel's live record fits). */
export interface ExistingClient {
  readonly username: string;
  readonly id: number;
}

/** A password saved without its client's id (the panel's answer lacked it), and the id the panel lists now. */
export interface IncompleteRecord {
  readonly line: number;
  readonly entry: Readonly<Record<string, unknown>>;
  readonly username: string;
  readonly id: number;
}

/** What a run finds in the journal before it starts: see findLostIntents. */
export interface JournalRepairs {
  /** Clients that exist and whose intent a killed run left open: their passwords were never seen. */
  readonly lost: readonly ExistingClient[];
  /** Passwords saved without their client's id, whose client the panel lists now. */
  readonly incomplete: readonly IncompleteRecord[];
  /** Lines that cannot be read (torn by a crash, edited by hand), for a warning; they never stop a run. */
  readonly skipped: readonly (JournalLine & { kind: 'unreadable' })[];
}

/**
 * What earlier runs left to repair in the journal for this panel, given the clients that exist
 * now. Reads only: name them first, then repairJournal, so a run killed in between names them
 * again rather than never.
 */
export async function findLostIntents(path: string, panelUrl: string, clients: readonly ExistingClient[]): Promise<JournalRepairs> {
  const lines = parseJournal(await readJournal(path));
  const unanswered = openIntents(lines, panelUrl);
  const ids = new Map(clients.map((c) => [c.username, c.id]));
  // The last record without an id per username, unless a later one has the id.
  const waiting = new Map<string, { readonly line: number; readonly entry: Readonly<Record<string, unknown>> }>();
  for (const line of lines) {
    if (line.kind !== 'created' || line.entry.panel_url !== panelUrl || typeof line.entry.username !== 'string') continue;
    const hasPassword = typeof line.entry.password === 'string' || typeof line.entry.password_age === 'string';
    if (line.entry.id === null && hasPassword) waiting.set(line.entry.username, { line: line.line, entry: line.entry });
    else if (Number.isSafeInteger(line.entry.id)) waiting.delete(line.entry.username);
  }
  const incomplete: IncompleteRecord[] = [];
  for (const [username, { line, entry }] of waiting) {
    const id = ids.get(username);
    if (id !== undefined) incomplete.push({ line, entry, username, id });
  }
  return {
    lost: clients.filter((c) => unanswered.has(c.username)),
    incomplete,
    skipped: lines.filter((line): line is JournalLine & { kind: 'unreadable' } => line.kind === 'unreadable'),
  };
}

/**
 * Repairs what findLostIntents found: each lost intent gets one `password: null` record, each
 * incomplete record a copy with its id (the last record for a username is the one that counts).
 */
export async function closeLostIntents(path: string, panelUrl: string, found: Omit<JournalRepairs, 'skipped'>, now: () => Date = () => new Date()): Promise<void> {
  if (found.lost.length === 0 && found.incomplete.length === 0) return;
  const file = await SecretsFile.open(path);
  try {
    for (const client of found.lost) {
      await file.record({ created_at: now().toISOString(), panel_url: panelUrl, username: client.username, id: client.id, password: null });
    }
    for (const record of found.incomplete) await file.completed(record.entry, record.id);
  } finally {
    await file.close();
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
    throw new ProvisionError('secrets', `cannot use the secrets file ${path}: ${errnoCode(error)}`);
  }
  if (info.isSymbolicLink()) throw notOurs(path, 'is a symbolic link');
  if (!info.isFile()) throw notOurs(path, 'is not a regular file');
  return true;
}

function notOurs(path: string, what: string): ProvisionError {
  return new ProvisionError('secrets', `the secrets file ${path} ${what}`, {
    hint: 'passwords are written only to a regular file of your own: give the path of one (it is created, mode 0600, when missing), not a link, pipe, device or directory',
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
