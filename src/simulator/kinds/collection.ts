/**
 * The route of a collection whose records are read, created, changed and deleted the same way
 * (/hosting-plans, /clients, /domains, /emails): GET and POST on the collection, GET, PUT and
 * DELETE by id, GET by name unless the kind says not (/{collection}/name/{name}, percent-decoded
 * only: '+' stays a plus sign, so 'Premium+Plus' is not 'Premium Plus'). What each does is the
 * kind's.
 */
import { isRecord } from '../../util.js';
import { type Answer, decoded, error, notAllowed, notFound, ok } from '../answer.js';
import type { RouteOptions, SimRequest, SimRoute } from '../kind.js';
import type { ListName, ValueOf } from '../lists.js';
import type { SimStore } from '../store.js';

export interface Collection<L extends ListName> {
  /** The store list of its records. */
  readonly list: L;
  /** One record, in messages: 'hosting plan'. */
  readonly one: string;
  /** false: no GET /{collection}/name/{name} (a 404 like an unknown path). Default: served. */
  readonly byName?: false;
  /** GET /{collection}: the answer's items; undefined: a 404 like an unknown path. Default: the records. */
  listed?(records: readonly ValueOf<L>[], options: RouteOptions): readonly unknown[] | undefined;
  /** GET of one record: what the answer shows of it. Default: the record. */
  shown?(record: ValueOf<L>, options: RouteOptions): unknown;
  /** POST with a JSON object. */
  create(store: SimStore, body: Record<string, unknown>, request: SimRequest): Answer;
  /** PUT /{collection}/{id}: the body (JSON; `{}` when empty). */
  update(store: SimStore, id: number, body: unknown, request: SimRequest): Answer;
  /** DELETE /{collection}/{id}. */
  remove(store: SimStore, id: number, request: SimRequest): Answer;
}

const ID = /^[0-9]{1,15}$/;

export function collection<L extends ListName>(c: Collection<L>): SimRoute {
  return (store, request) => {
    const { method, segments, body, options } = request;
    const [, second, third] = segments;
    const path = `/${segments.join('/')}`;
    if (segments.length === 1) {
      if (method === 'GET') {
        const records = [...store.list(c.list).values()];
        const items = c.listed === undefined ? records : c.listed(records, options);
        return items === undefined ? notFound(path) : ok(items);
      }
      if (method !== 'POST') return notAllowed(method, path, ['GET', 'POST']);
      if (body.kind === 'none') return error(400, 'The request body is missing: send a JSON object.');
      if (body.kind === 'invalid') return error(400, 'The request body is not valid JSON.');
      if (!isRecord(body.value)) return error(400, 'The request body must be a JSON object.');
      return c.create(store, body.value, request);
    }
    const byName = segments.length === 3 && second === 'name' && c.byName !== false;
    if (!(segments.length === 2 || byName)) return notFound(path);
    const byId = !byName && ID.test(second ?? '');
    if (byId && (method === 'PUT' || method === 'DELETE')) {
      const id = Number(second);
      if (body.kind === 'invalid') return error(400, 'The request body is not valid JSON.');
      const value = body.kind === 'json' ? body.value : {};
      return method === 'PUT' ? c.update(store, id, value, request) : c.remove(store, id, request);
    }
    if (method !== 'GET') return notAllowed(method, path, byId ? ['GET', 'PUT', 'DELETE'] : ['GET']);
    let record: ValueOf<L> | undefined;
    if (byName) {
      const name = decoded(third);
      if (name === undefined) return error(400, `The path ${path} is not validly percent-encoded.`);
      record = store.named(c.list, name);
    } else if (ID.test(second ?? '')) {
      record = store.list(c.list).get(Number(second));
    }
    if (record === undefined) return error(404, `The requested ${c.one} was not found.`);
    return ok(c.shown === undefined ? record : c.shown(record, options));
  };
}
