/**
 * DNS zones (panel-api.md: GET and PUT /dns/{domain id}) in the panel's own shape, the one of
 * go-acme/lego's `get_domain_records.json` fixture: `{is_custom_dns, is_dns_disabled,
 * dkim_record, records: {soa: {ttl, primary_ns, rname, refresh, retry, expire, minimum}, other:
 * [{host, ttl, type, value}]}}`. This module owns them: defaults, checks, and how requests, the
 * seed and domain changes alter them. The real panel's rules are not documented; the simulator
 * chooses:
 * - Every domain that is not a subdomain has a zone (system domains too). A new one gets the
 *   records of defaultRecords, all with TTL 86400: `NS @ ns1.sim.keyhelp.test.` and `ns2...`,
 *   `A @`, `A www`, `A mail` (all ZONE_ADDRESS, a documentation address), `MX @ "10
 *   mail.<domain>."`, `TXT @ "v=spf1 mx a ~all"`; the SOA of defaultZone; a DKIM record string
 *   like the fixture's, its key made from the name (the same name, the same string).
 *   `is_custom_dns` and `is_dns_disabled` are false.
 * - A subdomain has no zone: its records live in the zone of its top-level ancestor, under its
 *   host relative to it (`shop`, `a.shop`). A new subdomain adds `A <host>` to that zone unless
 *   the zone is custom (a panel regenerating its default records); deleting the subdomain takes
 *   exactly those records out again, unless the zone is custom by then. A custom zone is never
 *   touched by domain changes. GET or PUT /dns/{subdomain id} is a 400 naming the parent zone.
 * - GET /dns/{id} and GET /dns/name/{domain} (the /domains/name/ rules: case-insensitive, UTF-8
 *   or punycode) answer the zone; an unknown domain is 404.
 * - PUT /dns/{id}: checks in order: unknown domain (404), subdomain (400), `is_dns_disabled`
 *   (400: a disabled zone cannot be written), body shape (400 naming the field: `dkim_record` a
 *   string, `records` an object, `records.soa` an object, `records.other` (missing: an empty
 *   list, as go-acme/lego's body leaves it out when empty) an array of exactly
 *   `{host, ttl, type, value}`: host a non-empty string, ttl an integer from 0 to 2147483647,
 *   type letters and digits, value a string), then `dkim_record` and `records.soa` must equal
 *   the stored ones (400 otherwise: the simulator is stricter than a panel that might ignore
 *   them, so a client that does not send them back as read is caught). Other top-level keys
 *   (`is_custom_dns` sent back) are ignored. The list given replaces the stored one whole, as
 *   given (no sorting, no case change, duplicates kept); the zone becomes custom. No serial, no
 *   ETag: the last writer wins. The answer is 200 `{"id": <domain id>}`.
 * - The domain record's `is_custom_dns` and `is_dns_disabled` follow its zone's.
 * - Races (faults.ts: `zoneRaceRate`, `onZoneRead`): after a GET of a zone answers, the
 *   simulator may add `TXT _race-<n>` (TTL 120) to it and mark it custom, as an ACME hook's PUT
 *   would, so the next read differs. A disabled zone is left alone.
 */
import { createHash } from 'node:crypto';
import { isRecord } from '../util.js';
import type { Answer } from './answer.js';
import type { ListRule } from './table.js';

/**
 * A domain as zones read it: the part of the store's record they need (SimDomain of
 * kinds/domain-records.ts is one). Declared here, not imported: zones.ts stays a leaf that
 * the store's lists (lists.ts) and the kinds' modules import.
 */
export interface ZoneDomain {
  readonly id: number;
  readonly id_parent_domain: number;
  readonly domain: string;
  readonly is_subdomain: boolean;
  readonly is_custom_dns: boolean;
  readonly is_dns_disabled: boolean;
}

/** The store as zones use it (kinds/zone.ts makes it of the simulator's store). */
export interface ZoneStore<D extends ZoneDomain = ZoneDomain> {
  readonly domains: ReadonlyMap<number, D>;
  readonly zones: ReadonlyMap<number, SimZone>;
  setZone(id: number, zone: SimZone): void;
  replaceDomain(domain: D): void;
}

export interface SimSoa {
  readonly ttl: number;
  readonly primary_ns: string;
  readonly rname: string;
  readonly refresh: number;
  readonly retry: number;
  readonly expire: number;
  readonly minimum: number;
}

/** One record of `records.other`: `host` relative to the zone (`@` the apex), `value` as the panel shows it. */
export interface SimDnsRecord {
  readonly host: string;
  readonly ttl: number;
  readonly type: string;
  readonly value: string;
}

