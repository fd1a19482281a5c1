/**
 * A mailbox as the panel holds it (`GET /emails`, `GET /emails/{id}`), read and checked. What
 * public code shows of these records comes from API v1 and from list answers (docs/panel-api.md),
 * so the reader takes every plausible variant: the v1 and v2 spellings of a field, the `_utf8`
 * twins of the address, its aliases and forwardings (which must agree with the ASCII ones), ids
 * and sizes as numeric strings, flags as panels send them (readFlag), lists as arrays of
 * addresses or of objects holding one, or as text separated by commas; a field the record lacks
 * is unknown (undefined), never a change. What it cannot read is a contract error naming the
 * record and the field. Pure: no I/O.
 */
import { isRecord } from '../../util.js';
import { flagReader, type FieldReader } from '../common.js';
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
import { addressOf, addressSet, domainOf, isNormalAddress, unicodeAddress } from './address.js';

/** A mailbox as read. Each managed field is undefined when the record does not carry it. */
export interface LiveMailbox {
  readonly id: number;
  /** Its client's id; undefined when the record does not say (its domain's owner tells). */
  readonly idUser: number | undefined;
  /** `info@xn--bcher-kva.example`: lowercase ASCII (address.ts addressOf). */
  readonly address: string;
  /** `info@bücher.example`: the record's `email_utf8`, else the address with its domain decoded. */
  readonly unicode: string;
  /** '' when the panel holds none ("" or null). */
  readonly description: string | undefined;
  /** The quota in bytes, 0 unlimited (a negative `max_size` reads as 0, as hosting plans write -1). */
  readonly maxSize: number | undefined;
  readonly catchAll: boolean | undefined;
  /** Whether forwarded mail is stored here too (`store_forwarded_emails`). */
  readonly storeForwardedEmails: boolean | undefined;
  /** Full addresses in comparison form, each once, in address order (address.ts addressSet). */
  readonly aliases: readonly string[] | undefined;
  readonly forwardings: readonly string[] | undefined;
}

/** The panel's path of the mailboxes' list, and of one by id. */
export const MAILBOXES_PATH = '/emails';

/**
 * The spellings of each field: first the one API v1 code sends and the engine sends
 * (docs/panel-api.md), then those a v2 answer may use instead (read when present, never sent;
 * two that disagree are a contract error). None that could mean another unit or thing: no bare
 * `quota`, which a panel may count in megabytes.
 */
export const MAILBOX_SPELLINGS = {
  id: ['id'],
  idUser: ['id_user', 'user_id', 'id_client'],
  address: ['email', 'email_address', 'address'],
  unicode: ['email_utf8', 'email_address_utf8', 'address_utf8'],
  description: ['description'],
  maxSize: ['max_size', 'max_size_bytes'],
  catchAll: ['catch_all', 'is_catch_all', 'is_catchall', 'catchall'],
  storeForwardedEmails: ['store_forwarded_emails', 'is_store_forwarded_emails', 'keep_forwarded_emails'],
  aliases: ['aliases'],
  forwardings: ['forwardings', 'forwards'],
} as const;

/** A size in bytes: a whole number or one as a string; negative (-1) is unlimited (0); null: unknown. */
const sizeReader: FieldReader<number> = (value) => {
  if (value === null) return { unreadable: 'null' };
  const n = wholeNumber(value);
  return n === undefined ? { problem: 'a whole number of bytes (0: unlimited)' } : { value: Math.max(0, n) };
};

/** A flag as panels send it; null: unknown. */
const optionalFlag: FieldReader<boolean> = (value) => (value === null ? { unreadable: 'null' } : flagReader(value));

/** Text; null is none (''). */
const textReader: FieldReader<string> = (value) =>
  value === null ? { value: '' } : typeof value === 'string' ? { value } : { problem: 'a string ("" or null: none)' };

/** The keys of an object item of a list that hold its address (`{"id": 3, "email": "a@b"}`). */
const ITEM_KEYS = ['email', 'address', 'alias', 'forwarding', 'destination', 'target'];

/**
 * A list of addresses under `key`: an array of strings or of objects holding one (ITEM_KEYS), or
 * text separated by commas, semicolons or white space; null is none. An item without "@" is a
 * local part of the mailbox's own domain (`domain`). Undefined: the record does not carry it.
 */
function addressList(r: Record<string, unknown>, key: string, domain: string, where: string): string[] | undefined {
  const value = r[key];
  if (value === undefined) return undefined;
  if (value === null) return [];
  const items =
    typeof value === 'string'
      ? value.split(/[\s,;]+/).filter((s) => s !== '')
      : Array.isArray(value)
        ? (value as unknown[])
        : isRecord(value)
          ? phpList(value)
          : undefined;
  if (items === undefined) throw contract(where, `"${key}" must be a list of addresses, got ${shape(value)}`);
  return items.map((item, i) => {
    const text = isRecord(item) ? ITEM_KEYS.map((k) => item[k]).find((v): v is string => typeof v === 'string') : item;
    if (typeof text !== 'string' || text.trim() === '')
      throw contract(where, `"${key}" item ${i + 1} must be an address, got ${shape(item)}`);
    const trimmed = text.trim();
    return addressOf(trimmed.includes('@') ? trimmed : `${trimmed}@${domain}`);
  });
}

