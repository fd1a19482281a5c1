/**
 * What a run repairs in the journal before it starts, from what an earlier, interrupted run
 * left: a create announced (write-ahead) but never answered in the file, whose thing exists
 * now; a password saved before its thing's id was known. Every thing with a password alike,
 * by (kind, name): a client, and the kinds after it.
 */
import { readJournal, SecretsFile } from './file.js';
import {
  type Entry,
  type EntryLine,
  hasPending,
  holderOf,
  isCreateIntent,
  type JournalLine,
  parseJournal,
  passwordStates,
  secretRef,
  type UnreadableLine,
} from './journal.js';
import { type Existing, existingSecret, type ExistingSecret, type SecretName, secretArg, secretKind } from './kinds.js';

/** The key of a thing in the maps here: `client:alice` (a change id's form). */
function keyOf(kind: string, name: string): string {
  return `${kind}:${name}`;
}

/** A thing named by a key of keyOf; undefined for a kind this version has no password for (a newer one's). */
function nameOf(key: string): SecretName | undefined {
  const colon = key.indexOf(':');
  const kind = secretKind(key.slice(0, colon));
  return kind === undefined ? undefined : { kind: kind.name, name: key.slice(colon + 1) };
}

/**
 * Things (`[KIND:]NAME`: a bare name is a client's username) whose create was announced in the
 * secrets file (write-ahead) for this panel but never answered there: a run was killed while
 * the request was in flight. Those that exist on the panel now were created by that request. A
 * missing file has none.
 */
export async function unansweredIntents(path: string, panelUrl: string): Promise<Set<string>> {
  return new Set(
    [...unanswered(parseJournal(await readJournal(path)), panelUrl).keys()].flatMap((key) => {
      const thing = nameOf(key);
      return thing === undefined ? [] : [secretArg(thing.kind, thing.name)];
    }),
  );
}

/** The unanswered create intents of each thing of this panel by keyOf, oldest first (things with none left out). */
function unanswered(lines: readonly JournalLine[], panelUrl: string): Map<string, EntryLine[]> {
  const open = new Map<string, EntryLine[]>();
  for (const state of passwordStates(lines).values()) {
    const creates = state.open.filter((intent) => isCreateIntent(intent.entry));
    if (state.panelUrl === panelUrl && creates.length > 0) open.set(keyOf(state.kind, state.name), creates);
  }
  return open;
}

/** The open reset intents with a pending password of each thing of this panel by keyOf (things with none left out). */
function pendingResetsOf(lines: readonly JournalLine[], panelUrl: string): Map<string, EntryLine[]> {
  const open = new Map<string, EntryLine[]>();
  for (const state of passwordStates(lines).values()) {
    const resets = state.open.filter((i) => i.entry.intent === 'reset_password' && hasPending(i.entry));
    if (state.panelUrl === panelUrl && resets.length > 0) open.set(keyOf(state.kind, state.name), resets);
  }
  return open;
}

/** A password record of this panel, with whose it is by keyOf; undefined for another line. */
function passwordOf(line: JournalLine, panelUrl: string): { readonly key: string; readonly entry: Entry } | undefined {
  if (line.kind !== 'password' || line.entry.panel_url !== panelUrl) return undefined;
  const holder = holderOf(line.entry);
  return holder === undefined ? undefined : { key: keyOf(holder.kind, holder.name), entry: line.entry };
}

/**
 * The things of this panel whose standing on the panel the recovery needs (findLostIntents'
 * `existing`): those with a create intent or a reset open, and those whose password was saved
 * without its id. For a run that does not read every thing (the library's executePlan): it
 * looks these up, and passes them as findLostIntents' `lookedUp.names` (by secretArg).
 */
export async function secretsToSettle(path: string, panelUrl: string): Promise<SecretName[]> {
  const lines = parseJournal(await readJournal(path));
  const keys = new Set([...unanswered(lines, panelUrl).keys(), ...pendingResetsOf(lines, panelUrl).keys()]);
  for (const line of lines) {
    const record = passwordOf(line, panelUrl);
    if (record !== undefined && record.entry.id === null) keys.add(record.key);
  }
  return [...keys].flatMap((key) => nameOf(key) ?? []);
}

export type { Existing, ExistingClient, ExistingSecret } from './kinds.js';

