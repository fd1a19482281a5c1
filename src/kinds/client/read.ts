/**
 * A client's record as the panel answers it, read over the client's field table and checked; the
 * clients' list read (GET /clients, then GET /clients/{id} for the managed fields the list leaves
 * out) and their part of a snapshot. Pure: the panel comes in through PanelListReader (../read.ts).
 */
import { quote } from '../../escape.js';
import type { JsonObject, JsonValue } from '../../util.js';
import { plural } from '../../util.js';
import { asRecord, integer, nonEmptyString, spelled } from '../panel-record.js';
import { ID_HINT, type KindRead, notAsked, type PanelListReader, type PanelReader, unique } from '../read.js';
import { CLIENT_FIELDS, type ClientField, liveValue } from './fields.js';
import { fieldsLacking, type LiveClient, readClientFields, withFieldsFrom } from './record.js';

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

/**
 * Which clients' managed fields must be known, and which fields: plan passes the manifest's
 * usernames and the fields it manages; export passes a predicate (every client, or those its
 * --clients patterns match) and the fields it writes.
 */
export interface ClientDetails {
  /**
   * The clients: a set of usernames (compared in lowercase), or a test on a client's
   * (lowercase) username, `() => true` for every client the panel lists.
   */
  readonly usernames: ReadonlySet<string> | ((username: string) => boolean);
  readonly fields: ReadonlySet<ClientField>;
}

/** The clients as one read of the panel holds them (Live, src/kinds/index.ts): every client it lists. */
export type ClientsPart = readonly LiveClient[];

/** What the clients' read takes of the run's ask. */
export interface ClientsAsk {
  /** The clients whose managed fields must be known, if GET /clients leaves them out: see readClientDetails. */
  readonly details?: ClientDetails | undefined;
}

/**
 * The clients' list read (Kind.read): GET /clients, always; ids and usernames unique; then, with
 * the ask's `details`, the managed fields the list leaves out, one client at a time
 * (readClientDetails): no request more when the list carries them.
 */
export const CLIENT_READ: KindRead<ClientsPart, ClientsAsk, object, ReadonlyMap<string, LiveClient>> = {
  after: [],
  needed: () => true,
  empty: [],
  list: (panel) => panel.list('/clients', parseClientRecord),
  check: (clients, panel) => {
    const where = panel.describe('GET', '/clients');
    unique(clients, (c) => c.id, where, 'id');
    unique(clients, (c) => c.username, where, 'username');
    return Promise.resolve();
  },
  complete: async (clients, panel, ask) =>
    ask.details === undefined ? clients : readClientDetails(panel, clients, ask.details),
  snapshot: {
    write: (clients) => ({ clients: clients.map(clientRecord) }),
    read: (reading) => {
      const clients = reading.list('clients').map((r, i) => parseClientRecord(r, `${reading.at('clients')}[${i}]`));
      if (reading.digests)
        clients.forEach((c, i) => {
          if (typeof c.email === 'string' && !reading.isDigest(c.email))
            throw reading.bad(`holds "emails": "digest", but clients[${i}].email is no sha256 digest`);
        });
      return clients;
    },
    digested: (clients, digest) =>
      clients.map((c) => (typeof c.email === 'string' ? { ...c, email: digest(c.email) } : c)),
  },
  index: (clients) => new Map(clients.map((c) => [c.username, c])),
  // The read holds every client, whatever --clients says (the scope filters the plan).
  lookUps: {
    inPart: (clients) => clients.map((c) => ({ name: c.username, id: c.id })),
    find: findClient,
    findById: findClientById,
  },
};

/**
 * GET /clients/name/<username>, parsed; undefined when the panel has none. A record for another
 * name is a contract error, never taken for the one asked about (its domains would land in
 * someone else's account).
 */