/** A zone as GET /dns/{id} answers it. */
export interface SimZone {
  readonly is_custom_dns: boolean;
  readonly is_dns_disabled: boolean;
  readonly dkim_record: string;
  readonly records: { readonly soa: SimSoa; readonly other: readonly SimDnsRecord[] };
}

/** A zone with its domain's id, as the state file keeps it. */
export interface SimZoneRecord extends SimZone {
  readonly id: number;
}

/** The store list of zones (table.ts), by domain id: a zone goes with its domain. */
export const ZONE_LISTS = {
  zones: {
    fields: ['id', 'dkim_record'],
    optional: true,
    value: (record: SimZoneRecord): SimZone => {
      const zone: { -readonly [K in keyof SimZoneRecord]?: SimZoneRecord[K] } = { ...record };
      delete zone.id;
      return zone as SimZone;
    },
    record: (id: number, zone: SimZone): SimZoneRecord => ({ id, ...zone }),
    ownedBy: 'domains',
  },
} as const satisfies { zones: ListRule<SimZoneRecord, SimZone> };

/** A seed domain's `dns`: records replace the defaults, and the zone is then custom unless it says otherwise. */
export interface SimulatorSeedDns {
  readonly is_custom_dns?: boolean;
  readonly is_dns_disabled?: boolean;
  /** `ttl` defaults to DEFAULT_TTL. */
  readonly records?: readonly { host: string; type: string; value: string; ttl?: number }[];
}

/** The address of every default A record: TEST-NET-1 (RFC 5737), never routed. */
export const ZONE_ADDRESS = '192.0.2.1';
export const DEFAULT_TTL = 86400;
/** The simulator's own name servers, under the system domains' suffix (kinds/domain.ts SYSTEM_DOMAIN_SUFFIX). */
const NS_HOST = 'sim.keyhelp.test';
const RACE_TTL = 120;
const MAX_TTL = 2_147_483_647;
const RECORD_KEYS = ['host', 'ttl', 'type', 'value'] as const;

type Refuse = (status: number, message: string) => Answer;

const record = (host: string, type: string, value: string, ttl = DEFAULT_TTL): SimDnsRecord => ({
  host,
  ttl,
  type,
  value,
});

/** The records a panel makes for `host` (`@`: the domain itself, else a subdomain's host) in the zone of `domain`. */
export function defaultRecords(domain: string, host: string): SimDnsRecord[] {
  if (host !== '@') return [record(host, 'A', ZONE_ADDRESS)];
  return [
    record('@', 'NS', `ns1.${NS_HOST}.`),
    record('@', 'NS', `ns2.${NS_HOST}.`),
    record('@', 'A', ZONE_ADDRESS),
    record('www', 'A', ZONE_ADDRESS),
    record('mail', 'A', ZONE_ADDRESS),
    record('@', 'MX', `10 mail.${domain}.`),
    record('@', 'TXT', 'v=spf1 mx a ~all'),
  ];
}

/** The zone of a new top-level domain (ASCII name), before any subdomain. */
export function defaultZone(domain: string): SimZone {
  const key = createHash('sha256').update(domain).digest('base64');
  return {
    is_custom_dns: false,
    is_dns_disabled: false,
    dkim_record: `default._domainkey IN TXT ( "v=DKIM1; k=rsa; s=email; " "p=${key}" )`,
    records: {
      soa: {
        ttl: DEFAULT_TTL,
        primary_ns: `ns1.${NS_HOST}.`,
        rname: `hostmaster.${NS_HOST}.`,
        refresh: 14400,
        retry: 1800,
        expire: 604800,
        minimum: 3600,
      },
      other: defaultRecords(domain, '@'),
    },
  };
}

/** The top-level domain whose zone holds `domain`'s records, and `domain`'s host in it; undefined if the chain is broken. */
export function zoneHome<D extends ZoneDomain>(store: ZoneStore<D>, domain: D): { top: D; host: string } | undefined {
  let top: D | undefined = domain;
  for (let hops = 0; top !== undefined && top.id_parent_domain !== 0 && hops < 128; hops++)
    top = store.domains.get(top.id_parent_domain);
  if (top === undefined || top.id_parent_domain !== 0) return undefined;
  const host = top === domain ? '@' : domain.domain.slice(0, -(top.domain.length + 1));
  return { top, host };
}

