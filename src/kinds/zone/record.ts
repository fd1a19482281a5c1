/**
 * A domain's DNS zone as the panel holds it (`GET /dns/{domain id}`): its records, read and
 * checked, with what a `PUT /dns/{domain id}` must send back as read (the SOA, the DKIM record,
 * each record's keys the engine does not know), and a digest of what a PUT would overwrite, so
 * apply can tell a zone that changed since the plan read it. Pure.
 */
import { canonical, isRecord, type JsonObject, type JsonValue, sha256Hex } from '../../util.js';
import { readFlag } from '../common.js';

/** A record in its comparison form: host lowercase and relative (`@` the apex), type upper-case. */
export interface DnsRecord {
  readonly host: string;
  readonly type: string;
  readonly value: string;
  readonly ttl: number;
}

/** A record as read: its comparison form, and the panel's object, sent back as it was when kept. */
export interface LiveRecord extends DnsRecord {
  readonly raw: JsonObject;
}

export interface LiveZone {
  /** The records (`records.other`), in the panel's order. */
  readonly records: readonly LiveRecord[];
  /** `is_custom_dns`: the panel no longer regenerates its default records; undefined when not said. */
  readonly isCustom: boolean | undefined;
  /** `is_dns_disabled`: the panel serves no DNS for the domain; undefined when not said. */
  readonly isDisabled: boolean | undefined;
  /**
   * The SOA (`records.soa`) and the DKIM record (`dkim_record`, or `dkim_txt_record`), sent back
   * as read; `dkim` is undefined when the answer has neither key (a PUT then leaves it out).
   */
  readonly soa: JsonValue;
  readonly dkim: JsonValue | undefined;
  /**
   * `sha256:<hex>` over the SOA, the DKIM record and the records as read, the records as a
   * multiset (their order does not count): what a PUT replaces.
   */
  readonly digest: string;
}

/** The PUT's body: the zone as read with the plan's changes applied (`dkim_record` absent when it was on read). */
export interface ZoneBody {
  readonly dkim_record?: JsonValue;
  readonly records: { readonly soa: JsonValue; readonly other: readonly JsonObject[] };
}

/** The most records a zone may hold: a zone past it is refused, not written (a runaway panel answer). */
export const MAX_ZONE_RECORDS = 10_000;

/**
 * A record's host in its comparison form: lowercase, `@` for the apex (`""` too), an absolute
 * name inside the zone made relative; another zone's absolute name is kept as read (it then
 * matches nothing a manifest can list).
 */
export function liveHost(host: string, zone: string): string {
  const h = host.trim().toLowerCase();
  if (h === '' || h === '@' || h === `${zone}.`) return '@';
  if (h.endsWith(`.${zone}.`)) return h.slice(0, -zone.length - 2);
  return h;
}

/**
 * The zone of `zone` (its ASCII name) from the answer to `GET /dns/{id}`, or a problem naming the
 * path of what cannot be read: a zone the engine writes back whole must be read whole. A TTL may
 * come as a whole number or a numeric string (PHP panels).
 */
export function parseZone(answer: unknown, zone: string): { readonly zone: LiveZone } | { readonly problem: string } {
  if (!isRecord(answer)) return { problem: 'expected an object' };
  const records = answer.records;
  if (!isRecord(records)) return { problem: '"records" must be an object with "soa" and "other"' };
  const other = records.other ?? [];
  if (!Array.isArray(other)) return { problem: '"records.other" must be a list' };
  if (other.length > MAX_ZONE_RECORDS)
    return { problem: `"records.other" holds ${other.length} records, more than ${MAX_ZONE_RECORDS}` };
  const read: LiveRecord[] = [];
  for (const [i, item] of other.entries()) {
    const at = (key?: string): string => `"records.other[${i}]${key === undefined ? '' : `.${key}`}"`;
    if (!isRecord(item)) return { problem: `${at()} must be an object` };
    const { host, type, value } = item;
    const ttl = typeof item.ttl === 'string' && /^[0-9]{1,10}$/.test(item.ttl) ? Number(item.ttl) : item.ttl;
    if (typeof host !== 'string') return { problem: `${at('host')} must be a string` };
    if (typeof type !== 'string' || type.trim() === '') return { problem: `${at('type')} must be a record type` };
    if (typeof value !== 'string') return { problem: `${at('value')} must be a string` };
    if (!Number.isSafeInteger(ttl) || (ttl as number) < 0) return { problem: `${at('ttl')} must be a whole number` };
    read.push({
      host: liveHost(host, zone),
      type: type.trim().toUpperCase(),
      value,
      ttl: ttl as number,
      raw: item as JsonObject,
    });
  }
  const soa = (records.soa ?? null) as JsonValue;
  const dkim = (answer.dkim_record ?? answer.dkim_txt_record ?? (hasDkim(answer) ? null : undefined)) as
    JsonValue | undefined;
  return {
    zone: {
      records: read,
      isCustom: readFlag(answer.is_custom_dns),
      isDisabled: readFlag(answer.is_dns_disabled),
      soa,
      dkim,
      digest: zoneDigest(soa, dkim, other as JsonValue[]),
    },
  };
}

/** Whether the answer names a DKIM record at all (`null` included). */
function hasDkim(answer: Record<string, unknown>): boolean {
  return 'dkim_record' in answer || 'dkim_txt_record' in answer;
}

/**
 * `sha256:<hex>` over what a PUT replaces, keys sorted and the records as a multiset (each
 * record's canonical JSON, sorted): the same zone read twice gives the same digest, in whatever
 * order the panel lists its records.
 */
export function zoneDigest(soa: JsonValue, dkim: JsonValue | undefined, other: readonly JsonValue[]): string {
  return `sha256:${sha256Hex(canonical({ soa, dkim, other: recordMultiset(other) }))}`;
}

/** Records as an order-free multiset: each one's canonical JSON, sorted. */
export function recordMultiset(records: readonly JsonValue[]): string[] {
  return records.map(canonical).sort();
}

/** The identity of a record: host, type and value (host and type already in comparison form). */
export function recordKey(r: Pick<DnsRecord, 'host' | 'type' | 'value'>): string {
  return `${r.host}\u0000${r.type}\u0000${r.value}`;
}

/** A record exactly: its identity and its TTL (comparison form), for matching records as read and as sent. */
export function exactKey(r: DnsRecord): string {
  return `${recordKey(r)}\u0000${r.ttl}`;
}
