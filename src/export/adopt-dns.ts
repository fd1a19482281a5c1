/**
 * export --into and a listed domain's DNS zone (adopt.ts, its rules): the edits that make the
 * domain's `dns` block list the panel's records, or (with --with dns) give a domain without one
 * the block export writes when its zone is custom. Pure.
 */
import { quote } from '../escape.js';
import { globMatcher } from '../names.js';
import type { DesiredDomain } from '../manifest/types.js';
import type { LiveClient, LiveDomain } from '../panel/types.js';
import { type DnsRecord, panelRecordText, recordKey, transientNote, writableRecords } from '../kinds/zone.js';
import type { LiveModel, ZoneEntry } from './model.js';

/** The edits of a domain's zone (adopt.ts Edit); `client` and `domain` index the manifest's lists. */
export type DnsEdit =
  | {
      readonly kind: 'set-records';
      readonly client: number;
      readonly domain: number;
      /** Indexes into the block's `records` list: those to remove. */
      readonly drop: readonly number[];
      /** Listed records whose TTL becomes the panel's, by their index in `records`. */
      readonly ttls: readonly { readonly record: number; readonly ttl: number }[];
      /** The panel's records to add at the end, in its order (TTLs as read). */
      readonly add: readonly DnsRecord[];
    }
  | { readonly kind: 'add-dns'; readonly client: number; readonly domain: number; readonly dns: ZoneEntry };

/**
 * The DNS edits of the listed domain `domain` (index `index` of client `client`'s list), which
 * the panel has as `live` under `owner`: none when the panel's zone was not read, is a
 * subdomain's (plan reports the conflict) or is disabled (warned: plan reports the conflict).
 */
export function dnsEdits(
  domain: DesiredDomain,
  client: number,
  index: number,
  live: LiveDomain,
  owner: LiveClient,
  model: LiveModel,
  withDns: boolean,
  warn: (message: string) => void,
): DnsEdit[] {
  const zone = model.index.zones.get(domain.name);
  if (zone === undefined || model.isSubdomain(live)) return [];
  const want = domain.dns;
  if (want === undefined) {
    if (!withDns) return [];
    const dns = model.zoneOf({ name: domain.name, text: domain.input, live }, owner, warn);
    return dns === undefined ? [] : [{ kind: 'add-dns', client, domain: index, dns }];
  }
  const name = `domain ${quote(domain.input)} of client ${quote(owner.username)}`;
  if (zone.isDisabled === true) {
    warn(
      `${name}: the panel serves no DNS for it (is_dns_disabled): "dns" left as written (plan reports the conflict)`,
    );
    return [];
  }
  const { records, unwritable, transient } = writableRecords(zone, domain.name);
  // An ACME challenge's record the manifest lists stays as written; the others are left out, counted.
  const listedHosts = new Set(want.records.map((r) => r.host));
  const acme = transientNote(transient.filter((r) => !listedHosts.has(r.host)));
  if (acme !== undefined) warn(`${name}: ${acme}`);
  const heldAcme = new Set(transient.map(recordKey));
  const panel = new Map(records.map((r) => [recordKey(r), r]));
  const refused = new Map(unwritable.map((u) => [recordKey(u.record), u]));
  const listed = new Set(want.records.map(recordKey));
  const drop: number[] = [];
  const ttls: { record: number; ttl: number }[] = [];
  want.records.forEach((r, k) => {
    const key = recordKey(r);
    if (heldAcme.has(key)) return;
    const seen = panel.get(key);
    if (seen !== undefined) {
      if (seen.ttl !== r.ttl) ttls.push({ record: k, ttl: seen.ttl });
      return;
    }
    const held = refused.get(key);
    if (held === undefined) drop.push(k);
    else
      warn(
        `${name}: the panel's DNS record ${panelRecordText(held.record)} ${held.reason}: ` +
          'the record is left as written',
      );
  });
  const keep = globMatcher(want.keep);
  const add = records.filter((r) => !listed.has(recordKey(r)) && !keep(r.host));
  for (const u of unwritable) {
    if (listed.has(recordKey(u.record)) || keep(u.record.host)) continue;
    warn(
      `${name}: the panel's DNS record ${panelRecordText(u.record)} ${u.reason}: left out of "dns" ` +
        (want.prune ? '(prune: true, so plan removes it: list its host in keep to keep it)' : '(the panel keeps it)'),
    );
  }
  if (drop.length === 0 && ttls.length === 0 && add.length === 0) return [];
  return [{ kind: 'set-records', client, domain: index, drop, ttls, add }];
}
