/**
 * A domain's record as the panel answers it, read and checked; the domains' list read (GET
 * /domains, or the manifest's domains one by one on a panel without it) and their part of a
 * snapshot. Pure: the panel comes in through PanelListReader (../read.ts).
 */
import { ProvisionError } from '../../errors.js';
import { quote } from '../../escape.js';
import { normalizeDomain } from '../../names.js';
import { type JsonObject, plural } from '../../util.js';
import { asRecord, contract, integer, nonEmptyString, type RecordRead, shape } from '../panel-record.js';
import { type KindRead, notAsked, type PanelListReader, unique } from '../read.js';
import { domainName, type LiveDomain, subdomainFlag, systemFlag } from './record.js';
import { readSettings } from './settings.js';

/**
 * One domain record: integer id and id_user, string domain (normalised to lowercase ASCII; a
 * name normalizeDomain refuses is kept lowercased: the panel has it, it must still be seen),
 * and whether it is a system domain (`is_system_domain`, see record.ts systemFlag): undefined when the
 * record does not say, which prune treats as "maybe": never deleted for being unlisted. Its
 * settings are kept as read, never a contract error (another customer's odd value must not stop
 * the plan): a managed setting the engine cannot read is unknown.
 */
export function parseDomainRecord(record: unknown, where: string): LiveDomain {
  const r = asRecord(record, where);
  const raw = nonEmptyString(r, 'domain', where);
  const system = systemFlag(r.is_system_domain);
  if (typeof system === 'object')
    throw contract(where, `"is_system_domain" must be ${system.problem}, got ${shape(r.is_system_domain)}`);
  const subdomain = subdomainFlag(r);
  return {
    id: integer(r, 'id', where),
    name: domainName(raw),
    idUser: integer(r, 'id_user', where),
    isSystem: system,
    ...(subdomain === undefined ? {} : { isSubdomain: subdomain }),
    settings: readSettings(r),
  };
}

/** A domain read by its id: `GET /domains/{id}`. */
export const DOMAIN_RECORD: RecordRead<LiveDomain> = {
  path: (id) => `/domains/${id}`,
  parse: parseDomainRecord,
};

/**
 * The domains as one read of the panel holds them (Live, src/kinds/index.ts): `records`, and
 * whether they are the panel's whole list (GET /domains): false when the panel has no list
 * endpoint and only the manifest's domains were looked up one by one, so unmanaged domains
 * cannot be counted.
 */
export interface DomainsPart {
  readonly records: readonly LiveDomain[];
  readonly complete: boolean;
}

/** What the domains' read takes of the run's ask. */
export interface DomainsAsk {
  /** The manifest's domains (ASCII), looked up one by one only if GET /domains is missing. */
  readonly domainNames: readonly string[];
}

/** What the domains' check reads beside them: the clients (each domain's owner is one, or an administrator). */
export interface DomainsEarlier {
  readonly client: readonly { readonly id: number }[];
}

/**
 * The domains' list read (Kind.read): GET /domains, always (on a panel without it, the
 * manifest's domains by name, `complete` false, and a note); ids and names unique; a note on the
 * records that do not say whether they are system domains (prune leaves them); each owner a
 * client or an administrator (checkOwners).
 */
export const DOMAIN_READ: KindRead<DomainsPart, DomainsAsk, DomainsEarlier, ReadonlyMap<string, LiveDomain>> = {
  after: [],
  needed: () => true,
  empty: { records: [], complete: true },
  list: readDomains,
  check: async (domains, panel, _ask, earlier) => {
    const where = (path: string): string => panel.describe('GET', path);
    unique(domains.records, (d) => d.id, where('/domains'), 'id');
    unique(domains.records, (d) => d.name, where('/domains'), 'domain');
    const unsaid = domains.records.reduce((n, d) => n + (d.isSystem === undefined ? 1 : 0), 0);
    if (unsaid > 0)
      panel.note(
        `The records of ${plural(unsaid, 'domain')} ` +
          `(${where(domains.complete ? '/domains' : '/domains/name/{domain}')}) ` +
          'do not say whether they are system domains ("is_system_domain"): ' +
          'prune never deletes them (state: absent in the manifest still does).',
      );
    await checkOwners(panel, earlier.client, domains.records);
  },
  index: (domains) => new Map(domains.records.map((d) => [d.name, d])),
  snapshot: {
    write: (domains) => ({ domains: domains.records.map(domainRecord), domains_complete: domains.complete }),
    read: (reading) => {
      const complete = reading.value('domains_complete');
      if (typeof complete !== 'boolean') throw reading.bad('needs "domains_complete" as true or false');
      const records = reading.list('domains').map((r, i) => parseDomainRecord(r, `${reading.at('domains')}[${i}]`));
      return { records, complete };
    },
  },
};

