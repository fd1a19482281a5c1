import { ProvisionError } from '../errors.js';
import type { PanelClient } from './client.js';
import { shape } from './records.js';
import { isRecord } from '../util.js';

/**
 * Reading a list endpoint whole: its records, and the refusal of any answer that looks like one
 * page of several (a missed page would become a duplicate POST).
 */

/** Keys of a list wrapper that mean "there is more": a missed page would become a duplicate POST. */
const PAGING_KEYS = [
  'next',
  'links',
  'next_page_url',
  'next_cursor',
  'has_more',
  'last_page',
  'page',
  'current_page',
  'per_page',
  'page_size',
  'cursor',
];
const COUNT_KEYS = ['total', 'count', 'total_count'];

/**
 * A list endpoint's records. Accepted: a bare array, or an object wrapping exactly one array
 * (`{"data": [...]}`) with no sign of paging: none of PAGING_KEYS (at the top or in `meta`/
 * `pagination`), and no `total`/`count`/
 * `total_count` (at the top or in `meta`/`pagination`) larger than the array.
 */
export function readList(client: PanelClient, path: string): Promise<unknown[]> {
  return readRecords(client, path, (record) => record);
}

/**
 * readList, each record made by `parse` ('GET /api/v2/domains[3]' names it in errors). A bare
 * array is parsed one element at a time as it streams in (PanelClient.getList): the answer is
 * never held whole, as text or as parsed JSON, beside the records. The checks of the list come
 * first, as when it was read whole: a paged list is refused before a bad record is reported.
 */
export async function readRecords<T>(
  client: PanelClient,
  path: string,
  parse: (record: unknown, where: string) => T,
): Promise<T[]> {
  const answer = await client.getList(path, parse);
  const where = client.describe('GET', path);
  const { headers } = answer;
  const refuse = (what: string): never => {
    throw new ProvisionError('panel_contract', `${where}: ${what}`, {
      hint: 'panel-provision reads complete lists only (a missed record would be created twice); report the panel version and this answer',
    });
  };
  const checkPaging = (length: number | undefined): void => {
    const paged = pagingHeader(headers, length);
    if (paged !== undefined) refuse(`the list looks paged (${paged}); only complete lists can be planned on`);
  };
  if ('items' in answer) {
    checkPaging(answer.count);
    if (answer.failed !== undefined) throw answer.failed.thrown;
    return answer.items;
  }
  const body = answer.value;
  const each = (records: unknown[]): T[] => records.map((record, i) => parse(record, `${where}[${i}]`));
  checkPaging(Array.isArray(body) ? body.length : undefined);
  if (Array.isArray(body)) return each(body as unknown[]);
  if (!isRecord(body)) return refuse(`expected a JSON array (or an object wrapping one), got ${shape(body)}`);
  const arrays = Object.keys(body).filter((key) => Array.isArray(body[key]));
  if (arrays.length !== 1) {
    return refuse(
      `expected a JSON array or an object wrapping exactly one array, got an object with ${arrays.length} arrays${arrays.length > 0 ? ` (${arrays.join(', ')})` : ''}`,
    );
  }
  const records = body[arrays[0] ?? ''] as unknown[];
  checkPaging(records.length);
  // Paging hints may stand beside the array or inside `meta` / `pagination` (Laravel- and
  // JSON:API-style wrappers): any of them means a partial read.
  for (const [container, where] of [
    [body, ''],
    [body.meta, 'meta.'],
    [body.pagination, 'pagination.'],
  ] as const) {
    if (!isRecord(container)) continue;
    const paging = PAGING_KEYS.find((key) => key in container);
    if (paging !== undefined)
      return refuse(`the list looks paged (it has "${where}${paging}"); only complete lists can be planned on`);
  }
  for (const container of [body, body.meta, body.pagination]) {
    if (!isRecord(container)) continue;
    for (const key of COUNT_KEYS) {
      const count = container[key];
      if (typeof count === 'number' && count > records.length) {
        return refuse(`the list looks paged ("${key}" is ${count}, the answer has ${records.length} records)`);
      }
    }
  }
  return each(records);
}

/**
 * A paging hint in a list's headers, or undefined: a `Link` with a paging relation (next, prev,
 * previous, first or last; rel may list several, `rel="prev next"`, RFC 8288), an
 * `X-Total-Count` (or `X-Total`) above the records in the answer, any `X-Pagination-*`, or
 * `X-Next-Page` / `X-Page` style headers. `length` is the answer's record count when it is a
 * bare array (a wrapped list's count is compared again with the wrapper's).
 */
function pagingHeader(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  length: number | undefined,
): string | undefined {
  for (const [name, raw] of Object.entries(headers)) {
    const key = name.toLowerCase();
    const value = Array.isArray(raw) ? raw.join(', ') : (raw ?? '');
    const rel = key === 'link' ? linkRelations(value).find((r) => PAGING_RELATIONS.has(r)) : undefined;
    if (rel !== undefined) return `its Link header has rel="${rel}"`;
    if (key.startsWith('x-pagination')) return `it has the header ${name}`;
    if (key === 'x-next-page' || key === 'x-total-pages' || key === 'x-per-page' || key === 'x-page')
      return `it has the header ${name}`;
    if (
      (key === 'x-total-count' || key === 'x-total') &&
      length !== undefined &&
      /^\d+$/.test(value.trim()) &&
      Number(value) > length
    ) {
      return `${name} is ${value.trim()}, the answer has ${length} records`;
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
