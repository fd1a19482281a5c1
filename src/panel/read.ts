import pLimit from 'p-limit';
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { normalizeDomain } from '../names.js';
import type { PanelClient } from './client.js';
import { PanelHttpError } from './errors.js';
import { parseClientRecord } from '../kinds/client/read.js';
import { parseDomainRecord } from '../kinds/domain/read.js';
import { parseHostingPlanRecord } from '../kinds/hosting-plan/read.js';
import { asRecord, integer, shape } from '../kinds/panel-record.js';
import type { Live, LiveClient, LiveDomain, LiveHostingPlan, ManagedField } from './types.js';
import { isRecord, plural } from '../util.js';
import { CLIENT_FIELDS, fieldsLacking, withFieldsFrom } from '../kinds/client/index.js';
import { readList, readRecords } from './list-read.js';
import { managedZoneDomains, readZone, zonesReadNote } from '../kinds/zone/read.js';
import { readEach } from './object-reads.js';
import { DEFAULT_CONCURRENCY } from './limits.js';
import type { LiveZone } from '../kinds/zone/record.js';
import type { OnPanelEvent } from '../events.js';

/** Tells `options.onEvent` a `note`. */
function tellNote(options: { readonly onEvent?: OnPanelEvent | undefined }, message: string): void {
  options.onEvent?.({ type: 'note', message });
}

/** Parallel look-ups: domains by name when the panel has no GET /domains, clients by id for their details. */
export const DEFAULT_LOOKUP_CONCURRENCY = 8;

export interface ReadLiveOptions {
  /** The manifest's domains (ASCII), looked up one by one only if GET /domains is missing. */
  readonly domainNames: readonly string[];
  /** Bound for those look-ups; default DEFAULT_LOOKUP_CONCURRENCY. */
  readonly concurrency?: number;
  /**
   * Told a `note`, in a sentence, when the read is partial (no domain list) or costs more requests
   * (client details).
   */
  readonly onEvent?: OnPanelEvent;
  /** The clients whose managed fields must be known, if GET /clients leaves them out: see readClientDetails. */
  readonly details?: ClientDetails;
  /**
   * The domains (ASCII) whose DNS zones to read: one GET /dns/{id} each for those on the panel
   * (not subdomains), `zoneConcurrency` at a time; a domain the panel lacks costs nothing (its
   * zone is read after its create).
   */
  readonly zones?: readonly string[];
  /** Zone reads in flight at once: apply's bound (--concurrency); default DEFAULT_CONCURRENCY. */
  readonly zoneConcurrency?: number;
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
  readonly fields: ReadonlySet<ManagedField>;
}

/**
 * Reads the panel's state: GET /ping (URL, key, and a JSON API: `{"response":"pong"}`), then
 * GET /hosting-plans, /clients and /domains concurrently: four requests, whatever the size of
 * the manifest. Each list must be complete (see readList) and each record valid, else
 * ProvisionError('panel_contract'): planning on a partial read would create duplicates.
 *
 * A domain record that does not say whether it is a system domain gets a note: prune leaves it.
 *
 * When GET /domains answers 404 or 405 (a panel without the list endpoint), the manifest's
 * domains are looked up by name instead and `domainsComplete` is false. With `details`, the
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
  const [hostingPlans, clients, domains] = await Promise.all([
    readRecords(client, '/hosting-plans', parseHostingPlanRecord),
    readRecords(client, '/clients', parseClientRecord),
    readDomains(client, options),
  ]);
  const where = (path: string): string => client.describe('GET', path);
  unique(hostingPlans, (p) => p.id, where('/hosting-plans'), 'id');
  unique(hostingPlans, (p) => p.name, where('/hosting-plans'), 'name');
  unique(clients, (c) => c.id, where('/clients'), 'id');
  unique(clients, (c) => c.username, where('/clients'), 'username');
  unique(domains.records, (d) => d.id, where('/domains'), 'id');
  unique(domains.records, (d) => d.name, where('/domains'), 'domain');
  const unsaid = domains.records.reduce((n, d) => n + (d.isSystem === undefined ? 1 : 0), 0);
  if (unsaid > 0)
    tellNote(
      options,
      `The records of ${plural(unsaid, 'domain')} ` +
        `(${where(domains.complete ? '/domains' : '/domains/name/{domain}')}) ` +
        'do not say whether they are system domains ("is_system_domain"): ' +
        'prune never deletes them (state: absent in the manifest still does).',
    );
  await checkOwners(client, clients, domains.records, options);
  const detailed =
    options.details === undefined ? clients : await readClientDetails(client, clients, options.details, options);
  const zones = await zonesOf(client, domains.records, options);
  return {
    hostingPlans,
    clients: detailed,
    domains: domains.records,
    domainsComplete: domains.complete,
    ...(zones === undefined ? {} : { zones }),
  };
}

/** The zones `options.zones` names, of the domains the panel has (not subdomains); undefined when none is read. */
async function zonesOf(
  client: PanelClient,
  domains: readonly LiveDomain[],
  options: ReadLiveOptions,
): Promise<ReadonlyMap<string, LiveZone> | undefined> {
  const bound = options.zoneConcurrency ?? DEFAULT_CONCURRENCY;
  const read = managedZoneDomains(domains, options.zones ?? []);
  const zones = read === undefined ? undefined : await readEach(read, bound, (d) => readZone(client, d));
  if (zones !== undefined) tellNote(options, zonesReadNote(client, zones.size));
  return zones;
}

