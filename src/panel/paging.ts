/**
 * Whether a list answer is the whole list. A missed page would become a duplicate POST (and a
 * client that looks as if it had fewer domains than it has could slip past --max-deletes).
 *
 * A wrapper object is held to an allowlist (every public client reads bare arrays, so a
 * wrapper is already unusual, and a key nobody has seen is refused rather than guessed at):
 * besides the one array of records it may hold only
 * - a total (`total`, `count`, `totalCount`, `total_count`, `num_results`, `@odata.count`,
 *   `clients_count`, ...) whose number, or numeric string (PHP panels send numbers as
 *   strings), equals the records in the answer;
 * - a key that points at a further page (`next`, `prev`, `previous`, `next_page_url`,
 *   `nextPageToken`, `next_marker`, `hasMore`, `has_next`, `truncated`, `isTruncated`,
 *   `incomplete_results`, ...) whose value says there is none: null, false, 0 or "";
 * - `status`, `code` that say success (ok, success, true, 0, 2xx), `success` or `ok` that is
 *   true, a `message` that is text;
 * - rate-limit facts (`rate_limit`, `RateLimit`, ...: requests, not records);
 * - null under any key (it says nothing);
 * - an object (`meta`, `pagination`, `links`, ...) holding only the same, at most 6 deep.
 * Anything else refuses the list: a paging sign as such (`"total": 250` beside 1 record,
 * `"next": "?page=2"`, `"hasMore": true`, a key with page, limit, offset, cursor, marker,
 * after, skip, ... in it), any other key (`generated_at`, `number`, another array) as one not
 * known to be harmless.
 *
 * Headers cannot be held to an allowlist (proxies add their own), so any header of the paging
 * class refuses: a `Link` with a paging relation; a name with page, cursor, offset, limit,
 * marker or continuation in it (`X-Page`, `X-Per-Page`, `X-Total-Pages`, `X-Pagination-*`,
 * `X-Next-Cursor`, `X-Limit`, `X-Offset`), but not rate limits and quotas
 * (`X-RateLimit-Limit`, `RateLimit-Remaining`, `X-Quota-Limit`) nor PageSpeed; `X-Next`,
 * `X-Has-More`, `X-Truncated` and their kin unless they say no;
 * a total (`X-Total`, `X-Total-Count`, `X-Result-Count`, ...) that differs from the records; a
 * `Content-Range` of records (not bytes) whose total differs or is unknown.
 *
 * Keys and header names are compared in every spelling: case, `_`, `-`, `.`, `@` and spaces
 * ignored (totalCount, TotalCount, total_count and Total-Count are one key).
 */
import { quote } from '../escape.js';
import { isRecord } from '../util.js';
import { shape } from '../kinds/panel-record.js';

/** A key's spelling-free form: lowercase letters and digits only. */
function squash(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A key's words: split at separators and at a lower-to-upper case change (`nextPageToken` is next, page, token). */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Words of a key that points at another page: it is harmless only when it says there is none. */
const FURTHER_WORDS = new Set(['next', 'prev', 'previous', 'more', 'truncated', 'incomplete']);

function isFurtherKey(key: string): boolean {
  return (
    words(key).some((word) => FURTHER_WORDS.has(word)) ||
    /^(?:has|is)?(?:next|more|truncated|previous)/.test(squash(key))
  );
}

/**
 * The words a total's key may be made of (`total_count`, `numResults`, `clients_count`,
 * `@odata.count`), at least one of them saying "how many". A word outside them (page, size,
 * limit, remaining, ...) makes the key something else: `pageCount`, `total_pages` and
 * `remaining_count` are no totals of records.
 */
const TOTAL_WORDS = new Set(['total', 'count', 'num', 'found']);
const COUNTED_WORDS = new Set([
  ...TOTAL_WORDS,
  'number',
  'of',
  'all',
  'grand',
  'x',
  'odata',
  'result',
  'results',
  'item',
  'items',
  'record',
  'records',
  'entry',
  'entries',
  'row',
  'rows',
  'hit',
  'hits',
  'match',
  'matches',
  'object',
  'objects',
  'element',
  'elements',
  'client',
  'clients',
  'domain',
  'domains',
  'plan',
  'plans',
  'hosting',
  'user',
  'users',
]);
/** All-lowercase or all-capital spellings that have no word breaks (TOTALCOUNT, totalitems). */
const TOTAL_SQUASHED = new Set([
  'count',
  'total',
  'totalcount',
  'totalitems',
  'totalrecords',
  'totalresults',
  'totalentries',
  'totalrows',
  'itemcount',
  'resultcount',
  'recordcount',
  'numfound',
  'numresults',
  'numitems',
  'numrecords',
]);

function isTotalKey(key: string): boolean {
  if (TOTAL_SQUASHED.has(squash(key))) return true;
  const parts = words(key);
  // number_of_results counts; number alone is a page's number (Spring's "number": 0).
  const counting = parts.some((word) => TOTAL_WORDS.has(word)) || (parts[0] === 'number' && parts[1] === 'of');
  return counting && parts.every((word) => COUNTED_WORDS.has(word));
}

/**
 * Rate limits and quotas (`rate_limit`, `X-RateLimit-Limit`, `X-Quota-Remaining`,
 * `X-Shopify-Shop-Api-Call-Limit`): about requests, never records.
 */
function isRateLimit(key: string): boolean {
  return /ratelimit|quota|throttl|calllimit|requestlimit/.test(squash(key));
}

/** A count as a number: a non-negative integer, or a string of one (`"250"`, ` 250 `); undefined when it is neither. */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return /^\+?\d{1,15}(?:\.0*)?$/.test(text) ? Number(text) : undefined;
}

