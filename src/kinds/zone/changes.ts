/**
 * A zone's change: its type, how the planner makes it, the request it becomes and its phrases.
 * A zone is changed whole (`PUT /dns/{domain id}` replaces the record list), so a domain's zone
 * has at most one change, an update, whatever its records do. Pure.
 */
import type { JsonObject, JsonValue } from '../../util.js';
import { type ChangeBase, changeId, type KindNoun, type PanelRequest } from '../common.js';
import { type DesiredZone, type RecordOp, removals, setKey, zoneBody, zoneDiff } from './diff.js';
import { type DnsRecord, exactKey, type LiveRecord, type LiveZone, parseZone, type ZoneBody } from './record.js';

/**
 * What an existing domain's zone PUT sends back of the zone as the plan read it: its SOA and DKIM
 * record (`dkim` undefined: the answer had none, and the PUT leaves it out), and the records it
 * keeps in the panel's order, each in its comparison form with the object sent (an update's TTL
 * applied). The PUT's body is these records followed by the change's adds (zoneBodyOf).
 */
export interface KeptZone {
  readonly soa: JsonValue;
  readonly dkim: JsonValue | undefined;
  readonly records: readonly LiveRecord[];
  /**
   * Where each add stands in the PUT's record list, by the adds' order, when a saved plan's body
   * (an edited file) does not hold them last; absent when they follow the kept records.
   */
  readonly addsAt?: readonly number[];
}

/**
 * A domain's zone whose records differ from the manifest's: one `PUT /dns/{domain id}` with the
 * records as read and the changes applied, the SOA and the DKIM record as read.
 */
export interface UpdateZone extends ChangeBase<'dns_zone'> {
  readonly action: 'update';
  readonly type: 'dns_zone';
  /** The domain (ASCII), whose zone this is. */
  readonly name: string;
  /** The domain's owner. */
  readonly client: string;
  /** The domain's id; null when the domain is created in the same run (its zone is read after its POST). */
  readonly domainId: number | null;
  /** The record changes; for a new domain, its records as adds (the panel's defaults are known after apply). */
  readonly records: readonly RecordOp[];
  /** Whether unlisted records go, and the hosts that stay (a new domain's zone is diffed after its POST). */
  readonly prune: boolean;
  readonly keep: readonly string[];
  /** The zone is not custom yet: this PUT makes it so (the panel stops regenerating its default records). */
  readonly makesCustom: boolean;
  /** The digest of the zone as the plan read it (LiveZone.digest); null for a new domain. */
  readonly zoneDigest: string | null;
  /**
   * What the PUT sends back of the zone as the plan read it, its body derived from it and the
   * record changes (zoneBodyOf); null for a new domain, whose zone is read after its POST.
   */
  readonly kept: KeptZone | null;
}

/**
 * The diff rule for an existing domain's zone: the update when its records differ, or undefined.
 * `after`: the domain's own create or update in the same plan, which the zone's PUT waits for.
 */
export function updateZone(
  domain: { readonly name: string; readonly id: number; readonly client: string },
  want: DesiredZone,
  zone: LiveZone,
  after: readonly ChangeBase['id'][],
): UpdateZone | undefined {
  const { ops, other } = zoneDiff(want, zone.records);
  if (ops.length === 0) return undefined;
  // The PUT's records are the kept ones, then the adds (recordsAfter): the adds are derived from the ops.
  const kept = keptZone(domain.name, zone, other.slice(0, other.length - addsOf(ops).length));
  // Never: the records were read by the same reader.
  if (kept === undefined) throw new Error(`the zone of ${domain.name} cannot be read back`);
  return {
    id: changeId('dns_zone', domain.name),
    action: 'update',
    type: 'dns_zone',
    name: domain.name,
    client: domain.client,
    domainId: domain.id,
    reason: 'differs from the manifest',
    dependsOn: after,
    records: ops,
    prune: want.prune,
    keep: want.keep,
    makesCustom: zone.isCustom !== true,
    zoneDigest: zone.digest,
    kept,
  };
}

