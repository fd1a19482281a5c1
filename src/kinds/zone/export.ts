/**
 * A zone's export entry (`provision export --with dns`, `export --into`): the records of a
 * zone as read that a manifest can hold, as a `dns` block writes them (`ttl`: the zone's most
 * common TTL; each record `{host, type, value}` and its `ttl` only where it differs). A record
 * the manifest would refuse is left out, with its reason, so the export always validates: a
 * value checkValue calls an error, a host recordHost refuses, a TTL outside TTL_RANGE, a second
 * record of the same identity (the manifest refuses duplicates; the panel keeps both and a plan
 * of one leaves the other alone); a record whose host and type (or, for a CNAME, host) a
 * listing would own beside one left out, or that the zone's check would refuse (check.ts: the
 * panel's zone breaks DNS there), is left out too, so the export plans to no change. An ACME
 * challenge's record is never written (a note counts them). `prune` is never written: an adopted zone removes nothing.
 * Pure.
 */
import { quote, jsonText, safeText } from '../../escape.js';
import { type DnsRecord, type LiveZone, recordKey } from './record.js';
import { zoneIssues } from './check.js';
import { isAcmeHost, setKey } from './diff.js';
import { checkValue, recordHost, TTL_RANGE, ttlInRange } from './values.js';
import { DNS_KEY } from './manifest-words.js';

/** A record as a manifest's `dns.records` writes it: `ttl` only when it differs from the block's. */
export interface RecordEntry {
  readonly host: string;
  readonly type: string;
  readonly value: string;
  readonly ttl?: number;
}

/** A `dns` block as export writes it: `ttl` (absent when no record is written), then `records`. */
export interface ZoneEntry {
  readonly ttl?: number;
  readonly records: readonly RecordEntry[];
}

/** A record of the panel's a manifest cannot hold, and why (a phrase after "it"). */
export interface UnwritableRecord {
  readonly record: DnsRecord;
  readonly reason: string;
}

/** The records of a zone a manifest can hold (in the panel's order), those it cannot, and the ACME challenges' (never written). */
export interface WritableRecords {
  readonly records: readonly DnsRecord[];
  readonly unwritable: readonly UnwritableRecord[];
  readonly transient: readonly DnsRecord[];
}

/** Why the manifest cannot hold `record` of the zone `zone` (its ASCII name); undefined when it can. */
export function recordProblem(record: DnsRecord, zone: string): string | undefined {
  const host = recordHost(record.host, zone);
  if ('problem' in host) return `has a host that ${host.problem}`;
  const value = checkValue(record.type, record.value);
  if (value?.severity === 'error') return `has a value that ${value.message}`;
  if (!ttlInRange(record.ttl)) return `has a TTL outside ${TTL_RANGE.min}-${TTL_RANGE.max} seconds`;
  return undefined;
}

/**
 * The zone's records split into those a manifest can hold (the first of each identity), those
 * it cannot (recordProblem, or a second record of an identity written already, or a record of
 * the same host and type as one of those: a manifest listing it would own the set and remove
 * the other), and the ACME challenges' (hosts `_acme-challenge`, `_acme-challenge.*`:
 * transient, never written).
 */
