/**
 * The zone as it would be after apply, checked (docs/manifest.md, "DNS records"): a CNAME at the apex, a
 * CNAME beside other records at its host, two SPF records at one host, an MX or NS whose target
 * is a CNAME of the same zone. Only what the manifest has a hand in is an issue: a listed record
 * at fault, or one the listed records meet; the panel's own faults it does not touch stay the
 * panel's. Each issue stands at a listed record, naming the other record involved. Linear. Pure.
 */
import { type DesiredZone } from './diff.js';
import { type DnsRecord, recordKey } from './record.js';

/** What is wrong: RFC 1034 (an alias has no other records, so none at the apex), RFC 7208, RFC 2181 §10.3. */
export type ZoneRule = 'cname_at_apex' | 'cname_beside' | 'two_spf' | 'target_is_cname';

/** A record as an issue names it. */
export interface RecordId {
  readonly host: string;
  readonly type: string;
  readonly value: string;
}

export interface ZoneIssue {
  readonly rule: ZoneRule;
  /** The listed record at fault: its place in the desired zone's records (from 0). */
  readonly listed: number;
  readonly record: RecordId;
  /** The other record involved: the manifest's (`listed` set) or the panel's. */
  readonly other?: RecordId & { readonly listed?: number };
}

/** An SPF policy (RFC 7208): a TXT (or the old SPF type) whose text starts with `v=spf1`. */
export function isSpf(r: Pick<DnsRecord, 'type' | 'value'>): boolean {
  return (r.type === 'TXT' || r.type === 'SPF') && /^"?v=spf1(?:[\s"]|$)/i.test(r.value);
}

/**
 * The host in `zone` (ASCII) an MX or NS value points at, in comparison form; undefined when it
 * points outside the zone. A name without a trailing dot is relative to the zone (as a zone file
 * reads it) unless it ends with the zone's name.
 */
export function targetHost(r: Pick<DnsRecord, 'type' | 'value'>, zone: string): string | undefined {
  const parts = r.value.trim().split(/\s+/);
  const target = (r.type === 'MX' ? parts[1] : parts[0])?.toLowerCase();
  if (target === undefined || target === '' || target === '.') return undefined;
  if (target === '@') return '@';
  const name = target.replace(/\.$/, '');
  if (name === zone) return '@';
  if (name.endsWith(`.${zone}`)) return name.slice(0, -zone.length - 1);
  return target.endsWith('.') ? undefined : name;
}

const id = ({ host, type, value }: RecordId): RecordId => ({ host, type, value });

/** What the checks need of one host, gathered in one pass (the zone may hold 10,000 records at one host). */
interface HostFacts {
  /** Its first two records of distinct identities: a record's other is one of them. */
  readonly firstTwo: DnsRecord[];
  firstUnlisted?: DnsRecord;
  firstCname?: DnsRecord;
  unlistedCname?: DnsRecord;
  unlistedSpf?: DnsRecord;
  /** The listed SPF record that comes first in the manifest, and its place. */
  firstListedSpf?: { readonly record: DnsRecord; readonly listed: number };
  /** The first MX or NS the manifest does not list that points at this host. */
  unlistedPointer?: DnsRecord;
}

/** The issues of the zone whose records after apply are `after`, of which `want` lists some; `zone` its ASCII name. Linear. */
export function zoneIssues(want: Pick<DesiredZone, 'records'>, after: readonly DnsRecord[], zone: string): ZoneIssue[] {
  const listedAt = new Map<string, number>();
  want.records.forEach((r, i) => {
    if (!listedAt.has(recordKey(r))) listedAt.set(recordKey(r), i);
  });
  const hosts = new Map<string, HostFacts>();
  const facts = (host: string): HostFacts => {
    let f = hosts.get(host);
    if (f === undefined) hosts.set(host, (f = { firstTwo: [] }));
    return f;
  };
  for (const r of after) {
    const f = facts(r.host);
    const listed = listedAt.get(recordKey(r));
    if (f.firstTwo.length < 2 && !f.firstTwo.some((o) => recordKey(o) === recordKey(r))) f.firstTwo.push(r);
    if (listed === undefined) f.firstUnlisted ??= r;
    if (r.type === 'CNAME') {
      f.firstCname ??= r;
      if (listed === undefined) f.unlistedCname ??= r;
    }
    if (isSpf(r)) {
      if (listed === undefined) f.unlistedSpf ??= r;
      else if (f.firstListedSpf === undefined || listed < f.firstListedSpf.listed)
        f.firstListedSpf = { record: r, listed };
    }
    if ((r.type === 'MX' || r.type === 'NS') && listed === undefined) {
      const target = targetHost(r, zone);
      if (target !== undefined) facts(target).unlistedPointer ??= r;
    }
  }
  const other = (r: DnsRecord): RecordId & { listed?: number } => {
    const listed = listedAt.get(recordKey(r));
    return listed === undefined ? id(r) : { ...id(r), listed };
  };
  const issues: ZoneIssue[] = [];
  want.records.forEach((r, listed) => {
    if (listedAt.get(recordKey(r)) !== listed) return; // a second listing: the manifest's checks say it
    const f = hosts.get(r.host);
    if (f === undefined) return; // not in the zone after apply (a caller's `after` without it)
    const add = (rule: ZoneRule, o?: DnsRecord): void => {
      issues.push({ rule, listed, record: id(r), ...(o === undefined ? {} : { other: other(o) }) });
    };
    if (r.type === 'CNAME') {
      if (r.host === '@') add('cname_at_apex');
      else {
        const beside = f.firstUnlisted ?? f.firstTwo.find((o) => recordKey(o) !== recordKey(r));
        if (beside !== undefined) add('cname_beside', beside);
      }
      if (f.unlistedPointer !== undefined) add('target_is_cname', f.unlistedPointer);
    } else if (f.unlistedCname !== undefined) add('cname_beside', f.unlistedCname);
    if (isSpf(r)) {
      const earlier =
        f.firstListedSpf !== undefined && f.firstListedSpf.listed < listed ? f.firstListedSpf.record : undefined;
      const spf = f.unlistedSpf ?? earlier;
      if (spf !== undefined) add('two_spf', spf);
    }
    if (r.type === 'MX' || r.type === 'NS') {
      const target = targetHost(r, zone);
      const alias = target === undefined ? undefined : hosts.get(target)?.firstCname;
      if (alias !== undefined) add('target_is_cname', alias);
    }
  });
  return issues;
}
