/**
 * A client as the panel holds it: the record's managed fields read over the field table,
 * merged from a second read, and seen as the manifest can say them (export). Pure.
 */
import type { FieldReader, FieldView } from '../common.js';
import {
  CLIENT_FIELDS,
  type ClientField,
  type ClientFieldTypes,
  type ClientLiveFields,
  type ClientWants,
  type HostingPlans,
  liveValue,
} from './fields.js';

/**
 * A client as read. Each managed field is `undefined` when the record does not carry it (then
 * the engine does not know it), `null` when it says "none" (see each row's `read`).
 */
export interface LiveClient extends ClientLiveFields {
  readonly id: number;
  /** Lowercase. */
  readonly username: string;
}

/**
 * Reads a field of a record under its spellings: its value, undefined when the record carries
 * none of them (the panel's reader decides what a bad value or two spellings that disagree are).
 */
export type SpelledReader = <V>(keys: readonly string[], read: FieldReader<V>) => V | undefined;

/** The managed fields of one client record, each read by its row. */
export function readClientFields(read: SpelledReader): ClientLiveFields {
  const fields: Record<string, unknown> = {};
  for (const row of CLIENT_FIELDS) fields[row.liveKey] = read(row.panel, row.read);
  return fields;
}

/** The rows of `fields` that `client`'s record lacks (undefined). */
export function fieldsLacking(client: LiveClient, fields: ReadonlySet<ClientField>): ClientField[] {
  return CLIENT_FIELDS.filter((row) => fields.has(row.key) && liveValue(row, client) === undefined).map((r) => r.key);
}

/** The panel's key of a field, as messages name it (`is_suspended`). */
export function panelKey(field: ClientField): string {
  return CLIENT_FIELDS.find((row) => row.key === field)?.panel[0] ?? field;
}

/** `listed` with each managed field it lacks (undefined) taken from `record`, a read of the same client. */
export function withFieldsFrom(listed: LiveClient, record: LiveClient): LiveClient {
  const merged: Record<string, unknown> = { ...listed };
  for (const row of CLIENT_FIELDS)
    if (liveValue(row, listed) === undefined) merged[row.liveKey] = liveValue(row, record);
  return merged as unknown as LiveClient;
}

/** The managed fields the manifest gives for a client, in the table's order. */
export function managedFields(wants: ClientWants): ClientField[] {
  return CLIENT_FIELDS.filter((row) => wants[row.key] !== undefined).map((row) => row.key);
}

/** A live client's managed fields as the manifest can say them (see FieldView). */
export type ClientView = { readonly [K in ClientField]: FieldView<ClientFieldTypes[K]['wanted']> };

export function clientView(client: LiveClient, plans: HostingPlans): ClientView {
  const view: Record<string, unknown> = {};
  for (const row of CLIENT_FIELDS) view[row.key] = row.view(liveValue(row, client), plans);
  return view as ClientView;
}

/** The fields `provision export` writes of a client so viewed, in the table's order. */
export function exportedFields(view: ClientView): ClientWants {
  const wants: Record<string, unknown> = {};
  for (const row of CLIENT_FIELDS) {
    const seen = view[row.key];
    if (row.exported && seen.kind === 'value' && row.writes(seen.value)) wants[row.key] = seen.value;
  }
  return wants;
}
