/**
 * The database's managed fields, one row each: the manifest key, the panel's key, its value on a
 * live database, how two values compare, how a value is sent and printed. `user` is not a row:
 * it names the database's user, identity-like, so a changed user is a rename (a conflict, the
 * diff rule), never an update. Pure.
 */
import { quote } from '../../escape.js';
import type { JsonValue } from '../../util.js';
import { hostSet, sameHosts } from './hosts.js';
import type { LiveDatabase } from './record.js';

/**
 * Each field's value in the manifest's terms, as the plan compares, sends (under the row's panel
 * key) and shows it: remote hosts in comparison form (hosts.ts), compared as a set ([]: local
 * only); a description as written ('' none).
 */
export interface DatabaseFieldTypes {
  remote_hosts: readonly string[];
  description: string;
}

type T = DatabaseFieldTypes;

/** The fields a manifest may manage of a database, by their manifest names. */
export type DatabaseField = keyof DatabaseFieldTypes;

/** The managed fields a manifest gives for a database; one left out is not managed. */
export type DatabaseWants = { readonly [K in DatabaseField]?: T[K] };

/** One managed field that differs, in the manifest's names and terms (the plan's `fields`). */
export type DatabaseFieldChange = {
  [K in DatabaseField]: { readonly field: K; readonly before: T[K]; readonly after: T[K] };
}[DatabaseField];

/** One row of the table: everything the room needs of one field. */
export interface DatabaseFieldRow<K extends DatabaseField> {
  readonly key: K;
  /** The panel's key, sent in a create and an update. */
  readonly panel: string;
  /** Its value on a live database; undefined when the record does not carry it (unknown, never a change). */
  live(database: LiveDatabase): T[K] | undefined;
  same(a: T[K], b: T[K]): boolean;
  /** The value a request carries under `panel`. */
  send(value: T[K]): JsonValue;
  /** The value for people: `[192.0.2.0/24]`, `[] (local only)`, `"WordPress"`, `(none)`. */
  text(value: T[K]): string;
}

const ROWS: { readonly [K in DatabaseField]: DatabaseFieldRow<K> } = {
  remote_hosts: {
    key: 'remote_hosts',
    panel: 'remote_hosts',
    live: (d) => d.remoteHosts,
    same: sameHosts,
    send: (value) => [...hostSet(value)],
    text: (value) => (value.length === 0 ? '[] (local only)' : `[${hostSet(value).join(', ')}]`),
  },
  description: {
    key: 'description',
    panel: 'description',
    live: (d) => d.description,
    same: (a, b) => a === b,
    send: (value) => value,
    text: (value) => (value === '' ? '(none)' : quote(value)),
  },
};

/** The rows, in the order updates list their fields and requests carry them. */
export const DATABASE_FIELDS: readonly DatabaseFieldRow<DatabaseField>[] = Object.values(ROWS);

/** The row of `field`. */
export function databaseField<K extends DatabaseField>(field: K): DatabaseFieldRow<K> {
  return ROWS[field];
}

/** The manifest's names of the fields, in the table's order. */
export const DATABASE_FIELD_NAMES: readonly DatabaseField[] = DATABASE_FIELDS.map((row) => row.key);

/**
 * The managed fields that differ between the manifest's `wants` and a live database, in the
 * table's order; a field the record does not carry goes to `unknown`, never a change.
 */
export function databaseFieldChanges(
  wants: DatabaseWants,
  live: LiveDatabase,
  unknown: (field: DatabaseField) => void = () => undefined,
): DatabaseFieldChange[] {
  const changes: DatabaseFieldChange[] = [];
  for (const row of DATABASE_FIELDS) {
    const after = wants[row.key];
    if (after === undefined) continue;
    const before = row.live(live);
    if (before === undefined) unknown(row.key);
    else if (!row.same(before, after))
      changes.push({ field: row.key, before: normal(before), after: normal(after) } as DatabaseFieldChange);
  }
  return changes;
}

/** A value as a change holds it: a list of hosts in hostSet's form. */
function normal<V>(value: V): V {
  return (Array.isArray(value) ? hostSet(value as readonly string[]) : value) as V;
}

/** The panel's keys and values of the fields `wants` gives, in the table's order (a create's body, an update's). */
export function databaseFieldBody(wants: DatabaseWants): Record<string, JsonValue> {
  const body: Record<string, JsonValue> = {};
  for (const row of DATABASE_FIELDS) {
    const value = wants[row.key];
    if (value !== undefined) body[row.panel] = row.send(value);
  }
  return body;
}