/** Whether a value says "no": false, 0, "", "0", "false", "no" (PHP panels send booleans as numbers or strings). */
function isNo(value: unknown): boolean {
  if (value === false || value === 0) return true;
  return typeof value === 'string' && /^(?:|0|false|no)$/i.test(value.trim());
}

/** Whether a value says "yes": true, 1, "1", "true", "yes". */
function isYes(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && /^(?:1|true|yes)$/i.test(value.trim());
}

/** A `status` or `code` that says success: ok, success, 0, a 2xx (`200`, `"200 OK"`). */
function isSuccessStatus(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value === 'number') return value === 0 || (Number.isInteger(value) && value >= 200 && value < 300);
  return typeof value === 'string' && /^\s*(?:ok|okay|success|successful|succeeded|0|2\d\d\b[^]*)\s*$/i.test(value);
}

/** The scalar keys a wrapper may hold beside the records, and whether each value is harmless. */
const HARMLESS: ReadonlyMap<string, (value: unknown) => boolean> = new Map([
  ['status', isSuccessStatus],
  ['code', isSuccessStatus],
  ['success', isYes],
  ['ok', isYes],
  ['message', (value: unknown) => typeof value === 'string'],
]);

/**
 * Parts of a key that name a window or a position in a longer list (`per_page`, `PageSize`,
 * `limit`, `next_cursor`).
 */
const PAGING_WORDS = ['page', 'paging', 'pagination', 'limit', 'offset', 'cursor', 'marker', 'continuation'];
/** Whole words that do (`after`, `skip`). */
const PAGING_WORD_SET = new Set(['after', 'before', 'skip', 'take', 'start', 'from']);

/** How deep the wrapper's objects may nest (meta.pagination.total is 2); deeper refuses. */
const MAX_DEPTH = 6;

/**
 * Why a list wrapper cannot be taken for the whole list, as the end of a sentence:
 * `paged` for a sign of paging ("total" is 250 beside 1 record), `unknown` for a key not
 * known to be harmless; undefined when the wrapper passes. `body[arrayKey]` holds the
 * records (`length` of them).
 */
export function wrapperPaging(
  body: Record<string, unknown>,
  arrayKey: string,
  length: number,
): { paged: string } | { unknown: string } | undefined {
  const search = (
    container: Record<string, unknown>,
    path: string,
    depth: number,
  ): { paged: string } | { unknown: string } | undefined => {
    for (const [key, value] of Object.entries(container)) {
      if (depth === 0 && key === arrayKey) continue;
      const name = quote(`${path}${key}`);
      if (value === null || isRateLimit(key)) continue;
      if (isFurtherKey(key)) {
        if (isNo(value)) continue;
        return { paged: `it has ${name}` };
      }
      if (isTotalKey(key)) {
        const count = countOf(value);
        if (count === undefined)
          return { paged: `${name} is ${shape(value)}, not a count: whether the list is complete cannot be told` };
        if (count !== length) return { paged: `${name} is ${count}, the answer has ${length} records` };
        continue;
      }
      const squashed = squash(key);
      if (isRecord(value) && (squashed === 'pagination' || squashed === 'paging')) {
        // A container of paging facts: what it holds decides (a null next, a matching total).
      } else if (
        PAGING_WORDS.some((word) => squashed.includes(word)) ||
        words(key).some((word) => PAGING_WORD_SET.has(word))
      ) {
        return { paged: `it has ${name}` };
      }
      const harmless = HARMLESS.get(squashed);
      if (harmless !== undefined && typeof value !== 'object') {
        if (harmless(value)) continue;
        return {
          unknown:
            `${name}, which is ${typeof value === 'string' ? quote(value) : JSON.stringify(value)}: ` +
            'the panel may not have sent the whole list',
        };
      }
      if (isRecord(value)) {
        if (depth + 1 > MAX_DEPTH) return { unknown: `${name}, an object nested too deep to check` };
        const inner = search(value, `${path}${key}.`, depth + 1);
        if (inner !== undefined) return inner;
        continue;
      }
      return {
        unknown:
          `${name} (${shape(value)}), ` +
          'a key not known to be harmless: ' +
          'it may mean the list is one page of several',
      };
    }
    return undefined;
  };
  return search(body, '', 0);
}

