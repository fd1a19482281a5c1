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

/** The unanswered create intents of each username of this panel, oldest first (usernames with none left out). */
function unanswered(lines: readonly JournalLine[], panelUrl: string): Map<string, EntryLine[]> {
  const open = new Map<string, EntryLine[]>();
  for (const state of passwordStates(lines).values()) {
    const creates = state.open.filter((intent) => intent.entry.intent === 'create_client');
    if (state.panelUrl === panelUrl && creates.length > 0) open.set(state.username, creates);
  }
  return open;
}

/** The open reset intents with a pending password of each username of this panel (usernames with none left out). */
function pendingResetsOf(lines: readonly JournalLine[], panelUrl: string): Map<string, EntryLine[]> {
  const open = new Map<string, EntryLine[]>();
  for (const state of passwordStates(lines).values()) {
    const resets = state.open.filter((i) => i.entry.intent === 'reset_password' && hasPending(i.entry));
    if (state.panelUrl === panelUrl && resets.length > 0) open.set(state.username, resets);
  }
  return open;
}

/**
 * The usernames of this panel whose standing on the panel the recovery needs (findLostIntents'
 * `clients`): those with a create intent or a reset open, and those whose password was saved
 * without its id. For a run that does not read every client (the library's executePlan): it
 * looks these up, and passes them as findLostIntents' `lookedUp`.
 */
