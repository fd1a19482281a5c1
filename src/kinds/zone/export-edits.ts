/**
 * A domain's DNS zone in export (Kind.export): the `dns` block export writes in a domain item
 * (only for a zone read that the panel marks custom, `is_custom_dns: true`, and serves, not
 * `is_dns_disabled`: any other is the panel's defaults, or one a manifest cannot manage), and
 * the edits of `export --into` that make a listed domain's `dns` block list the panel's records:
 * a listed record the panel lacks goes, one whose TTL differs gets the panel's, and the panel's
 * records it does not list are added at the end, except those whose host a `keep` pattern of the
 * block matches. The block's other keys (`ttl`, `prune`, `keep`) stay. A record the manifest
 * cannot hold is not added (warned); a listed record the panel holds only in such a form stays
 * as written (warned). With `--with dns`, a listed domain without `dns` whose zone is custom gets
 * the block export writes. The splices: export-rewrite.ts. Pure.
 */
import { quote } from '../../escape.js';
import { globMatcher } from '../../names.js';
import { isSubdomain } from '../domain/export.js';
import type { DomainFactIndex } from '../domain/facts.js';
import type { LiveDomain } from '../domain/record.js';
import type { ExportedDomain, ItemExport, ListedItem, Warn } from '../export.js';
import type { DesiredZone } from './diff.js';
import { panelRecordText, transientNote, writableRecords, zoneEntry, type ZoneEntry } from './export.js';
import { addDns, setRecords } from './export-rewrite.js';
import type { ZoneFactIndex } from './facts.js';
import { DNS_KEY } from './manifest-words.js';
import { type DnsRecord, recordKey } from './record.js';

/** The live panel as a zone's export looks it up (export/model.ts LiveModel is one). */
export interface ZoneExportPanel {
  readonly index: ZoneFactIndex & Pick<DomainFactIndex, 'domains'>;
}

/** A listed domain item as its zone's edits read it. */
export interface WantedZone extends ListedItem {
  /** Its `dns` block; undefined when not managed. */
  readonly dns?: DesiredZone;
}

/** The edits of a domain's zone. */
export type ZoneEdit =
  | {
      readonly kind: 'set-records';
      /** Indexes into the block's `records` list: those to remove. */
      readonly drop: readonly number[];
      /** Listed records whose TTL becomes the panel's, by their index in `records`. */
      readonly ttls: readonly { readonly record: number; readonly ttl: number }[];
      /** The panel's records to add at the end, in its order (TTLs as read). */
      readonly add: readonly DnsRecord[];
    }
  | { readonly kind: 'add-dns'; readonly dns: ZoneEntry };

/**
 * The domain's `dns` block, or undefined (see the module comment). A record the manifest cannot
 * hold is left out with a warning naming the domain and the record (export.ts).
 */
export function zoneBlock(domain: ExportedDomain<unknown>, panel: ZoneExportPanel, warn: Warn): ZoneEntry | undefined {
  const zone = panel.index.zones.get(domain.name);
  if (zone === undefined || zone.isCustom !== true || zone.isDisabled === true) return undefined;
  const { records, unwritable, transient } = writableRecords(zone, domain.name);
  const acme = transientNote(transient);
  const name = `domain ${quote(domain.text)} of client ${quote(domain.owner)}`;
  if (acme !== undefined) warn(`${name}: ${acme}`);
  for (const u of unwritable)
    warn(
      `${name}: the panel's DNS record ${panelRecordText(u.record)} ${u.reason}: ` +
        'left out of "dns" (the panel keeps it)',
    );
  return zoneEntry(records);
}

/**
 * The zone edits of the listed domain `wanted`, which the panel has as `domain.live` under
 * `domain.owner`: none when the panel's zone was not read, is a subdomain's (plan reports the
 * conflict) or is disabled (warned: plan reports the conflict).
 */
export function zoneEdits(
  wanted: WantedZone,
  domain: ExportedDomain<LiveDomain>,
  panel: ZoneExportPanel,
  withDns: boolean,
  warn: Warn,
): ZoneEdit[] {
  const zone = panel.index.zones.get(wanted.name);
  if (zone === undefined || isSubdomain(domain.live, panel.index.domains)) return [];
  const want = wanted.dns;
  if (want === undefined) {
    if (!withDns) return [];
    const dns = zoneBlock(domain, panel, warn);
    return dns === undefined ? [] : [{ kind: 'add-dns', dns }];
  }
  const name = `domain ${quote(wanted.input)} of client ${quote(domain.owner)}`;
  if (zone.isDisabled === true) {
    warn(
      `${name}: the panel serves no DNS for it (is_dns_disabled): "dns" left as written (plan reports the conflict)`,
    );
    return [];
  }
  const { records, unwritable, transient } = writableRecords(zone, wanted.name);
  // An ACME challenge's record the manifest lists stays as written; the others are left out, counted.
  const listedHosts = new Set(want.records.map((r) => r.host));
  const acme = transientNote(transient.filter((r) => !listedHosts.has(r.host)));
  if (acme !== undefined) warn(`${name}: ${acme}`);
  const heldAcme = new Set(transient.map(recordKey));
  const live = new Map(records.map((r) => [recordKey(r), r]));
  const refused = new Map(unwritable.map((u) => [recordKey(u.record), u]));
  const listed = new Set(want.records.map(recordKey));
  const drop: number[] = [];
  const ttls: { record: number; ttl: number }[] = [];
  want.records.forEach((r, k) => {
    const key = recordKey(r);
    if (heldAcme.has(key)) return;
    const seen = live.get(key);
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
  return [{ kind: 'set-records', drop, ttls, add }];
}

/** The zone in export: the `dns` key of a domain item. */
export const ZONE_EXPORT: ItemExport<ZoneExportPanel, WantedZone, LiveDomain, ZoneEdit> = {
  key: DNS_KEY,
  entry: zoneBlock,
  edits: zoneEdits,
  rewrite(editor, domains, item, edit) {
    if (edit.kind === 'set-records') setRecords(editor, item, edit);
    else addDns(editor, domains, item, edit);
  },
};
