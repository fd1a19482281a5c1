/**
 * The mailbox's managed fields, one row each: the manifest key, the panel's key, its value on a
 * live mailbox, how two values compare, how a value is sent and printed. Every part of the room
 * loops over MAILBOX_FIELDS; a new field is a row here (and its entry in MailboxFieldTypes), plus
 * the schema and the simulator. Pure.
 */
import { quote } from '../../escape.js';
import { plural, type JsonValue } from '../../util.js';
import { addressSet, sameAddresses } from './address.js';
import { quotaText } from './quota.js';
import type { LiveMailbox } from './record.js';

/**
 * Each field's value in the manifest's terms, as the plan compares, sends (under the row's panel
 * key) and shows it: a quota in bytes (0: unlimited); aliases and forwardings as full addresses
 * in comparison form (address.ts), compared as sets; a description as written ('' none).
 */
export interface MailboxFieldTypes {
  quota: number;
  aliases: readonly string[];
  forwardings: readonly string[];
  keep_copies: boolean;
  catch_all: boolean;
  description: string;
}

type T = MailboxFieldTypes;

/** The fields a manifest may manage of a mailbox, by their manifest names. */
export type MailboxField = keyof MailboxFieldTypes;

/** The managed fields a manifest gives for a mailbox; one left out is not managed. */
export type MailboxWants = { readonly [K in MailboxField]?: T[K] };

/** One managed field that differs, in the manifest's names and terms (the plan's `fields`). */
export type MailboxFieldChange = {
  [K in MailboxField]: { readonly field: K; readonly before: T[K]; readonly after: T[K] };
}[MailboxField];

/** One row of the table: everything the room needs of one field. */
export interface MailboxFieldRow<K extends MailboxField> {
  readonly key: K;
  /** The panel's key, sent in a create and an update (record.ts MAILBOX_SPELLINGS reads its spellings). */
  readonly panel: string;
  /** Its value on a live mailbox; undefined when the record does not carry it (unknown, never a change). */
  live(mailbox: LiveMailbox): T[K] | undefined;
  /** Whether two values are the same to the panel. */
  same(a: T[K], b: T[K]): boolean;
  /** The value a request carries under `panel`. */
  send(value: T[K]): JsonValue;
  /** The value for people, as the plan's text shows it: `2 GiB`, `["hello@alice.example"]`, `true`, `"Front desk"`. */
  text(value: T[K]): string;
}

/** A list of addresses for people: `["a@x.example", "b@x.example"]`, `[]`. */
function listText(list: readonly string[]): string {
  return `[${addressSet(list).map(quote).join(', ')}]`;
}

/** The row of a list of addresses: compared as sets, sent in address order. */
function list<K extends 'aliases' | 'forwardings'>(key: K): MailboxFieldRow<K> {
  const row: MailboxFieldRow<'aliases' | 'forwardings'> = {
    key,
    panel: key,
    live: (m) => m[key],
    same: sameAddresses,
    send: (value) => [...addressSet(value)],
    text: listText,
  };
  return row as MailboxFieldRow<K>;
}

/** The row of a flag. */
function flag<K extends 'keep_copies' | 'catch_all'>(
  key: K,
  panel: string,
  live: (m: LiveMailbox) => boolean | undefined,
): MailboxFieldRow<K> {
  const row: MailboxFieldRow<'keep_copies' | 'catch_all'> = {
    key,
    panel,
    live,
    same: (a, b) => a === b,
    send: (value) => value,
    text: String,
  };
  return row as MailboxFieldRow<K>;
}

const ROWS: { readonly [K in MailboxField]: MailboxFieldRow<K> } = {
  quota: {
    key: 'quota',
    panel: 'max_size',
    live: (m) => m.maxSize,
    same: (a, b) => a === b,
    send: (value) => value,
    text: quotaText,
  },
  aliases: list('aliases'),
  forwardings: list('forwardings'),
  keep_copies: flag('keep_copies', 'store_forwarded_emails', (m) => m.storeForwardedEmails),
  catch_all: flag('catch_all', 'catch_all', (m) => m.catchAll),
  description: {
    key: 'description',
    panel: 'description',
    live: (m) => m.description,
    same: (a, b) => a === b,
    send: (value) => value,
    text: (value) => (value === '' ? '(none)' : quote(value)),
  },
};

/** The rows, in the order updates list their fields and requests carry them. */
export const MAILBOX_FIELDS: readonly MailboxFieldRow<MailboxField>[] = Object.values(ROWS);

/** The row of `field`. */
export function mailboxField<K extends MailboxField>(field: K): MailboxFieldRow<K> {
  return ROWS[field];
}

/** The manifest's names of the fields, in the table's order. */
export const MAILBOX_FIELD_NAMES: readonly MailboxField[] = MAILBOX_FIELDS.map((row) => row.key);

/**
 * The managed fields that differ between the manifest's `wants` and a live mailbox, in the
 * table's order; a field the record does not carry goes to `unknown`, never a change.
 */
export function fieldChanges(
  wants: MailboxWants,
  live: LiveMailbox,
  unknown: (field: MailboxField) => void = () => undefined,
): MailboxFieldChange[] {
  const changes: MailboxFieldChange[] = [];
  for (const row of MAILBOX_FIELDS) {
    const after = wants[row.key];
    if (after === undefined) continue;
    const before = row.live(live);
    if (before === undefined) unknown(row.key);
    else if (!row.same(before, after))
      changes.push({
        field: row.key,
        before: normal(row.key, before),
        after: normal(row.key, after),
      } as MailboxFieldChange);
  }
  return changes;
}

/** A value as a change holds it: a list of addresses in addressSet's form. */
function normal<K extends MailboxField>(key: K, value: T[K]): T[K] {
  return (Array.isArray(value) ? addressSet(value as readonly string[]) : value) as T[K];
}

/** The panel's keys and values of the fields `wants` gives, in the table's order (a create's body, an update's). */
export function fieldBody(wants: MailboxWants): Record<string, JsonValue> {
  const body: Record<string, JsonValue> = {};
  for (const row of MAILBOX_FIELDS) {
    const value = wants[row.key];
    if (value !== undefined) body[row.panel] = row.send(value);
  }
  return body;
}

/** `1 alias`, `2 forwardings`: how many addresses a list field holds. */
export function countText(field: 'aliases' | 'forwardings', n: number): string {
  return field === 'aliases' ? plural(n, 'alias', 'aliases') : plural(n, 'forwarding');
}
