/**
 * A list answer that is one page of several is refused however the page says so (issue 20
 * item 4): totals sent as strings (PHP panels), totals in any spelling (totalCount,
 * TotalCount, total_count, num_results, @odata.count) at the top of the wrapper or inside
 * meta/pagination/any object, limit/offset/page/per_page windows, cursors and markers, and
 * headers of the paging class in any case. A wrapper is held to an allowlist: a key not known
 * to be harmless refuses the list too, while a complete last page (a matching count, a null
 * next, rate-limit facts, a success status) is read. Over real HTTP on loopback; then through
 * the CLI, where such a page once let apply delete a client whose domains it had not seen,
 * past --max-deletes.
 */
import { describe, expect, it } from 'vitest';
import { readList } from '../../src/panel/index.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';
import { client, rejection } from '../helpers/panel.js';
import { jsonPanel } from '../helpers/raw-panel.js';

const ONE = [{ id: 1, username: 'a' }];
const THREE = [
  { id: 1, username: 'a' },
  { id: 2, username: 'b' },
  { id: 3, username: 'c' },
];

async function refusal(json: unknown, headers: Record<string, string> = {}): Promise<string> {
  const error = await rejection(readList(client(await jsonPanel(json, headers)), '/clients'));
  expect(error.code).toBe('panel_contract');
  return error.message;
}

describe('a wrapped page is refused', () => {
  it.each([
    // The two answers.
    [{ domains: ONE, total: '250' }, '"total" is 250, the answer has 1 records'],
    [{ data: ONE, limit: 1, offset: 0, totalCount: 250 }, 'it has "limit"'],
    // Totals as strings, in every spelling, anywhere in the wrapper.
    [{ data: ONE, totalCount: 250 }, '"totalCount" is 250, the answer has 1 records'],
    [{ data: ONE, TotalCount: '250' }, '"TotalCount" is 250, the answer has 1 records'],
    [{ data: ONE, total_count: ' 250 ' }, '"total_count" is 250, the answer has 1 records'],
    [{ data: ONE, 'X-Total-Count': '250' }, '"X-Total-Count" is 250, the answer has 1 records'],
    [{ data: ONE, count: '2' }, '"count" is 2, the answer has 1 records'],
    [{ data: ONE, Total: 250.0 }, '"Total" is 250, the answer has 1 records'],
    [{ data: ONE, clients_count: 9 }, '"clients_count" is 9, the answer has 1 records'],
    [{ data: ONE, meta: { itemCount: '9' } }, '"meta.itemCount" is 9, the answer has 1 records'],
    [{ data: ONE, 'grand-total': 9 }, '"grand-total" is 9, the answer has 1 records'],
    [{ data: ONE, meta: { total: '250' } }, '"meta.total" is 250, the answer has 1 records'],
    [{ data: ONE, Meta: { TotalCount: 250 } }, '"Meta.TotalCount" is 250, the answer has 1 records'],
    [{ data: ONE, pagination: { totalCount: '250' } }, '"pagination.totalCount" is 250, the answer has 1 records'],
    [{ data: ONE, result_info: { total_count: 250 } }, '"result_info.total_count" is 250, the answer has 1 records'],
    [{ data: ONE, meta: { page: { total: 250 } } }, 'it has "meta.page"'],
    // A total below the answer's records disagrees too; one that is no count cannot be checked.
    [{ data: THREE, total: 1 }, '"total" is 1, the answer has 3 records'],
    [{ data: ONE, total: 'many' }, '"total" is a string, not a count: whether the list is complete cannot be told'],
    [{ data: ONE, total: true }, '"total" is a boolean, not a count: whether the list is complete cannot be told'],
    [{ data: ONE, total: -1 }, '"total" is -1, not a count: whether the list is complete cannot be told'],
    // Windows and cursors in any spelling.
    [{ data: ONE, Limit: '1' }, 'it has "Limit"'],
    [{ data: ONE, offset: '0' }, 'it has "offset"'],
    [{ data: ONE, perPage: 1 }, 'it has "perPage"'],
    [{ data: ONE, PageSize: 1 }, 'it has "PageSize"'],
    [{ data: ONE, meta: { per_page: 1 } }, 'it has "meta.per_page"'],
    [{ data: ONE, paging: { cursors: { after: 'x' } } }, 'it has "paging.cursors"'],
    [{ data: ONE, nextPageToken: 'x' }, 'it has "nextPageToken"'],
    [{ data: ONE, hasMore: true }, 'it has "hasMore"'],
    [{ data: ONE, pagination: 'yes' }, 'it has "pagination"'],
    // The second review's answers, read as complete 1-record lists before the allowlist.
    [
      { data: ONE, total: { value: 250 } },
      '"total" is an object, not a count: whether the list is complete cannot be told',
    ],
    [{ data: ONE, num_results: 250 }, '"num_results" is 250, the answer has 1 records'],
    [{ data: ONE, numResults: '250' }, '"numResults" is 250, the answer has 1 records'],
    [{ data: ONE, truncated: true }, 'it has "truncated"'],
    [{ data: ONE, isTruncated: 'true' }, 'it has "isTruncated"'],
    [{ data: ONE, next_marker: 'k' }, 'it has "next_marker"'],
    [{ data: ONE, after: 'k' }, 'it has "after"'],
    // More of the class: OData, GitHub's search, has_more as PHP sends it, a further page in links.
    [{ value: ONE, '@odata.count': 250 }, '"@odata.count" is 250, the answer has 1 records'],
    [{ value: ONE, '@odata.nextLink': 'https://p/clients?$skip=1' }, 'it has "@odata.nextLink"'],
    [{ items: ONE, incomplete_results: true }, 'it has "incomplete_results"'],
    [{ data: ONE, has_more: '1' }, 'it has "has_more"'],
    [{ data: ONE, links: { next: '?page=2', prev: null } }, 'it has "links.next"'],
    [{ data: ONE, previous: '?page=1' }, 'it has "previous"'],
    [{ data: ONE, meta: { total_pages: 1 } }, 'it has "meta.total_pages"'],
    [{ data: ONE, NextMarker: 'k' }, 'it has "NextMarker"'],
  ])('%j', async (json, why) => {
    expect(await refusal(json)).toBe(
      `GET /api/v2/clients: the list looks paged (${why}); only complete lists can be planned on`,
    );
  });
});

