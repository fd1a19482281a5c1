import { assertNever, plural } from '../util.js';
import type { Change, ChangeAction, Plan } from '../plan/types.js';
import { requestFor } from '../plan/requests.js';
import type { PlanSource } from '../plan/saved.js';
import { jsonText, quote } from '../escape.js';
import { unknownLine as clientUnknownLine } from '../kinds/client/index.js';
import { KIND_NAMES, KINDS as TABLE, kindOf, type KindName } from '../kinds/index.js';
import type { KindNoun } from '../kinds/common.js';
import { isZoneConflict, recordSign, zoneConflictText, zoneDeletes } from '../kinds/zone.js';
import { planConflictText } from '../kinds/hosting-plan.js';
import { conflictText, givenSettings, settingText, settingUnknownLine } from '../kinds/domain.js';

export { fieldsText } from '../kinds/client/index.js';

/**
 * What a renderer needs beside the plan, all plain values so renderers stay pure: the same
 * fields the plan document is written from (plan/saved.ts PlanSource), one type for both.
 */
export type PlanView = PlanSource;

export const KNOWN_AFTER_APPLY = '(known after apply)';

/** `POST /domains {"domain":"a.example","id_user":(known after apply)}`, `DELETE /clients/7` */
export function requestLine(change: Change): string {
  const short = kindOf(change).requestLine?.(change);
  if (short !== undefined) return short;
  const { method, path, body } = requestFor(change);
  if (body === null) return `${method} ${path}`;
  const fields = Object.entries(body).map(([k, v]) => `${jsonText(k)}:${v === null ? KNOWN_AFTER_APPLY : jsonText(v)}`);
  return `${method} ${path} {${fields.join(',')}}`;
}

/** How people's text names each kind, as its room says; in the order summaries list the kinds. */
export const NOUNS = Object.fromEntries(KIND_NAMES.map((name) => [name, TABLE[name].noun])) as {
  readonly [K in KindName]: KindNoun;
};
export const KINDS = KIND_NAMES;

/** `3 clients`: a count of a kind, in its noun. */
export function countOf(n: number, kind: KindName): string {
  return plural(n, NOUNS[kind].one, NOUNS[kind].many);
}

/** `client "alice"` / `domain "a.example" of client "alice"` */
export function subject(change: Change): string {
  return kindOf(change).subject(change);
}

/**
 * The client a change belongs to: the client itself, or a domain's owner; undefined for a kind
 * that belongs to no client (the Markdown comment gives those a group of their own).
 */
export function clientOf(change: Change): string | undefined {
  return kindOf(change).clientOf(change);
}

/** `will be created`, `will be updated`, `will be deleted`: what happens to a change's subject. */
export function verb(change: Change): string {
  switch (change.action) {
    case 'create':
      return 'will be created';
    case 'update':
      return 'will be updated';
    case 'delete':
      return 'will be deleted';
    default:
      return assertNever(change);
  }
}

/** The sign of a change in a diff: `+` create, `~` update, `-` delete. */
export function sign(change: Change): '+' | '~' | '-' {
  switch (change.action) {
    case 'create':
      return '+';
    case 'update':
      return '~';
    case 'delete':
      return '-';
    default:
      return assertNever(change);
  }
}

/** ` with its 3 domains, mail, databases and files` after a client's delete; else ''. */
export function goesWith(change: Change): string {
  return kindOf(change).goesWith(change);
}

/** ` (bücher.example)` beside a change's name when its kind has a Unicode form of it; else ''. */
export function unicodeOf(change: Change): string {
  return kindOf(change).unicodeOf(change);
}

/**
 * `plan: "Basic" -> "Business"`, `https.force: false -> true`: each thing an update changes, as
 * its kind's room words it, one part each.
 */
export function updatedFields(change: Extract<Change, { action: 'update' }>): string[] {
  return [...kindOf(change).updatedFields(change)];
}

