/**
 * A domain item's `dns` block as the manifest gives it (`dns: {ttl, records: [{host, type, value,
 * ttl}], prune, keep}`): the DesiredZone it gives (hosts in comparison form, types upper-case,
 * values as written, TTLs resolved: the record's, else the block's, else DEFAULT_TTL) and the
 * checks the JSON Schema cannot make, each problem at a path in the item. The schema checks the
 * shapes and the TTL range; manifest-words.ts words its refusals.
 *
 * Validation never refuses what a panel can hold (export's output must validate: docs/adoption.md): a
 * type outside RECORD_TYPES, a CNAME beside other records, a TXT value over 255 characters, a
 * CAA tag no authority knows are warnings. Pure.
 */
import { quote } from '../../escape.js';
import { isRecord, ownString } from '../../util.js';
import type { FieldProblem } from '../common.js';
import type { DesiredZone } from './diff.js';
import { FirstListed, HOST, IDENTITY } from './first-listed.js';
import { numbers } from './numbers.js';
import { recordPlaces } from './places.js';
import type { DnsRecord } from './record.js';
import { checkValue, DEFAULT_TTL, RECORD_TYPES, recordHost, ttlInRange } from './values.js';
import { DNS_KEY, dnsPart, KEEP_EXAMPLE, recordField, recordLabel } from './manifest-words.js';

export * from './manifest-words.js';

/** A problem of an item's `dns` block, at `path` in the item (`['dns', 'records', 2, 'value']`). */
export interface ZoneProblem extends FieldProblem {
  readonly path: readonly [string, ...(string | number)[]];
  /** Point at the key the path ends with rather than at its value. */
  readonly atKey?: boolean;
}

/** The line a path in the item stands on, for messages that name an earlier record. */
export type LineOf = (path: readonly [string, ...(string | number)[]]) => number;

/**
 * What the manifest's reader adds (it knows the file and the rules of names): `at`, where a path
 * stands (each record's place is kept in DesiredZone.origin, packed: places.ts, for conflicts at
 * their line);
 * `keepProblem`, the check `prune.keep` patterns get (manifest/prune.ts), given to `dns.keep`
 * too: what is wrong with a pattern (the end of a sentence), or its form to match with.
 */
export interface ZoneReader {
  readonly at?: (path: readonly [string, ...(string | number)[]]) => { readonly line: number; readonly column: number };
  readonly keepProblem?: (pattern: string) => string | { readonly ascii: string };
}

/** Each type of RECORD_TYPES by its name: "CNAME" upper-cased is a new string a record. */
const TYPE_NAMES: ReadonlyMap<string, string> = new Map(Object.keys(RECORD_TYPES).map((t) => [t, t]));

/** A `keep` pattern: host characters and the wildcards `*` and `?`. */
const KEEP_PATTERN = /^[A-Za-z0-9_.*?-]+$/;

/**
 * The zone a domain item gives (undefined when it has no `dns`, or one the schema refuses
 * whole), and the problems the schema cannot find: `dns` on a domain marked `state: absent`,
 * each record's host, type and value, duplicates, CNAMEs beside other records, `keep` patterns
 * and a `keep` that keeps nothing. `domain` names the item (settingsDomainLabel); `zone` is its
 * name in comparison form (lowercase ASCII); `lineOf` says where a path stands.
 */
export function itemZone(
  item: unknown,
  domain: string,
  zone: string,
  lineOf: LineOf,
  reader: ZoneReader = {},
): { readonly dns: DesiredZone | undefined; readonly problems: ZoneProblem[] } {
  const problems: ZoneProblem[] = [];
  const block = isRecord(item) ? item[DNS_KEY] : undefined;
  if (!isRecord(item) || block === undefined) return { dns: undefined, problems };
  if (item.state === 'absent') {
    problems.push({
      path: [DNS_KEY],
      atKey: true,
      severity: 'error',
      message:
        `${domain} has state: absent and "${DNS_KEY}": a domain that is deleted has no zone; ` +
        `remove "${DNS_KEY}", or the state`,
    });
    return { dns: undefined, problems };
  }
  if (!isRecord(block)) return { dns: undefined, problems }; // the schema refuses it
  const ttl = typeof block.ttl === 'number' && ttlInRange(block.ttl) ? block.ttl : DEFAULT_TTL;
  const listed = Array.isArray(block.records) ? block.records : [];
  // The records as Desired keeps them, made once, and beside them each one's index in the block.
  const taken: DnsRecord[] = [];
  const indexes = numbers(listed.length);
  listed.forEach((record: unknown, index) => {
    const one = takeRecord(record, index, ttl, domain, zone, problems);
    if (one === undefined) return;
    indexes[taken.length] = index;
    taken.push(one);
  });
  withoutDuplicates(taken, indexes, domain, lineOf, problems);
  cnameBesideOthers(taken, indexes, domain, lineOf, problems);
  const prune = block.prune === true;
  const keep = keepPatterns(block.keep, prune, domain, zone, problems, reader.keepProblem);
  if (prune && listed.length === 0 && Array.isArray(block.records))
    problems.push({
      path: [DNS_KEY, 'records'],
      severity: 'warning',
      message:
        `${dnsPart('records', domain)} is empty with prune: true: every record of the zone goes ` +
        '(but the apex NS records and the hosts "keep" matches); list the records to keep',
    });
  const at = reader.at;
  const origin =
    at === undefined ? {} : { origin: recordPlaces(indexes, taken.length, (index) => at([DNS_KEY, 'records', index])) };
  // A list of its own length: one grown by push keeps room for more (17 at its first push).
  return { dns: { records: taken.slice(), prune, keep, ...origin }, problems };
}