describe('a wrapper key not known to be harmless refuses the list', () => {
  const NOT_KNOWN = 'a key not known to be harmless: it may mean the list is one page of several';
  it.each([
    [{ data: ONE, account: 'admin' }, `"account" (a string), ${NOT_KNOWN}`],
    [{ data: ONE, discount: 'none' }, `"discount" (a string), ${NOT_KNOWN}`],
    [{ data: ONE, meta: { generated_at: 'today' } }, `"meta.generated_at" (a string), ${NOT_KNOWN}`],
    [{ data: ONE, version: { api: 2 } }, `"version.api" (2), ${NOT_KNOWN}`],
    [{ data: ONE, pagination: { meta: [{ total: 250 }] } }, `"pagination.meta" (an array), ${NOT_KNOWN}`],
    [{ data: ONE, remaining_count: 1 }, `"remaining_count" (1), ${NOT_KNOWN}`],
    [
      { data: ONE, meta: { a: { b: { c: { d: { e: { f: {} } } } } } } },
      '"meta.a.b.c.d.e.f", an object nested too deep to check',
    ],
    [{ data: ONE, success: false }, '"success", which is false: the panel may not have sent the whole list'],
    [{ data: ONE, status: 'error' }, '"status", which is "error": the panel may not have sent the whole list'],
    [{ data: ONE, constructor: 'x' }, `"constructor" (a string), ${NOT_KNOWN}`],
    [{ data: ONE, number: 1, size: 20 }, `"number" (1), ${NOT_KNOWN}`],
    [{ data: ONE, code: 500 }, '"code", which is 500: the panel may not have sent the whole list'],
  ])('%j', async (json, why) => {
    const error = await rejection(readList(client(await jsonPanel(json)), '/clients'));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toBe(
      `GET /api/v2/clients: the list's wrapper has ${why}; only complete lists can be planned on`,
    );
    expect(error.hint).toMatch(/Report the panel version and this answer$/);
  });

  it('a second array, "meta" among them, is no wrapper', async () => {
    expect(await refusal({ data: ONE, meta: [{ total: 250 }] })).toBe(
      'GET /api/v2/clients: expected a JSON array or an object wrapping exactly one array, got an object with 2 arrays (data, meta)',
    );
  });
});

