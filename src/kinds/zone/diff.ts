/**
 * A zone's diff rule and the PUT it becomes. A record is (host, type, value), host and type
 * compared case-insensitively (both are in comparison form already), the value exactly; a listed
 * record whose TTL differs is an update. Without `prune` nothing unlisted goes; with it, an
 * unlisted record goes unless its host matches a `keep` pattern, and the apex's NS records go
 * only when the manifest lists apex NS records of its own (it then manages that set: a zone
 * whose delegation a prune removed would vanish from the internet). Pure.
 */
import { jsonText, quote } from '../../escape.js';
import { globMatcher } from '../../names.js';
import { canonical, type JsonObject } from '../../util.js';
import { type DnsRecord, exactKey, type LiveRecord, type LiveZone, recordKey, type ZoneBody } from './record.js';

/** What a manifest says of a zone: its records (TTLs resolved), and what may go unlisted. */
export interface DesiredZone {
  readonly records: readonly DnsRecord[];
  readonly prune: boolean;
  /** Host patterns (`*`, `?`) prune never removes. */
  readonly keep: readonly string[];
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

/**
 * The changes that take `live` (a zone's records as read) to what `want` says, and the record
 * list the PUT sends (recordsAfter: the records as read with the changes applied). Two equal
 * records on the panel are two: a listed record matches one of them (one with its TTL, if any),
 * and the other is unlisted.
 */
export function zoneDiff(want: DesiredZone, live: readonly LiveRecord[]): ZoneDiff {
  const unmatched = new Map<string, number[]>();
  live.forEach((r, i) => {
    const key = recordKey(r);
    const list = unmatched.get(key);
    if (list === undefined) unmatched.set(key, [i]);
    else list.push(i);
  });
  const ops: RecordOp[] = [];
  for (const r of want.records) {
    // Among equal records on the panel, the one with the listed TTL first: no update where one is there already.
    const candidates = unmatched.get(recordKey(r)) ?? [];
    const same = candidates.findIndex((j) => (live[j] as LiveRecord).ttl === r.ttl);
    const i = candidates.splice(same === -1 ? 0 : same, 1)[0];
    if (i === undefined) {
      ops.push({ op: 'add', host: r.host, type: r.type, value: r.value, ttl: r.ttl });
      continue;
    }
    const now = live[i] as LiveRecord;
    if (now.ttl !== r.ttl)
      ops.push({ op: 'update', host: r.host, type: r.type, value: r.value, ttl: r.ttl, ttl_before: now.ttl });
  }
  const removed: number[] = [];
  if (want.prune) {
    const keep = globMatcher(want.keep);
    const managesApexNs = want.records.some((r) => r.host === '@' && r.type === 'NS');
    for (const indices of unmatched.values()) {
      for (const i of indices) {
        const r = live[i] as LiveRecord;
        if (keep(r.host) || (r.host === '@' && r.type === 'NS' && !managesApexNs)) continue;
        removed.push(i);
      }
    }
  }
  // Removes in the panel's order, after the adds and updates.
  for (const i of removed.sort((a, b) => a - b)) {
    const r = live[i] as LiveRecord;
    ops.push({ op: 'remove', host: r.host, type: r.type, value: r.value, ttl: r.ttl });
  }
  const after = recordsAfter(live, ops);
  // zoneDiff's ops are made of `live`: each update and remove finds its record.
  return { ops, other: 'other' in after ? after.other : [] };
}

/**
 * The one place record changes become the PUT's record list: the records of `live` kept as read
 * (the panel's own objects, in its order; an update's TTL changed), then the adds in their order.
 * Among records exactly alike (identity and TTL) that differ in keys the engine does not compare,
 * an update takes the first and a remove the last by their canonical JSON: the same list in
 * whatever order the panel reads it (a saved plan's body is checked against a later read).
 * A problem when an update or a remove finds no record: the changes were not made of `live`.
 */
export function recordsAfter(
  live: readonly LiveRecord[],
  ops: readonly RecordOp[],
): { readonly other: JsonObject[] } | { readonly problem: string } {
  const ttlOf = new Map<number, number>();
  const removed = new Set<number>();
  const taken = (i: number): boolean => ttlOf.has(i) || removed.has(i);
  for (const op of ops) {
    if (op.op !== 'update') continue;
    const before = { ...op, ttl: op.ttl_before ?? op.ttl };
    const i = pick(live, (r, j) => !taken(j) && exactKey(r) === exactKey(before), 'first');
    if (i === -1) return { problem: `it updates ${opText(op)}, which has no record with TTL ${before.ttl}` };
    ttlOf.set(i, op.ttl);
  }
  for (const op of ops) {
    if (op.op !== 'remove') continue;
    const i = pick(live, (r, j) => !taken(j) && exactKey(r) === exactKey(op), 'last');
    if (i === -1) return { problem: `it removes ${opText(op)} with TTL ${op.ttl}, which the zone does not hold` };
    removed.add(i);
  }
  const other: JsonObject[] = [];
  live.forEach((r, i) => {
    if (removed.has(i)) return;
    const ttl = ttlOf.get(i);
    other.push(ttl === undefined ? r.raw : { ...r.raw, ttl });
  });
  for (const op of ops) if (op.op === 'add') other.push({ host: op.host, ttl: op.ttl, type: op.type, value: op.value });
  return { other };
}

/** The index of the record `fits` accepts whose canonical JSON sorts first (or last); -1 when none. */
function pick(live: readonly LiveRecord[], fits: (r: LiveRecord, i: number) => boolean, end: 'first' | 'last'): number {
  let best = -1;
  let bestText = '';
  live.forEach((r, i) => {
    if (!fits(r, i)) return;
    const text = canonical(r.raw);
    if (best === -1 || (end === 'first' ? text < bestText : text > bestText)) {
      best = i;
      bestText = text;
    }
  });
  return best;
}

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