/**
 * A thing created by an unanswered create that carried a password written ahead (apply
 * --generate-passwords): the panel holds that password, so it becomes the current one.
 * `pending` is the intent's pending password as written: in clear, or age-encrypted.
 */
interface RecoveredPassword extends ExistingSecret {
  readonly line: number;
  readonly pending: Pending;
}

/** A password saved without its thing's id (the panel's answer lacked it), and the id the panel lists now. */
interface IncompleteRecord extends ExistingSecret {
  readonly line: number;
  readonly entry: Entry;
}

/**
 * An open intent of a thing, where it is in the journal (its last); `pending` when one carries a
 * password written ahead.
 */
interface OpenIntent extends SecretName {
  readonly line: number;
  readonly pending: boolean;
  /** Every open intent of its kind that carries a password written ahead, by line, oldest first. */
  readonly pendingLines: readonly number[];
}

/** A password written ahead on an intent, as written: in clear, or age-encrypted. */
export type Pending = { readonly password: string } | { readonly password_age: string };

/**
 * What a thing's open create intents say, for the run that is about to POST it again
 * (PanelAdapterOptions.unsettled): how many there are, when the last was written, and the
 * passwords written ahead on them.
 */
export interface EarlierCreates {
  /** Open create intents of the thing. */
  readonly count: number;
  /** When the last one was written (its `at`, epoch ms); undefined when it cannot be read. */
  readonly lastAt: number | undefined;
  /** The pending passwords of those intents, oldest first (one per intent that carries one). */
  readonly pending: readonly Pending[];
  /**
   * The names of the things of its kind the journal holds any record of, for this panel (itself
   * included): where the panel may name a thing itself, one it lists under another name is this
   * create's only if the journal does not know it (apply/panel-named.ts).
   */
  readonly known?: ReadonlySet<string>;
}

/** An open create of a thing the panel does not list (yet), with what apply needs to settle it. */
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
interface AmbiguousCreate extends ExistingSecret {
  /** The lines of the intents that carried a password written ahead, oldest first. */
  readonly pendingLines: readonly number[];
}

/** A reset whose outcome is unknown, of a thing the panel no longer has: nothing is left to settle. */
interface GoneReset extends SecretName {
  readonly line: number;
  readonly intentId: string;
}

/**
 * What the run read of the things with a password, said per kind: which things missing from
 * `existing` the panel has not got. A thing of a kind not read whole and not looked up by name
 * is never judged gone (its reset stays open, to a run that reads it).
 */
export interface LookedUp {
  /** The kinds (journal names) whose every thing on the panel is in `existing`: apply reads every client. */
  readonly every?: readonly string[];
  /** The things looked up one by one, as `[KIND:]NAME` (secretArg: a client by its username). */
  readonly names?: readonly string[];
}

/**
 * Whether a thing missing from what the run found is gone from the panel: only when its kind was
 * read whole, or it was looked up by name.
 */
export function lookedUpAndMissing(lookedUp: LookedUp, kind: string, name: string): boolean {
  return (lookedUp.every ?? []).includes(kind) || (lookedUp.names ?? []).includes(secretArg(kind, name));
}

