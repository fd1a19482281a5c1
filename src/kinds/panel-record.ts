/**
 * Reading one record of the panel's answers, for every kind's reader (each room's read.ts): the
 * record as an object, an id, a name, a field spelled several ways, and a contract error that
 * names where the record came from and the field. Pure: no I/O.
 */
import { ProvisionError } from '../errors.js';
import { isRecord } from '../util.js';
import type { FieldReader } from './common.js';

/**
 * How one record of a kind is read by its id (`GET /domains/{id}`): its path, and its parser
 * (`where` names it in errors: `GET https://…/api/v2/domains/7`). The panel's generic read by id
 * (panel/object-reads.ts readById) takes it.
 */
export interface RecordRead<R extends { readonly id: number }> {
  path(id: number): string;
  parse(record: unknown, where: string): R;
}

/**
 * A field that panels spell in several ways: read from each spelling the record carries
 * (undefined when it carries none); spellings that disagree are a contract error.
 */
export function spelled<T>(
  record: Record<string, unknown>,
  keys: readonly string[],
  where: string,
  read: FieldReader<T>,
): T | undefined {
  let found: { key: string; value: T } | undefined;
  // An index, not for...of: no iterator result per key of each record of a list.
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (record[key] === undefined) continue;
    const result = read(record[key]);
    if ('problem' in result) throw contract(where, `"${key}" must be ${result.problem}, got ${shape(record[key])}`);
    if ('unreadable' in result) continue; // as if the record did not carry it: unknown
    if (found === undefined) found = { key, value: result.value };
    else if (found.value !== result.value)
      throw contract(
        where,
        `"${found.key}" and "${key}" disagree (${shape(record[found.key])} and ${shape(record[key])})`,
      );
  }
  return found?.value;
}

/** The record as an object, else a contract error. */
export function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) throw contract(where, `expected an object, got ${shape(value)}`);
  return value;
}

/** An id: a positive integer (the panel counts from 1; 0 or less would be no record at all). */
export function integer(record: Record<string, unknown>, key: string, where: string): number {
  const value = record[key];
  if (!Number.isSafeInteger(value) || (value as number) <= 0)
    throw contract(where, `"${key}" must be a positive integer, got ${shape(value)}`);
  return value as number;
}

export function nonEmptyString(record: Record<string, unknown>, key: string, where: string): string {
  const value = record[key];
  if (typeof value !== 'string' || value === '')
    throw contract(where, `"${key}" must be a non-empty string, got ${shape(value)}`);
  return value;
}

/** A whole number, or a string of digits (a sign allowed) that is one; undefined otherwise. */
export function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string' || !/^\s*-?\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** An id: a positive whole number, or one written as a string of digits. */
export const idReader: FieldReader<number> = (value) => {
  const n = wholeNumber(value);
  return n !== undefined && n > 0 ? { value: n } : { problem: 'a positive whole number' };
};

/** A client's id as an owner: an id; null or 0 is unknown (no owner said). */
export const ownerReader: FieldReader<number> = (value) =>
  value === null || value === 0 || value === '0' ? { unreadable: 'null' } : idReader(value);

/**
 * The items of a PHP array that JSON carries as an object (`{"0": "a", "2": "b"}`: what PHP's
 * json_encode writes once an array's keys are no longer 0, 1, 2, ...), in key order; undefined
 * for any other object.
 */
export function phpList(value: Record<string, unknown>): unknown[] | undefined {
  const keys = Object.keys(value);
  if (!keys.every((k) => /^\d+$/.test(k))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
}

export function contract(where: string, problem: string): ProvisionError {
  return new ProvisionError('panel_contract', `${where}: ${problem}`, {
    hint: 'the panel answered a record panel-provision cannot read; report the panel version and this message',
  });
}

/** A value's kind for messages, never its content (which could be anything, long, or private). */
export function shape(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number')
    return Number.isSafeInteger(value)
      ? String(value)
      : Number.isInteger(value)
        ? 'an integer out of range'
        : 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
