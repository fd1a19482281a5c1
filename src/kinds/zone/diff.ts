/**
 * A zone's diff rule and the PUT it becomes. A record is (host, type, value), host and type
 * compared case-insensitively (both are in comparison form already), the value exactly; a listed
 * record whose TTL differs is an update. What a manifest names, it owns (octoDNS's record sets):
 * for each (host, type) it lists, the zone's records of that host and type become exactly the
 * listed ones, and a listed CNAME owns its whole host. With `prune` it owns the whole zone, but
 * the hosts a `keep` pattern matches and the apex's NS records unless it lists apex NS of its
 * own (a zone whose delegation a prune removed would vanish from the internet). An ACME
 * challenge's records stay unless the manifest lists a record at their host. Pure. */
import { jsonText, quote } from '../../escape.js';
import { globMatcher } from '../../names.js';
import { canonical, type JsonObject } from '../../util.js';
import type { RecordPlaces } from './places.js';
import { type DnsRecord, exactKey, type LiveRecord, type LiveZone, recordKey, type ZoneBody } from './record.js';

/** What a manifest says of a zone: its records (TTLs resolved), and what may go unlisted. */
export interface DesiredZone {
  readonly records: readonly DnsRecord[];
  readonly prune: boolean;
  /** Host patterns (`*`, `?`) prune never removes. */
  readonly keep: readonly string[];
  /** Where each record stands in the manifest, by its place in `records` (places.ts): for conflicts at their line. */
  readonly origin?: RecordPlaces;
}

/** One record's change, as the plan shows it. */
export interface RecordOp {
  readonly op: 'add' | 'remove' | 'update';
  readonly host: string;
  readonly type: string;
  readonly value: string;
  /** The TTL it will have (an add, an update), or has (a remove). */
  readonly ttl: number;
  /** An update's TTL before. */
  readonly ttl_before?: number;
}

/** A zone's diff: the record changes, and the records the PUT sends (`records.other`). */
export interface ZoneDiff {
  readonly ops: readonly RecordOp[];
  readonly other: readonly JsonObject[];
}

/** Whether `host` (comparison form) is an ACME challenge's: `_acme-challenge` or `_acme-challenge.*`. */
export function isAcmeHost(host: string): boolean {
  return host === ACME_HOST || host.startsWith(`${ACME_HOST}.`);
}
const ACME_HOST = '_acme-challenge';

/** `host\0type`: the key of a record set, the unit a manifest owns. */
export const setKey = (r: Pick<DnsRecord, 'host' | 'type'>): string => `${r.host}\u0000${r.type}`;

/**
 * What a desired zone owns on the panel, whatever `prune` says: each (host, type) it lists (the
 * set's records become exactly the listed ones), and each host it lists a CNAME at (an alias has
 * no other records, RFC 1034). `listedHosts`: every host it lists a record at (an ACME
 * challenge's host is touched only then).
 */
export interface Owned {
  readonly sets: ReadonlySet<string>;
  readonly cnameHosts: ReadonlySet<string>;
  readonly listedHosts: ReadonlySet<string>;
}

export function ownedBy(want: Pick<DesiredZone, 'records'>): Owned {
  const sets = new Set<string>();
  const cnameHosts = new Set<string>();
  const listedHosts = new Set<string>();
  for (const r of want.records) {
    sets.add(setKey(r));
    listedHosts.add(r.host);
    if (r.type === 'CNAME') cnameHosts.add(r.host);
  }
  return { sets, cnameHosts, listedHosts };
}

/**
 * Why an unlisted record of the panel goes: 'owned' (its (host, type) is listed, or a CNAME is
 * listed at its host), 'prune', or undefined when it stays: an ACME challenge's record at a
 * host the manifest lists nothing at (transient: a certificate is being issued), a host `keep`
 * matches under prune, the apex NS records under prune when no apex NS is listed.
 */