describe('a page announced in headers is refused', () => {
  it.each([
    [THREE, { 'x-total-count': '250' }, 'x-total-count is 250, the answer has 3 records'],
    [THREE, { 'X-Total-Count': ' 250 ' }, 'x-total-count is 250, the answer has 3 records'],
    [THREE, { 'x-total-count': '1' }, 'x-total-count is 1, the answer has 3 records'],
    [THREE, { 'x-total': 'lots' }, 'x-total is "lots", not a count: whether the list is complete cannot be told'],
    [THREE, { 'x-totalcount': '250' }, 'x-totalcount is 250, the answer has 3 records'],
    [THREE, { 'x-total_count': '250' }, 'x-total_count is 250, the answer has 3 records'],
    [THREE, { 'x-limit': '3' }, 'it has the header x-limit'],
    [THREE, { 'x-offset': '0' }, 'it has the header x-offset'],
    [THREE, { 'x-per-page': '3' }, 'it has the header x-per-page'],
    [THREE, { 'x-page': '1' }, 'it has the header x-page'],
    [THREE, { 'content-range': 'items 0-2/250' }, 'its Content-Range is "items 0-2/250", the answer has 3 records'],
    // The second review's headers, and the rest of the class.
    [THREE, { 'X-Has-More': 'true' }, 'it has the header x-has-more'],
    [THREE, { 'X-HasMore': '1' }, 'it has the header x-hasmore'],
    [THREE, { 'X-Next': '/clients?after=3' }, 'it has the header x-next'],
    [THREE, { 'X-Next-Cursor': 'k' }, 'it has the header x-next-cursor'],
    [THREE, { 'X-Truncated': 'yes' }, 'it has the header x-truncated'],
    [THREE, { 'X-Total-Pages': '1' }, 'it has the header x-total-pages'],
    [THREE, { 'X-Items-Per-Page': '3' }, 'it has the header x-items-per-page'],
    [THREE, { 'X-Ms-Continuation': 'k' }, 'it has the header x-ms-continuation'],
    [THREE, { 'X-Next-Marker': 'k' }, 'it has the header x-next-marker'],
    [THREE, { 'X-Result-Count': '9' }, 'x-result-count is 9, the answer has 3 records'],
    [THREE, { 'X-TotalHits': '9' }, 'x-totalhits is 9, the answer has 3 records'],
    [THREE, { Link: '<https://p.example/clients?page=9>; rel="last"' }, 'its Link header has rel="last"'],
    [THREE, { 'content-range': 'items 0-2/*' }, 'its Content-Range is "items 0-2/*", the answer has 3 records'],
    // A wrapped list's headers are compared with its records.
    [{ data: THREE }, { 'x-total-count': '250' }, 'x-total-count is 250, the answer has 3 records'],
  ])('%j with %j', async (json, headers, why) => {
    expect(await refusal(json, headers)).toBe(
      `GET /api/v2/clients: the list looks paged (${why}); only complete lists can be planned on`,
    );
  });
});