/**
 * A change's subject on its own diff line: `client "carol"`, `domain "shop.alice.example"`. A
 * domain's client is left out: the comment line above says it, and Markdown groups by client.
 */
export function lineSubject(change: Change): string {
  return kindOf(change).lineSubject(change);
}

/** What a change does in the manifest's terms: its subject, and one part per field or setting. */
export interface ChangeParts {
  readonly subject: string;
  /** `https.force: false -> true` (an update), `php_version: "8.3"` (a create's setting); at least one. */
  readonly parts: readonly string[];
  /**
   * Whether a list reads better than one line when there are several parts (Markdown): a
   * domain's settings, whose values are JSON objects; a client's short fields stay on one line.
   */
  readonly list: boolean;
  /**
   * Each part's own sign, when its parts are changes of their own (a zone's records: `+` added,
   * `-` removed, `~` a TTL changed); undefined when the parts take the change's sign.
   */
  readonly marks?: readonly ('+' | '~' | '-')[];
}

/**
 * What a change does in the manifest's terms, for the diff line above its request (whose body
 * is in the panel's): an update's fields `before -> after`, a domain created with settings its
 * settings; undefined when the request says it all. Values are JSON text: a redirect's URL and
 * a panel's strings are data.
 */
export function changeParts(change: Change): ChangeParts | undefined {
  const parts = ((): string[] => {
    switch (change.action) {
      case 'create':
        return created(change);
      case 'update':
        return updatedFields(change);
      case 'delete':
        return [];
      default:
        return assertNever(change);
    }
  })();
  if (parts.length === 0) return undefined;
  const marks = change.type === 'dns_zone' ? change.records.map(recordSign) : undefined;
  return { subject: lineSubject(change), parts, list: listed(change), ...(marks === undefined ? {} : { marks }) };
}

/** A part with its own sign before it (a zone's record: `+ A @ 192.0.2.10 (ttl 3600)`), else as it is. */
export function markedPart(described: ChangeParts, i: number): string {
  const mark = described.marks?.[i];
  const part = described.parts[i] ?? '';
  return mark === undefined ? part : `${mark} ${part}`;
}

/** `domain "x": https.force: false -> true, php_version: "8.2" -> "8.3"`: changeParts on one line. */
export function changeLine(change: Change): string | undefined {
  const described = changeParts(change);
  return described === undefined
    ? undefined
    : `${described.subject}: ${described.parts.map((_, i) => markedPart(described, i)).join(', ')}`;
}

/** ChangeParts.list: a domain's settings as a list under the domain. */
function listed(change: Change): boolean {
  switch (change.type) {
    case 'client':
      return false;
    case 'domain':
    case 'dns_zone':
    case 'hosting_plan':
      return true;
    default:
      return assertNever(change);
  }
}

/** `php_version: "8.3"`, `https.force: true`: the settings a create sets, in its kind's table order; none for a client. */
function created(change: Extract<Change, { action: 'create' }>): string[] {
  switch (change.type) {
    case 'client':
      return [];
    case 'domain':
      return givenSettings(change.settings).map(([row, value]) => `${row.key}: ${settingText(value)}`);
    case 'hosting_plan':
      return Object.entries(change.objects).flatMap(([object, keys]) =>
        Object.entries(keys).map(([key, value]) => `${object}.${key}: ${jsonText(value)}`),
      );
    default:
      return assertNever(change);
  }
}

/**
 * What a plan scoped by --clients leaves out, one sentence (patterns as data, quoted); undefined
 * for a plan of the whole manifest.
 */
export function scopeLine(plan: Plan): string | undefined {
  if (plan.scope === undefined) return undefined;
  const patterns = plan.scope.clients.map((p) => quote(p)).join(', ');
  return (
    `scoped by --clients to ${patterns}: only matching clients, their domains and zones are planned, ` +
    'and prune acts only within them; other clients and the hosting plans are left alone'
  );
}