/** Each list field's spellings with their `_utf8` twins (`aliases`, `aliases_utf8`), made once, not per record. */
const TWINS: ReadonlyMap<readonly string[], readonly string[]> = new Map(
  [MAILBOX_SPELLINGS.aliases, MAILBOX_SPELLINGS.forwardings].map((keys) => [
    keys,
    keys.flatMap((k) => [k, `${k}_utf8`]),
  ]),
);

/** An empty list read (most mailboxes have no aliases nor forwardings): one, shared, never changed. */
const NONE: readonly string[] = Object.freeze([]);

/**
 * A list field with its `_utf8` twin (`aliases`, `aliases_utf8`): read from each the record
 * carries, in comparison form; the two must hold the same addresses.
 */
function twinLists(
  r: Record<string, unknown>,
  keys: readonly string[],
  domain: string,
  where: string,
): readonly string[] | undefined {
  let found: { key: string; list: readonly string[] } | undefined;
  const twins = TWINS.get(keys) ?? [];
  for (const key of twins) {
    // A twin that is null beside one that holds a list says nothing (a panel that fills one only).
    if (r[key] === null && twins.some((k) => r[k] !== null && r[k] !== undefined)) continue;
    const list = addressList(r, key, domain, where);
    if (list === undefined) continue;
    const set = list.length === 0 ? NONE : addressSet(list);
    if (found === undefined) found = { key, list: set };
    else if (found.list.length !== set.length || found.list.some((a, i) => a !== set[i]))
      throw contract(where, `"${found.key}" and "${key}" hold different addresses`);
  }
  return found?.list;
}

/** The address's spellings, then their `_utf8` twins. */
const ADDRESS_KEYS: readonly string[] = [...MAILBOX_SPELLINGS.address, ...MAILBOX_SPELLINGS.unicode];

/**
 * The address (lowercase ASCII) and its Unicode form, from the record's address fields and their
 * `_utf8` twins: at least one, and all naming the same address.
 */
function readAddress(r: Record<string, unknown>, where: string): { address: string; unicode: string } {
  let found: { key: string; address: string } | undefined;
  for (const key of ADDRESS_KEYS) {
    const value = r[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.trim() === '')
      throw contract(where, `"${key}" must be an address, got ${shape(value)}`);
    const address = addressOf(value.trim());
    if (found === undefined) found = { key, address };
    else if (found.address !== address) throw contract(where, `"${found.key}" and "${key}" name different addresses`);
  }
  if (found === undefined) throw contract(where, `"email" must be an address, got nothing`);
  const twin = MAILBOX_SPELLINGS.unicode.map((k) => r[k]).find((v): v is string => typeof v === 'string');
  return {
    address: found.address,
    unicode: twin === undefined ? unicodeAddress(found.address) : twin.trim().toLowerCase(),
  };
}

/**
 * Whether the record carries a spelling the general reader reads beside API v1's (MAILBOX_SPELLINGS
 * after the first of each field, the `_utf8` twin of `forwards`): then the general reader takes it.
 * One named look-up per spelling rather than a loop over their names: the records of a list share
 * one shape, so each look-up is the same quick miss (a loop's look-ups by a computed name were most
 * of the lean read's time). test/kinds/mailbox/record-lean.test.ts checks that none is missing.
 */
function otherSpelling(r: Record<string, unknown>): boolean {
  return (
    r.user_id !== undefined ||
    r.id_client !== undefined ||
    r.email_address !== undefined ||
    r.address !== undefined ||
    r.email_address_utf8 !== undefined ||
    r.address_utf8 !== undefined ||
    r.max_size_bytes !== undefined ||
    r.is_catch_all !== undefined ||
    r.is_catchall !== undefined ||
    r.catchall !== undefined ||
    r.is_store_forwarded_emails !== undefined ||
    r.keep_forwarded_emails !== undefined ||
    r.forwards !== undefined ||
    r.forwards_utf8 !== undefined
  );
}

/** Array.isArray, read once: the lean read asks it of four fields of each record. */
const isArray = Array.isArray;

/** Object.keys, read once (the lean read asks it of each record). */
const keysOf = Object.keys;

/** The keys of a record in the panel's common form: `id`, `email` and the ten fields leanRecord reads, and `size`. */
const COMMON_KEYS = 13;

/** The largest safe integer (Number.MAX_SAFE_INTEGER), for the lean read's checks without a call. */
const SAFE = 2 ** 53 - 1;