/**
 * Every domain must belong to a user: a client, or an administrator (they own domains too, the
 * panel's own among them). Only when some owner is not a client is GET /admins read; an owner
 * that is neither is a contract error naming the domains. A key that may not list
 * administrators (403, or a panel without /admins) cannot tell: a note says so.
 */
async function checkOwners(
  client: PanelClient,
  clients: readonly LiveClient[],
  domains: readonly LiveDomain[],
  options: ReadLiveOptions,
): Promise<void> {
  const clientIds = new Set(clients.map((c) => c.id));
  const unknown = domains.filter((d) => !clientIds.has(d.idUser));
  if (unknown.length === 0) return;
  let admins: unknown[];
  try {
    admins = await readList(client, '/admins');
  } catch (err) {
    if (!(err instanceof PanelHttpError && [403, 404, 405].includes(err.status))) throw err;
    tellNote(
      options,
      `The owners of ${plural(unknown.length, 'domain')} are not clients, ` +
        `and ${client.describe('GET', '/admins')} answered ${err.status}: those owners are not checked.`,
    );
    return;
  }
  const adminIds = new Set(
    admins.map((a, i) =>
      integer(
        asRecord(a, `${client.describe('GET', '/admins')}[${i}]`),
        'id',
        `${client.describe('GET', '/admins')}[${i}]`,
      ),
    ),
  );
  const nowhere = unknown.filter((d) => !adminIds.has(d.idUser));
  if (nowhere.length === 0) return;
  const shown =
    nowhere
      .slice(0, 5)
      .map((d) => `${quote(d.name)} (id ${d.id}, id_user ${d.idUser})`)
      .join(', ') + (nowhere.length > 5 ? `, and ${nowhere.length - 5} more` : '');
  throw new ProvisionError(
    'panel_contract',
    `${client.describe('GET', '/domains')}: domains whose owner is neither a client nor an administrator: ${shown}`,
    {
      hint: 'the panel answered domains of users it does not list; report the panel version and this message',
    },
  );
}

/**
 * Refuses a list in which two records share `key`: ids and names are what the plan resolves
 * by, and two records for one of them leave it guessing (which "alice" owns the domain? which
 * "Basic" is meant?).
 */
function unique<T>(records: readonly T[], key: (record: T) => string | number, where: string, field: string): void {
  const seen = new Map<string | number, number>();
  const twice: string[] = [];
  records.forEach((record, i) => {
    const value = key(record);
    const first = seen.get(value);
    if (first === undefined) seen.set(value, i);
    else twice.push(`[${first}] and [${i}] (${JSON.stringify(value)})`);
  });
  if (twice.length === 0) return;
  const shown = twice.slice(0, 5).join(', ') + (twice.length > 5 ? `, and ${twice.length - 5} more` : '');
  throw new ProvisionError('panel_contract', `${where}: records share one "${field}": ${shown}`, {
    hint:
      'the panel answered a list panel-provision cannot plan on (each id and name must be unique); ' +
      'report the panel version and this message',
  });
}

async function readDomains(
  client: PanelClient,
  options: ReadLiveOptions,
): Promise<{ records: LiveDomain[]; complete: boolean }> {
  try {
    return { records: await readRecords(client, '/domains', parseDomainRecord), complete: true };
  } catch (err) {
    if (!(err instanceof PanelHttpError && (err.status === 404 || err.status === 405))) throw err;
  }
  const names = [...new Set(options.domainNames)];
  tellNote(
    options,
    `The panel has no domain list (GET ${client.basePath}/domains answered 404 or 405): looked up the manifest's ` +
      `${names.length} domains one by one, so domains outside the manifest are not counted.`,
  );
  const limit = pLimit(options.concurrency ?? DEFAULT_LOOKUP_CONCURRENCY);
  const found = await Promise.all(
    names.map((name) =>
      limit(async () => {
        return findDomain(client, name);
      }),
    ),
  );
  // Two spellings of one name (UTF-8 and punycode) find the same record: keep it once.
  const byId = new Map<number, LiveDomain>();
  for (const domain of found) if (domain !== undefined) byId.set(domain.id, domain);
  return { records: [...byId.values()], complete: false };
}