/**
 * `3 to create (1 client, 2 domains), 1 to update (1 zone), 2 to delete (2 domains), 4 DNS
 * records to remove` or `no changes`: the records a zone's change removes are deletes too.
 */
export function changeSummary(changes: readonly Change[]): string {
  if (changes.length === 0) return 'no changes';
  const counts = new Map<`${ChangeAction}:${KindName}`, number>();
  for (const { action, type } of changes) counts.set(`${action}:${type}`, (counts.get(`${action}:${type}`) ?? 0) + 1);
  const parts: string[] = [];
  for (const action of ['create', 'update', 'delete'] as const) {
    const each = KINDS.map((kind) => ({ kind, n: counts.get(`${action}:${kind}`) ?? 0 })).filter(({ n }) => n > 0);
    if (each.length === 0) continue;
    const total = each.reduce((sum, { n }) => sum + n, 0);
    parts.push(`${total} to ${action} (${each.map(({ kind, n }) => countOf(n, kind)).join(', ')})`);
  }
  const records = recordsRemoved(changes);
  if (records > 0) parts.push(`${plural(records, 'DNS record')} to remove`);
  return parts.join(', ');
}

/** How many records the plan's zone changes remove (each counts as a delete for --max-deletes). */
export function recordsRemoved(changes: readonly Change[]): number {
  return changes.reduce((n, c) => n + (c.type === 'dns_zone' ? zoneDeletes(c) : 0), 0);
}

/**
 * `domain "x" is listed under client "a" but belongs to client "b" on the panel` (the domain's
 * room words it). The owner is another customer: `nameOwner: false` (a pull-request comment)
 * says "another client".
 */
export function conflictLine(c: Plan['conflicts'][number], nameOwner = true): string {
  if ('hosting_plan' in c) return planConflictText(c, nameOwner);
  return isZoneConflict(c) ? zoneConflictText(c) : conflictText(c, nameOwner);
}

/** `client "alice": the panel shows its email nowhere: not compared`, or a domain's setting so. */
export function unknownLine(u: Plan['unknowns'][number]): string {
  return u.domain === undefined ? clientUnknownLine(u) : settingUnknownLine(u);
}

/** What the panel holds unmanaged, by kind: its names, undefined when the panel cannot list them. */
export function unmanagedByKind(
  u: Plan['unmanaged'],
): readonly { readonly kind: KindName; readonly names: readonly string[] | undefined }[] {
  // Zones are never unmanaged on their own: a domain's zone goes with the domain. Plans only
  // when the manifest defines some (else every plan of the panel would count).
  return [
    { kind: 'client', names: u.clients },
    { kind: 'domain', names: u.domains },
    ...(u.hostingPlans === undefined ? [] : [{ kind: 'hosting_plan' as const, names: u.hostingPlans }]),
  ];
}

/** `2 clients, 5 domains` (domains "not counted" when the panel could not list them). */
export function unmanagedCounts(u: Plan['unmanaged']): string {
  return unmanagedByKind(u)
    .map(({ kind, names }) =>
      names === undefined
        ? `${NOUNS[kind].many} not counted (the panel cannot list them)`
        : countOf(names.length, kind),
    )
    .join(', ');
}

export function hasUnmanaged(u: Plan['unmanaged']): boolean {
  return unmanagedByKind(u).some(({ names }) => (names?.length ?? 0) > 0);
}

export type Style = 'green' | 'red' | 'yellow' | 'bold' | 'dim';
const ANSI: Readonly<Record<Style, readonly [number, number]>> = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  bold: [1, 22],
  dim: [2, 22],
};

/**
 * `text` in a terminal style when `color` (the CLI decides: a terminal, no NO_COLOR). Plain
 * ANSI rather than util.styleText, which on Node 20 consults the real process.stdout and so
 * would ignore the decision made for the output actually written to.
 */
export function paint(style: Style, text: string, color: boolean): string {
  if (!color) return text;
  const [open, close] = ANSI[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}
