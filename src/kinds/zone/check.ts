/**
 * The zone as it would be after apply, checked (design.md "DNS records"): a CNAME at the apex, a
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

/** The issues of the zone whose records after apply are `after`, of which `want` lists some; `zone` its ASCII name. */
export function zoneIssues(want: Pick<DesiredZone, 'records'>, after: readonly DnsRecord[], zone: string): ZoneIssue[] {
  const listedAt = new Map<string, number>();
  want.records.forEach((r, i) => {
    if (!listedAt.has(recordKey(r))) listedAt.set(recordKey(r), i);
  });
  const byHost = new Map<string, DnsRecord[]>();
  const pointing = new Map<string, DnsRecord[]>();
  for (const r of after) {
    push(byHost, r.host, r);
    if (r.type !== 'MX' && r.type !== 'NS') continue;
    const target = targetHost(r, zone);
    if (target !== undefined) push(pointing, target, r);
  }
  const other = (r: DnsRecord): RecordId & { listed?: number } => {
    const listed = listedAt.get(recordKey(r));
    return listed === undefined ? id(r) : { ...id(r), listed };
  };
  const issues: ZoneIssue[] = [];
  want.records.forEach((r, listed) => {
    if (listedAt.get(recordKey(r)) !== listed) return; // a second listing: the manifest's checks say it
    const add = (rule: ZoneRule, o?: DnsRecord): void => {
      issues.push({ rule, listed, record: id(r), ...(o === undefined ? {} : { other: other(o) }) });
    };
    const here = (byHost.get(r.host) ?? []).filter((o) => recordKey(o) !== recordKey(r));
    if (r.type === 'CNAME') {
      if (r.host === '@') add('cname_at_apex');
      else {
        const beside = here.find((o) => !listedAt.has(recordKey(o))) ?? here[0];
        if (beside !== undefined) add('cname_beside', beside);
      }
      const at = (pointing.get(r.host) ?? []).find((o) => !listedAt.has(recordKey(o)));
      if (at !== undefined) add('target_is_cname', at);
    } else {
      const cname = here.find((o) => o.type === 'CNAME' && !listedAt.has(recordKey(o)));
      if (cname !== undefined) add('cname_beside', cname);
    }
    if (isSpf(r)) {
      const spf =
        here.find((o) => isSpf(o) && !listedAt.has(recordKey(o))) ??
        here.find((o) => isSpf(o) && (listedAt.get(recordKey(o)) ?? listed) < listed);
      if (spf !== undefined) add('two_spf', spf);
    }
    if (r.type === 'MX' || r.type === 'NS') {
      const target = targetHost(r, zone);
      const alias = target === undefined ? undefined : byHost.get(target)?.find((o) => o.type === 'CNAME');
      if (alias !== undefined) add('target_is_cname', alias);
    }
  });
  return issues;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
