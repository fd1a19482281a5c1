/** A client's record as the panel answers it, read over the client's field table and checked. Pure: no I/O. */
import { asRecord, integer, nonEmptyString, spelled } from '../panel-record.js';
import { type LiveClient, readClientFields } from './record.js';

/**
 * One client record: integer id, string username (lowercased), and the managed fields, each
 * read by its row of the client's field table (src/kinds/client): from the panel's spellings of
 * it, `undefined` when the record carries none, null when it says "none". A value the row does
 * not read is a contract error naming the field (one the row reads as unreadable is unknown);
 * so are two spellings that disagree.
 */
export function parseClientRecord(record: unknown, where: string): LiveClient {
  const r = asRecord(record, where);
  const id = integer(r, 'id', where);
  const username = nonEmptyString(r, 'username', where).toLowerCase();
  return { id, username, ...readClientFields((keys, read) => spelled(r, keys, where, read)) };
}