export function writableRecords(zone: Pick<LiveZone, 'records'>, name: string): WritableRecords {
  const first: DnsRecord[] = [];
  const unwritable: UnwritableRecord[] = [];
  const transient: DnsRecord[] = [];
  const seen = new Set<string>();
  for (const r of zone.records) {
    const record: DnsRecord = { host: r.host, type: r.type, value: r.value, ttl: r.ttl };
    // A certificate being issued: a manifest holding its token would write a stale one back.
    if (isAcmeHost(r.host)) {
      transient.push(record);
      continue;
    }
    const reason = recordProblem(record, name);
    if (reason !== undefined) unwritable.push({ record, reason });
    else if (seen.has(recordKey(record)))
      unwritable.push({ record, reason: 'is on the panel twice (a manifest lists a record once)' });
    else {
      seen.add(recordKey(record));
      first.push(record);
    }
  }
  // What a manifest names, it owns: listing the rest of a set (or a CNAME at the host) would remove the unwritable.
  const taintedSets = new Set(unwritable.map((u) => setKey(u.record)));
  const taintedHosts = new Set(unwritable.map((u) => u.record.host));
  // A zone the panel holds broken (a CNAME beside others, two SPF): listed, the plan would refuse it.
  const broken = new Set<string>();
  const brokenHosts = new Set<string>();
  for (const issue of zoneIssues({ records: first }, first, name))
    for (const r of issue.other === undefined ? [issue.record] : [issue.record, issue.other]) {
      if (r.type === 'CNAME') brokenHosts.add(r.host);
      else broken.add(setKey(r));
    }
  const records: DnsRecord[] = [];
  for (const record of first) {
    if (broken.has(setKey(record)) || brokenHosts.has(record.host))
      unwritable.push({
        record,
        reason:
          'is part of what its zone holds against DNS rules (a CNAME beside other records or at the apex, two ' +
          'SPF records, an MX or NS at a CNAME): listed, plan would refuse it; fix the zone in the panel',
      });
    else if (taintedSets.has(setKey(record)) || (record.type === 'CNAME' && taintedHosts.has(record.host)))
      unwritable.push({
        record,
        reason:
          'stands beside a record of its host the manifest cannot hold (listed, it would own that one and remove it)',
      });
    else records.push(record);
  }
  return { records, unwritable, transient };
}

/** The note for the ACME challenges' records export leaves out; undefined when there are none. */
export function transientNote(transient: readonly DnsRecord[]): string | undefined {
  if (transient.length === 0) return undefined;
  return (
    `${transient.length === 1 ? "1 ACME challenge's record" : `${transient.length} ACME challenges' records`} ` +
    '(hosts _acme-challenge and _acme-challenge.*) left out of "dns": they are transient, and plan never removes ' +
    'them unless the manifest lists a record at their host'
  );
}

/** The most common TTL of `records`, the first met among equals; undefined when there are none. */
export function commonTtl(records: readonly Pick<DnsRecord, 'ttl'>[]): number | undefined {
  const counts = new Map<number, number>();
  for (const r of records) counts.set(r.ttl, (counts.get(r.ttl) ?? 0) + 1);
  let best: number | undefined;
  for (const [ttl, n] of counts) if (best === undefined || n > (counts.get(best) ?? 0)) best = ttl;
  return best;
}

/** A record as the manifest writes it under a block whose TTL is `blockTtl`. */
export function recordEntry(record: DnsRecord, blockTtl: number): RecordEntry {
  const { host, type, value, ttl } = record;
  return ttl === blockTtl ? { host, type, value } : { host, type, value, ttl };
}

/** The `dns` block of a zone whose records the manifest can hold are `records` (writableRecords). */
export function zoneEntry(records: readonly DnsRecord[]): ZoneEntry {
  const ttl = commonTtl(records);
  if (ttl === undefined) return { records: [] };
  return { ttl, records: records.map((r) => recordEntry(r, ttl)) };
}

/** `TXT "_x" "v=1" (ttl 30)`: a record in running text, every part as data. */
export function panelRecordText(record: DnsRecord): string {
  return `${safeText(record.type)} ${quote(record.host)} ${jsonText(record.value)} (ttl ${record.ttl})`;
}

/** What export made of the zones it read: how many it read, wrote, and passed over and why. */
export interface ZoneCounts {
  readonly read: number;
  readonly written: number;
  /** Zones the panel serves no DNS for (`is_dns_disabled`): a `dns` block on them is a conflict. */
  readonly disabled: number;
  /** Zones that do not say whether they are custom (no `is_custom_dns`): taken as the panel's defaults. */
  readonly unsaid: number;
}

/** How many of `zones` (those read) there are, how many `items` (the domain items written) hold a `dns` block, and how many were passed over as disabled or unsaid. */
export function zoneCounts(
  zones: readonly Pick<LiveZone, 'isCustom' | 'isDisabled'>[],
  items: readonly unknown[],
): ZoneCounts {
  return {
    read: zones.length,
    written: items.filter((d) => typeof d === 'object' && d !== null && DNS_KEY in d).length,
    disabled: zones.filter((z) => z.isDisabled === true).length,
    unsaid: zones.filter((z) => z.isCustom === undefined && z.isDisabled !== true).length,
  };
}