/** Stores a zone and makes its domain record's flags follow it. */
export function storeZone<D extends ZoneDomain>(store: ZoneStore<D>, id: number, zone: SimZone): void {
  store.setZone(id, zone);
  const domain = store.domains.get(id);
  if (
    domain !== undefined &&
    (domain.is_custom_dns !== zone.is_custom_dns || domain.is_dns_disabled !== zone.is_dns_disabled)
  )
    store.replaceDomain({ ...domain, is_custom_dns: zone.is_custom_dns, is_dns_disabled: zone.is_dns_disabled });
}

const withOther = (zone: SimZone, other: readonly SimDnsRecord[], custom = zone.is_custom_dns): SimZone => ({
  is_custom_dns: custom,
  is_dns_disabled: zone.is_dns_disabled,
  dkim_record: zone.dkim_record,
  records: { soa: zone.records.soa, other },
});

/** A new domain (just stored): its own zone, or its default records in its parent's zone when that is not custom. */
export function addZoneOf(store: ZoneStore, domain: ZoneDomain): void {
  if (!domain.is_subdomain) {
    store.setZone(domain.id, defaultZone(domain.domain));
    return;
  }
  const home = zoneHome(store, domain);
  const zone = home === undefined ? undefined : store.zones.get(home.top.id);
  if (home === undefined || zone === undefined || zone.is_custom_dns) return;
  storeZone(
    store,
    home.top.id,
    withOther(zone, [...zone.records.other, ...defaultRecords(home.top.domain, home.host)]),
  );
}

/** A domain about to be deleted: a subdomain's default records leave a parent zone that is not custom. */
export function dropZoneOf(store: ZoneStore, domain: ZoneDomain): void {
  if (!domain.is_subdomain) return; // its own zone goes with it (ZONE_LISTS: owned by its domain)
  const home = zoneHome(store, domain);
  const zone = home === undefined ? undefined : store.zones.get(home.top.id);
  if (home === undefined || zone === undefined || zone.is_custom_dns) return;
  const defaults = defaultRecords(home.top.domain, home.host);
  const kept = zone.records.other.filter(
    (r) => !defaults.some((d) => d.host === r.host && d.type === r.type && d.value === r.value),
  );
  if (kept.length !== zone.records.other.length) storeZone(store, home.top.id, withOther(zone, kept));
}

/**
 * The zone a top-level domain has when none was stored (a state file from before zones): its
 * defaults plus those of its subdomains, in creation order.
 */
export function regeneratedZone(store: ZoneStore, top: ZoneDomain): SimZone {
  const other = defaultRecords(top.domain, '@');
  for (const domain of store.domains.values()) {
    const home = domain.is_subdomain ? zoneHome(store, domain) : undefined;
    if (home?.top.id === top.id) other.push(...defaultRecords(top.domain, home.host));
  }
  return withOther({ ...defaultZone(top.domain), is_custom_dns: top.is_custom_dns }, other);
}

/** The zone of `domain` for GET /dns/{id} and /dns/name/{name}; `zoneRead` tells the race fault which zone was read. */
export function readZone(store: ZoneStore, domain: ZoneDomain | undefined, refuse: Refuse): Answer {
  if (domain === undefined) return refuse(404, 'The requested domain was not found.');
  const zone = store.zones.get(domain.id);
  if (zone === undefined) return refuse(400, subdomainMessage(store, domain));
  return { status: 200, json: zone, zoneRead: domain.id };
}

/** PUT /dns/{id}: replaces the record list whole and makes the zone custom. */
export function writeZone(store: ZoneStore, id: number, body: unknown, refuse: Refuse): Answer {
  const domain = store.domains.get(id);
  if (domain === undefined) return refuse(404, 'The requested domain was not found.');
  const zone = store.zones.get(id);
  if (zone === undefined) return refuse(400, subdomainMessage(store, domain));
  if (zone.is_dns_disabled)
    return refuse(400, `DNS is disabled for the domain '${domain.domain}': its records cannot be changed.`);
  if (!isRecord(body)) return refuse(400, 'The request body must be a JSON object.');
  const { dkim_record: dkim, records } = body;
  if (typeof dkim !== 'string') return refuse(400, "The field 'dkim_record' is required and must be a string.");
  if (!isRecord(records)) return refuse(400, "The field 'records' is required and must be an object.");
  if (!isRecord(records.soa)) return refuse(400, "The field 'records.soa' is required and must be an object.");
  // Go's `omitempty` drops an empty list: lego's clean-up of the last record sends no `records.other`.
  const other = records.other === undefined ? [] : records.other;
  const problem = recordsProblem(other, 'records.other', true);
  if (problem !== undefined) return refuse(400, problem);
  if (!sameSoa(records.soa, zone.records.soa))
    return refuse(400, "The field 'records.soa' cannot be changed: send it as read.");
  if (dkim !== zone.dkim_record) return refuse(400, "The field 'dkim_record' cannot be changed: send it as read.");
  storeZone(store, id, withOther(zone, recordsOf(other as unknown[]), true));
  return { status: 200, json: { id }, mutated: true };
}

