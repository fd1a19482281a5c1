/**
 * What a run repairs in the journal before it starts, from what an earlier, interrupted run
 * left: a POST /clients announced (write-ahead) but never answered in the file, whose client
 * exists now; a password saved before its client's id was known.
 */
import { readJournal, SecretsFile } from './file.js';
import {
  type Entry,
  type EntryLine,
  hasPending,
  type JournalLine,
  parseJournal,
  passwordStates,
  type UnreadableLine,
} from './journal.js';

/**
 * Usernames whose POST /clients was announced in the secrets file (write-ahead) for this panel
 * but never answered there: a run was killed while the request was in flight. Those that exist
 * on the panel now were created by that request. A missing file has none.
 */
export async function unansweredIntents(path: string, panelUrl: string): Promise<Set<string>> {
  return new Set(unanswered(parseJournal(await readJournal(path)), panelUrl).keys());
}

/** The unanswered create intent of each username of this panel. */
function unanswered(lines: readonly JournalLine[], panelUrl: string): Map<string, EntryLine> {
  const open = new Map<string, EntryLine>();
  for (const state of passwordStates(lines).values()) {
    if (state.panelUrl === panelUrl && state.unansweredCreate !== undefined)
      open.set(state.username, state.unansweredCreate);
  }
  return open;
}

/**
 * The usernames of this panel whose standing on the panel the recovery needs (findLostIntents'
 * `clients`): those with a create intent open, and those whose password was saved without its
 * id. For a run that does not read every client (the library's executePlan): it looks these up.
 */
export async function usernamesToSettle(path: string, panelUrl: string): Promise<string[]> {
  const lines = parseJournal(await readJournal(path));
  const names = new Set(unanswered(lines, panelUrl).keys());
  for (const line of lines) {
    if (line.kind !== 'password' || line.entry.panel_url !== panelUrl || typeof line.entry.username !== 'string')
      continue;
    if (line.entry.id === null) names.add(line.entry.username);
  }
  return [...names];
}

/** A client as the recovery needs it (the panel's live record fits). */
export interface ExistingClient {
  readonly username: string;
  readonly id: number;
}

/**
 * A client created by an unanswered POST that carried a password written ahead (apply
 * --generate-passwords): the panel holds that password, so it becomes the current one.
 * `pending` is the intent's pending password as written: in clear, or age-encrypted.
 */
export interface RecoveredPassword extends ExistingClient {
  readonly line: number;
  readonly pending: { readonly password: string } | { readonly password_age: string };
}

/** A password saved without its client's id (the panel's answer lacked it), and the id the panel lists now. */
export interface IncompleteRecord {
  readonly line: number;
  readonly entry: Entry;
  readonly username: string;
  readonly id: number;
}

/** An open intent of a client, where it is in the journal; `pending` when it carries a password written ahead. */
export interface OpenIntent {
  readonly username: string;
  readonly line: number;
  readonly pending: boolean;
}

/** What a run finds in the journal before it starts: see findLostIntents. */
export interface JournalRepairs {
  /** Clients that exist and whose create intent a killed run left open without a password written ahead: their passwords were never seen. */
  readonly lost: readonly ExistingClient[];
  /** The same, with a password written ahead: the panel holds it, so it is recorded as current. */
  readonly recovered: readonly RecoveredPassword[];
  /** Passwords saved without their client's id, whose client the panel lists now. */
  readonly incomplete: readonly IncompleteRecord[];
  /**
   * Clients whose create intent is open (an earlier POST's outcome is unknown) and whom the
   * panel does not list (yet): nothing to repair now, but a refusal of this run's POST for one
   * proves nothing about the earlier one, and a password pending on it may be what the panel
   * holds once it lists the client.
   */
  readonly unsettled: readonly OpenIntent[];
  /** Clients with a password pending from a `secrets reset` whose outcome is unknown: the panel holds it or the current one. */
  readonly pendingResets: readonly OpenIntent[];
  /** Lines that cannot be read (torn by a crash, edited by hand), for a warning; they never stop a run. */
  readonly skipped: readonly UnreadableLine[];
}

