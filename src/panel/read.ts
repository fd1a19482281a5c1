import pLimit from 'p-limit';
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { PanelClient } from './client.js';
import { PanelHttpError } from './errors.js';
import {
  type ClientDetails,
  findClient as findClientIn,
  findClientById as findClientByIdIn,
  readClientDetails as readDetailsIn,
} from '../kinds/client/read.js';
import { findDomain as findDomainIn } from '../kinds/domain/read.js';
import { parseHostingPlanRecord } from '../kinds/hosting-plan/read.js';
import { shape } from '../kinds/panel-record.js';
import type { Live, ReadAsk, ReadKindName } from '../kinds/index.js';
import { READ_ORDER, readOf } from '../kinds/reads.js';
import { notAsked } from '../kinds/read.js';
import type { PanelListReader } from '../kinds/read.js';
import type { LiveClient, LiveHostingPlan } from './types.js';
import { isRecord } from '../util.js';
import { readRecords } from './list-read.js';
import { DEFAULT_CONCURRENCY } from './limits.js';
import type { OnPanelEvent } from '../events.js';

export type { ClientDetails } from '../kinds/client/read.js';

/** Parallel look-ups: domains by name when the panel has no GET /domains, clients by id for their details. */
export const DEFAULT_LOOKUP_CONCURRENCY = 8;

/**
 * What one read of the panel is asked, every kind's ask (src/kinds/index.ts ReadAsk: the
 * manifest's domains, looked up one by one only if GET /domains is missing; the clients whose
 * managed fields must be known, `details`; the domains whose DNS zones to read, `zones`), and
 * its bounds and notes.
 */
export type ReadLiveOptions = ReadAsk & {
  /** Bound for look-ups one by one (domains by name, clients by id); default DEFAULT_LOOKUP_CONCURRENCY. */
  readonly concurrency?: number;
  /**
   * Told a `note`, in a sentence, when the read is partial (no domain list) or costs more requests
   * (client details).
   */
  readonly onEvent?: OnPanelEvent;
  /** Reads of one object each (DNS zones) in flight at once: apply's bound (--concurrency); default DEFAULT_CONCURRENCY. */
  readonly zoneConcurrency?: number;
};

/** The panel as the kinds' list reads see it (src/kinds/read.ts): `client`'s GETs, lists and look-ups, and `options`' notes and bounds. */
export function listReader(
  client: PanelClient,
  options: Pick<ReadLiveOptions, 'concurrency' | 'zoneConcurrency' | 'onEvent'> = {},
): PanelListReader {
  return {
    basePath: client.basePath,
    get: (path) => client.get(path),
    describe: (method, path) => client.describe(method, path),
    list: (path, parse) => readRecords(client, path, parse),
    findByName: (collection, name) => client.findByName(collection, name),
    statusOf: (error) => (error instanceof PanelHttpError ? error.status : undefined),
    each: (items, concurrency, work) => {
      const limit = pLimit(concurrency);
      return Promise.all(items.map((item) => limit(() => work(item))));
    },
    note: (message) => options.onEvent?.({ type: 'note', message }),
    lookups: options.concurrency ?? DEFAULT_LOOKUP_CONCURRENCY,
    reads: options.zoneConcurrency ?? DEFAULT_CONCURRENCY,
  };
}

/**
 * Reads the panel's state: GET /ping (URL, key, and a JSON API: `{"response":"pong"}`), then each
 * kind's list read (Kind.read) the ask needs, in waves: the kinds that need no other's records
 * first, concurrently, started in READ_ORDER (GET /hosting-plans, /clients and /domains: four
 * requests, whatever the size of the manifest), then those that read after them (the DNS zones
 * the manifest manages, after the domains). Once a wave is read, each kind's checks run, one
 * after the other (ids and names unique, owners known), then what it reads more (client
 * details). Each list must be complete (see readList) and each record valid, else
 * ProvisionError('panel_contract'): planning on a partial read would create duplicates. A kind
 * the ask does not need is not read: its part is its read's `empty`.
 *
 * When GET /domains answers 404 or 405 (a panel without the list endpoint), the manifest's
 * domains are looked up by name instead and their part is not `complete`. With `details`, the
 * managed fields GET /clients leaves out are read one client at a time (readClientDetails):
 * no request more when the list carries them.
 */