export function removedBecause(
  r: Pick<DnsRecord, 'host' | 'type'>,
  want: DesiredZone,
  owned: Owned,
  keep: (host: string) => boolean,
): 'owned' | 'prune' | undefined {
  if (isAcmeHost(r.host) && !owned.listedHosts.has(r.host)) return undefined;
  if (owned.sets.has(setKey(r)) || owned.cnameHosts.has(r.host)) return 'owned';
  if (!want.prune || keep(r.host)) return undefined;
  // The apex NS are managed only with apex NS listed (then owned above): a prune never takes the delegation.
  if (r.host === '@' && r.type === 'NS') return undefined;
  return 'prune';
}

/**
 * The changes that take `live` (a zone's records as read) to what `want` says, and the record
 * list the PUT sends (recordsAfter: the records as read with the changes applied). Two equal
 * records on the panel are two: a listed record matches one of them (one with its TTL, if any),
 * and the other is unlisted. An unlisted record goes as removedBecause says. Linear in the
 * records (a zone of 10,000 records: bench/dns.ts).
 */
export function zoneDiff(want: DesiredZone, live: readonly LiveRecord[]): ZoneDiff {
  const unmatched = new Map<string, number[]>();
  live.forEach((r, i) => {
    const key = recordKey(r);
    const list = unmatched.get(key);
    if (list === undefined) unmatched.set(key, [i]);
    else list.push(i);
  });
  const matched = new Uint8Array(live.length);
  const ops: RecordOp[] = [];
  for (const r of want.records) {
    // Among equal records on the panel, the one with the listed TTL first: no update where one is there already.
    const candidates = unmatched.get(recordKey(r));
    let i: number | undefined;
    if (candidates !== undefined && candidates.length > 0) {
      const same = candidates.findIndex((j) => (live[j] as LiveRecord).ttl === r.ttl);
      i = candidates.splice(same === -1 ? 0 : same, 1)[0];
    }
    if (i === undefined) {
      ops.push({ op: 'add', host: r.host, type: r.type, value: r.value, ttl: r.ttl });
      continue;
    }
    matched[i] = 1;
    const now = live[i] as LiveRecord;
    if (now.ttl !== r.ttl)
      ops.push({ op: 'update', host: r.host, type: r.type, value: r.value, ttl: r.ttl, ttl_before: now.ttl });
  }
  const owned = ownedBy(want);
  const keep = globMatcher(want.keep);
  // Removes in the panel's order, after the adds and updates.
  live.forEach((r, i) => {
    if (matched[i] === 0 && removedBecause(r, want, owned, keep) !== undefined)
      ops.push({ op: 'remove', host: r.host, type: r.type, value: r.value, ttl: r.ttl });
  });
  const after = recordsAfter(live, ops);
  // zoneDiff's ops are made of `live`: each update and remove finds its record.
  return { ops, other: 'other' in after ? after.other : [] };
}

/**
 * The one place record changes become the PUT's record list: the records of `live` kept as read
 * (the panel's own objects, in its order; an update's TTL changed; a TTL read as a string sent as
 * the number it says), then the adds in their order. Among records exactly alike (identity and
 * TTL) that differ in keys the engine does not compare, an update takes the first and a remove
 * the last by their canonical JSON: the same list in whatever order the panel reads it (a saved
 * plan's body is checked against a later read). A problem when an update or a remove finds no
 * record: the changes were not made of `live`. Linear but for sorting each group of records
 * alike that a change names.
 */