/** Header words after "total" that count no records. */
const NOT_RECORDS = new Set(['time', 'duration', 'ms', 'seconds', 'latency', 'bytes', 'size']);

/** Header words that mean the answer is one of several pages, whatever their value. */
const PAGING_HEADER_WORDS = ['page', 'cursor', 'offset', 'limit', 'marker', 'continuation'];

/**
 * A paging hint in a list's headers, or undefined: a `Link` with a paging relation (next, prev,
 * previous, first or last; rel may list several, `rel="prev next"`, RFC 8288); a name of the
 * paging class (see the top of this file), rate limits aside; `X-Has-More`, `X-Truncated` and
 * their kin unless they say no; a total (`X-Total-Count`, `X-Total`, `X-Result-Count`, in any
 * spelling) that is not a count or differs from the records in the answer; a `Content-Range`
 * of records whose total differs or is `*`. `length` is the answer's record count when known
 * (a bare array; a wrapped list's headers are checked again with its count).
 */
export function headerPaging(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  length: number | undefined,
): string | undefined {
  for (const [name, raw] of Object.entries(headers)) {
    const key = name.toLowerCase();
    const value = (Array.isArray(raw) ? raw.join(', ') : (raw ?? '')).trim();
    const rel = key === 'link' ? linkRelations(value).find((r) => PAGING_RELATIONS.has(r)) : undefined;
    if (rel !== undefined) return `its Link header has rel="${rel}"`;
    if (key === 'content-range') {
      if (length === undefined || /^bytes\b/i.test(value)) continue;
      const total = /\/\s*(\d+)\s*$/.exec(value)?.[1];
      if (total === undefined || Number(total) !== length)
        return `its Content-Range is ${quote(value)}, the answer has ${length} records`;
      continue;
    }
    if (isRateLimit(key)) continue;
    const squashed = squash(key).replace(/^x/, '');
    // PageSpeed (a web server module) names no page of records.
    if (PAGING_HEADER_WORDS.some((word) => squashed.includes(word)) && !squashed.includes('pagespeed'))
      return `it has the header ${name}`;
    // has-more, next, truncated: a page unless it says no (Next.js's x-nextjs-* is no page).
    const further =
      !squashed.startsWith('nextjs') &&
      (words(key).some((word) => FURTHER_WORDS.has(word)) ||
        /^(?:has|is)?(?:next|more|truncated|previous|incomplete)/.test(squashed));
    if (further) {
      if (isNo(value)) continue;
      return `it has the header ${name}`;
    }
    // X-Total-Time and its kin (a server's timing) are no totals of records.
    const total =
      (squashed.startsWith('total') && !words(key).some((word) => NOT_RECORDS.has(word))) ||
      TOTAL_SQUASHED.has(squashed) ||
      isTotalKey(key);
    if (total && length !== undefined) {
      const count = countOf(value);
      if (count === undefined)
        return `${name} is ${quote(value)}, not a count: whether the list is complete cannot be told`;
      if (count !== length) return `${name} is ${count}, the answer has ${length} records`;
    }
  }
  return undefined;
}

/** Link relations that mean the answer is one page of several. */
const PAGING_RELATIONS = new Set(['next', 'prev', 'previous', 'first', 'last']);

/**
 * The relation types of every link in a `Link` header (RFC 8288): each `<uri>` with its
 * parameters, `rel` quoted or not, a quoted one a space-separated list; lowercased. Commas and
 * semicolons inside a URI or a quoted value do not split it.
 */
function linkRelations(header: string): string[] {
  const relations: string[] = [];
  for (const link of header.matchAll(/<[^>]*>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g)) {
    for (const param of (link[1] ?? '').matchAll(/;\s*([^;,=\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g)) {
      if (param[1]?.toLowerCase() !== 'rel') continue;
      relations.push(
        ...(param[2] ?? param[3] ?? '')
          .toLowerCase()
          .split(/\s+/)
          .filter((r) => r !== ''),
      );
    }
  }
  return relations;
}