/**
 * A record in comparison form, its TTL resolved (`ttl` is the block's); undefined when a part
 * is missing or refused (its problem is in `problems`, or the schema's).
 */
function takeRecord(
  record: unknown,
  index: number,
  ttl: number,
  domain: string,
  zone: string,
  problems: ZoneProblem[],
): DnsRecord | undefined {
  if (!isRecord(record)) return undefined;
  const at = (field: string): [string, ...(string | number)[]] => [DNS_KEY, 'records', index, field];
  let host: string | undefined;
  if (typeof record.host === 'string') {
    const read = recordHost(record.host, zone);
    if ('host' in read) host = read.host;
    else
      problems.push({
        path: at('host'),
        severity: 'error',
        message: `${recordField('host', index, domain)} ${read.problem}`,
      });
  }
  let type: string | undefined;
  let typeSaid: string | undefined;
  if (typeof record.type === 'string') {
    const upper = record.type.toUpperCase();
    // A type outside the table: checkValue says what it says of the type (with a value it takes).
    const problem = RECORD_TYPES[upper] === undefined ? checkValue(upper, '-') : undefined;
    if (problem !== undefined) {
      typeSaid = problem.message;
      problems.push({
        path: at('type'),
        severity: problem.severity,
        message: `${recordLabel(index, domain)} ${problem.message}`,
      });
    }
    // The table's own string when it names the type: one string for every record of it.
    if (problem?.severity !== 'error') type = TYPE_NAMES.get(upper) ?? upper;
  }
  const { value } = record;
  if (typeof value === 'string') {
    const problem = checkValue(type ?? 'TXT', value);
    // What it says of the type is said at the type.
    if (problem !== undefined && problem.message !== typeSaid && (type !== undefined || problem.severity === 'error'))
      problems.push({
        path: at('value'),
        ...problem,
        message: `${recordField('value', index, domain)} ${problem.message}`,
      });
  }
  if (type === 'CNAME' && typeof value === 'string' && checkValue(type, value) === undefined) {
    const relative = relativeTarget(value, zone);
    if (relative !== undefined)
      problems.push({
        path: at('value'),
        severity: 'warning',
        message: `${recordField('value', index, domain)} ${relative}`,
      });
  }
  if (host === undefined || type === undefined || typeof value !== 'string') return undefined;
  const own = typeof record.ttl === 'number' && ttlInRange(record.ttl) ? record.ttl : undefined;
  // Strings of their own (ownString): a host or a value cut out of the manifest's text may be a
  // slice of it, and Desired keeps the record until the plan is made. One equal to the previous
  // record's is kept as that same string (most zones repeat `www`, `@` and a few addresses).
  lastHost = host === lastHost ? lastHost : ownString(host);
  lastValue = value === lastValue ? lastValue : ownString(value);
  return { host: lastHost, type, value: lastValue, ttl: own ?? ttl };
}

/** The host and the value of the last record kept (takeRecord). */
let lastHost = '';
let lastValue = '';

/**
 * What a CNAME's target without a trailing dot is told: a zone reads it relative to the zone
 * (`alice.example` in the zone alice.example is alice.example.alice.example.), which is rarely
 * meant for a name with dots; undefined for `@` and an absolute name.
 */
function relativeTarget(value: string, zone: string): string | undefined {
  const name = value.trim();
  if (name === '@' || name.endsWith('.')) return undefined;
  const meant = name.toLowerCase() === zone || name.toLowerCase().endsWith(`.${zone}`) || name.includes('.');
  return (
    `${quote(name)} has no trailing dot: DNS reads it relative to the zone, as ${quote(`${name}.${zone}.`)}; ` +
    (meant ? `write ${quote(`${name}.`)} for the name as written` : `write ${quote(`${name}.${zone}.`)} to say so`)
  );
}

/**
 * The records without a second listing of the same (host, type, value): each one an error naming
 * the first. `records` and their block indexes (`indexes`, aligned) are kept in place, in order,
 * `records` cut to them.
 */
function withoutDuplicates(
  records: DnsRecord[],
  indexes: number[] | Int32Array,
  domain: string,
  lineOf: LineOf,
  problems: ZoneProblem[],
): void {
  const first = new FirstListed(records, records.length, IDENTITY);
  let kept = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as DnsRecord;
    const index = indexes[i] as number;
    const at = first.firstOrNote(r, kept);
    if (at < 0) {
      records[kept] = r;
      indexes[kept] = index;
      kept++;
      continue;
    }
    const earlier = indexes[at] as number;
    problems.push({
      path: [DNS_KEY, 'records', index],
      severity: 'error',
      message:
        `${recordLabel(index, domain)} is listed twice: record #${earlier + 1} ` +
        `(line ${lineOf([DNS_KEY, 'records', earlier])}) has the same host ${quote(r.host)}, type ${r.type} ` +
        `and value ${quote(r.value)}; remove one`,
    });
  }
  records.length = kept;
}