/** The race fault: adds `TXT _race-<n>` to a zone, as an ACME hook's PUT would; false when nothing changed. */
export function raceZone(store: ZoneStore, id: number, n: number): boolean {
  const zone = store.zones.get(id);
  if (zone === undefined || zone.is_dns_disabled) return false;
  const token = createHash('sha256').update(`race-${n}`).digest('base64url');
  storeZone(store, id, withOther(zone, [...zone.records.other, record(`_race-${n}`, 'TXT', token, RACE_TTL)], true));
  return true;
}

/** Why a seed domain's `dns` is refused ("<where>.<field> must ..."), or undefined. */
export function seedDnsProblem(value: unknown, where: string): string | undefined {
  if (!isRecord(value)) return `${where} must be an object {"is_custom_dns", "is_dns_disabled", "records"}`;
  for (const key of Object.keys(value))
    if (!['is_custom_dns', 'is_dns_disabled', 'records'].includes(key))
      return `${where}: unknown key ${JSON.stringify(key)} (allowed: is_custom_dns, is_dns_disabled, records)`;
  for (const flag of ['is_custom_dns', 'is_dns_disabled'] as const)
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') return `${where}.${flag} must be true or false`;
  if (value.records === undefined) return undefined;
  const problem = recordsProblem(value.records, `${where}.records`, false);
  return problem?.replace(/^The field '([^']*)' (.*)\.$/, '$1 $2');
}

/** A zone with a seed's `dns` (checked by seedDnsProblem) applied. */
export function seededZone(zone: SimZone, dns: SimulatorSeedDns): SimZone {
  const other = dns.records === undefined ? zone.records.other : recordsOf(dns.records);
  return {
    ...withOther(zone, other, dns.is_custom_dns ?? dns.records !== undefined),
    is_dns_disabled: dns.is_dns_disabled ?? false,
  };
}

function subdomainMessage(store: ZoneStore, domain: ZoneDomain): string {
  const home = zoneHome(store, domain);
  const where = home === undefined ? 'its parent' : `'${home.top.domain}' (id ${home.top.id})`;
  return `The domain '${domain.domain}' is a subdomain: its DNS records are in the zone of ${where}.`;
}

/** Why a record list is refused, as a 400's message, or undefined. `ttlRequired` false: a seed may leave it out. */
function recordsProblem(value: unknown, where: string, ttlRequired: boolean): string | undefined {
  if (!Array.isArray(value)) return `The field '${where}' is required and must be an array.`;
  for (const [index, item] of (value as unknown[]).entries()) {
    const at = `${where}[${index}]`;
    if (!isRecord(item)) return `The field '${at}' must be an object {host, ttl, type, value}.`;
    const extra = Object.keys(item).find((key) => !(RECORD_KEYS as readonly string[]).includes(key));
    if (extra !== undefined)
      return `The field '${at}' has no key ${JSON.stringify(extra)} (its keys: host, ttl, type, value).`;
    const { host, ttl, type, value: text } = item;
    if (typeof host !== 'string' || host === '') return `The field '${at}.host' must be a non-empty string.`;
    if (
      !(ttl === undefined && !ttlRequired) &&
      !(Number.isSafeInteger(ttl) && (ttl as number) >= 0 && (ttl as number) <= MAX_TTL)
    )
      return `The field '${at}.ttl' must be an integer from 0 to ${MAX_TTL}.`;
    if (typeof type !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(type))
      return `The field '${at}.type' must be a record type of letters and digits, like "A" or "TXT".`;
    if (typeof text !== 'string') return `The field '${at}.value' must be a string.`;
  }
  return undefined;
}

/** Records checked by recordsProblem, in the panel's key order. */
function recordsOf(items: readonly unknown[]): SimDnsRecord[] {
  return items.map((item) => {
    const r = item as { host: string; ttl?: number; type: string; value: string };
    return record(r.host, r.type, r.value, r.ttl ?? DEFAULT_TTL);
  });
}

function sameSoa(given: Record<string, unknown>, stored: SimSoa): boolean {
  const keys = Object.keys(stored) as (keyof SimSoa)[];
  return Object.keys(given).length === keys.length && keys.every((key) => given[key] === stored[key]);
}