/**
 * A record in the form the panel sends most (API v1's spellings only, ids and sizes as numbers,
 * flags as booleans, the address in comparison form and its `_utf8` twin the same, no aliases nor
 * forwardings), read without the general reader's steps: what parseMailboxRecord would give, made
 * directly. Undefined for any other record, which the general reader takes.
 */
function leanRecord(r: Record<string, unknown>): LiveMailbox | undefined {
  const { id, email, aliases, forwardings } = r;
  const idUser = r.id_user;
  const utf8 = r.email_utf8;
  const description = r.description;
  const maxSize = r.max_size;
  const catchAll = r.catch_all;
  const store = r.store_forwarded_emails;
  const aliasesUtf8 = r.aliases_utf8;
  const forwardingsUtf8 = r.forwardings_utf8;
  // Number.isSafeInteger written out (a whole number within ±SAFE; NaN fails every comparison),
  // and each list's emptiness inline: this runs for every record, mostly before V8 optimizes it.
  if (typeof id !== 'number' || !(id > 0 && id <= SAFE && id % 1 === 0)) return undefined;
  if (idUser !== undefined && (typeof idUser !== 'number' || !(idUser > 0 && idUser <= SAFE && idUser % 1 === 0)))
    return undefined;
  if (typeof email !== 'string' || (utf8 !== undefined && utf8 !== email) || !isNormalAddress(email)) return undefined;
  if (description !== undefined && typeof description !== 'string') return undefined;
  if (
    maxSize !== undefined &&
    (typeof maxSize !== 'number' || !(maxSize >= -SAFE && maxSize <= SAFE && maxSize % 1 === 0))
  )
    return undefined;
  if (catchAll !== undefined && typeof catchAll !== 'boolean') return undefined;
  if (store !== undefined && typeof store !== 'boolean') return undefined;
  if (aliases !== undefined && !(isArray(aliases) && aliases.length === 0)) return undefined;
  if (aliasesUtf8 !== undefined && !(isArray(aliasesUtf8) && aliasesUtf8.length === 0)) return undefined;
  if (forwardings !== undefined && !(isArray(forwardings) && forwardings.length === 0)) return undefined;
  if (forwardingsUtf8 !== undefined && !(isArray(forwardingsUtf8) && forwardingsUtf8.length === 0)) return undefined;
  // A record that holds these twelve fields and `size`, and no other key, spells nothing else: the
  // panel's common form is known without otherSpelling's fourteen look-ups.
  if (
    !(
      keysOf(r).length === COMMON_KEYS &&
      idUser !== undefined &&
      utf8 !== undefined &&
      description !== undefined &&
      maxSize !== undefined &&
      catchAll !== undefined &&
      store !== undefined &&
      aliases !== undefined &&
      aliasesUtf8 !== undefined &&
      forwardings !== undefined &&
      forwardingsUtf8 !== undefined &&
      r.size !== undefined
    ) &&
    otherSpelling(r)
  )
    return undefined;
  return {
    id,
    idUser,
    address: email,
    unicode: utf8 === undefined ? unicodeAddress(email) : email,
    description,
    maxSize: maxSize === undefined ? undefined : maxSize <= 0 ? 0 : maxSize,
    catchAll,
    storeForwardedEmails: store,
    aliases: aliases === undefined && aliasesUtf8 === undefined ? undefined : NONE,
    forwardings: forwardings === undefined && forwardingsUtf8 === undefined ? undefined : NONE,
  };
}

/** One mailbox record (`where` names it in errors: `GET https://…/api/v2/emails`, item 3). */
export function parseMailboxRecord(record: unknown, where: string): LiveMailbox {
  const r = asRecord(record, where);
  const lean = leanRecord(r);
  if (lean !== undefined) return lean;
  const id = spelled(r, MAILBOX_SPELLINGS.id, where, idReader);
  if (id === undefined) throw contract(where, `"id" must be a positive whole number, got nothing`);
  const { address, unicode } = readAddress(r, where);
  const domain = domainOf(address);
  return {
    id,
    idUser: spelled(r, MAILBOX_SPELLINGS.idUser, where, ownerReader),
    address,
    unicode,
    description: spelled(r, MAILBOX_SPELLINGS.description, where, textReader),
    maxSize: spelled(r, MAILBOX_SPELLINGS.maxSize, where, sizeReader),
    catchAll: spelled(r, MAILBOX_SPELLINGS.catchAll, where, optionalFlag),
    storeForwardedEmails: spelled(r, MAILBOX_SPELLINGS.storeForwardedEmails, where, optionalFlag),
    aliases: twinLists(r, MAILBOX_SPELLINGS.aliases, domain, where),
    forwardings: twinLists(r, MAILBOX_SPELLINGS.forwardings, domain, where),
  };
}

/** A mailbox read by its id: `GET /emails/{id}`. */
export const MAILBOX_RECORD: RecordRead<LiveMailbox> = {
  path: (id) => `${MAILBOXES_PATH}/${id}`,
  parse: parseMailboxRecord,
};