export async function usernamesToSettle(path: string, panelUrl: string): Promise<string[]> {
  const lines = parseJournal(await readJournal(path));
  const names = new Set([...unanswered(lines, panelUrl).keys(), ...pendingResetsOf(lines, panelUrl).keys()]);
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
interface RecoveredPassword extends ExistingClient {
  readonly line: number;
  readonly pending: Pending;
}

/** A password saved without its client's id (the panel's answer lacked it), and the id the panel lists now. */
interface IncompleteRecord {
  readonly line: number;
  readonly entry: Entry;
  readonly username: string;
  readonly id: number;
}

/**
 * An open intent of a client, where it is in the journal (its last); `pending` when one carries a
 * password written ahead.
 */
interface OpenIntent {
  readonly username: string;
  readonly line: number;
  readonly pending: boolean;
  /** Every open intent of its kind that carries a password written ahead, by line, oldest first. */
  readonly pendingLines: readonly number[];
}

/** A password written ahead on an intent, as written: in clear, or age-encrypted. */
export type Pending = { readonly password: string } | { readonly password_age: string };

/**
 * What a client's open create intents say, for the run that is about to POST it again
 * (PanelAdapterOptions.unsettled): how many there are, when the last was written, and the
 * passwords written ahead on them.
 */
export interface EarlierCreates {
  /** Open create intents of the client. */
  readonly count: number;
  /** When the last one was written (its `at`, epoch ms); undefined when it cannot be read. */
  readonly lastAt: number | undefined;
  /** The pending passwords of those intents, oldest first (one per intent that carries one). */
  readonly pending: readonly Pending[];
}

/** An open create of a client the panel does not list (yet), with what apply needs to settle it. */
interface UnsettledCreate extends OpenIntent {
  readonly creates: EarlierCreates;
}

/**
 * A client created by one of several unanswered requests, at least one of which carried a
 * password written ahead (runs that lost their answers one after another; or a create and a
 * reset of the same client): which one landed, and so which password the panel holds, is
 * unknown. Apply (or `secrets reset`) gives it a new one; nothing is recorded until then, so
 * a run stopped first leaves it to the next.
 */
interface AmbiguousCreate extends ExistingClient {
  /** The lines of the intents that carried a password written ahead, oldest first. */
  readonly pendingLines: readonly number[];
}

/** A reset whose outcome is unknown, of a client the panel no longer has: nothing is left to settle. */
interface GoneReset {
  readonly username: string;
  readonly line: number;
  readonly intentId: string;
}

/**
 * Which usernames missing from `clients` the panel has not got: 'every' when `clients` is every
 * client of the panel (apply reads them all), else the usernames that were looked up.
 */
export type LookedUp = 'every' | readonly string[];

/** What a run finds in the journal before it starts: see findLostIntents. */
interface JournalRepairs {
  /**
   * Clients that exist and whose create intent a killed run left open without a password written
   * ahead: their passwords were never seen. Left open: apply gives each a new one.
   */
  readonly lost: readonly ExistingClient[];
  /** The same, with a password written ahead: the panel holds it, so it is recorded as current. */
  readonly recovered: readonly RecoveredPassword[];
  /**
   * The same, but more than one request that set its password was left open (two creates, or a
   * create and a reset): its password is unknown. Left open: apply gives each a new one.
   */
  readonly ambiguous: readonly AmbiguousCreate[];
  /** Passwords saved without their client's id, whose client the panel lists now. */
  readonly incomplete: readonly IncompleteRecord[];
  /**
   * Clients whose create intent is open (an earlier POST's outcome is unknown) and whom the
   * panel does not list (yet): nothing to repair now, but a refusal of this run's POST for one
   * proves nothing about the earlier one, and a password pending on it may be what the panel
   * holds once it lists the client.
   */
  readonly unsettled: readonly UnsettledCreate[];
  /**
   * Clients with a password pending from a `secrets reset` whose outcome is unknown: the panel
   * holds it or the current one.
   */
  readonly pendingResets: readonly OpenIntent[];
  /** The same, of clients the panel no longer has (see LookedUp): closed with a `refused` record. */
  readonly goneResets: readonly GoneReset[];
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
  lookedUp: LookedUp = [],
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
  const ambiguous: AmbiguousCreate[] = [];
  const resets = pendingResetsOf(lines, panelUrl);
  for (const client of clients) {
    const creates = open.get(client.username);
    if (creates === undefined) continue;
    // A reset left open beside the create (apply's own, after an adoption): it may have landed too.
    const setters = [...creates, ...(resets.get(client.username) ?? [])].sort((a, b) => a.line - b.line);
    const pendingLines = setters.filter((i) => hasPending(i.entry)).map((i) => i.line);
    // Two open requests: which one landed is unknown, and so is the password, unless each
    // carried the same one in clear (apply sends an earlier run's pending password again).
    const only = setters.length === 1 ? setters[0] : sameInClear(setters);
    const pending = only === undefined ? undefined : pendingOf(only.entry);
    if (pendingLines.length === 0) lost.push({ username: client.username, id: client.id });
    else if (only === undefined || pending === undefined)
      ambiguous.push({ username: client.username, id: client.id, pendingLines });
    else recovered.push({ username: client.username, id: client.id, line: only.line, pending });
  }
  const unsettled: UnsettledCreate[] = [];
  for (const [username, creates] of open) {
    if (ids.has(username)) continue;
    const pendingLines = creates.filter((i) => hasPending(i.entry)).map((i) => i.line);
    const last = creates.at(-1);
    const at = typeof last?.entry.at === 'string' ? Date.parse(last.entry.at) : Number.NaN;
    unsettled.push({
      username,
      line: last?.line ?? 0,
      pending: pendingLines.length > 0,
      pendingLines,
      creates: {
        count: creates.length,
        lastAt: Number.isFinite(at) ? at : undefined,
        pending: creates.flatMap((i) => pendingOf(i.entry) ?? []),
      },
    });
  }
  const gone = (username: string): boolean =>
    !ids.has(username) && (lookedUp === 'every' || lookedUp.includes(username));
  const pendingResets: OpenIntent[] = [];
  const goneResets: GoneReset[] = [];
  for (const [username, resets] of pendingResetsOf(lines, panelUrl)) {
    const line = resets.at(-1)?.line ?? 0;
    // A client with a create open too is settled above (ambiguous: a new password for it).
    if (open.has(username) && ids.has(username)) continue;
    if (!gone(username)) pendingResets.push({ username, line, pending: true, pendingLines: resets.map((i) => i.line) });
    // One without intent_id (an older version) cannot be closed alone: it is left, unsaid.
    else
      for (const intent of resets)
        if (typeof intent.entry.intent_id === 'string')
          goneResets.push({ username, line: intent.line, intentId: intent.entry.intent_id });
  }
  return {
    lost,
    recovered,
    ambiguous,
    incomplete,
    unsettled,
    pendingResets,
    goneResets,
    skipped: lines.filter((line): line is UnreadableLine => line.kind === 'unreadable'),
  };
}

/** The last of `intents` when every one carries the same pending password in clear; else undefined. */
function sameInClear(intents: readonly EntryLine[]): EntryLine | undefined {
  const [first] = intents;
  const password = first?.entry.pending_password;
  if (typeof password !== 'string') return undefined;
  return intents.every((i) => i.entry.pending_password === password) ? intents.at(-1) : undefined;
}

/** An intent's pending password as written (encrypted ones stay encrypted), or undefined when it has none. */
function pendingOf(entry: Entry): Pending | undefined {
  if (!hasPending(entry)) return undefined;
  return typeof entry.pending_password === 'string'
    ? { password: entry.pending_password }
    : { password_age: String(entry.pending_password_age) };
}

/**
 * Repairs what findLostIntents found: each recovered client a record of its pending password
 * as the password (copied as written: an encrypted one stays encrypted), each incomplete
 * record a copy with its id (the last record for a username is the one that counts), each
 * reset of a client that is gone a `refused` record naming its intent. Lost and ambiguous
 * clients are left open: only a new password settles them (apply, `secrets reset`), and an
 * open intent is what tells the next run so if this one stops first.
 */
export async function closeLostIntents(
  path: string,
  panelUrl: string,
  found: Pick<JournalRepairs, 'recovered' | 'incomplete'> & Partial<Pick<JournalRepairs, 'goneResets'>>,
  now: () => Date = () => new Date(),
): Promise<void> {
  const { goneResets = [] } = found;
  if (found.recovered.length + found.incomplete.length + goneResets.length === 0) return;
  const file = await SecretsFile.open(path);
  try {
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
    for (const reset of goneResets) {
      await file.refused({
        at: now().toISOString(),
        panel_url: panelUrl,
        username: reset.username,
        intent_id: reset.intentId,
        refused: 'the client is gone: the panel no longer has it',
      });
    }
  } finally {
    await file.close();
  }
}
