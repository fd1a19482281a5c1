/**
 * DNS zones for the planner's tests: a zone as the panel answers it (read through the zone's
 * room, as the panel client reads it), random records for the property tests (duplicates, odd
 * hosts in the panel's spellings), and what a PUT or a new domain leaves on the panel.
 */
import fc from 'fast-check';
import {
  type DesiredZone,
  type DnsRecord,
  type LiveZone,
  parseZone,
  type UpdateZone,
  wantOfNewZone,
  zoneBodyOf,
  zoneDiff,
} from '../../src/kinds/zone.js';
import { defaultZone } from '../../src/simulator/zones.js';

/** A panel record: `[host, type, value, ttl?]` (ttl 86400 unless given), in the panel's spelling. */
export type RecordSpec = readonly [string, string, string, (number | string)?];

/**
 * The zone of `domain` as GET /dns/{id} answers it (the simulator's SOA and DKIM record), with
 * `records` (default: the simulator's defaults for a new domain), read as the panel client reads it.
 */
export function liveZone(
  domain: string,
  records?: readonly RecordSpec[],
  options: { custom?: boolean; disabled?: boolean; extra?: Record<string, unknown> } = {},
): LiveZone {
  const base = defaultZone(domain);
  const answer = {
    ...base,
    is_custom_dns: options.custom ?? false,
    is_dns_disabled: options.disabled ?? false,
    records: {
      soa: base.records.soa,
      other:
        records === undefined
          ? base.records.other
          : records.map(([host, type, value, ttl]) => ({ host, ttl: ttl ?? 86400, type, value, ...options.extra })),
    },
  };
  const read = parseZone(answer, domain);
  if (!('zone' in read)) throw new Error(`test zone unreadable: ${read.problem}`);
  return read.zone;
}

/** A desired zone: records `[host, type, value, ttl?]` (ttl 3600 unless given) in comparison form. */
export function wantZone(
  records: readonly (readonly [string, string, string, number?])[],
  options: { prune?: boolean; keep?: string[] } = {},
): DesiredZone {
  return {
    records: records.map(([host, type, value, ttl]) => ({ host, type, value, ttl: ttl ?? 3600 })),
    prune: options.prune ?? false,
    keep: options.keep ?? [],
  };
}

/** A pool of records, small so that manifests and panels overlap often. */
const RECORDS: readonly DnsRecord[] = [
  { host: '@', type: 'A', value: '192.0.2.1', ttl: 86400 },
  { host: '@', type: 'A', value: '192.0.2.10', ttl: 3600 },
  { host: 'www', type: 'A', value: '192.0.2.1', ttl: 86400 },
  { host: 'www', type: 'CNAME', value: 'alice.example.', ttl: 300 },
  { host: '@', type: 'MX', value: '10 mail.alice.example.', ttl: 3600 },
  { host: '@', type: 'TXT', value: 'v=spf1 mx -all', ttl: 300 },
  { host: '@', type: 'TXT', value: 'V=SPF1 MX -ALL', ttl: 300 },
  { host: '_acme-challenge', type: 'TXT', value: 'token "quoted"\\', ttl: 120 },
  { host: '_dmarc', type: 'TXT', value: 'v=DMARC1; p=none', ttl: 3600 },
  { host: '@', type: 'NS', value: 'ns1.sim.keyhelp.test.', ttl: 86400 },
  { host: '@', type: 'NS', value: 'ns9.example.net.', ttl: 86400 },
];

/** A manifest's zone: unique records from the pool (TTLs as listed or other), prune or not, keep patterns. */
export const desiredZone: fc.Arbitrary<DesiredZone> = fc.record({
  records: fc
    .uniqueArray(fc.constantFrom(...RECORDS), {
      selector: (r) => `${r.host} ${r.type} ${r.value}`,
      maxLength: 6,
    })
    .chain((records) =>
      fc.tuple(...records.map((r) => fc.constantFrom(r, { ...r, ttl: 600 }))).map((list) => [...list]),
    ),
  prune: fc.boolean(),
  keep: fc.subarray(['_acme-challenge*', 'www', '*']),
});

/** How a panel may spell a record's host: as the manifest does, upper-case, absolute, empty for the apex. */
function spelled(host: string, domain: string): fc.Arbitrary<string> {
  const absolute = host === '@' ? `${domain}.` : `${host}.${domain}.`;
  return fc.constantFrom(host, host.toUpperCase(), absolute, ...(host === '@' ? [''] : []));
}

/** A panel's records: from the pool, duplicates allowed, hosts in any spelling, types in any case, TTLs as strings. */
export function panelRecords(domain: string): fc.Arbitrary<RecordSpec[]> {
  return fc.array(
    fc
      .constantFrom(...RECORDS)
      .chain((r) =>
        fc.tuple(
          spelled(r.host, domain),
          fc.constantFrom(r.type, r.type.toLowerCase()),
          fc.constant(r.value),
          fc.constantFrom<number | string>(r.ttl, String(r.ttl), 60),
        ),
      ),
    { maxLength: 8 },
  );
}

/** The records a PUT's body leaves on the panel, as the panel stores them (what it was sent). */
export function afterPut(domain: string, before: LiveZone, change: UpdateZone): LiveZone {
  const body = zoneBodyOf(change);
  if (body === null) throw new Error('an existing zone change without a body');
  return readBack(domain, before, body.records.other);
}

/** A new domain's zone after its POST (the simulator's defaults), then the change diffed and written. */
export function newDomainZone(domain: string, change: UpdateZone): LiveZone {
  const defaults = liveZone(domain);
  return readBack(domain, defaults, zoneDiff(wantOfNewZone(change), defaults.records).other);
}

function readBack(domain: string, before: LiveZone, other: readonly object[]): LiveZone {
  const read = parseZone(
    { is_custom_dns: true, is_dns_disabled: false, dkim_record: before.dkim, records: { soa: before.soa, other } },
    domain,
  );
  if (!('zone' in read)) throw new Error(`a PUT's body unreadable: ${read.problem}`);
  return read.zone;
}
