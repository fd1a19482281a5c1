/**
 * Reading DNS zones: `GET /dns/{domain id}`, one per domain whose manifest entry manages DNS (the
 * stage reads them concurrently within the run's bound: panel/object-reads.ts readEach). A zone is
 * written back whole, so it must be read whole: an answer this room cannot read (./record.ts) is a
 * contract error naming the request and the path inside the answer. The panel comes in through
 * PanelReader (../apply.ts) and PanelListReader (../read.ts): the room sends nothing itself.
 */
import { ProvisionError } from '../../errors.js';
import { quote } from '../../escape.js';
import { isRecord, type JsonObject, plural } from '../../util.js';
import type { PanelReader } from '../apply.js';
import type { KindRead } from '../read.js';
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

/**
 * The zones as one read of the panel holds them (Live, src/kinds/index.ts), by domain name:
 * only those of existing domains whose manifest entry manages DNS; empty when none was asked for.
 */
export type ZonesPart = ReadonlyMap<string, LiveZone>;

/** What the zones' read takes of the run's ask. */
export interface ZonesAsk {
  /**
   * The domains (ASCII) whose DNS zones to read: one GET /dns/{id} each for those on the panel
   * (not subdomains), the reader's `reads` at a time; a domain the panel lacks costs nothing (its
   * zone is read after its create).
   */
  readonly zones?: readonly string[] | undefined;
}

/** What the zones' read needs read first: the domains, whose ids it reads the zones by. */
export interface ZonesEarlier {
  readonly domain: { readonly records: readonly ListedDomain[] };
}

const NO_ZONES: ZonesPart = new Map();

/**
 * The zones' read (Kind.read): after the domains, one GET /dns/{id} per domain the ask names that
 * the panel has (managedZoneDomains), and a note saying how many; nothing when the ask names none.
 */
export const ZONE_READ: KindRead<ZonesPart, ZonesAsk, ZonesEarlier, never, 'domain'> = {
  after: ['domain'],
  needed: (ask) => (ask.zones ?? []).length > 0,
  empty: NO_ZONES,
  list: async (panel, ask, earlier) => {
    const read = managedZoneDomains(earlier.domain.records, ask.zones ?? []);
    if (read === undefined) return NO_ZONES;
    const zones = await panel.each(read, panel.reads, (d) => readZone(panel, d));
    const byName = new Map(read.map((d, i) => [d.name, zones[i] as LiveZone]));
    panel.note(zonesReadNote(panel, byName.size));
    return byName;
  },
  snapshot: {
    // The domains whose zones the take asked for are the snapshot's `reads.zones`.
    byThing: true,
    write: (zones) => {
      const written: Record<string, JsonObject> = {};
      for (const [name, zone] of [...zones].sort(([a], [b]) => (a < b ? -1 : 1))) written[name] = zoneRecord(zone);
      return { zones: written };
    },
    read: (reading) => {
      const zones = reading.value('zones');
      if (!isRecord(zones)) throw reading.bad('needs "zones" as an object');
      const read = new Map<string, LiveZone>();
      for (const [name, answer] of Object.entries(zones)) {
        const zone = parseZone(answer, name);
        if ('problem' in zone) throw reading.bad(`cannot read the zone of ${quote(name)}: ${zone.problem}`);
        read.set(name, zone.zone);
      }
      return read;
    },
  },
};

/** A zone as GET /dns/{id} answers it, reduced to what parseZone reads: as a snapshot holds it. */
function zoneRecord(zone: LiveZone): JsonObject {
  return {
    records: { soa: zone.soa, other: zone.records.map((r) => r.raw) },
    ...(zone.dkim === undefined ? {} : { dkim_record: zone.dkim }),
    ...(zone.isCustom === undefined ? {} : { is_custom_dns: zone.isCustom }),
    ...(zone.isDisabled === undefined ? {} : { is_dns_disabled: zone.isDisabled }),
  };
}
