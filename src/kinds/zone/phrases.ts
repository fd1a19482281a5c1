/**
 * How people's text says a zone's change: its subject, the comment beside it, one line per
 * record, the PUT's request in short, and what apply did. A record's host, type and value may
 * come from a panel and hold anything: they are printed as data (escape.ts), and a long value
 * is cut (JSON keeps it whole). Pure.
 */
import { jsonText, quote } from '../../escape.js';
import { plural, sha256Hex } from '../../util.js';
import { unicodeForm } from '../domain/record.js';
import type { Removals } from '../kind.js';
import { recordTwins, type UpdateZone, zoneBodyOf, zoneDeletes } from './changes.js';
import type { RecordOp } from './diff.js';

/** `dns "alice.example" of client "alice"`. */
export function zoneSubject(change: UpdateZone): string {
  return `dns ${quote(change.name)} of client ${quote(change.client)}`;
}

/** `dns "xn--bcher-kva.example" (bücher.example)`: a zone's subject on its own diff line (its client is said above it). */
export function zoneLineSubject(change: UpdateZone): string {
  return `dns ${quote(change.name)}${unicodeForm(change.name)}`;
}

/** A value longer than this (in characters) is cut in text and Markdown. */
export const VALUE_SHOWN = 100;
/** How much of a cut value is shown. */
const VALUE_HEAD = 64;

/**
 * A record's value as data: bare when it is a plain name or address (`192.0.2.10`,
 * `alice.example.`), else JSON text (a TXT value always). Past VALUE_SHOWN characters, its first
 * VALUE_HEAD, its length and the start of its SHA-256, so two long values that differ only at
 * the end (a DKIM key rotated) still read apart: `"v=DKIM1; k=rsa; p=MIIB…"… (410 characters,
 * sha256 3f2a9c1e0b7d)`.
 */
export function valueText(type: string, value: string): string {
  const chars = Array.from(value);
  if (chars.length > VALUE_SHOWN)
    return (
      `${jsonText(chars.slice(0, VALUE_HEAD).join(''))}… ` +
      `(${chars.length.toLocaleString('en-US')} characters, sha256 ${sha256Hex(value).slice(0, 12)})`
    );
  return type !== 'TXT' && type !== 'SPF' && PLAIN_VALUE.test(value) ? value : jsonText(value);
}
const PLAIN_VALUE = /^[A-Za-z0-9._:*-]+$/;

/** A host as data: bare when a plain relative name (`@`, `www`, `_dmarc`, `*.shop`), else quoted. */
export function hostText(host: string): string {
  return /^[A-Za-z0-9._*@-]+$/.test(host) ? host : quote(host);
}

/** A type as data: bare when a plain type (`A`, `TXT`), else quoted (a panel may answer anything). */
function typeText(type: string): string {
  return /^[A-Z0-9]{1,16}$/.test(type) ? type : quote(type);
}

/** A record change's sign: `+` add, `~` a TTL changed, `-` remove. */
export function recordSign(op: RecordOp): '+' | '~' | '-' {
  return op.op === 'add' ? '+' : op.op === 'remove' ? '-' : '~';
}

/** `A @ 192.0.2.10 (ttl 3600)`, `TXT @ "v=spf1 -all": ttl 3600 -> 300`: one record's change without its sign. */
export function recordText(op: RecordOp): string {
  const what = `${typeText(op.type)} ${hostText(op.host)} ${valueText(op.type, op.value)}`;
  return op.op === 'update' ? `${what}: ttl ${op.ttl_before ?? '?'} -> ${op.ttl}` : `${what} (ttl ${op.ttl})`;
}

/** `+ A @ 192.0.2.10 (ttl 3600)`, `~ TXT @ "v=spf1 -all": ttl 3600 -> 300`: one record's change, as data. */
export function recordLine(op: RecordOp): string {
  return `${recordSign(op)} ${recordText(op)}`;
}

/** How many records a zone's change adds, changes the TTL of, and removes. */
export function recordCounts(change: UpdateZone): { add: number; update: number; remove: number } {
  const counts = { add: 0, update: 0, remove: 0 };
  for (const op of change.records) counts[op.op]++;
  return counts;
}