/**
 * GET /clients/name/<username>, parsed; undefined when the panel has none. A record for another
 * name is a contract error, never taken for the one asked about (its domains would land in
 * someone else's account).
 */
export async function findClient(client: PanelClient, username: string): Promise<LiveClient | undefined> {
  const where = client.describe('GET', `/clients/name/${encodeURIComponent(username)}`);
  const found = await client.findByName('clients', username);
  if (found === undefined) return undefined;
  const record = parseClientRecord(found, where);
  if (record.username !== username.toLowerCase())
    throw notAsked(where, `client ${quote(record.username)} (id ${record.id})`);
  return record;
}

/** GET /domains/name/<name>, parsed; undefined when absent; a record for another name is a contract error. */
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

export async function findDomain(client: PanelClient, name: string): Promise<LiveDomain | undefined> {
  const where = client.describe('GET', `/domains/name/${encodeURIComponent(name)}`);
  const found = await client.findByName('domains', name);
  if (found === undefined) return undefined;
  const record = parseDomainRecord(found, where);
  const asked = normalizeDomain(name);
  if (record.name !== ('name' in asked ? asked.name : name.toLowerCase()))
    throw notAsked(where, `domain ${quote(record.name)} (id ${record.id})`);
  return record;
}

/**
 * GET /clients/<id>, parsed (it may carry fields the list leaves out); undefined on 404 (no
 * such client, or deleted meanwhile). A record with another id is a contract error.
 */
export async function findClientById(client: PanelClient, id: number): Promise<LiveClient | undefined> {
  const path = `/clients/${id}`;
  let found: unknown;
  try {
    found = await client.get(path);
  } catch (err) {
    if (err instanceof PanelHttpError && err.status === 404) return undefined;
    throw err;
  }
  const where = client.describe('GET', path);
  const record = parseClientRecord(found, where);
  if (record.id !== id) throw notAsked(where, `client ${quote(record.username)} (id ${record.id})`, ID_HINT);
  return record;
}

/**
 * Fills in what GET /clients leaves out. For each client `details.usernames` names (or its
 * predicate accepts) whose record lacks (undefined) a field of `details.fields`, reads
 * GET /clients/{id} (findClientById),
 * at most `options.concurrency` (default DEFAULT_LOOKUP_CONCURRENCY) at a time, and takes the
 * fields the list lacked from it; what the list carries is kept. A 404 (deleted meanwhile)
 * leaves the client as listed, its fields unknown; a record for another id or username is a
 * contract error. One note when it reads anything:
 * 'GET /api/v2/clients does not carry "email", "is_suspended": read 2 clients one by one (GET /api/v2/clients/{id}).'
 * Returns the clients in the same order; no request when nothing lacks.
 */
export async function readClientDetails(
  client: PanelClient,
  clients: readonly LiveClient[],
  details: ClientDetails,
  options: Pick<ReadLiveOptions, 'concurrency' | 'onEvent'> = {},
): Promise<LiveClient[]> {
  const wanted = wantedClients(details.usernames);
  const lacking = (c: LiveClient): ManagedField[] => (wanted(c.username) ? fieldsLacking(c, details.fields) : []);
  const needed = clients.filter((c) => lacking(c).length > 0);
  if (needed.length === 0) return [...clients];
  const lacked = new Set(needed.flatMap(lacking));
  const missing = CLIENT_FIELDS.filter((row) => lacked.has(row.key)).map((row) => `"${row.panel[0]}"`);
  tellNote(
    options,
    `${client.describe('GET', '/clients')} does not carry ${missing.join(', ')}: ` +
      `read ${plural(needed.length, 'client')} one by one (${client.describe('GET', '/clients/{id}')}).`,
  );
  const limit = pLimit(options.concurrency ?? DEFAULT_LOOKUP_CONCURRENCY);
  const read = new Map<number, LiveClient>();
  await Promise.all(
    needed.map((listed) =>
      limit(async () => {
        const record = await findClientById(client, listed.id);
        if (record === undefined) return;
        if (record.username !== listed.username) {
          throw notAsked(
            client.describe('GET', `/clients/${listed.id}`),
            `client ${quote(record.username)} (id ${record.id})`,
            ID_HINT,
          );
        }
        read.set(listed.id, record);
      }),
    ),
  );
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

const NAME_HINT =
  'the panel (or a proxy in front of it) answers name look-ups wrongly: nothing was adopted; ' +
  'check it before running apply again';
const ID_HINT =
  'the panel (or a proxy in front of it) answers look-ups by id wrongly; check it before running plan or apply again';

function notAsked(where: string, what: string, hint = NAME_HINT): ProvisionError {
  return new ProvisionError('panel_contract', `${where} answered the record of ${what}, not the one asked for`, {
    hint,
  });
}