export async function readLive(client: PanelClient, options: ReadLiveOptions): Promise<Live> {
  const pong = await client.get('/ping');
  if (!isRecord(pong) || pong.response !== 'pong') {
    throw new ProvisionError(
      'panel_contract',
      `${client.describe('GET', '/ping')}: expected {"response":"pong"}, got ${shape(pong)}`,
      {
        hint: 'check that --url / PROVISION_URL points at the panel API',
      },
    );
  }
  const panel = listReader(client, options);
  const parts: Partial<Record<ReadKindName, unknown>> = {};
  const soFar = parts as unknown as Live;
  let left: readonly ReadKindName[] = READ_ORDER;
  while (left.length > 0) {
    const wave = left.filter((name) => readOf(name).after.every((before) => !left.includes(before)));
    if (wave.length === 0) throw new Error(`the kinds' reads wait for each other: ${left.join(', ')}`);
    left = left.filter((name) => !wave.includes(name));
    const read = await Promise.all(
      wave.map((name) => {
        const kind = readOf(name);
        return kind.needed(options)
          ? kind.list(panel, options, soFar).then((part) => ({ part }))
          : Promise.resolve(undefined);
      }),
    );
    wave.forEach((name, i) => (parts[name] = read[i]?.part ?? readOf(name).empty));
    for (const [i, name] of wave.entries()) {
      if (read[i] !== undefined) await readOf(name).check?.(parts[name] as never, panel, options, soFar);
    }
    for (const [i, name] of wave.entries()) {
      if (read[i] !== undefined)
        parts[name] = (await readOf(name).complete?.(parts[name] as never, panel, options)) ?? parts[name];
    }
  }
  return parts as Live;
}

/**
 * GET /clients/name/<username>, parsed; undefined when the panel has none. A record for another
 * name is a contract error, never taken for the one asked about (its domains would land in
 * someone else's account).
 */
export function findClient(client: PanelClient, username: string): Promise<LiveClient | undefined> {
  return findClientIn(listReader(client), username);
}

/**
 * GET /hosting-plans/name/<name>, parsed; undefined when absent; a record for another name is a
 * contract error (names are compared exactly: they are case-sensitive, and may hold spaces).
 */
export async function findHostingPlan(client: PanelClient, name: string): Promise<LiveHostingPlan | undefined> {
  const where = client.describe('GET', `/hosting-plans/name/${encodeURIComponent(name)}`);
  const found = await client.findByName('hosting-plans', name);
  if (found === undefined) return undefined;
  const record = parseHostingPlanRecord(found, where);
  if (record.name !== name) throw notAsked(where, `hosting plan ${quote(record.name)} (id ${record.id})`);
  return record;
}

/** GET /domains/name/<name>, parsed; undefined when absent; a record for another name is a contract error. */
export function findDomain(client: PanelClient, name: string): ReturnType<typeof findDomainIn> {
  return findDomainIn(listReader(client), name);
}

/**
 * GET /clients/<id>, parsed (it may carry fields the list leaves out); undefined on 404 (no
 * such client, or deleted meanwhile). A record with another id is a contract error.
 */
export function findClientById(client: PanelClient, id: number): Promise<LiveClient | undefined> {
  return findClientByIdIn(listReader(client), id);
}

/**
 * Fills in what GET /clients leaves out (the client's room: kinds/client/read.ts
 * readClientDetails): GET /clients/{id} of each client `details` names whose record lacks a
 * field it names, `options.concurrency` (default DEFAULT_LOOKUP_CONCURRENCY) at a time, one
 * note when it reads anything. Returns the clients in the same order; no request when nothing lacks.
 */
export function readClientDetails(
  client: PanelClient,
  clients: readonly LiveClient[],
  details: ClientDetails,
  options: Pick<ReadLiveOptions, 'concurrency' | 'onEvent'> = {},
): Promise<LiveClient[]> {
  return readDetailsIn(listReader(client, options), clients, details);
}
