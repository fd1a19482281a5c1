import { ProvisionError } from '../errors.js';
import type { PanelClient } from './client.js';
import { shape } from '../kinds/panel-record.js';
import { isRecord } from '../util.js';
import { elementsOf } from './list-stream.js';
import { headerPaging, wrapperPaging } from './paging.js';

/**
 * Reading a list endpoint whole: its records, and the refusal of any answer that looks like one
 * page of several (a missed page would become a duplicate POST).
 */

/**
 * A list endpoint's records. Accepted: a bare array, or an object wrapping exactly one array
 * (`{"data": [...]}`) beside which it holds only what paging.ts allows (a total that matches
 * the records, a `next` that is null, a success status, ...); and no sign of paging in the
 * headers (`Link: rel="next"`, `X-Total-Count` that differs, `X-Page`, `X-Has-More: true`).
 */
export function readList(client: PanelClient, path: string): Promise<unknown[]> {
  return readRecords(client, path, (record) => record);
}

/**
 * readList, each record made by `parse` ('GET /api/v2/domains[3]' names it in errors; `parse`
 * must be pure: list-stream.ts elementsOf calls it again with that name only to report it). A bare
 * array is parsed one element at a time as it streams in (PanelClient.getList): the answer is
 * never held whole, as text or as parsed JSON, beside the records. The checks of the list come
 * first: a paged list is refused before a bad record is reported.
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
      hint:
        'panel-provision reads complete lists only (a missed record would be created twice); ' +
        'report the panel version and this answer',
    });
  };
  const checkPaging = (length: number | undefined): void => {
    const paged = headerPaging(headers, length);
    if (paged !== undefined) refuse(`the list looks paged (${paged}); only complete lists can be planned on`);
  };
  if ('items' in answer) {
    checkPaging(answer.count);
    if (answer.failed !== undefined) throw answer.failed.thrown;
    return answer.items;
  }
  const body = answer.value;
  const each = (records: unknown[]): T[] => records.map(elementsOf(parse, where));
  checkPaging(Array.isArray(body) ? body.length : undefined);
  if (Array.isArray(body)) return each(body as unknown[]);
  if (!isRecord(body)) return refuse(`expected a JSON array (or an object wrapping one), got ${shape(body)}`);
  const arrays = Object.keys(body).filter((key) => Array.isArray(body[key]));
  if (arrays.length !== 1) {
    return refuse(
      'expected a JSON array or an object wrapping exactly one array, ' +
        `got an object with ${arrays.length} arrays${arrays.length > 0 ? ` (${arrays.join(', ')})` : ''}`,
    );
  }
  const records = body[arrays[0] ?? ''] as unknown[];
  checkPaging(records.length);
  const wrapper = wrapperPaging(body, arrays[0] ?? '', records.length);
  if (wrapper !== undefined && 'paged' in wrapper)
    return refuse(`the list looks paged (${wrapper.paged}); only complete lists can be planned on`);
  if (wrapper !== undefined) {
    throw new ProvisionError(
      'panel_contract',
      `${where}: the list's wrapper has ${wrapper.unknown}; only complete lists can be planned on`,
      {
        hint:
          'KeyHelp answers lists as bare arrays; a wrapper may hold only the records, a total that matches them, ' +
          'a null "next" and a success status. Report the panel version and this answer',
      },
    );
  }
  return each(records);
}
