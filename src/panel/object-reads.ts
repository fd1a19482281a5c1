/**
 * Reads of one object at a time. By id: the reads a whole-object write is built from
 * (apply/whole-write.ts), read just before its PUT; a record of another id is a contract error,
 * never written over; a record that is gone (404) is a failure saying so: nothing is sent to it.
 * Each of a list: one read per item (a domain's DNS zone, as its room reads it), a few at a time.
 */
import pLimit from 'p-limit';
import { ProvisionError } from '../errors.js';
import type { RecordRead } from '../kinds/panel-record.js';
import type { PanelClient } from './client.js';

/** GET of one record by id, as its kind's room says (`read`: its path and parser), parsed and checked. */
export async function readById<R extends { readonly id: number }>(
  client: PanelClient,
  read: RecordRead<R>,
  id: number,
): Promise<R> {
  const where = client.describe('GET', read.path(id));
  const record = read.parse(await client.get(read.path(id)), where);
  if (record.id !== id)
    throw new ProvisionError(
      'panel_contract',
      `${where} answered the record of id ${record.id}, not the one asked for`,
      {
        hint: 'nothing was written to it; check that the URL names the panel itself, not a cache in front of it',
      },
    );
  return record;
}

/**
 * `read` of each of `items`, by name, `concurrency` at a time (the bound apply sends with). A
 * read that fails stops them all, unless `unreadable` is given (export, which writes nothing to
 * the panel) and the failure is an answer the reader cannot read (`panel_contract`): that item
 * is then left out and `unreadable` told why.
 */
export async function readEach<T extends { readonly name: string }, R>(
  items: readonly T[],
  concurrency: number,
  read: (item: T) => Promise<R>,
  unreadable?: (name: string, error: ProvisionError) => void,
): Promise<ReadonlyMap<string, R>> {
  const limit = pLimit(concurrency);
  const values = await Promise.all(
    items.map((item) =>
      limit(() =>
        read(item).catch((error: unknown) => {
          if (unreadable === undefined || !(error instanceof ProvisionError) || error.code !== 'panel_contract')
            throw error;
          unreadable(item.name, error);
          return undefined;
        }),
      ),
    ),
  );
  return new Map(
    items.flatMap((item, i) => {
      const value = values[i];
      return value === undefined ? [] : [[item.name, value] as const];
    }),
  );
}
