/**
 * A database as the panel holds it (`GET /databases`, `GET /databases/{id}`), read and checked.
 * What public code shows of these records comes from API v1 and from list answers
 * (docs/panel-api.md), so the reader takes every plausible variant: the v1 and v2 spellings of a
 * field, ids and sizes as numeric strings, `remote_hosts` as an array (of hosts, or of objects
 * holding one, or a PHP array encoded as an object keyed by digits) or as text separated by
 * commas; a field the record lacks is unknown (undefined), never a change. What it cannot read is a contract error naming the record and the field. Pure.
 */
import { isRecord } from '../../util.js';
import type { FieldReader } from '../common.js';
import {
  asRecord,
  contract,
  idReader,
  ownerReader,
  phpList,
  type RecordRead,
  shape,
  spelled,
  wholeNumber,
} from '../panel-record.js';
import { hostSet, readRemoteHost } from './hosts.js';

/** A database as read. Each managed field is undefined when the record does not carry it. */
export interface LiveDatabase {
  readonly id: number;
  /** Its client's id; undefined when the record does not say. */
  readonly idUser: number | undefined;
  /** The database's name, as the panel stored it (`database_name`). */
  readonly name: string;
  /** Its user's name (`database_username`); undefined when the record does not say. */
  readonly user: string | undefined;
  /** '' when the panel holds none ("" or null). */
  readonly description: string | undefined;
  /** The hosts its user may connect from, in comparison form (hosts.ts hostSet); [] local only. */
  readonly remoteHosts: readonly string[] | undefined;
  /** Its size in bytes, as the panel reports it. */
  readonly size: number | undefined;
}

/** The panel's path of the databases' list, and of one by id. */
export const DATABASES_PATH = '/databases';

/**
 * The spellings of each field: first the one API v1 code sends and the engine sends
 * (docs/panel-api.md), then those a v2 answer may use instead (read when present, never sent;
 * two that disagree are a contract error).
 */
export const DATABASE_SPELLINGS = {
  id: ['id', 'id_database', 'database_id'],
  idUser: ['id_user', 'user_id', 'id_client'],
  name: ['database_name', 'name', 'db_name'],
  user: ['database_username', 'database_user', 'db_user', 'db_username'],
  description: ['description'],
  remoteHosts: ['remote_hosts', 'remote_access_hosts'],
  size: ['size', 'database_size', 'size_bytes'],
} as const;

/** A size in bytes (a whole number, or one as a string; a float of bytes rounds); null: unknown. */
const sizeReader: FieldReader<number> = (value) => {
  if (value === null) return { unreadable: 'null' };
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : wholeNumber(value);
  return n === undefined || n < 0 ? { problem: 'a whole number of bytes' } : { value: n };
};

/** Text; null is none (''). */
const textReader: FieldReader<string> = (value) =>
  value === null ? { value: '' } : typeof value === 'string' ? { value } : { problem: 'a string ("" or null: none)' };

/** A name: non-empty text, trimmed; null: unknown. */
const nameReader: FieldReader<string> = (value) => {
  if (value === null) return { unreadable: 'null' };
  return typeof value === 'string' && value.trim() !== '' ? { value: value.trim() } : { problem: 'a non-empty string' };
};

/** The keys of an object item of `remote_hosts` that hold its host (`{"id": 3, "host": "192.0.2.1"}`). */
const HOST_KEYS = ['host', 'remote_host', 'hostname', 'address', 'ip', 'value'];

/**
 * The host a panel may list for the local connections every database user has (`localhost`): no
 * remote host, and not one the manifest can write, so it is left out of the list read.
 */
const LOCAL_HOST = 'localhost';

/**
 * The remote hosts under `key`: an array (or a PHP array as an object keyed by digits) of strings
 * or of objects holding one (HOST_KEYS), or text separated by commas, semicolons or white space;
 * null is none ([]: local only); `localhost` is local, never a remote host.
 */
function hostList(r: Record<string, unknown>, key: string, where: string): readonly string[] | undefined {
  const value = r[key];
  if (value === undefined) return undefined;
  if (value === null) return [];
  let items: unknown[] | undefined;
  if (typeof value === 'string') items = value.split(/[\s,;]+/).filter((s) => s !== '');
  else if (Array.isArray(value)) items = value as unknown[];
  else if (isRecord(value)) items = phpList(value);
  if (items === undefined) throw contract(where, `"${key}" must be a list of hosts, got ${shape(value)}`);
  return hostSet(
    items.flatMap((item, i) => {
      const text = isRecord(item)
        ? HOST_KEYS.map((k) => item[k]).find((v): v is string => typeof v === 'string')
        : item;
      if (typeof text !== 'string' || text.trim() === '')
        throw contract(where, `"${key}" item ${i + 1} must be a host, got ${shape(item)}`);
      return text.trim().toLowerCase() === LOCAL_HOST ? [] : [readRemoteHost(text)];
    }),
  );
}

/** The remote hosts from each spelling the record carries; two that disagree are a contract error. */
function remoteHosts(r: Record<string, unknown>, where: string): readonly string[] | undefined {
  let found: { key: string; list: readonly string[] } | undefined;
  for (const key of DATABASE_SPELLINGS.remoteHosts) {
    const list = hostList(r, key, where);
    if (list === undefined) continue;
    if (found === undefined) found = { key, list };
    else if (found.list.join(',') !== list.join(','))
      throw contract(where, `"${found.key}" and "${key}" hold different hosts`);
  }
  return found?.list;
}

/** One database record (`where` names it in errors: `GET https://…/api/v2/databases`, item 3). */
export function parseDatabaseRecord(record: unknown, where: string): LiveDatabase {
  const r = asRecord(record, where);
  const id = spelled(r, DATABASE_SPELLINGS.id, where, idReader);
  if (id === undefined) throw contract(where, `"id" must be a positive whole number, got nothing`);
  const name = spelled(r, DATABASE_SPELLINGS.name, where, nameReader);
  if (name === undefined) throw contract(where, `"database_name" must be a non-empty string, got nothing`);
  return {
    id,
    idUser: spelled(r, DATABASE_SPELLINGS.idUser, where, ownerReader),
    name,
    user: spelled(r, DATABASE_SPELLINGS.user, where, nameReader),
    description: spelled(r, DATABASE_SPELLINGS.description, where, textReader),
    remoteHosts: remoteHosts(r, where),
    size: spelled(r, DATABASE_SPELLINGS.size, where, sizeReader),
  };
}

/** A database read by its id: `GET /databases/{id}`. */
export const DATABASE_RECORD: RecordRead<LiveDatabase> = {
  path: (id) => `${DATABASES_PATH}/${id}`,
  parse: parseDatabaseRecord,
};