/**
 * What earlier runs left to repair in the journal for this panel, given the clients that exist
 * now (a run passes every live client; `secrets reset` the ones it names). Reads only: name
 * them first, then closeLostIntents, so a run killed in between names them again rather than
 * never. A client whose create intent is open and who exists was created by that request (the
 * plan that sent it saw no such client); when the intent carries a pending password, the panel
 * holds it. That reading is sound only under the secrets file's lock (secrets/lock.ts): without
 * it, another run's POST could have created the client meanwhile, with its own password.
 */
export async function findLostIntents(
  path: string,
  panelUrl: string,
  clients: readonly ExistingClient[],
): Promise<JournalRepairs> {
  const lines = parseJournal(await readJournal(path));
  const open = unanswered(lines, panelUrl);
  const ids = new Map(clients.map((c) => [c.username, c.id]));
  // The last record without an id per username, unless a later one has the id.
  const waiting = new Map<string, EntryLine>();
  for (const line of lines) {
    if (line.kind !== 'password' || line.entry.panel_url !== panelUrl || typeof line.entry.username !== 'string')
      continue;
    const hasPassword = typeof line.entry.password === 'string' || typeof line.entry.password_age === 'string';
    if (line.entry.id === null && hasPassword) waiting.set(line.entry.username, { line: line.line, entry: line.entry });
    else if (Number.isSafeInteger(line.entry.id)) waiting.delete(line.entry.username);
  }
  const incomplete: IncompleteRecord[] = [];
  for (const [username, { line, entry }] of waiting) {
    const id = ids.get(username);
    if (id !== undefined) incomplete.push({ line, entry, username, id });
  }
  const lost: ExistingClient[] = [];
  const recovered: RecoveredPassword[] = [];
  for (const client of clients) {
    const intent = open.get(client.username);
    if (intent === undefined) continue;
    const pending = pendingOf(intent.entry);
    if (pending === undefined) lost.push({ username: client.username, id: client.id });
    else recovered.push({ username: client.username, id: client.id, line: intent.line, pending });
  }
  const unsettled: OpenIntent[] = [];
  for (const [username, intent] of open) {
    if (!ids.has(username)) unsettled.push({ username, line: intent.line, pending: hasPending(intent.entry) });
  }
  const pendingResets: OpenIntent[] = [];
  for (const state of passwordStates(lines).values()) {
    const intent = state.pending;
    if (state.panelUrl === panelUrl && intent !== undefined && intent.entry.intent === 'reset_password')
      pendingResets.push({ username: state.username, line: intent.line, pending: true });
  }
  return {
    lost,
    recovered,
    incomplete,
    unsettled,
    pendingResets,
    skipped: lines.filter((line): line is UnreadableLine => line.kind === 'unreadable'),
  };
}

/** An intent's pending password as written (encrypted ones stay encrypted), or undefined when it has none. */
function pendingOf(entry: Entry): RecoveredPassword['pending'] | undefined {
  if (!hasPending(entry)) return undefined;
  return typeof entry.pending_password === 'string'
    ? { password: entry.pending_password }
    : { password_age: String(entry.pending_password_age) };
}

/**
 * Repairs what findLostIntents found: each lost intent gets one `password: null` record, each
 * recovered one a record of its pending password as the password (copied as written: an
 * encrypted one stays encrypted), each incomplete record a copy with its id (the last record
 * for a username is the one that counts).
 */
export async function closeLostIntents(
  path: string,
  panelUrl: string,
  found: Pick<JournalRepairs, 'lost' | 'recovered' | 'incomplete'>,
  now: () => Date = () => new Date(),
): Promise<void> {
  if (found.lost.length === 0 && found.recovered.length === 0 && found.incomplete.length === 0) return;
  const file = await SecretsFile.open(path);
  try {
    for (const client of found.lost) {
      await file.record({
        created_at: now().toISOString(),
        panel_url: panelUrl,
        username: client.username,
        id: client.id,
        password: null,
      });
    }
    for (const client of found.recovered) {
      await file.record({
        created_at: now().toISOString(),
        panel_url: panelUrl,
        username: client.username,
        id: client.id,
        ...client.pending,
      });
    }
    for (const record of found.incomplete) await file.completed(record.entry, record.id);
  } finally {
    await file.close();
  }
}