export async function findClient(
  panel: Pick<PanelListReader, 'findByName' | 'describe'>,
  username: string,
): Promise<LiveClient | undefined> {
  const where = panel.describe('GET', `/clients/name/${encodeURIComponent(username)}`);
  const found = await panel.findByName('clients', username);
  if (found === undefined) return undefined;
  const record = parseClientRecord(found, where);
  if (record.username !== username.toLowerCase())
    throw notAsked(where, `client ${quote(record.username)} (id ${record.id})`);
  return record;
}

/** A client in the panel's shape, as a snapshot holds it: id, username, each managed field the record carried under its panel key. */
function clientRecord(client: LiveClient): JsonObject {
  const record: Record<string, JsonValue> = { id: client.id, username: client.username };
  for (const row of CLIENT_FIELDS) {
    const value = liveValue(row, client);
    if (value !== undefined) record[row.panel[0]] = value;
  }
  return record;
}

/**
 * GET /clients/<id>, parsed (it may carry fields the list leaves out); undefined on 404 (no
 * such client, or deleted meanwhile). A record with another id is a contract error.
 */
export async function findClientById(
  panel: PanelReader & Pick<PanelListReader, 'statusOf'>,
  id: number,
): Promise<LiveClient | undefined> {
  const path = `/clients/${id}`;
  let found: unknown;
  try {
    found = await panel.get(path);
  } catch (err) {
    if (panel.statusOf(err) === 404) return undefined;
    throw err;
  }
  const where = panel.describe('GET', path);
  const record = parseClientRecord(found, where);
  if (record.id !== id) throw notAsked(where, `client ${quote(record.username)} (id ${record.id})`, ID_HINT);
  return record;
}

/**
 * Fills in what GET /clients leaves out. For each client `details.usernames` names (or its
 * predicate accepts) whose record lacks (undefined) a field of `details.fields`, reads
 * GET /clients/{id} (findClientById), `panel.lookups` at a time, and takes the fields the list
 * lacked from it; what the list carries is kept. A 404 (deleted meanwhile) leaves the client as
 * listed, its fields unknown; a record for another id or username is a contract error. One note
 * when it reads anything:
 * 'GET /api/v2/clients does not carry "email", "is_suspended": read 2 clients one by one (GET /api/v2/clients/{id}).'
 * Returns the clients in the same order; no request when nothing lacks.
 */
export async function readClientDetails(
  panel: PanelListReader,
  clients: readonly LiveClient[],
  details: ClientDetails,
): Promise<LiveClient[]> {
  const wanted = wantedClients(details.usernames);
  const lacking = (c: LiveClient): ClientField[] => (wanted(c.username) ? fieldsLacking(c, details.fields) : []);
  const needed = clients.filter((c) => lacking(c).length > 0);
  if (needed.length === 0) return [...clients];
  const lacked = new Set(needed.flatMap(lacking));
  const missing = CLIENT_FIELDS.filter((row) => lacked.has(row.key)).map((row) => `"${row.panel[0]}"`);
  panel.note(
    `${panel.describe('GET', '/clients')} does not carry ${missing.join(', ')}: ` +
      `read ${plural(needed.length, 'client')} one by one (${panel.describe('GET', '/clients/{id}')}).`,
  );
  const read = new Map<number, LiveClient>();
  await panel.each(needed, panel.lookups, async (listed) => {
    const record = await findClientById(panel, listed.id);
    if (record === undefined) return;
    if (record.username !== listed.username) {
      throw notAsked(
        panel.describe('GET', `/clients/${listed.id}`),
        `client ${quote(record.username)} (id ${record.id})`,
        ID_HINT,
      );
    }
    read.set(listed.id, record);
  });
  return clients.map((listed) => {
    const record = read.get(listed.id);
    return record === undefined ? listed : withFieldsFrom(listed, record);
  });
}

/** ClientDetails.usernames as a test on a lowercase username. */
function wantedClients(usernames: ClientDetails['usernames']): (username: string) => boolean {
  if (typeof usernames === 'function') return usernames;
  const lower = new Set([...usernames].map((name) => name.toLowerCase()));
  return (username) => lower.has(username);
}
