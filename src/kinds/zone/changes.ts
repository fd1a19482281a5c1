/**
 * A zone's change: its type, how the planner makes it, the request it becomes and its phrases.
 * A zone is changed whole (`PUT /dns/{domain id}` replaces the record list), so a domain's zone
 * has at most one change, an update, whatever its records do. Pure.
 */
import { jsonText, quote, safeText } from '../../escape.js';
import { plural } from '../../util.js';
import { type ChangeBase, changeId, type KindNoun, type PanelRequest } from '../common.js';
import { type DesiredZone, type RecordOp, removals, zoneBody, zoneDiff } from './diff.js';
import type { LiveZone, ZoneBody } from './record.js';

/**
 * A domain's zone whose records differ from the manifest's: one `PUT /dns/{domain id}` with the
 * records as read and the changes applied, the SOA and the DKIM record as read.
 */
export interface UpdateZone extends ChangeBase {
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

/** How people's text names zones. */
export const ZONE_NOUN: KindNoun = { one: 'zone', many: 'zones' };

/** `dns "alice.example" of client "alice"`. */
export function zoneSubject(change: UpdateZone): string {
  return `dns ${quote(change.name)} of client ${quote(change.client)}`;
}

/** ` (3 records to add, 1 to remove; the zone becomes custom)`: what the comment line says after the reason. */
export function zoneDetails(change: UpdateZone): { what: string; after: string } {
  const counts = { add: 0, update: 0, remove: 0 };
  for (const op of change.records) counts[op.op]++;
  const parts = [
    counts.add > 0 ? `${plural(counts.add, 'record')} to add` : '',
    counts.update > 0 ? `${counts.update} to update` : '',
    counts.remove > 0 ? `${counts.remove} to remove` : '',
  ].filter(Boolean);
  const custom = change.makesCustom
    ? '; the panel stops regenerating its default records (the zone becomes custom)'
    : '';
  const defaults =
    change.domainId === null && change.prune
      ? '; the default records the panel makes are removed, except keep matches'
      : '';
  return { what: '', after: `${parts.length > 0 ? ` (${parts.join(', ')})` : ''}${defaults}${custom}` };
}

/** `+ A @ 192.0.2.10 (ttl 3600)`, `~ TXT @ "v=spf1 -all": ttl 3600 -> 300`: one record's change, as data. */
export function recordLine(op: RecordOp): string {
  const sign = op.op === 'add' ? '+' : op.op === 'remove' ? '-' : '~';
  const what = `${safeText(op.type)} ${safeText(op.host)} ${jsonText(op.value)}`;
  return op.op === 'update'
    ? `${sign} ${what}: ttl ${op.ttl_before ?? '?'} -> ${op.ttl}`
    : `${sign} ${what} (ttl ${op.ttl})`;
}

/** How many deletes the change counts for --max-deletes: one per removed record. */
export function zoneDeletes(change: UpdateZone): number {
  return removals(change.records);
}