/** What a run finds in the journal before it starts: see findLostIntents. */
interface JournalRepairs {
  /**
   * Clients that exist and whose create intent a killed run left open without a password written
   * ahead: their passwords were never seen. Left open: apply gives each a new one.
   */
  readonly lost: readonly ExistingSecret[];
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
  existing: readonly Existing[],
  lookedUp: LookedUp = {},
): Promise<JournalRepairs> {
  const lines = parseJournal(await readJournal(path));
  const open = unanswered(lines, panelUrl);
  const things = existing.map(existingSecret);
  const ids = new Map(things.map((t) => [keyOf(t.kind, t.name), t.id]));
  // The last record without an id per thing, unless a later one has the id.
  const waiting = new Map<string, EntryLine>();
  for (const line of lines) {
    const record = passwordOf(line, panelUrl);
    if (record === undefined) continue;
    const { key, entry } = record;
    const hasPassword = typeof entry.password === 'string' || typeof entry.password_age === 'string';
    if (entry.id === null && hasPassword) waiting.set(key, { line: line.line, entry });
    else if (Number.isSafeInteger(entry.id)) waiting.delete(key);
  }
  const incomplete: IncompleteRecord[] = [];
  for (const [key, { line, entry }] of waiting) {
    const id = ids.get(key);
    const thing = nameOf(key);
    if (id !== undefined && thing !== undefined) incomplete.push({ line, entry, ...thing, id });
  }
  const lost: ExistingSecret[] = [];
  const recovered: RecoveredPassword[] = [];
  const ambiguous: AmbiguousCreate[] = [];
  const resets = pendingResetsOf(lines, panelUrl);
  for (const thing of things) {
    const key = keyOf(thing.kind, thing.name);
    const creates = open.get(key);
    if (creates === undefined) continue;
    // A reset left open beside the create (apply's own, after an adoption): it may have landed too.
    const setters = [...creates, ...(resets.get(key) ?? [])].sort((a, b) => a.line - b.line);
    const pendingLines = setters.filter((i) => hasPending(i.entry)).map((i) => i.line);
    // Two open requests: which one landed is unknown, and so is the password, unless each
    // carried the same one in clear (apply sends an earlier run's pending password again).
    const only = setters.length === 1 ? setters[0] : sameInClear(setters);
    const pending = only === undefined ? undefined : pendingOf(only.entry);
    if (pendingLines.length === 0) lost.push(thing);
    else if (only === undefined || pending === undefined) ambiguous.push({ ...thing, pendingLines });
    else recovered.push({ ...thing, line: only.line, pending });
  }
  const unsettled: UnsettledCreate[] = [];
  const known = knownNames(lines, panelUrl);
  for (const [key, creates] of open) {
    const thing = nameOf(key);
    if (ids.has(key) || thing === undefined) continue;
    const pendingLines = creates.filter((i) => hasPending(i.entry)).map((i) => i.line);
    const last = creates.at(-1);
    const at = typeof last?.entry.at === 'string' ? Date.parse(last.entry.at) : Number.NaN;
    unsettled.push({
      ...thing,
      line: last?.line ?? 0,
      pending: pendingLines.length > 0,
      pendingLines,
      creates: {
        count: creates.length,
        lastAt: Number.isFinite(at) ? at : undefined,
        pending: creates.flatMap((i) => pendingOf(i.entry) ?? []),
        known: known.get(thing.kind) ?? new Set(),
      },
    });
  }
  const gone = (thing: SecretName): boolean =>
    !ids.has(keyOf(thing.kind, thing.name)) && lookedUpAndMissing(lookedUp, thing.kind, thing.name);
  const pendingResets: OpenIntent[] = [];
  const goneResets: GoneReset[] = [];
  for (const [key, resets] of pendingResetsOf(lines, panelUrl)) {
    const thing = nameOf(key);
    if (thing === undefined) continue;
    const line = resets.at(-1)?.line ?? 0;
    // A thing with a create open too is settled above (ambiguous: a new password for it).
    if (open.has(key) && ids.has(key)) continue;
    if (!gone(thing)) pendingResets.push({ ...thing, line, pending: true, pendingLines: resets.map((i) => i.line) });
    // One without intent_id (an older version) cannot be closed alone: it is left, unsaid.
    else
      for (const intent of resets)
        if (typeof intent.entry.intent_id === 'string')
          goneResets.push({ ...thing, line: intent.line, intentId: intent.entry.intent_id });
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

/** The names the journal holds any record of for this panel, by kind. */
function knownNames(lines: readonly JournalLine[], panelUrl: string): Map<string, Set<string>> {
  const known = new Map<string, Set<string>>();
  for (const state of passwordStates(lines).values()) {
    if (state.panelUrl !== panelUrl) continue;
    const names = known.get(state.kind) ?? new Set<string>();
    known.set(state.kind, names.add(state.name));
  }
  return known;
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
        ...secretRef(panelUrl, client.kind, client.name),
        id: client.id,
        ...client.pending,
      });
    }
    for (const record of found.incomplete) await file.completed(record.entry, record.id);
    for (const reset of goneResets) {
      await file.refused({
        at: now().toISOString(),
        ...secretRef(panelUrl, reset.kind, reset.name),
        intent_id: reset.intentId,
        refused: `the ${secretKind(reset.kind)?.noun.one ?? reset.kind} is gone: the panel no longer has it`,
      });
    }
  } finally {
    await file.close();
  }
}