/**
 * A warning at each CNAME that shares its host with another record: DNS forbids it (RFC 1034:
 * an alias has no other data), panels take it, and resolvers then answer one or the other.
 */
function cnameBesideOthers(
  records: readonly DnsRecord[],
  indexes: readonly number[] | Int32Array,
  domain: string,
  lineOf: LineOf,
  problems: ZoneProblem[],
): void {
  // The first two records of each host (their places in `records`: the first found by the table,
  // the second kept at the first's place), made only when there is a CNAME: in one pass.
  if (!records.some((r) => r.type === 'CNAME')) return;
  const first = new FirstListed(records, records.length, HOST);
  const firstAt = numbers(records.length);
  const second = numbers(records.length).fill(-1);
  records.forEach((r, i) => {
    const at = first.firstOrNote(r, i);
    firstAt[i] = at < 0 ? i : at;
    if (at >= 0 && second[at] === -1) second[at] = i;
  });
  records.forEach((r, i) => {
    if (r.type !== 'CNAME') return;
    const head = firstAt[i] as number;
    const o = head !== i ? head : (second[head] as number);
    if (o < 0) return;
    const other = records[o] as DnsRecord;
    const index = indexes[i] as number;
    const otherIndex = indexes[o] as number;
    problems.push({
      path: [DNS_KEY, 'records', index, 'type'],
      severity: 'warning',
      message:
        `${recordLabel(index, domain)} is a CNAME at host ${quote(r.host)} beside another record there ` +
        `(record #${otherIndex + 1}, ${other.type}, line ${lineOf([DNS_KEY, 'records', otherIndex])}): ` +
        'DNS forbids it (RFC 1034: an alias has no other records), and resolvers answer one or the other; ' +
        'keep the CNAME alone at its host',
    });
  });
}

/** A zone's `keep` when it gives none: one list for every zone. */
const NO_PATTERNS: readonly string[] = Object.freeze([]);

/** The block's `keep` patterns as given; each one that is not a host pattern an error. */
function keepPatterns(
  keep: unknown,
  prune: boolean,
  domain: string,
  zone: string,
  problems: ZoneProblem[],
  keepProblem: ZoneReader['keepProblem'],
): readonly string[] {
  if (!Array.isArray(keep)) return NO_PATTERNS;
  const patterns: string[] = [];
  keep.forEach((pattern: unknown, i) => {
    if (typeof pattern !== 'string') return; // the schema refuses it
    const subject = `pattern #${i + 1} in ${dnsPart('keep', domain)}`;
    const lower = pattern.toLowerCase().replace(/\.$/, '');
    // prune.keep's checks first (a trailing dot, an empty label, a look-alike letter: it would keep nothing).
    const said = keepProblem?.(pattern);
    if (typeof said === 'string')
      problems.push({ path: [DNS_KEY, 'keep', i], severity: 'error', message: `${subject} ${said}` });
    else if (!KEEP_PATTERN.test(pattern))
      problems.push({
        path: [DNS_KEY, 'keep', i],
        severity: 'error',
        message:
          `${subject} must be a host pattern: letters, digits, "_", "-", "." and the wildcards "*" and "?", ` +
          `like ${KEEP_EXAMPLE}, not ${quote(pattern)}`,
      });
    else if (lower === zone || lower.endsWith(`.${zone}`))
      problems.push({
        path: [DNS_KEY, 'keep', i],
        severity: 'warning',
        message:
          `${subject} ends with the zone's name: hosts are relative, so it matches no record; ` +
          `write ${lower === zone ? 'no pattern for the apex' : quote(lower.slice(0, -zone.length - 1))}`,
      });
    patterns.push(pattern);
  });
  if (keep.length > 0 && !prune)
    problems.push({
      path: [DNS_KEY, 'keep'],
      atKey: true,
      severity: 'warning',
      message:
        `${dnsPart('keep', domain)} keeps nothing without prune: true (only prune removes unlisted records); ` +
        'add prune: true, or remove "keep"',
    });
  return patterns;
}

/**
 * The error for `dns` on a domain (`input`, named `domain`) that is a subdomain of `parent`
 * (as written, first listed at `line`) in the same client: its records live in the parent's
 * zone, under hosts ending in `host` (the subdomain's name relative to the parent).
 */
export function subdomainZone(domain: string, parent: string, line: number, host: string): string {
  return (
    `${domain} is a subdomain of ${quote(parent)} (line ${line}): its records live in the zone of ${quote(parent)}; ` +
    `write them in the "${DNS_KEY}" of ${quote(parent)} with hosts relative to it: host ${quote(host)} for this ` +
    `domain's "@", ${quote(`_acme-challenge.${host}`)} for its "_acme-challenge"`
  );
}
