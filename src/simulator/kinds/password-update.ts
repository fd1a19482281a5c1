/**
 * The PUT of a thing with a password that belongs to a client (a database, an FTP user: their
 * modules' `updated`): one shape, each module saying its own part. A thing the store lacks is
 * 404; a body that is not an object, a field that does not read, or one that would change what
 * cannot change (its name, its client) is 400; otherwise its fields are set, and a `password`
 * replaces the stored hash (the simulator keeps hashes, never passwords).
 */
import { isRecord } from '../../util.js';
import { type Answer, error } from '../answer.js';
import type { SimStore } from '../store.js';
import { hashPassword } from './mailbox-records.js';
import type { Refusal } from './mailbox-requests.js';

/** What a module says of its things' PUT; `R` its record, `F` the fields a body reads as. */
export interface PasswordUpdate<R, F extends { readonly password?: string }> {
  /** `The requested database was not found.`: the 404's message. */
  readonly notFound: string;
  /** The record the store holds as `id`; undefined when none. */
  get(store: SimStore, id: number): R | undefined;
  /** The body's fields, or why they do not read. */
  fieldsOf(body: Readonly<Record<string, unknown>>): F | Refusal;
  /** The 400's message when `fields` would change what cannot change of `before`; undefined when none would. */
  fixed(fields: F, before: R): string | undefined;
  /** Stores `before` with `fields` set. */
  save(store: SimStore, before: R, fields: F): void;
  /** Stores the hash of the thing's new password. */
  savePassword(store: SimStore, id: number, hash: string): void;
}

/** PUT /<list>/{id}, as `how` says. */
export function updatedWithPassword<R, F extends { readonly password?: string }>(
  how: PasswordUpdate<R, F>,
  store: SimStore,
  id: number,
  body: unknown,
): Answer {
  const before = how.get(store, id);
  if (before === undefined) return error(404, how.notFound);
  if (!isRecord(body)) return error(400, 'The request body must be a JSON object.');
  const fields = how.fieldsOf(body);
  if ('status' in fields) return error(fields.status, fields.message);
  const fixed = how.fixed(fields, before);
  if (fixed !== undefined) return error(400, fixed);
  how.save(store, before, fields);
  if (fields.password !== undefined) how.savePassword(store, id, hashPassword(fields.password));
  return { status: 200, json: { id }, mutated: true };
}
