/**
 * The FTP user's managed fields, one row each: the manifest key, the panel's key, its value on a
 * live FTP user, how two values compare, how a value is sent and printed. Every part of the room
 * loops over FTP_USER_FIELDS; a new field is a row here (and its entry in FtpUserFieldTypes), plus
 * the schema and the simulator. Pure.
 */
import { quote } from '../../escape.js';
import type { JsonValue } from '../../util.js';
import { homeForm, sameHome } from './home.js';
import type { LiveFtpUser } from './record.js';

/** Each field's value in the manifest's terms: a home in comparison form (home.ts), a description as written ('' none). */
export interface FtpUserFieldTypes {
  home: string;
  description: string;
}

type T = FtpUserFieldTypes;

/** The fields a manifest may manage of an FTP user, by their manifest names. */
export type FtpUserField = keyof FtpUserFieldTypes;

/** The managed fields a manifest gives for an FTP user; one left out is not managed. */
export type FtpUserWants = { readonly [K in FtpUserField]?: T[K] };

/** One managed field that differs, in the manifest's names and terms (the plan's `fields`). */
export type FtpUserFieldChange = {
  [K in FtpUserField]: { readonly field: K; readonly before: T[K]; readonly after: T[K] };
}[FtpUserField];

/** One row of the table: everything the room needs of one field. */
export interface FtpUserFieldRow<K extends FtpUserField> {
  readonly key: K;
  /** The panel's key, sent in a create and an update (record.ts FTP_USER_SPELLINGS reads its spellings). */
  readonly panel: string;
  /** Its value on a live FTP user; undefined when the record does not carry it (unknown, never a change). */
  live(user: LiveFtpUser): T[K] | undefined;
  /** Whether two values are the same to the panel. */
  same(a: T[K], b: T[K]): boolean;
  /** The value as a change holds it and a request sends it. */
  normal(value: T[K]): T[K];
  /** The value for people: `/www/alice.example`, `"deploys"`, `(none)`. */
  text(value: T[K]): string;
}

const ROWS: { readonly [K in FtpUserField]: FtpUserFieldRow<K> } = {
  home: {
    key: 'home',
    panel: 'home_directory',
    live: (u) => u.home,
    same: sameHome,
    normal: homeForm,
    text: (value) => homeForm(value),
  },
  description: {
    key: 'description',
    panel: 'description',
    live: (u) => u.description,
    same: (a, b) => a === b,
    normal: (value) => value,
    text: (value) => (value === '' ? '(none)' : quote(value)),
  },
};

/** The rows, in the order updates list their fields and requests carry them. */
export const FTP_USER_FIELDS: readonly FtpUserFieldRow<FtpUserField>[] = Object.values(ROWS);

/** The row of `field`. */
export function ftpUserField<K extends FtpUserField>(field: K): FtpUserFieldRow<K> {
  return ROWS[field];
}

/** The manifest's names of the fields, in the table's order. */
export const FTP_USER_FIELD_NAMES: readonly FtpUserField[] = FTP_USER_FIELDS.map((row) => row.key);

/**
 * The managed fields that differ between the manifest's `wants` and a live FTP user, in the
 * table's order; a field the record does not carry goes to `unknown`, never a change.
 */
export function ftpUserFieldChanges(
  wants: FtpUserWants,
  live: LiveFtpUser,
  unknown: (field: FtpUserField) => void = () => undefined,
): FtpUserFieldChange[] {
  const changes: FtpUserFieldChange[] = [];
  for (const row of FTP_USER_FIELDS) {
    const after = wants[row.key];
    if (after === undefined) continue;
    const before = row.live(live);
    if (before === undefined) unknown(row.key);
    else if (!row.same(before, after))
      changes.push({ field: row.key, before: row.normal(before), after: row.normal(after) });
  }
  return changes;
}

/** The panel's keys and values of the fields `wants` gives, in the table's order (a create's body, an update's). */
export function ftpUserFieldBody(wants: FtpUserWants): Record<string, JsonValue> {
  const body: Record<string, JsonValue> = {};
  for (const row of FTP_USER_FIELDS) {
    const value = wants[row.key];
    if (value !== undefined) body[row.panel] = row.normal(value);
  }
  return body;
}
