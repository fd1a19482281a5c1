/**
 * The panel as the kinds' list reads see it (listReader), and the look-ups of one record by name
 * or id that apply and doctor use: nothing here loads the table of kinds (read.ts readLive does),
 * so that doctor's start-up stays light.
 */
import pLimit from 'p-limit';
import type { PanelClient } from './client.js';
import { PanelHttpError } from './errors.js';
import {
  type ClientDetails,
  findClient as findClientIn,
  findClientById as findClientByIdIn,
  readClientDetails as readDetailsIn,
} from '../kinds/client/read.js';
import { findDomain as findDomainIn } from '../kinds/domain/read.js';
import { findHostingPlan as findHostingPlanIn } from '../kinds/hosting-plan/read.js';
import type { PanelListReader } from '../kinds/read.js';
import type { LiveClient, LiveHostingPlan } from './types.js';
import { readRecords } from './list-read.js';
import { DEFAULT_CONCURRENCY } from './limits.js';
import type { OnPanelEvent } from '../events.js';

export type { ClientDetails } from '../kinds/client/read.js';

/** Parallel look-ups: domains by name when the panel has no GET /domains, clients by id for their details. */
export const DEFAULT_LOOKUP_CONCURRENCY = 8;

/** A read's bounds and notes (read.ts ReadLiveOptions adds what it is asked). */
export interface ReaderOptions {
  /** Bound for look-ups one by one (domains by name, clients by id); default DEFAULT_LOOKUP_CONCURRENCY. */
  readonly concurrency?: number;
  /**
   * Told a `note`, in a sentence, when the read is partial (no domain list) or costs more requests
   * (client details).
   */
  readonly onEvent?: OnPanelEvent;
  /** Reads of one object each (DNS zones) in flight at once: apply's bound (--concurrency); default DEFAULT_CONCURRENCY. */
  readonly zoneConcurrency?: number;
}

/** The panel as the kinds' list reads see it (src/kinds/read.ts): `client`'s GETs, lists and look-ups, and `options`' notes and bounds. */
export function listReader(client: PanelClient, options: ReaderOptions = {}): PanelListReader {
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
 * GET /clients/name/<username>, parsed; undefined when the panel has none. A record for another
 * name is a contract error, never taken for the one asked about (its domains would land in
 * someone else's account).
 */
export function findClient(client: PanelClient, username: string): Promise<LiveClient | undefined> {
  return findClientIn(listReader(client), username);
}

/** GET /hosting-plans/name/<name>, parsed (the hosting plan's room: kinds/hosting-plan/read.ts). */
export function findHostingPlan(client: PanelClient, name: string): Promise<LiveHostingPlan | undefined> {
  return findHostingPlanIn(listReader(client), name);
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
  options: Pick<ReaderOptions, 'concurrency' | 'onEvent'> = {},
): Promise<LiveClient[]> {
  return readDetailsIn(listReader(client, options), clients, details);
}
