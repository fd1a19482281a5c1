/**
 * A new domain's zone, written after the domain's POST: the panel has filled in its default
 * records by then, and only then are they known. The manifest's records replace the defaults of
 * each (host, type) it lists (a listed CNAME: every default at its host), and the zone as it
 * would be after the write is checked as a plan checks an existing zone: a conflict fails this
 * zone's change and nothing is sent to it. The defaults replaced are named in the outcome; they
 * were not counted for --max-deletes (no plan could know them). Pure.
 */
import { quote } from '../../escape.js';
import { plural } from '../../util.js';
import { type UpdateZone, wantOfNewZone } from './changes.js';
import { afterIssues, newZoneIssueText, recordIdText } from './conflicts.js';
import { ownedBy, type RecordOp, setKey, zoneBody, zoneDiff } from './diff.js';
import { type ZoneRule, zoneIssues } from './check.js';
import type { DnsRecord, LiveRecord, LiveZone, ZoneBody } from './record.js';

/** How many of the replaced default records the outcome names; the rest are counted. */
const NAMED_DEFAULTS = 10;

/**
 * The PUT's body for a new domain's zone as read after its POST, and the outcome's note; or the
 * problem that fails the change (the zone as the manifest would leave it breaks DNS).
 */
export function newZoneWrite(
  change: UpdateZone,
  zone: LiveZone,
  /**
   * Hosts of subdomains created in this apply: their records are carried unless the manifest owns
   * them (lists their (host, type), or a CNAME at their host), as it owns the panel's defaults.
   */
  created: ReadonlySet<string> = new Set(),
): { readonly body: ZoneBody; readonly note: string } | { readonly problem: string } {
  const want = wantOfNewZone(change);
  const owned = ownedBy(want);
  const ours = (r: LiveRecord): boolean =>
    created.has(r.host) && !owned.sets.has(setKey(r)) && !owned.cnameHosts.has(r.host);
  const base = zone.records.filter((r) => !ours(r));
  const carried = zone.records.filter(ours).map((r) => r.raw);
  const { ops, other } = zoneDiff(want, base);
  const issues = afterIssues(want, zone.records, ops, change.name);
  if (issues.length > 0)
    return {
      problem:
        `the zone of ${quote(change.name)} as the manifest would leave it breaks DNS: ` +
        `${issues.map(newZoneIssueText).join('; ')}; the domain was created, and nothing was sent to its zone ` +
        '(it holds the records the panel made): change the manifest and apply again',
    };
  return { body: zoneBody(zone, [...other, ...carried]), note: newZoneNote({ ...zone, records: base }, ops) };
}

/** What the outcome says of a new domain's zone: what its diff did to the panel's defaults, naming those that went. */
function newZoneNote(zone: LiveZone, ops: readonly RecordOp[]): string {
  const count = (what: RecordOp['op']): number => ops.reduce((n, op) => n + (op.op === what ? 1 : 0), 0);
  const removed = ops.filter((op) => op.op === 'remove');
  const kept = zone.records.length - removed.length;
  const named = removed.slice(0, NAMED_DEFAULTS).map(recordIdText).join(', ');
  const more = removed.length > NAMED_DEFAULTS ? `, and ${plural(removed.length - NAMED_DEFAULTS, 'more')}` : '';
  return (
    `of the ${plural(zone.records.length, 'record')} the panel made, ${kept} kept, ${removed.length} removed` +
    (removed.length === 0 ? '' : ` (${named}${more}; not counted for --max-deletes)`) +
    `; ${count('add')} added, ${count('update')} updated`
  );
}

/** A rule of DNS, in a few words: what a record carried from a subdomain's create breaks. */
const RULE_WORDS: Readonly<Record<ZoneRule, string>> = {
  cname_at_apex: 'no CNAME at the apex (RFC 1034)',
  cname_beside: 'an alias has no other records (RFC 1034)',
  two_spf: 'one SPF policy a host (RFC 7208)',
  target_is_cname: 'an MX or NS target is no CNAME (RFC 2181 10.3)',
};

/**
 * An existing domain's zone as apply would write it (`after`), checked for the records that the
 * creates of its subdomains in this apply added (`carried`): the plan could not see them, so its
 * check could not either. The problem that fails the zone's change (nothing sent), or undefined.
 */
export function carriedProblem(
  zone: string,
  carried: readonly DnsRecord[],
  after: readonly DnsRecord[],
): string | undefined {
  if (carried.length === 0) return undefined;
  const issues = zoneIssues({ records: carried }, after, zone);
  if (issues.length === 0) return undefined;
  const named = issues.map(
    (i) =>
      recordIdText(i.record) + `${i.other === undefined ? '' : ` and ${recordIdText(i.other)}`}: ${RULE_WORDS[i.rule]}`,
  );
  return (
    `the zone of ${quote(zone)} as apply would write it breaks DNS, with the records that the creates of ` +
    `its subdomains in this run added to it (${named.join('; ')}): nothing was sent to it; run plan again, ` +
    'it shows the records the manifest replaces there'
  );
}

/**
 * An existing domain's records carried from its subdomains' creates in this apply, split as the
 * change owns them: `replaced` where it adds or updates records of their (host, type), or a CNAME
 * at their host (as a new zone's defaults are replaced: named in the outcome, not counted for
 * --max-deletes, since no plan could see them), `kept` otherwise.
 */
export function splitCarried<R extends Pick<DnsRecord, 'host' | 'type'>>(
  change: Pick<UpdateZone, 'records'>,
  carried: readonly R[],
): { readonly replaced: R[]; readonly kept: R[] } {
  const owned = ownedBy({ records: change.records.filter((op) => op.op !== 'remove') });
  const replaced: R[] = [];
  const kept: R[] = [];
  for (const r of carried) (owned.sets.has(setKey(r)) || owned.cnameHosts.has(r.host) ? replaced : kept).push(r);
  return { replaced, kept };
}
