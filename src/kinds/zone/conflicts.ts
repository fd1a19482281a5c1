/**
 * A zone whose records after apply would break DNS (check.ts): as a plan's conflict (an existing
 * domain's zone: apply sends nothing), and as the failure of a new domain's zone, checked when
 * apply reads it after the domain's POST. Each says the record, the other one involved (the
 * panel's or the manifest's) and the fix. Pure.
 */
import { quote } from '../../escape.js';
import { type DesiredZone, zoneDiff } from './diff.js';
import { recordOrigin } from './places.js';
import type { LiveZone } from './record.js';
import { type RecordId, type ZoneIssue, zoneIssues, type ZoneRule } from './check.js';
import { hostText, valueText } from './phrases.js';

/** A plan's conflict of a zone: `record` is the manifest's (`index` in its `dns.records`, from 0). */
export interface ZoneConflict {
  readonly domain: string;
  readonly client: string;
  /** The domain's owner on the panel: the client (a zone conflict is of the manifest's own domain). */
  readonly owner: string;
  readonly dns: 'records';
  readonly rule: ZoneRule;
  readonly record: RecordId & { readonly index: number };
  readonly other?: RecordId & { readonly index?: number };
}

/** Whether a plan's conflict is a zone's. */
export function isZoneConflict(c: object): c is ZoneConflict {
  return 'rule' in c && (c as { dns?: unknown }).dns === 'records';
}

/** The conflicts of an existing domain's zone as the manifest would leave it (`zone` as the plan read it). */
export function zoneConflicts(
  domain: { readonly name: string; readonly client: string },
  want: DesiredZone,
  zone: Pick<LiveZone, 'records'>,
): ZoneConflict[] {
  const { ops } = zoneDiff(want, zone.records);
  return afterIssues(want, zone.records, ops, domain.name).map((issue) => conflictOf(domain, want, issue));
}

/** The issues of the zone `live` with `ops` (zoneDiff's) applied, in comparison form. */
export function afterIssues(
  want: Pick<DesiredZone, 'records'>,
  live: readonly { host: string; type: string; value: string; ttl: number }[],
  ops: ReturnType<typeof zoneDiff>['ops'],
  zone: string,
): ZoneIssue[] {
  // Removes name records by identity: take that many of each identity out.
  const gone = new Map<string, number>();
  const key = (r: RecordId): string => `${r.host}\u0000${r.type}\u0000${r.value}`;
  for (const op of ops) if (op.op === 'remove') gone.set(key(op), (gone.get(key(op)) ?? 0) + 1);
  const after: { host: string; type: string; value: string; ttl: number }[] = [];
  for (const r of live) {
    const n = gone.get(key(r)) ?? 0;
    if (n > 0) gone.set(key(r), n - 1);
    else after.push(r);
  }
  for (const op of ops) if (op.op === 'add') after.push(op);
  return zoneIssues(want, after, zone);
}

function conflictOf(
  domain: { readonly name: string; readonly client: string },
  want: DesiredZone,
  issue: ZoneIssue,
): ZoneConflict {
  const index = (listed: number): number => recordOrigin(want, listed)?.index ?? listed;
  const { other } = issue;
  return {
    domain: domain.name,
    client: domain.client,
    owner: domain.client,
    dns: 'records',
    rule: issue.rule,
    record: { ...issue.record, index: index(issue.listed) },
    ...(other === undefined
      ? {}
      : {
          other: {
            host: other.host,
            type: other.type,
            value: other.value,
            ...(other.listed === undefined ? {} : { index: index(other.listed) }),
          },
        }),
  };
}

/** `CNAME www alice.example.`: a record in running text, as data. */
export function recordIdText(r: RecordId): string {
  return `${/^[A-Z0-9]{1,16}$/.test(r.type) ? r.type : quote(r.type)} ${hostText(r.host)} ${valueText(r.type, r.value)}`;
}

/**
 * What is wrong and the fix, after the record's name: `is a CNAME at the apex: ...`. `other`
 * names the other record (`the panel's A www 192.0.2.1`, `record #3 (A www 192.0.2.1)`).
 */
export function issueText(rule: ZoneRule, record: RecordId, other: string | undefined): string {
  const host = quote(record.host);
  switch (rule) {
    case 'cname_at_apex':
      return (
        'is a CNAME at the apex ("@"), which holds the zone\'s SOA and NS records: an alias has no other ' +
        'records (RFC 1034); list the target\'s A or AAAA records at "@" instead'
      );
    case 'cname_beside':
      return record.type === 'CNAME'
        ? `is a CNAME at host ${host} beside ${other ?? 'another record'}: an alias has no other records ` +
            '(RFC 1034); keep the CNAME alone at its host, or list no CNAME there'
        : `would stand at host ${host} beside ${other ?? 'a CNAME'}, which the manifest does not list: an alias ` +
            'has no other records (RFC 1034); remove the CNAME (prune: true removes it, or delete it in the ' +
            'panel), or remove this record';
    case 'two_spf':
      return (
        `is an SPF policy at host ${host} beside ${other ?? 'another'}: a host with two SPF records fails every ` +
        'SPF check (RFC 7208: permerror); merge them into one TXT record and list it alone'
      );
    case 'target_is_cname':
      return record.type === 'CNAME'
        ? `is a CNAME at host ${host}, which ${other ?? 'an MX or NS record'} points at: an MX or NS target must ` +
            'have addresses of its own (RFC 2181 10.3); make it an A or AAAA record, or point the record at the ' +
            "CNAME's target"
        : `points at host ${quote(targetOf(record))}, which is ${other ?? 'a CNAME'}: an MX or NS target must have ` +
            "addresses of its own (RFC 2181 10.3); point it at the CNAME's target, or make that host an A or AAAA record";
    default: {
      const never: never = rule;
      return never;
    }
  }
}

function targetOf(r: RecordId): string {
  const parts = r.value.trim().split(/\s+/);
  return (r.type === 'MX' ? parts[1] : parts[0]) ?? r.value;
}

/** The other record as the messages name it: the panel's, or the manifest's by its number. */
function otherText(other: ZoneConflict['other']): string | undefined {
  if (other === undefined) return undefined;
  return other.index === undefined
    ? `the panel's ${recordIdText(other)}`
    : `record #${other.index + 1} (${recordIdText(other)})`;
}

/** A plan's zone conflict in one sentence: `"dns" record #2 (CNAME @ x.) of domain "a" of client "b" is ...`. */
export function zoneConflictText(c: ZoneConflict): string {
  return (
    `"dns" record #${c.record.index + 1} (${recordIdText(c.record)}) of domain ${quote(c.domain)} ` +
    `of client ${quote(c.client)} ${issueText(c.rule, c.record, otherText(c.other))}`
  );
}

/** A new domain's zone issue, as its change's failure says it: the manifest's record and the panel's. */
export function newZoneIssueText(issue: ZoneIssue): string {
  const other =
    issue.other === undefined
      ? undefined
      : issue.other.listed === undefined
        ? `the panel's ${recordIdText(issue.other)}`
        : `the manifest's ${recordIdText(issue.other)}`;
  return `the manifest's ${recordIdText(issue.record)} ${issueText(issue.rule, issue.record, other)}`;
}
