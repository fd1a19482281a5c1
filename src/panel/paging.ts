/**
 * Signs that a list answer is one page of several, in a wrapper object or in the headers. A
 * missed page would become a duplicate POST (and a client that looks as if it had fewer
 * domains than it has could slip past --max-deletes), so any sign refuses the list:
 * - a paging key (`next`, `links`, `page`, `per_page`, `limit`, `offset`, `cursor`, ...), at any
 *   depth of the wrapper's objects (`meta`, `pagination`, `paging`, `result_info`, ...);
 * - a total-like key (`total`, `count`, `totalCount`, `total_count`, `clients_count`, ...)
 *   whose number, or numeric string (PHP panels send numbers as strings), differs from the
 *   records in the answer; one that is neither a number nor a numeric string cannot be checked
 *   and refuses too;
 * - the same in headers: `Link` with a paging relation, `X-Total-Count` (and its kin) that
 *   differs from the answer's records, `X-Page`, `X-Per-Page`, `X-Pagination-*`, a
 *   `Content-Range` with another total.
 * Keys and header names are compared in every spelling: case, `_`, `-` and spaces ignored
 * (totalCount, TotalCount, total_count and Total-Count are one key).
 */
import { quote } from '../escape.js';
import { isRecord } from '../util.js';
import { shape } from './records.js';

/** A key's spelling-free form: lowercase, without `_`, `-`, `.` and spaces. */
function squash(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, '');
}

/** Squashed keys that mean "this is a page": paging state, links to other pages, a window. */
const PAGING_KEYS = new Set([
  'next',
  'nextpage',
  'nextpageurl',
  'nexturl',
  'nextlink',
  'nextcursor',
  'nextpagetoken',
  'nexttoken',
  'nextoffset',
  'prev',
  'previous',
  'prevpage',
  'prevpageurl',
  'previouspage',
  'previouspageurl',
  'links',
  'cursor',
  'cursors',
  'pagetoken',
  'continuationtoken',
  'hasmore',
  'hasnext',
  'hasnextpage',
  'haspreviouspage',
  'ismore',
  'page',
  'pages',
  'pageno',
  'pagenumber',
  'pageindex',
  'pagesize',
  'pagecount',
  'perpage',
  'currentpage',
  'firstpage',
  'lastpage',
  'lastpageurl',
  'firstpageurl',
  'totalpages',
  'numpages',
  'limit',
  'offset',
  'skip',
  'take',
  'startindex',
  'itemsperpage',
]);

/**
 * A key that states how many records there are in all (compared with the answer's): `count`,
 * `total`, `numFound`, anything starting with `total` (totalCount, total_items), and a word
 * ending in count or total (clients_count, itemCount, grand-total), but not a word that only
 * ends in those letters (discount, account).
 */
function isTotalKey(key: string, squashed: string): boolean {
  return (
    squashed === 'count' ||
    squashed === 'total' ||
    squashed === 'numfound' ||
    squashed.startsWith('total') ||
    /(?:^|[-_.\s])(?:count|total)$/i.test(key) ||
    /[a-z0-9](?:Count|Total)$/.test(key)
  );
}

/** A count as a number: a non-negative integer, or a string of one (`"250"`, ` 250 `); undefined when it is neither. */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return /^\+?\d{1,15}(?:\.0*)?$/.test(text) ? Number(text) : undefined;
}

/** How deep the wrapper's objects are searched (meta.pagination.total is 2). */
const MAX_DEPTH = 4;

/**
 * A paging sign in a list wrapper `body` whose records are `body[arrayKey]` (`length` of
 * them), as the end of a sentence; undefined when there is none.
 */
export function wrapperPaging(body: Record<string, unknown>, arrayKey: string, length: number): string | undefined {
  const search = (container: Record<string, unknown>, path: string, depth: number): string | undefined => {
    for (const [key, value] of Object.entries(container)) {
      if (depth === 0 && key === arrayKey) continue;
      const squashed = squash(key);
      const name = quote(`${path}${key}`);
      if (squashed === 'pagination' || squashed === 'paging') {
        // A container of paging facts (searched below); anything else there is a sign by itself.
        if (value !== null && !isRecord(value)) return `it has ${name}`;
      } else if (PAGING_KEYS.has(squashed)) {
        return `it has ${name}`;
      }
      if (isTotalKey(key, squashed) && value !== null && !isRecord(value)) {
        const count = countOf(value);
        if (count === undefined)
          return `${name} is ${shape(value)}, not a count: whether the list is complete cannot be told`;
        if (count !== length) return `${name} is ${count}, the answer has ${length} records`;
      }
      if (isRecord(value) && depth + 1 < MAX_DEPTH) {
        const inner = search(value, `${path}${key}.`, depth + 1);
        if (inner !== undefined) return inner;
      }
    }
    return undefined;
  };
  return search(body, '', 0);
}

/** Squashed header names (without a leading `x`) that mean the answer is a page. */
const PAGING_HEADERS = new Set([
  'page',
  'perpage',
  'pagesize',
  'nextpage',
  'prevpage',
  'totalpages',
  'limit',
  'offset',
  'cursor',
  'nextcursor',
  'continuationtoken',
]);

/** Squashed header names (without a leading `x`) that state how many records there are in all. */
const TOTAL_HEADERS = new Set([
  'total',
  'totalcount',
  'totalitems',
  'totalrecords',
  'totalresults',
  'totalentries',
  'resultcount',
  'itemcount',
  'recordcount',
  'count',
]);

/**
 * A paging hint in a list's headers, or undefined: a `Link` with a paging relation (next, prev,
 * previous, first or last; rel may list several, `rel="prev next"`, RFC 8288), a total
 * (`X-Total-Count`, `X-Total`, in any spelling) that is not a count or differs from the
 * records in the answer, any `X-Pagination-*`, `X-Page`, `X-Per-Page`, `X-Next-Page`,
 * `X-Limit`, `X-Offset` and their kin, or a `Content-Range` whose total differs. `length` is
 * the answer's record count when known (a bare array; a wrapped list's headers are checked
 * again with its count).
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
    const squashed = squash(key).replace(/^x/, '');
    if (squashed.startsWith('pagination') || PAGING_HEADERS.has(squashed)) return `it has the header ${name}`;
    if (TOTAL_HEADERS.has(squashed) && length !== undefined) {
      const count = countOf(value);
      if (count === undefined)
        return `${name} is ${quote(value)}, not a count: whether the list is complete cannot be told`;
      if (count !== length) return `${name} is ${count}, the answer has ${length} records`;
    }
    if (key === 'content-range' && length !== undefined) {
      const total = /\/\s*(\d+)\s*$/.exec(value)?.[1];
      if (total !== undefined && Number(total) !== length && !/^bytes\b/i.test(value))
        return `its Content-Range is ${quote(value)}, the answer has ${length} records`;
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
