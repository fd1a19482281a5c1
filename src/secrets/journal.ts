/**
 * The secrets journal's records and its one parser (JSON Lines, one record per event, each
 * naming whose password it is: `panel_url`, `kind` and `name`). apply, `secrets decrypt`,
 * `secrets reset` and the tests all read it through parseJournal and passwordStates; the file
 * itself is secrets/file.ts, the repairs after an interrupted run secrets/recovery.ts.
 *
 * The contract (docs/passwords.md):
 * - Every record names a thing with a password by (panel_url, kind, name): `kind` is the kind's
 *   journal name (KindSecret.journalKind: `client`, ...), `name` what its kind names it by (a
 *   client's username). A client's records keep `username` too. A record
 *   without `kind` is a client's, named by its `username`: every file older versions wrote
 *   reads as it did.
 * - The last record of a thing that has `password` or `password_age` holds its current
 *   password. `password` appears only where the panel holds that password:
 *   it answered, or a later run found the thing created by the request that carried it, or a
 *   reset set it. `password: null` says the password is unknown (the panel refused the new one
 *   apply tried to set; files from older versions): `secrets reset` repairs it. Open intents
 *   that leave the password undecided are no null: the next apply sets a new one.
 * - A password written ahead of the request that sets it is `pending_password` (or
 *   `pending_password_age`), on an intent record: never current by itself. It is settled by
 *   the next record of its thing with a password (it, another, or null), or by a `refused`
 *   record naming its intent (`intent_id`): that request was refused, and the current
 *   password stays as it was. A refusal settles its own intent only: an older intent whose
 *   outcome is still unknown stays open (its request may have landed: a later 400 "username
 *   in use" is what that looks like). A `refused` record without `intent_id` (older versions
 *   wrote one only when they judged the whole client's history refused, and such files are
 *   still read) settles every intent of its thing before it.
 * - A create's intent is `create_<kind>` (`create_client`), a new password's `reset_password`.
 */
import type { SecretKindName } from '../kinds/kind.js';
import { assertNever, isRecord } from '../util.js';

/** What every record says of whose password it is; a client's keep `username` (= `name`) too. */
export interface SecretRef {
  readonly panel_url: string;
  readonly kind: SecretKindName;
  readonly name: string;
  readonly username?: string;
}

/** Whether `kind` is the client's: its records keep `username`, and a bare name on a command line is one. */
export function isClientKind(kind: string): boolean {
  return kind === 'client';
}

/** The fields naming `name` of `kind` on the panel at `panelUrl`, as every new record writes them. */
export function secretRef(panelUrl: string, kind: SecretKindName, name: string): SecretRef {
  return { panel_url: panelUrl, kind, name, ...(isClientKind(kind) ? { username: name } : {}) };
}

/**
 * Whose password a record read back is about: its `kind` and `name` (a client's record without
 * `name`: its `username`); a record without `kind` is a client's, named by its `username` alone,
 * as older versions read it (a `name` someone added to it changes nothing). Undefined when the
 * record says neither.
 */
export function holderOf(entry: Entry): { readonly kind: string; readonly name: string } | undefined {
  if (entry.kind === undefined)
    return typeof entry.username === 'string' ? { kind: 'client', name: entry.username } : undefined;
  const { kind } = entry;
  if (typeof kind !== 'string') return undefined;
  const name = typeof entry.name === 'string' ? entry.name : isClientKind(kind) ? entry.username : undefined;
  return typeof name === 'string' ? { kind, name } : undefined;
}

/** When a record's password became the thing's: its creation, or a reset. */
type Event =
  | {
      readonly created_at: string;
      /**
       * The panel's id of the thing; null when the panel's answer lacked one: the password
       * was saved first, and a later record (this run's look-up, or the next run) completes it.
       */
      readonly id: number | null;
    }
  | { readonly reset_at: string; readonly id: number };

/**
 * A record that holds a thing's password: the only place a password becomes current. `null`
 * when it is unknown (the panel refused the new password apply tried to set: apply/reset.ts;
 * files from older versions): `provision secrets reset` gives it a new one.
 */
