import { assertNever, plural } from '../util.js';
import { domainToUnicode } from 'node:url';
import type { Change, Plan } from '../plan/types.js';
import { requestFor } from '../plan/requests.js';
import { jsonText, quote } from '../escape.js';

/** What a renderer needs beside the plan; all plain values, so renderers stay pure. */
export interface PlanView {
  readonly plan: Plan;
  /** The panel's API base URL the plan was made against. */
  readonly panelUrl: string;
  /** The manifest's path as the user gave it. */
  readonly manifest: string;
  /** List unmanaged names, not only counts (they may be other customers'). */
  readonly showUnmanaged: boolean;
  /** Sentences about how the panel was read (e.g. a fallback), shown with the plan. */
  readonly notes: readonly string[];
  /** sha256 (hex) of the manifest file's bytes; recorded in the plan file. */
  readonly manifestSha256: string;
  /** The fingerprint of the panel state the plan depends on (src/plan/fingerprint.ts). */
  readonly fingerprint: string;
  /** Warnings found beside the plan (look-alike names, a mass create), for people. */
  readonly warnings?: readonly string[];
}

export const KNOWN_AFTER_APPLY = '(known after apply)';

/** `POST /domains {"domain":"a.example","id_user":(known after apply)}` */
export function requestLine(change: Change): string {
  const { method, path, body } = requestFor(change);
  const fields = Object.entries(body).map(([k, v]) => `${jsonText(k)}:${v === null ? KNOWN_AFTER_APPLY : jsonText(v)}`);
  return `${method} ${path} {${fields.join(',')}}`;
}

/** `client "alice"` / `domain "a.example" of client "alice"` */
export function subject(change: Change): string {
  switch (change.type) {
    case 'client':
      return `client ${quote(change.name)}`;
    case 'domain':
      return `domain ${quote(change.name)}${unicodeForm(change.name)} of client ${quote(change.client)}`;
    default:
      return assertNever(change);
  }
}

/** The client a change belongs to: the client itself, or a domain's owner. */
export function clientOf(change: Change): string {
  switch (change.type) {
    case 'client':
      return change.name;
    case 'domain':
      return change.client;
    default:
      return assertNever(change);
  }
}

/** ` (bücher.example)` beside an international name's ASCII form, so people can read it; else ''. */
export function unicodeForm(ascii: string): string {
  if (!ascii.includes('xn--')) return '';
  const unicode = domainToUnicode(ascii);
  return unicode === '' || unicode === ascii ? '' : ` (${unicode})`;
}

/** `3 to create (1 client, 2 domains)` or `no changes` */
export function changeSummary(changes: readonly Change[]): string {
  if (changes.length === 0) return 'no changes';
  const clients = changes.filter((c) => c.type === 'client').length;
  const parts = [clients > 0 ? plural(clients, 'client') : '', changes.length > clients ? plural(changes.length - clients, 'domain') : ''];
  return `${changes.length} to create (${parts.filter(Boolean).join(', ')})`;
}

/**
 * `domain "x" is listed under client "a" but belongs to client "b" on the panel`. The owner is
 * another customer: `nameOwner: false` (a pull-request comment) says "another client".
 */
export function conflictLine(c: Plan['conflicts'][number], nameOwner = true): string {
  const owner = !nameOwner ? 'another client' : c.owner.startsWith('#') ? `client id ${c.owner.slice(1)}` : `client ${quote(c.owner)}`;
  return `domain ${quote(c.domain)} is listed under client ${quote(c.client)} but belongs to ${owner} on the panel`;
}

export function driftLine(d: Plan['drift'][number]): string {
  return d.actual === 'unknown'
    ? `client ${quote(d.client)}: the manifest says hosting plan ${quote(d.expected)}, the panel's record does not say which plan it is on`
    : `client ${quote(d.client)} is on hosting plan ${quote(d.actual)}, the manifest says ${quote(d.expected)} (apply does not change plans)`;
}

/** `2 clients, 5 domains` (domains "not counted" when the panel could not list them). */
export function unmanagedCounts(u: Plan['unmanaged']): string {
  const domains = u.domains === undefined ? 'domains not counted (the panel cannot list them)' : plural(u.domains.length, 'domain');
  return `${plural(u.clients.length, 'client')}, ${domains}`;
}

export function hasUnmanaged(u: Plan['unmanaged']): boolean {
  return u.clients.length > 0 || (u.domains?.length ?? 0) > 0;
}

export type Style = 'green' | 'red' | 'yellow' | 'bold' | 'dim';
const ANSI: Readonly<Record<Style, readonly [number, number]>> = { green: [32, 39], red: [31, 39], yellow: [33, 39], bold: [1, 22], dim: [2, 22] };

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