describe('a complete list is read', () => {
  it.each([
    [THREE, {}],
    [THREE, { 'x-total-count': '3' }],
    [THREE, { 'content-range': 'items 0-2/3' }],
    [{ data: THREE }, {}],
    [{ data: THREE, total: '3' }, {}],
    [{ data: THREE, totalCount: 3, meta: { count: '3', generated_at: null } }, {}],
    [{ clients: THREE, total: null, status: 'ok', version: null }, { 'x-total-count': '3' }],
    [{ data: THREE, meta: { itemCount: 3, grand_total: '3' } }, {}],
    // A complete last page: a matching count, no further page, harmless facts beside.
    [{ count: 3, next: null, previous: null, results: THREE }, {}],
    [{ data: THREE, meta: { rate_limit: { limit: 100, remaining: 99 } } }, {}],
    [{ data: THREE, hasMore: false, has_next: 0, truncated: 'false', next_page_url: '' }, {}],
    [{ data: THREE, links: { next: null, prev: null }, pagination: { total: 3 } }, {}],
    [{ success: true, ok: 1, status: 200, code: '200 OK', message: 'Clients listed', data: THREE }, {}],
    [{ status: true, code: 0, number_of_results: 3, data: THREE }, {}],
    [{ value: THREE, '@odata.count': 3, num_results: '3' }, {}],
    [{ data: THREE, meta: { a: { b: { c: { d: { e: { total: 3 } } } } } } }, {}],
    // Headers a proxy or web server adds are no paging sign.
    [
      THREE,
      {
        'X-RateLimit-Limit': '100',
        'X-RateLimit-Remaining': '99',
        'X-Rate-Limit-Limit': '100',
        'RateLimit-Policy': '100;w=60',
        'X-Quota-Limit': '5000',
        'X-Has-More': 'false',
        'X-Page-Speed': '1.13',
        'x-nextjs-cache': 'HIT',
        Link: '<https://p.example/style.css>; rel=preload',
        'content-range': 'bytes 0-99/100',
        'X-Request-Id': 'abc',
        'X-Total-Time': '0.125',
        'Cache-Control': 'no-store',
      },
    ],
    [{ data: THREE }, { 'x-total-count': '3', 'content-range': 'items 0-2/3' }],
  ])('%j with %j', async (json, headers) => {
    expect(await readList(client(await jsonPanel(json, headers)), '/clients')).toHaveLength(3);
  });
});

describe('through the CLI', () => {
  // bob has 12 domains: deleting him is 13 deletes, past --max-deletes 10.
  const SEED = {
    clients: [
      { username: 'alice', domains: ['alice.example'] },
      { username: 'bob', domains: Array.from({ length: 12 }, (_, i) => `b${i}.bob.example`) },
    ],
  };
  const MANIFEST = 'version: 1\nprune:\n  clients: true\nclients:\n  - username: alice\n    domains: [alice.example]\n';

  /** The simulator's own answer to GET `path`, asked past the intercept. */
  async function own(url: string, path: string): Promise<unknown[]> {
    const answer = await fetch(`${url}${path}`, { headers: { 'x-api-key': API_KEY, 'x-inner': '1' } });
    return (await answer.json()) as unknown[];
  }

  /** The domain list with bob's domains but the first left out (a first page), and how many there are in all. */
  async function page(url: string): Promise<{ records: unknown[]; total: number }> {
    const all = await own(url, '/domains');
    const bobs = all.filter((d) => JSON.stringify(d).includes('bob.example'));
    return { records: all.filter((d) => !bobs.slice(1).includes(d)), total: all.length };
  }

  type Page = { records: unknown[]; total: number };
  it.each<[string, (p: Page) => unknown, string]>([
    ['a string total', (p) => ({ domains: p.records, total: String(p.total) }), 'the list looks paged'],
    [
      'a limit/offset wrapper',
      (p) => ({ data: p.records, limit: p.records.length, offset: 0, totalCount: p.total }),
      'the list looks paged',
    ],
    ['a marker wrapper', (p) => ({ data: p.records, truncated: true, next_marker: 'b1' }), 'the list looks paged'],
    [
      'a wrapper with a key not known',
      (p) => ({ data: p.records, sync_state: 'b1' }),
      'a key not known to be harmless',
    ],
  ])('%s on GET /domains: apply refuses and deletes nothing', async (_name, wrap, why) => {
    let url = '';
    const w = await workspace(MANIFEST, {
      seed: SEED,
      intercept: async (req) =>
        req.method === 'GET' && req.path === '/domains' && req.headers['x-inner'] === undefined
          ? { status: 200, json: wrap(await page(url)) }
          : undefined,
    });
    url = w.sim.url;
    const r = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(w.sim.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
    expect(w.sim.state.clientNamed('bob')).toBeDefined();
    expect(r.stderr).toContain(why);
    expect(r.code).not.toBe(0);
  });
});