export type SecretRecord = SecretRef & Event & { readonly password: string | null };

/**
 * The same with the password encrypted to an age recipient (src/secrets/encrypt.ts):
 * `password_age` holds the armored ciphertext, and there is no `password`.
 */
export type EncryptedSecretRecord = SecretRef & Event & { readonly password_age: string };

/**
 * What an intent announces: a create (apply: `create_client` for a POST /clients) or a PUT of a
 * password (`secrets reset`, or apply settling an unknown one).
 */
type IntentKind = `create_${SecretKindName}` | 'reset_password';

/** A create's intent for `kind`: `create_client`. */
export function createIntent(kind: string): string {
  return `create_${kind}`;
}

/** Whether an intent announces a create (of its record's kind). */
export function isCreateIntent(entry: Entry): boolean {
  const holder = holderOf(entry);
  return holder !== undefined && entry.intent === createIntent(holder.kind);
}

/**
 * A line written before the request leaves (write-ahead), so a killed run leaves a trace. With
 * a password made here (apply --generate-passwords, a reset) it carries it as
 * `pending_password`: readable by people after a crash, never current by itself.
 */
export interface IntentRecord extends SecretRef {
  readonly intent: IntentKind;
  /** Names this intent for the `refused` record that may settle it (newIntentId). Older files lack it. */
  readonly intent_id?: string;
  readonly at: string;
  readonly pending_password?: string;
}

/** An intent whose pending password is encrypted: `pending_password_age`, no `pending_password`. */
export interface EncryptedIntentRecord extends SecretRef {
  readonly intent: IntentKind;
  readonly intent_id?: string;
  readonly at: string;
  readonly pending_password_age: string;
}

/**
 * Settles the intent `intent_id` names, whose request the panel surely refused (a 4xx to a
 * request that was sent once, or never sent): no client created, or no password set, so the
 * current password (if any) stays as it was, and no later run reports a lost one. `refused`
 * says why, in the program's own words. Written only when nothing before the refusal may have
 * landed: a 4xx after an attempt without an answer proves nothing, and the intent stays open.
 */
export interface RefusedRecord extends SecretRef {
  readonly at: string;
  readonly intent_id: string;
  readonly refused: string;
}

/** A fresh id for an intent record (16 hex digits): what its `refused` record names. */
export function newIntentId(): string {
  // node:crypto loads at the first id (as util.ts sha256Hex): readers of the journal never need it.
  return process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex');
}

/**
 * Where passwords go; callers await each call before the request or step that depends on it.
 * `record` takes a password already encrypted too (a pending one copied as written, when the
 * client turns out to hold it): it is written as it is.
 */
export interface SecretsSink {
  intend(entry: IntentRecord): Promise<void>;
  record(entry: SecretRecord | EncryptedSecretRecord): Promise<void>;
  refused(entry: RefusedRecord): Promise<void>;
}

/** A parsed line's object: the file is read back after crashes and edits, so nothing in it is trusted. */
export type Entry = Readonly<Record<string, unknown>>;

/**
 * One line of the journal, parsed: an `intent` (a write-ahead line, a pending password on it
 * or not), a `password` record (it has `password` or `password_age`, null included), `refused`,
 * `other` (an object this version does not know, from a newer one), or `unreadable` (not
 * JSON, or not an object: a line torn by a crash, a hand edit). `line` counts from 1. Fields
 * are checked by whoever uses them.
 */
export type JournalLine =
  | {
      readonly line: number;
      readonly kind: 'intent' | 'password' | 'refused' | 'other';
      readonly entry: Entry;
    }
  | { readonly line: number; readonly kind: 'unreadable'; readonly why: string };

/** A line parseJournal could not read. */
export type UnreadableLine = JournalLine & { kind: 'unreadable' };

/**
 * The warning (without its `warning: `) for a line parseJournal could not read: where it is, and
 * that it was skipped.
 */
export function skippedLineWarning(path: string, line: UnreadableLine): string {
  return `${path}:${line.line}: ${line.why}: skipped`;
}

