/**
 * Reading DNS zones: `GET /dns/{domain id}`, one per domain whose manifest entry manages DNS (the
 * stage reads them concurrently within the run's bound: panel/object-reads.ts readEach). A zone is
 * written back whole, so it must be read whole: an answer this room cannot read (./record.ts) is a
 * contract error naming the request and the path inside the answer. The panel comes in through
 * PanelReader (../apply.ts): the room sends nothing itself.
 */
import { ProvisionError } from '../../errors.js';
import { quote } from '../../escape.js';
import { plural } from '../../util.js';
import type { PanelReader } from '../apply.js';
import { type LiveZone, parseZone } from './record.js';

/** A domain whose zone is read: its ASCII name and its id. */
export interface ZoneDomain {
  readonly name: string;
  readonly id: number;
}

/** A domain as the panel lists it, for choosing the zones to read. */
export interface ListedDomain extends ZoneDomain {
  /** A subdomain has no zone of its own (the panel answers 400): `dns` on it is a conflict, not a read. */
  readonly isSubdomain?: boolean | undefined;
}

/**
 * The domains of `names` that the panel has, whose zones to read; undefined when there are none
 * to read (none listed, or only subdomains). A domain the panel lacks costs nothing: its zone is
 * read after its create.
 */
export function managedZoneDomains(
  domains: readonly ListedDomain[],
  names: readonly string[],
): readonly ListedDomain[] | undefined {
  if (names.length === 0) return undefined;
  const byName = new Map(domains.map((d) => [d.name, d]));
  const existing = [...new Set(names)].flatMap((name) => byName.get(name) ?? []);
  if (!existing.some((d) => d.isSubdomain !== true)) return undefined;
  return zoneDomains(existing);
}

/** The domains of `listed` that have a zone of their own: a subdomain's is not read (it has none). */
export function zoneDomains<D extends ListedDomain>(listed: readonly D[]): D[] {
  return listed.filter((d) => d.isSubdomain !== true);
}

/** The plan's note on the zones read: `Read 3 DNS zones (GET https://…/dns/{id} each).` */
export function zonesReadNote(panel: PanelReader, count: number): string {
  return `Read ${plural(count, 'DNS zone')} (${panel.describe('GET', '/dns/{id}')} each).`;
}

/** GET /dns/{id} of one domain, read and checked. */
export async function readZone(panel: PanelReader, domain: ZoneDomain): Promise<LiveZone> {
  const path = `/dns/${domain.id}`;
  const answer = await panel.get(path);
  const read = parseZone(answer, domain.name);
  if ('zone' in read) return read.zone;
  throw new ProvisionError(
    'panel_contract',
    `${panel.describe('GET', path)} (the zone of ${quote(domain.name)}): ${read.problem}`,
    {
      hint: 'the panel answered a zone panel-provision cannot read whole: the run stops; nothing is written; report the panel version and this message',
    },
  );
}
