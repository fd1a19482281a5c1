/**
 * The panel's records, read one by one: hosting plans, clients and domains as the API answers
 * them, checked and normalised into the shapes of types.ts. Pure: no I/O. A record the engine
 * cannot read is ProvisionError('panel_contract') naming where it came from and the field.
 */
import { ProvisionError } from '../errors.js';
import { isRecord } from '../util.js';
import { readClientFields } from '../kinds/client/index.js';
import type { FieldReader } from '../kinds/common.js';
import { domainName, readSettings, subdomainFlag, systemFlag } from '../kinds/domain.js';
import { readPlanObjects } from '../kinds/hosting-plan/fields.js';
import type { LiveClient, LiveDomain, LiveHostingPlan } from './types.js';

/**
 * One hosting plan record: integer id, string name, and its nested objects as read (never a
 * contract error: a plan no manifest manages must not stop the plan). `where` names it in errors
 * ('GET /api/v2/hosting-plans[3]').
 */
export function parseHostingPlanRecord(record: unknown, where: string): LiveHostingPlan {
  const r = asRecord(record, where);
  const objects = readPlanObjects(r);
  return { id: integer(r, 'id', where), name: string(r, 'name', where), ...(objects === undefined ? {} : { objects }) };
}

/**
 * One client record: integer id, string username (lowercased), and the managed fields, each
 * read by its row of the client's field table (src/kinds/client): from the panel's spellings of
 * it, `undefined` when the record carries none, null when it says "none". A value the row does
 * not read is a contract error naming the field (one the row reads as unreadable is unknown);
 * so are two spellings that disagree.
 */
export function parseClientRecord(record: unknown, where: string): LiveClient {
  const r = asRecord(record, where);
  const id = integer(r, 'id', where);
  const username = string(r, 'username', where).toLowerCase();
  return { id, username, ...readClientFields((keys, read) => spelled(r, keys, where, read)) };
}

/**
 * One domain record: integer id and id_user, string domain (normalised to lowercase ASCII; a
 * name normalizeDomain refuses is kept lowercased: the panel has it, it must still be seen),
 * and whether it is a system domain (`is_system_domain`, see kinds/domain.ts systemFlag): undefined when the
 * record does not say, which prune treats as "maybe": never deleted for being unlisted. Its
 * settings are kept as read, never a contract error (another customer's odd value must not stop
 * the plan): a managed setting the engine cannot read is unknown.
 */
export function parseDomainRecord(record: unknown, where: string): LiveDomain {
  const r = asRecord(record, where);
  const raw = string(r, 'domain', where);
  const system = systemFlag(r.is_system_domain);
  if (typeof system === 'object')
    throw contract(where, `"is_system_domain" must be ${system.problem}, got ${shape(r.is_system_domain)}`);
  const subdomain = subdomainFlag(r);
  return {
    id: integer(r, 'id', where),
    name: domainName(raw),
    idUser: integer(r, 'id_user', where),
    isSystem: system,
    ...(subdomain === undefined ? {} : { isSubdomain: subdomain }),
    settings: readSettings(r),
  };
}

/**
 * A field that panels spell in several ways: read from each spelling the record carries
 * (undefined when it carries none); spellings that disagree are a contract error.
 */
function spelled<T>(
  record: Record<string, unknown>,
  keys: readonly string[],
  where: string,
  read: FieldReader<T>,
): T | undefined {
  let found: { key: string; value: T } | undefined;
  for (const key of keys) {
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

function string(record: Record<string, unknown>, key: string, where: string): string {
  const value = record[key];
  if (typeof value !== 'string' || value === '')
    throw contract(where, `"${key}" must be a non-empty string, got ${shape(value)}`);
  return value;
}

function contract(where: string, problem: string): ProvisionError {
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