export function recordsAfter(
  live: readonly LiveRecord[],
  ops: readonly RecordOp[],
): { readonly other: JsonObject[] } | { readonly problem: string } {
  const named = new Set<string>();
  for (const op of ops)
    if (op.op !== 'add') named.add(exactKey(op.op === 'update' ? { ...op, ttl: op.ttl_before ?? op.ttl } : op));
  /** The records of each exact key a change names, by canonical JSON; `front`/`back`: the next untaken at each end. */
  const groups = new Map<string, { readonly at: number[]; front: number; back: number }>();
  live.forEach((r, i) => {
    const key = exactKey(r);
    if (!named.has(key)) return;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { at: [i], front: 0, back: 0 });
    else group.at.push(i);
  });
  for (const group of groups.values()) {
    if (group.at.length > 1) {
      const text = new Map(group.at.map((i) => [i, canonical((live[i] as LiveRecord).raw)]));
      // Stable: among identical texts, the panel's first.
      group.at.sort((a, b) => compareText(text.get(a) ?? '', text.get(b) ?? ''));
    }
    group.back = group.at.length - 1;
  }
  const take = (key: string, end: 'first' | 'last'): number | undefined => {
    const group = groups.get(key);
    if (group === undefined || group.front > group.back) return undefined;
    return end === 'first' ? group.at[group.front++] : group.at[group.back--];
  };
  const ttlOf = new Map<number, number>();
  const removed = new Set<number>();
  for (const op of ops) {
    if (op.op !== 'update') continue;
    const before = { ...op, ttl: op.ttl_before ?? op.ttl };
    const i = take(exactKey(before), 'first');
    if (i === undefined) return { problem: `it updates ${opText(op)}, which has no record with TTL ${before.ttl}` };
    ttlOf.set(i, op.ttl);
  }
  for (const op of ops) {
    if (op.op !== 'remove') continue;
    const i = take(exactKey(op), 'last');
    if (i === undefined)
      return { problem: `it removes ${opText(op)} with TTL ${op.ttl}, which the zone does not hold` };
    removed.add(i);
  }
  const other: JsonObject[] = [];
  live.forEach((r, i) => {
    if (removed.has(i)) return;
    const ttl = ttlOf.get(i) ?? (typeof r.raw.ttl === 'number' ? undefined : r.ttl);
    other.push(ttl === undefined ? r.raw : { ...r.raw, ttl });
  });
  for (const op of ops) if (op.op === 'add') other.push({ host: op.host, ttl: op.ttl, type: op.type, value: op.value });
  return { other };
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `TXT "_x" "v=1"`: a record in a problem, every part as data. */
function opText(op: RecordOp): string {
  return `${jsonText(op.type)} ${quote(op.host)} ${jsonText(op.value)}`;
}

/** The PUT's body for `zone` with `other` as its record list: the SOA and the DKIM record as read. */
export function zoneBody(zone: Pick<LiveZone, 'soa' | 'dkim'>, other: readonly JsonObject[]): ZoneBody {
  const records = { soa: zone.soa, other };
  return zone.dkim === undefined ? { records } : { dkim_record: zone.dkim, records };
}

/** How many records a zone's changes remove: each counts as one delete for --max-deletes. */
export function removals(ops: readonly RecordOp[]): number {
  return ops.reduce((n, op) => n + (op.op === 'remove' ? 1 : 0), 0);
}

/**
 * What changed between two reads of a zone's records, as record changes seen from the panel: a
 * record there now and not before is an add, one gone a remove, one whose TTL moved an update.
 * Equal records are counted (two equal records are two). Empty when the records are the same.
 */
export function recordDrift(before: readonly DnsRecord[], now: readonly DnsRecord[]): RecordOp[] {
  const exact = exactKey;
  const left = new Map<string, DnsRecord[]>();
  for (const r of before) {
    const list = left.get(exact(r));
    if (list === undefined) left.set(exact(r), [r]);
    else list.push(r);
  }
  const added: DnsRecord[] = [];
  for (const r of now) if (left.get(exact(r))?.pop() === undefined) added.push(r);
  const gone = new Map<string, DnsRecord[]>();
  for (const list of left.values())
    for (const r of list) {
      const same = gone.get(recordKey(r));
      if (same === undefined) gone.set(recordKey(r), [r]);
      else same.push(r);
    }
  const ops: RecordOp[] = [];
  for (const r of added) {
    const was = gone.get(recordKey(r))?.shift();
    ops.push(
      was === undefined
        ? { op: 'add', host: r.host, type: r.type, value: r.value, ttl: r.ttl }
        : { op: 'update', host: r.host, type: r.type, value: r.value, ttl: r.ttl, ttl_before: was.ttl },
    );
  }
  for (const list of gone.values())
    for (const r of list) ops.push({ op: 'remove', host: r.host, type: r.type, value: r.value, ttl: r.ttl });
  return ops;
}
