/**
 * An FTP user as the panel holds it (`GET /ftp-users`, `GET /ftp-users/{id}`), read and checked.
 * What public code shows of these records comes from API v1 and from list answers
 * (docs/panel-api.md), so the reader takes every plausible variant: the v1 and v2 spellings of a
 * field (`username` or `name`, `home_directory` or `home`), ids as numeric strings, a description
 * null for none, a home written from the server's root (`/home/users/alice/www`) as well as from
 * the client's home (`/www`); a field the record lacks is unknown (undefined), never a change. What it cannot
 * read is a contract error naming the record and the field. Pure: no I/O.
 */
import type { FieldReader } from '../common.js';
import { asRecord, contract, idReader, ownerReader, type RecordRead, spelled } from '../panel-record.js';
import { FTP_HOME_ROOTS, homeForm } from './home.js';

/** An FTP user as read. Each managed field is undefined when the record does not carry it. */
export interface LiveFtpUser {
  readonly id: number;
  /** Its client's id; undefined when the record does not say. */
  readonly idUser: number | undefined;
  /** The name, lowercase (FTP user names are compared without case). */
  readonly name: string;
  /** '' when the panel holds none ("" or null). */
  readonly description: string | undefined;
  /** Relative to the client's home, in comparison form (home.ts homeForm): `/www/alice.example`. */
  readonly home: string | undefined;
}

/** The panel's path of the FTP users' list, and of one by id. */
export const FTP_USERS_PATH = '/ftp-users';

/**
 * The spellings of each field: first the one API v1 code sends and the engine sends
 * (docs/panel-api.md), then those a v2 answer may use instead (read when present, never sent;
 * two that disagree are a contract error).
 */
export const FTP_USER_SPELLINGS = {
  id: ['id'],
  idUser: ['id_user', 'user_id', 'id_client'],
  name: ['username', 'name', 'user_name', 'ftp_username'],
  description: ['description'],
  home: ['home_directory', 'home', 'homedir', 'directory', 'path'],
} as const;

/** Text; null is none (''). */
const textReader: FieldReader<string> = (value) =>
  value === null ? { value: '' } : typeof value === 'string' ? { value } : { problem: 'a string ("" or null: none)' };

/** A name: a non-empty string, lowercase. */
const nameReader: FieldReader<string> = (value) =>
  typeof value === 'string' && value.trim() !== ''
    ? { value: value.trim().toLowerCase() }
    : { problem: 'a non-empty string' };

/**
 * A home as the client's home sees it (`/www/alice.example`), from a path written from there or
 * from the server's root: the part from the `www` or `files` folder right below the account's own
 * folder, `/home/users/<account>/` or else `/home/<account>/` (`/home/users/alice/www/alice.example`,
 * `/home/alice/files`); any other path as written. The account's folder is never taken for the
 * root: a client may be named `www` or `files` (`/home/users/www/www/site.example`).
 */
function clientHome(path: string): string {
  const home = homeForm(path);
  const segments = home.split('/').slice(1);
  if (segments[0] !== 'home') return home;
  const root = [3, 2].find((i) => (i === 2 || segments[1] === 'users') && FTP_HOME_ROOTS.includes(segments[i] ?? ''));
  return root === undefined ? home : `/${segments.slice(root).join('/')}`;
}

/** A home: a path string, in the comparison form of the client's home (clientHome); null or blank is unknown. */
const homeReader: FieldReader<string> = (value) =>
  value === null || (typeof value === 'string' && value.trim() === '')
    ? { unreadable: 'null' }
    : typeof value === 'string'
      ? { value: clientHome(value) }
      : { problem: 'a path like /www/alice.example' };

/** One FTP user record (`where` names it in errors: `GET https://…/api/v2/ftp-users`, item 3). */
export function parseFtpUserRecord(record: unknown, where: string): LiveFtpUser {
  const r = asRecord(record, where);
  const id = spelled(r, FTP_USER_SPELLINGS.id, where, idReader);
  if (id === undefined) throw contract(where, `"id" must be a positive whole number, got nothing`);
  const name = spelled(r, FTP_USER_SPELLINGS.name, where, nameReader);
  if (name === undefined) throw contract(where, `"username" must be a non-empty string, got nothing`);
  return {
    id,
    idUser: spelled(r, FTP_USER_SPELLINGS.idUser, where, ownerReader),
    name,
    description: spelled(r, FTP_USER_SPELLINGS.description, where, textReader),
    home: spelled(r, FTP_USER_SPELLINGS.home, where, homeReader),
  };
}

/** An FTP user read by its id: `GET /ftp-users/{id}`. */
export const FTP_USER_RECORD: RecordRead<LiveFtpUser> = {
  path: (id) => `${FTP_USERS_PATH}/${id}`,
  parse: parseFtpUserRecord,
};