/**
 * The zone of a domain created in the same run: its records as adds, written after the domain's
 * POST once its zone is read (the panel fills in its default records then). A zone that lists no
 * records and prunes nothing has nothing to do: undefined.
 */
export function newZone(domain: string, client: string, want: DesiredZone): UpdateZone | undefined {
  if (want.records.length === 0 && !want.prune) return undefined;
  return {
    id: changeId('dns_zone', domain),
    action: 'update',
    type: 'dns_zone',
    name: domain,
    client,
    domainId: null,
    reason: 'a new domain',
    dependsOn: [changeId('domain', domain)],
    records: want.records.map((r) => ({ op: 'add', host: r.host, type: r.type, value: r.value, ttl: r.ttl })),
    prune: want.prune,
    keep: want.keep,
    makesCustom: true,
    zoneDigest: null,
    kept: null,
  };
}

/**
 * The request a zone's change becomes. A new domain's zone is known only after its POST: before
 * apply (a preview) its path's id and its body are null (known after apply); apply passes the
 * domain's id and the body it built from the zone it read, which is sent instead of the change's.
 */
export function zoneRequest(
  change: UpdateZone,
  known?: { readonly id: number; readonly body: ZoneBody },
): PanelRequest {
  const id = change.domainId ?? known?.id;
  const body = known?.body ?? zoneBodyOf(change);
  return {
    method: 'PUT',
    path: `/dns/${id ?? '{id}'}`,
    body: body === null ? { records: null } : (body as unknown as PanelRequest['body']),
  };
}

/**
 * The PUT's body an existing domain's zone change sends, derived from what it keeps of the zone
 * as read and its record changes: the SOA and the DKIM record as read, the kept records in the
 * panel's order, then the adds in their order (as recordsAfter makes it). null for a new domain.
 */
export function zoneBodyOf(change: UpdateZone): ZoneBody | null {
  if (change.kept === null) return null;
  const { records, addsAt } = change.kept;
  return zoneBody(
    change.kept,
    placed(
      records.map((r) => r.raw),
      addsOf(change.records).map(addedRecord),
      addsAt,
    ),
  );
}

/** The kept records with the adds placed among them: at `addsAt` when given, else after them. */
function placed<T>(kept: readonly T[], adds: readonly T[], addsAt: readonly number[] | undefined): T[] {
  if (addsAt === undefined) return [...kept, ...adds];
  const list: (T | undefined)[] = new Array<T | undefined>(kept.length + adds.length).fill(undefined);
  const taken = new Set(addsAt);
  adds.forEach((add, k) => (list[addsAt[k] ?? -1] = add));
  let next = 0;
  for (let i = 0; i < list.length; i++) if (!taken.has(i)) list[i] = kept[next++];
  return list as T[];
}

/** The record an add puts in the PUT's list, as recordsAfter writes it. */
export function addedRecord(op: RecordOp): JsonObject {
  return { host: op.host, ttl: op.ttl, type: op.type, value: op.value };
}

/** The adds among a zone's changes, in their order. */
export function addsOf(ops: readonly RecordOp[]): RecordOp[] {
  return ops.filter((op) => op.op === 'add');
}

/**
 * What a PUT keeps of `zone` (read of `name`): its SOA and DKIM record, and `other` (its records
 * as the PUT sends them back) read into their comparison form; undefined when one cannot be read
 * (an edited plan file: the zone's reader refuses it).
 */
export function keptZone(
  name: string,
  zone: { readonly soa: JsonValue; readonly dkim: JsonValue | undefined },
  other: readonly JsonObject[],
): KeptZone | undefined {
  const read = parseZone({ records: { soa: zone.soa, other } }, name);
  return 'zone' in read ? { soa: zone.soa, dkim: zone.dkim, records: read.zone.records } : undefined;
}

/** The desired zone a change was planned from: its listed records (adds and updates, and the kept ones are unknown). */
export function wantOfNewZone(change: UpdateZone): DesiredZone {
  return {
    records: change.records
      .filter((r) => r.op !== 'remove')
      .map(({ host, type, value, ttl }) => ({ host, type, value, ttl })),
    prune: change.prune,
    keep: change.keep,
  };
}

