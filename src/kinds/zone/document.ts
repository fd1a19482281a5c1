/** A zone's change in the plan document, both ways, with the checks a change read back must pass. Pure. */
import { quote } from '../../escape.js';
import { canonical, isRecord } from '../../util.js';
import { type ChangeBase, changeId } from '../common.js';
import { addedRecord, addsOf, type KeptZone, keptZone, sentRecords, type UpdateZone, zoneBodyOf } from './changes.js';
import type { RecordOp } from './diff.js';
import { exactKey, type LiveRecord, type ZoneBody } from './record.js';

/** A zone's change as the plan document holds it (snake_case), beside the common fields; the schema checked it. */
export interface ZoneChangeJson {
  readonly client?: string;
  readonly domain_id?: number | null;
  readonly records?: readonly RecordOp[];
  readonly prune?: boolean;
  readonly keep?: readonly string[];
  readonly makes_custom?: boolean;
  readonly zone_digest?: string | null;
  readonly request?: unknown;
}

/** What a zone's change adds to the common fields, in the document's order. */
export function zoneToJson(change: UpdateZone): Record<string, unknown> {
  return {
    client: change.client,
    domain_id: change.domainId,
    records: change.records,
    prune: change.prune,
    keep: change.keep,
    makes_custom: change.makesCustom,
    zone_digest: change.zoneDigest,
  };
}

/**
 * A zone's change read back; `base` holds the common fields. What its PUT keeps of the zone is
 * read from its saved request once, here (the body is then derived from it and the record changes:
 * zoneBodyOf); null when the request holds no body this reader can read (zoneProblems says why).
 */
export function zoneFromJson(
  item: ZoneChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): UpdateZone {
  const records = item.records ?? [];
  const body = savedBody(item);
  // The schema requires these fields; the fallbacks are never used.
  return {
    ...base,
    id: changeId('dns_zone', base.name),
    action: 'update',
    type: 'dns_zone',
    client: item.client ?? '',
    domainId: item.domain_id ?? null,
    records,
    prune: item.prune ?? false,
    keep: item.keep ?? [],
    makesCustom: item.makes_custom ?? true,
    zoneDigest: item.zone_digest ?? null,
    kept: item.domain_id === null || body === null ? null : (keptOfBody(base.name, body, records) ?? null),
  };
}

/** The PUT's body a saved zone change's request holds; null when it holds none. */
function savedBody(item: ZoneChangeJson): ZoneBody | null {
  const request = isRecord(item.request) ? item.request : {};
  return isRecord(request.body) && isRecord(request.body.records) && Array.isArray(request.body.records.other)
    ? (request.body as unknown as ZoneBody)
    : null;
}

/**
 * What a saved PUT's body keeps of the zone: its records without the adds. A plan writes the adds
 * last, in their order (recordsAfter); a body that does not end so (an edited file) has each add
 * taken out where it stands, and its place kept (KeptZone.addsAt): the body derived is the one
 * saved, which apply checks against the zone it reads. undefined when a record cannot be read, or
 * an add is not sent.
 */
function keptOfBody(name: string, body: ZoneBody, ops: readonly RecordOp[]): KeptZone | undefined {
  const zone = { soa: body.records.soa, dkim: body.dkim_record };
  const other = body.records.other;
  const adds = addsOf(ops);
  const at = other.length - adds.length;
  if (at >= 0 && canonical(other.slice(at)) === canonical(adds.map(addedRecord)))
    return keptZone(name, zone, other.slice(0, at));
  const all = keptZone(name, zone, other);
  if (all === undefined) return undefined;
  const records: (LiveRecord | undefined)[] = [...all.records];
  const addsAt: number[] = [];
  for (const add of adds) {
    const i = records.findIndex((r) => r !== undefined && exactKey(r) === exactKey(add));
    if (i < 0) return undefined;
    records[i] = undefined;
    addsAt.push(i);
  }
  return { ...zone, records: records.filter((r) => r !== undefined), addsAt };
}

/**
 * What a zone's change read back must say of itself beyond the schema: an existing domain's zone
 * has its digest and the body it sends (`item`: the saved change, whose request holds it), holding
 * each record it adds or updates; a new domain's zone waits for the domain's create and has
 * neither (its zone is read after the POST).
 */
export function zoneProblems(change: UpdateZone, path: string, item?: ZoneChangeJson): string[] {
  const problems: string[] = [];
  if (change.domainId === null) {
    const create = changeId('domain', change.name);
    if (!change.dependsOn.includes(create))
      problems.push(`${path}.domain_id: null, yet the change does not depend on ${quote(create)}`);
    if (change.zoneDigest !== null) problems.push(`${path}.zone_digest: must be null for a new domain's zone`);
    if (change.records.some((r) => r.op !== 'add')) problems.push(`${path}.records: a new domain's zone only adds`);
    return problems;
  }
  if (change.zoneDigest === null) problems.push(`${path}.zone_digest: missing for an existing domain's zone`);
  // The body it sends (derived from what it keeps, else as saved: what it holds says why it keeps
  // nothing), read whole by the zone's reader, the adds too: in comparison form, as the diff made
  // the changes (the panel's `""` or `www.alice.example.` is `@` or `www`). An add edited alike in
  // its record change and in the body to a form the reader refuses or rewrites is then refused.
  const body = zoneBodyOf(change) ?? (item === undefined ? null : savedBody(item));
  if (body === null) {
    problems.push(`${path}.request.body: must hold the zone's records`);
    return problems;
  }
  const sent = sentRecords(change.name, body);
  if (sent === undefined) {
    problems.push(`${path}.request.body.records: a record the zone's reader refuses: the file was edited`);
    return problems;
  }
  const sends = new Set(sent.map(exactKey));
  for (const [i, op] of change.records.entries())
    if (op.op !== 'remove' && !sends.has(exactKey(op)))
      problems.push(`${path}.records[${i}]: the request does not send it: the file was edited`);
  return problems;
}