/** `2 records to add, 1 TTL to change, 1 to remove` (`to`), or as done (`added`, `changed`, `removed`). */
function countsText(change: UpdateZone, done: boolean): string {
  const n = recordCounts(change);
  const parts = [
    n.add > 0 ? `${plural(n.add, 'record')} ${done ? 'added' : 'to add'}` : '',
    n.update > 0 ? `${plural(n.update, 'TTL')} ${done ? 'changed' : 'to change'}` : '',
    n.remove > 0
      ? `${n.add > 0 || n.update > 0 ? n.remove : plural(n.remove, 'record')} ${done ? 'removed' : 'to remove'}`
      : '',
  ].filter(Boolean);
  return parts.join(', ');
}

/**
 * What a zone's change does beyond its records, one sentence each: a warning for each add whose
 * value the panel holds written otherwise (recordTwins); the first write makes the zone custom;
 * a new domain's zone is written after the domain's POST, and the default records the panel
 * fills in then at the (host, type) pairs it lists go, or with prune all but keep matches (which
 * ones, and how many, is known after apply: --max-deletes cannot count them).
 */
export function zoneNotes(change: UpdateZone): string[] {
  return [
    ...recordTwins(change).map(
      ({ add, panel }) =>
        `warning: ${recordText(add)}: the panel holds ${valueText(add.type, panel)}; ` +
        'write the value as the panel does (else the record is added again on every apply)',
    ),
    ...(change.domainId === null
      ? [
          change.prune
            ? "its records are written after the domain's POST; the default records the panel fills in then are removed, except keep matches (which ones: known after apply; --max-deletes does not count them)"
            : "its records are written after the domain's POST; of the default records the panel fills in then, those of each host and type it lists (every one at a host it lists a CNAME at) are replaced, the others kept (which ones: known after apply; --max-deletes does not count them)",
        ]
      : []),
    ...(change.makesCustom ? ['the zone becomes custom: the panel stops regenerating its default records'] : []),
  ];
}

/**
 * The comment line's words after the reason: ` (2 records to add, 1 to remove); the zone
 * becomes custom: ...`.
 */
export function zoneDetails(change: UpdateZone): { what: string; after: string } {
  const counts = countsText(change, false);
  return {
    what: '',
    after: `${counts === '' ? '' : ` (${counts})`}${zoneNotes(change)
      .map((note) => `; ${note}`)
      .join('')}`,
  };
}

/**
 * The PUT's request in short, for people: its body is the whole record list, which JSON keeps.
 * `PUT /dns/12 (the zone's 14 records after the change, its SOA and DKIM record as read)`; a new
 * domain's: `PUT /dns/{id} (known after apply: ...)`.
 */
export function zoneRequestLine(change: UpdateZone): string {
  const body = zoneBodyOf(change);
  if (change.domainId === null || body === null)
    return `PUT /dns/{id} (known after apply: the zone as the panel fills it in after the domain's POST, with these changes)`;
  const n = body.records.other.length;
  return `PUT /dns/${change.domainId} (the zone's ${plural(n, 'record')} after the change, its SOA and DKIM record as read)`;
}

/**
 * What apply did to a zone, after `✓ updated dns "x" ... (id 12)`: `2 records added, 1 removed`.
 * A new domain's zone was diffed after its POST: apply's note says what came of the defaults.
 */
export function zoneOutcome(change: UpdateZone): string {
  if (change.domainId === null) return "written after the domain's POST";
  const counts = countsText(change, true);
  return counts === '' ? 'written' : counts;
}

/**
 * The records zones lose, as the summaries count them and the Markdown lists them: a prune is
 * reviewed like a delete. A new domain's zone pruned loses the default records the panel fills
 * in after its POST: which ones, and how many, is known after apply.
 */
export const ZONE_REMOVALS: Removals<UpdateZone> = {
  noun: { one: 'DNS record', many: 'DNS records' },
  item: 'record',
  count: zoneDeletes,
  lines: (change) =>
    change.records.filter((op) => op.op === 'remove').map((op) => `${zoneLineSubject(change)}: ${recordText(op)}`),
  uncounted: (change) =>
    change.domainId === null && change.prune
      ? `${zoneLineSubject(change)}: the default records the panel fills in, except keep matches (known after apply)`
      : undefined,
  uncountedBeside: (n) => (n > 0 ? ` and the defaults of ${plural(n, 'new zone')}` : ''),
  sentence: (removed, uncounted) =>
    `${plural(removed, 'record')} ${removed === 1 ? 'leaves its zone' : 'leave their zones'}` +
    (uncounted > 0 ? `, and the default records of ${plural(uncounted, 'new domain')}` : ''),
};
