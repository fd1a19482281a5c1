/** A zone's change in the plan document, both ways, with the checks a change read back must pass. Pure. */
import { quote } from '../../escape.js';
import { isRecord } from '../../util.js';
import { type ChangeBase, changeId } from '../common.js';
import { sentRecords, type UpdateZone } from './changes.js';
import type { RecordOp } from './diff.js';
import { exactKey, type ZoneBody } from './record.js';

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

/** A zone's change read back; `base` holds the common fields. The PUT's body is its request's. */
export function zoneFromJson(
  item: ZoneChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): UpdateZone {
  const request = isRecord(item.request) ? item.request : {};
  const body =
    isRecord(request.body) && isRecord(request.body.records) && Array.isArray(request.body.records.other)
      ? (request.body as unknown as ZoneBody)
      : null;
  // The schema requires these fields; the fallbacks are never used.
  return {
    ...base,
    id: changeId('dns_zone', base.name),
    action: 'update',
    type: 'dns_zone',
    client: item.client ?? '',
    domainId: item.domain_id ?? null,
    records: item.records ?? [],
    prune: item.prune ?? false,
    keep: item.keep ?? [],
    makesCustom: item.makes_custom ?? true,
    zoneDigest: item.zone_digest ?? null,
    body: item.domain_id === null ? null : body,
  };
}

/**
 * What a zone's change read back must say of itself beyond the schema: an existing domain's zone
 * has its digest and the body it sends, holding each record it adds or updates; a new domain's
 * zone waits for the domain's create and has neither (its zone is read after the POST).
 */
export function zoneProblems(change: UpdateZone, path: string): string[] {
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
  if (change.body === null) {
    problems.push(`${path}.request.body: must hold the zone's records`);
    return problems;
  }
  // In comparison form, as the diff made the changes: the panel's `""` or `www.alice.example.` is `@` or `www`.
  const read = sentRecords(change.name, change.body);
  if (read === undefined) {
    problems.push(`${path}.request.body.records: a record the zone's reader refuses: the file was edited`);
    return problems;
  }
  const sent = new Set(read.map(exactKey));
  for (const [i, op] of change.records.entries())
    if (op.op !== 'remove' && !sent.has(exactKey(op)))
      problems.push(`${path}.records[${i}]: the request does not send it: the file was edited`);
  return problems;
}
