/**
 * A zone's change: its type, how the planner makes it, the request it becomes and its phrases.
 * A zone is changed whole (`PUT /dns/{domain id}` replaces the record list), so a domain's zone
 * has at most one change, an update, whatever its records do. Pure.
 */
import { type ChangeBase, changeId, type KindNoun, type PanelRequest } from '../common.js';
import { type DesiredZone, type RecordOp, removals, setKey, zoneBody, zoneDiff } from './diff.js';
import { type DnsRecord, exactKey, type LiveZone, parseZone, type ZoneBody } from './record.js';

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
  /** The PUT's body; null for a new domain, whose zone is read after its POST. */
  readonly body: ZoneBody | null;
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
    body: zoneBody(zone, other),
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
    body: null,
  };
}

/**
 * The request a zone's change becomes. A new domain's zone is known only after its POST: before
 * apply (a preview) its path's id and its body are null (known after apply); apply passes the
 * domain's id and the body it made from the zone it read.
 */
export function zoneRequest(
  change: UpdateZone,
  known?: { readonly id: number; readonly body: ZoneBody },
): PanelRequest {
  const id = change.domainId ?? known?.id;
  const body = change.body ?? known?.body ?? null;
  return {
    method: 'PUT',
    path: `/dns/${id ?? '{id}'}`,
    body: body === null ? { records: null } : (body as unknown as PanelRequest['body']),
  };
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
 * PUT's records without the adds, updated TTLs as they were, and the removed records. Undefined
 * when the change has no body (a new domain's zone) or its body cannot be read.
 */
export function plannedRecords(change: UpdateZone): DnsRecord[] | undefined {
  const sent = sentRecords(change.name, change.body);
  if (sent === undefined) return undefined;
  const exact = exactKey;
  const drop = new Map<string, number>();
  const was = new Map<string, number[]>();
  for (const op of change.records) {
    if (op.op === 'add') drop.set(exact(op), (drop.get(exact(op)) ?? 0) + 1);
    if (op.op === 'update') {
      const list = was.get(exact(op));
      if (list === undefined) was.set(exact(op), [op.ttl_before ?? op.ttl]);
      else list.push(op.ttl_before ?? op.ttl);
    }
  }
  const records: DnsRecord[] = [];
  const used = new Map<string, number>();
  for (const r of sent) {
    const n = drop.get(exact(r)) ?? 0;
    if (n > 0) {
      drop.set(exact(r), n - 1);
      continue;
    }
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
  const sent = sentRecords(change.name, change.body);
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