/**
 * The records of an existing domain's zone as the plan read them, made again from the change: the
 * kept records with updated TTLs as they were, and the removed records. Undefined for a new
 * domain's zone.
 */
export function plannedRecords(change: UpdateZone): DnsRecord[] | undefined {
  if (change.kept === null) return undefined;
  const exact = exactKey;
  const was = new Map<string, number[]>();
  for (const op of change.records) {
    if (op.op === 'update') {
      const list = was.get(exact(op));
      if (list === undefined) was.set(exact(op), [op.ttl_before ?? op.ttl]);
      else list.push(op.ttl_before ?? op.ttl);
    }
  }
  const records: DnsRecord[] = [];
  const used = new Map<string, number>();
  for (const r of comparable(change.kept.records)) {
    const list = was.get(exact(r));
    const next = used.get(exact(r)) ?? 0;
    const ttl = list?.[next];
    if (ttl !== undefined) used.set(exact(r), next + 1);
    records.push(ttl === undefined ? r : { ...r, ttl });
  }
  for (const op of change.records)
    if (op.op === 'remove') records.push({ host: op.host, type: op.type, value: op.value, ttl: op.ttl });
  return records;
}

/**
 * The records an existing domain's zone PUT sends, in their comparison form: the kept ones, then
 * the adds; undefined for a new domain's zone.
 */
export function sentRecordsOf(change: UpdateZone): DnsRecord[] | undefined {
  if (change.kept === null) return undefined;
  return placed(comparable(change.kept.records), comparable(addsOf(change.records)), change.kept.addsAt);
}

/** Records in their comparison form alone. */
function comparable(records: readonly DnsRecord[]): DnsRecord[] {
  return records.map(({ host, type, value, ttl }) => ({ host, type, value, ttl }));
}

/** The records a PUT's body sends, in their comparison form; undefined without a body or for one unreadable. */
export function sentRecords(zone: string, body: ZoneBody | null): DnsRecord[] | undefined {
  if (body === null) return undefined;
  const read = parseZone({ dkim_record: body.dkim_record, records: body.records }, zone);
  return 'zone' in read
    ? read.zone.records.map(({ host, type, value, ttl }) => ({ host, type, value, ttl }))
    : undefined;
}

/** An add whose value the panel holds already, written otherwise: `panel` is the panel's value. */
export interface RecordTwin {
  readonly add: RecordOp;
  readonly panel: string;
}

/** A value as a panel may rewrite it: lowercase, without a trailing dot. */
const rewritten = (value: string): string => value.toLowerCase().replace(/\.$/, '');

/**
 * The adds of an existing domain's zone that have a twin on the panel: a record of the same host
 * and type whose value differs only by a trailing dot or letter case (`alice.example` listed,
 * `alice.example.` held), kept or removed by the change. A panel that rewrites values so would
 * get the add (and the remove) again on every apply.
 */
export function recordTwins(change: UpdateZone): RecordTwin[] {
  const sent = sentRecordsOf(change);
  if (sent === undefined) return [];
  // By record set and rewritten value: one look-up per add, not a scan of the zone.
  const held = new Map<string, string[]>();
  // The panel's records: those the PUT keeps, and those it removes (a listed set replaces its twin).
  for (const r of [...sent, ...change.records.filter((op) => op.op === 'remove')]) {
    const key = `${setKey(r)}\u0000${rewritten(r.value)}`;
    const list = held.get(key);
    if (list === undefined) held.set(key, [r.value]);
    else list.push(r.value);
  }
  const twins: RecordTwin[] = [];
  for (const add of change.records) {
    if (add.op !== 'add') continue;
    const twin = held.get(`${setKey(add)}\u0000${rewritten(add.value)}`)?.find((value) => value !== add.value);
    if (twin !== undefined) twins.push({ add, panel: twin });
  }
  return twins;
}

/** How people's text names zones. */
export const ZONE_NOUN: KindNoun = { one: 'zone', many: 'zones' };

// zoneSubject, zoneDetails and recordLine: the phrases are in ./phrases.ts.

/** How many deletes the change counts for --max-deletes: one per removed record. */
export function zoneDeletes(change: UpdateZone): number {
  return removals(change.records);
}
