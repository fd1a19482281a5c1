/**
 * Reading DNS zones: `GET /dns/{domain id}`, one per domain whose manifest entry manages DNS,
 * concurrently within the run's bound. A zone is written back whole, so it must be read whole:
 * an answer the zone's room cannot read (src/kinds/zone/record.ts) is a contract error naming
 * the request and the path inside the answer.
 */
import pLimit from 'p-limit';
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { type LiveZone, parseZone } from '../kinds/zone/record.js';
import { plural } from '../util.js';
import type { PanelClient } from './client.js';

/** A domain whose zone is read: its ASCII name and its id. */
export interface ZoneDomain {
  readonly name: string;
  readonly id: number;
}

/** A domain as the panel lists it, for choosing the zones to read. */
interface ListedDomain extends ZoneDomain {
  /** A subdomain has no zone of its own (the panel answers 400): `dns` on it is a conflict, not a read. */
  readonly isSubdomain?: boolean | undefined;
}

/**
 * The zones of the domains `names` lists that the panel has and that are not subdomains, by name,
 * `concurrency` at a time (the bound apply sends with); undefined when there are none to read. A
 * domain the panel lacks costs nothing: its zone is read after its create.
 */
export async function readManagedZones(
  client: PanelClient,
  domains: readonly ListedDomain[],
  names: readonly string[],
  concurrency: number,
): Promise<ReadonlyMap<string, LiveZone> | undefined> {
  if (names.length === 0) return undefined;
  const byName = new Map(domains.map((d) => [d.name, d]));
  const existing = [...new Set(names)].flatMap((name) => byName.get(name) ?? []);
  if (!existing.some((d) => d.isSubdomain !== true)) return undefined;
  return readZones(client, existing, concurrency);
}

/** The plan's note on the zones read: `Read 3 DNS zones (GET https://…/dns/{id} each).` */
export function zonesReadNote(client: PanelClient, count: number): string {
  return `Read ${plural(count, 'DNS zone')} (${client.describe('GET', '/dns/{id}')} each).`;
}

/** GET /dns/{id} of one domain, read and checked. */
export async function readZone(client: PanelClient, domain: ZoneDomain): Promise<LiveZone> {
  const path = `/dns/${domain.id}`;
  const answer = await client.get(path);
  const read = parseZone(answer, domain.name);
  if ('zone' in read) return read.zone;
  throw new ProvisionError(
    'panel_contract',
    `${client.describe('GET', path)} (the zone of ${quote(domain.name)}): ${read.problem}`,
    {
      hint: 'the panel answered a zone panel-provision cannot read whole: the run stops; nothing is written; report the panel version and this message',
    },
  );
}

/**
 * The zones of `domains` by name, `concurrency` at a time; a subdomain's is not read (it has
 * none). A zone that cannot be read whole stops the read, unless `unreadable` is given (export,
 * which writes nothing to the panel): that zone is then left out and `unreadable` told why.
 */
export async function readZones(
  client: PanelClient,
  listed: readonly ListedDomain[],
  concurrency: number,
  unreadable?: (domain: string, error: ProvisionError) => void,
): Promise<ReadonlyMap<string, LiveZone>> {
  const domains = listed.filter((d) => d.isSubdomain !== true);
  const limit = pLimit(concurrency);
  const zones = await Promise.all(
    domains.map((d) =>
      limit(() =>
        readZone(client, d).catch((error: unknown) => {
          if (unreadable === undefined || !(error instanceof ProvisionError) || error.code !== 'panel_contract')
            throw error;
          unreadable(d.name, error);
          return undefined;
        }),
      ),
    ),
  );
  return new Map(domains.flatMap((d, i) => (zones[i] === undefined ? [] : [[d.name, zones[i]] as const])));
}
