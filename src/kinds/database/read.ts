/**
 * The databases' list read (Kind.read): `GET /databases`, only when the run's ask asks for it (a
 * manifest without `databases` costs no request), ids and names unique; the index the planner and
 * the facts look databases up by (name, user, client id); how the secrets code finds one (by
 * name, by id); their part of a snapshot. Pure: the panel comes in through PanelListReader
 * (../read.ts).
 */
import { quote } from '../../escape.js';
import type { JsonObject } from '../../util.js';
import { findById, type KindRead, type PanelListReader, unique } from '../read.js';
import { DATABASES_PATH, type LiveDatabase, parseDatabaseRecord } from './record.js';

/**
 * The databases as one read of the panel holds them (Live, src/kinds/index.ts): `records`, and
 * whether they were read at all (`read`): a part not read holds none, and says nothing of the
 * panel's (no database of it is judged gone, none counted).
 */
export interface DatabasesPart {
  readonly records: readonly LiveDatabase[];
  readonly read: boolean;
}

/**
 * What the databases' read takes of the run's ask. `databases`: whether the run needs the panel's
 * databases (the manifest lists `databases` under a client, a client's delete takes some, a saved
 * plan holds a database's change, export asks for them); left out, none is read.
 * (The ask's key is this room's until the stages' ask per kind is settled: plan/reads.ts.)
 */
export interface DatabasesAsk {
  readonly databases?: boolean | undefined;
}

/** The databases as the planner and the facts look them up. */
export interface DatabasesIndex {
  /** By name (`database_name`). */
  readonly byName: ReadonlyMap<string, LiveDatabase>;
  /** By their user's name, for the records that say it. */
  readonly byUser: ReadonlyMap<string, LiveDatabase>;
  /** By their client's id (`id_user`), each client's in the panel's order; a record that does not say is in none. */
  readonly byClient: ReadonlyMap<number, readonly LiveDatabase[]>;
}

/** The part of a read that did not read the databases. */
export const DATABASES_NOT_READ: DatabasesPart = { records: [], read: false };

/** The databases' index of `records`. */
export function databasesIndex(records: readonly LiveDatabase[]): DatabasesIndex {
  const byName = new Map<string, LiveDatabase>();
  const byUser = new Map<string, LiveDatabase>();
  const byClient = new Map<number, LiveDatabase[]>();
  for (const database of records) {
    byName.set(database.name, database);
    if (database.user !== undefined) byUser.set(database.user, database);
    if (database.idUser === undefined) continue;
    const owned = byClient.get(database.idUser);
    if (owned === undefined) byClient.set(database.idUser, [database]);
    else owned.push(database);
  }
  return { byName, byUser, byClient };
}

/** The databases' list read (Kind.read): GET /databases when the ask asks; ids and names unique. */
export const DATABASE_READ: KindRead<DatabasesPart, DatabasesAsk, object, DatabasesIndex> = {
  after: [],
  needed: (ask) => ask.databases === true,
  empty: DATABASES_NOT_READ,
  list: async (panel) => ({ records: await panel.list(DATABASES_PATH, parseDatabaseRecord), read: true }),
  check: (part, panel) => {
    const where = panel.describe('GET', DATABASES_PATH);
    unique(part.records, (d) => d.id, where, 'id');
    unique(part.records, (d) => d.name, where, 'database_name');
    return Promise.resolve();
  },
  index: (part) => databasesIndex(part.records),
  snapshot: {
    // A snapshot of a read without databases has no key for them (and one taken before they were read reads so).
    write: (part) => (part.read ? { databases: part.records.map(databaseRecord) } : {}),
    read: (reading) =>
      reading.value('databases') === undefined
        ? DATABASES_NOT_READ
        : {
            records: reading
              .list('databases')
              .map((r, i) => parseDatabaseRecord(r, `${reading.at('databases')}[${i}]`)),
            read: true,
          },
  },
  // The read holds every database when it reads them, whatever --clients says (the scope filters the plan).
  lookUps: {
    inPart: (part) => (part.read ? part.records.map((d) => ({ name: d.name, id: d.id })) : undefined),
    find: findDatabase,
    findById: findDatabaseById,
  },
};

/**
 * The database named `name`, from the panel's list (GET /databases: the API documents no look-up
 * by name); undefined when the panel has none.
 */
export async function findDatabase(panel: PanelListReader, name: string): Promise<LiveDatabase | undefined> {
  const records = await panel.list(DATABASES_PATH, parseDatabaseRecord);
  return records.find((d) => d.name === name);
}

/** GET /databases/{id}, parsed; undefined on 404 (none, or deleted meanwhile); a record with another id is a contract error. */
export function findDatabaseById(
  panel: Pick<PanelListReader, 'get' | 'describe' | 'statusOf'>,
  id: number,
): Promise<LiveDatabase | undefined> {
  return findById(panel, DATABASES_PATH, id, parseDatabaseRecord, (d) => `database ${quote(d.name)}`);
}

/** A database in the panel's shape, as a snapshot holds it: what parseDatabaseRecord reads, under the keys the engine sends. */
export function databaseRecord(database: LiveDatabase): JsonObject {
  return {
    id: database.id,
    database_name: database.name,
    ...(database.idUser === undefined ? {} : { id_user: database.idUser }),
    ...(database.user === undefined ? {} : { database_username: database.user }),
    ...(database.description === undefined ? {} : { description: database.description }),
    ...(database.remoteHosts === undefined ? {} : { remote_hosts: [...database.remoteHosts] }),
    ...(database.size === undefined ? {} : { size: database.size }),
  };
}