/**
 * The one parser of the secrets journal (JSON Lines): apply, `secrets decrypt`, `secrets reset` and
 * the tests use it.
 */
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
    else if (typeof entry.intent === 'string')
      lines.push({
        line,
        kind: entry.intent === 'reset_password' || isCreateIntent(entry) ? 'intent' : 'other',
        entry,
      });
    else if ('password' in entry || 'password_age' in entry) lines.push({ line, kind: 'password', entry });
    else if (typeof entry.refused === 'string') lines.push({ line, kind: 'refused', entry });
    else lines.push({ line, kind: 'other', entry });
  }
  return lines;
}

/** A parsed line with its object. */
export interface EntryLine {
  readonly line: number;
  readonly entry: Entry;
}

/** Where one thing's passwords stand in the journal: see passwordStates. */
interface PasswordState {
  readonly panelUrl: string;
  /** Its kind, as the journal says it (`client` for a record without one). */
  readonly kind: string;
  readonly name: string;
  /** Its name; for a client, its username (the field readers of clients' states know). */
  readonly username: string;
  /** The last record with `password` or `password_age` (null included): the current password. */
  readonly current: EntryLine | undefined;
  /** The last open intent (nothing settled it) with a pending password. */
  readonly pending: EntryLine | undefined;
  /** The last open create intent (with or without a pending password). */
  readonly unansweredCreate: EntryLine | undefined;
  /** Every open intent (nothing settled it), oldest first: more than one create means which one landed is unknown. */
  readonly open: readonly EntryLine[];
}

/** The key passwordStates files a thing under. */
export function secretKey(panelUrl: string, kind: string, name: string): string {
  return JSON.stringify([panelUrl, kind, name]);
}

/** Whether an intent carries a pending password, in clear or encrypted. */
export function hasPending(entry: Entry): boolean {
  return typeof entry.pending_password === 'string' || typeof entry.pending_password_age === 'string';
}

/**
 * Every thing's standing in the journal, keyed by secretKey, in the order each first appears.
 * Records without a string `panel_url`, or that name nobody (holderOf), are ignored (hand edits). A record with a
 * password settles every intent before it; a `refused` record settles the one intent its
 * `intent_id` names (one without it, from an older version, every intent before it, as that
 * version read it); a later intent opens again.
 */
export function passwordStates(lines: readonly JournalLine[]): Map<string, PasswordState> {
  const states = new Map<string, { -readonly [K in keyof PasswordState]: PasswordState[K] }>();
  /** The intents of each thing that nothing settled yet, oldest first. */
  const open = new Map<string, EntryLine[]>();
  for (const line of lines) {
    if (line.kind === 'unreadable' || line.kind === 'other') continue;
    const { entry } = line;
    const holder = holderOf(entry);
    if (typeof entry.panel_url !== 'string' || holder === undefined) continue;
    const key = secretKey(entry.panel_url, holder.kind, holder.name);
    let state = states.get(key);
    if (state === undefined) {
      state = {
        panelUrl: entry.panel_url,
        kind: holder.kind,
        name: holder.name,
        username: holder.name,
        current: undefined,
        pending: undefined,
        unansweredCreate: undefined,
        open: [],
      };
      states.set(key, state);
    }
    const at = { line: line.line, entry };
    const intents = open.get(key) ?? [];
    open.set(key, intents);
    switch (line.kind) {
      case 'intent':
        intents.push(at);
        break;
      case 'password':
        state.current = at;
        intents.length = 0;
        break;
      case 'refused': {
        const id = entry.intent_id;
        if (typeof id !== 'string') intents.length = 0;
        else {
          const index = intents.findIndex((i) => i.entry.intent_id === id);
          if (index >= 0) intents.splice(index, 1);
        }
        break;
      }
      default:
        return assertNever(line.kind);
    }
    state.pending = intents.findLast((i) => hasPending(i.entry));
    state.unansweredCreate = intents.findLast((i) => isCreateIntent(i.entry));
    state.open = [...intents];
  }
  return states;
}