/** A domain in the panel's shape, as a snapshot holds it: what parseDomainRecord reads, its settings as read. */
function domainRecord(domain: LiveDomain): JsonObject {
  return {
    id: domain.id,
    domain: domain.name,
    id_user: domain.idUser,
    is_system_domain: domain.isSystem ?? null,
    ...(domain.isSubdomain === undefined ? {} : { is_subdomain: domain.isSubdomain }),
    ...domain.settings,
  };
}

async function readDomains(panel: PanelListReader, ask: DomainsAsk): Promise<DomainsPart> {
  try {
    return { records: await panel.list('/domains', parseDomainRecord), complete: true };
  } catch (err) {
    const status = panel.statusOf(err);
    if (!(status === 404 || status === 405)) throw err;
  }
  const names = [...new Set(ask.domainNames)];
  panel.note(
    `The panel has no domain list (GET ${panel.basePath}/domains answered 404 or 405): looked up the manifest's ` +
      `${names.length} domains one by one, so domains outside the manifest are not counted.`,
  );
  const found = await panel.each(names, panel.lookups, (name) => findDomain(panel, name));
  // Two spellings of one name (UTF-8 and punycode) find the same record: keep it once.
  const byId = new Map<number, LiveDomain>();
  for (const domain of found) if (domain !== undefined) byId.set(domain.id, domain);
  return { records: [...byId.values()], complete: false };
}

/** GET /domains/name/<name>, parsed; undefined when absent; a record for another name is a contract error. */
export async function findDomain(
  panel: Pick<PanelListReader, 'findByName' | 'describe'>,
  name: string,
): Promise<LiveDomain | undefined> {
  const where = panel.describe('GET', `/domains/name/${encodeURIComponent(name)}`);
  const found = await panel.findByName('domains', name);
  if (found === undefined) return undefined;
  const record = parseDomainRecord(found, where);
  const asked = normalizeDomain(name);
  if (record.name !== ('name' in asked ? asked.name : name.toLowerCase()))
    throw notAsked(where, `domain ${quote(record.name)} (id ${record.id})`);
  return record;
}

/**
 * Every domain must belong to a user: a client, or an administrator (they own domains too, the
 * panel's own among them). Only when some owner is not a client is GET /admins read; an owner
 * that is neither is a contract error naming the domains. A key that may not list
 * administrators (403, or a panel without /admins) cannot tell: a note says so.
 */
async function checkOwners(
  panel: PanelListReader,
  clients: readonly { readonly id: number }[],
  domains: readonly LiveDomain[],
): Promise<void> {
  const clientIds = new Set(clients.map((c) => c.id));
  const unknown = domains.filter((d) => !clientIds.has(d.idUser));
  if (unknown.length === 0) return;
  let admins: unknown[];
  try {
    admins = await panel.list('/admins', (record) => record);
  } catch (err) {
    const status = panel.statusOf(err);
    if (!(status !== undefined && [403, 404, 405].includes(status))) throw err;
    panel.note(
      `The owners of ${plural(unknown.length, 'domain')} are not clients, ` +
        `and ${panel.describe('GET', '/admins')} answered ${status}: those owners are not checked.`,
    );
    return;
  }
  const where = panel.describe('GET', '/admins');
  const adminIds = new Set(admins.map((a, i) => integer(asRecord(a, `${where}[${i}]`), 'id', `${where}[${i}]`)));
  const nowhere = unknown.filter((d) => !adminIds.has(d.idUser));
  if (nowhere.length === 0) return;
  const shown =
    nowhere
      .slice(0, 5)
      .map((d) => `${quote(d.name)} (id ${d.id}, id_user ${d.idUser})`)
      .join(', ') + (nowhere.length > 5 ? `, and ${nowhere.length - 5} more` : '');
  throw new ProvisionError(
    'panel_contract',
    `${panel.describe('GET', '/domains')}: domains whose owner is neither a client nor an administrator: ${shown}`,
    {
      hint: 'the panel answered domains of users it does not list; report the panel version and this message',
    },
  );
}
