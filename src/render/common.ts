import { assertNever, plural } from '../util.js';
import type { Change, ChangeAction, Plan } from '../plan/types.js';
import { requestFor } from '../plan/requests.js';
import type { PlanSource } from '../plan/saved.js';
import { jsonText, quote } from '../escape.js';
import { clientSubject, goesWith as clientGoesWith, unknownLine as clientUnknownLine } from '../kinds/client/index.js';
import { domainSubject, unicodeForm } from '../kinds/domain.js';

export { fieldsText } from '../kinds/client/index.js';
export { unicodeForm } from '../kinds/domain.js';

/**
 * What a renderer needs beside the plan, all plain values so renderers stay pure: the same
 * fields the plan document is written from (plan/saved.ts PlanSource), one type for both.
 */
export type PlanView = PlanSource;

export const KNOWN_AFTER_APPLY = '(known after apply)';

/** `POST /domains {"domain":"a.example","id_user":(known after apply)}`, `DELETE /clients/7` */
export function requestLine(change: Change): string {
  const { method, path, body } = requestFor(change);
  if (body === null) return `${method} ${path}`;
  const fields = Object.entries(body).map(([k, v]) => `${jsonText(k)}:${v === null ? KNOWN_AFTER_APPLY : jsonText(v)}`);
  return `${method} ${path} {${fields.join(',')}}`;
}

/** `client "alice"` / `domain "a.example" of client "alice"` */
export function subject(change: Change): string {
  switch (change.type) {
    case 'client':
      return clientSubject(change);
    case 'domain':
      return domainSubject(change);
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
  return change.type === 'client' ? clientGoesWith(change) : '';
}

/** `3 to create (1 client, 2 domains), 1 to update, 2 to delete (2 domains)` or `no changes` */
export function changeSummary(changes: readonly Change[]): string {
  if (changes.length === 0) return 'no changes';
  const counts: Record<ChangeAction, { clients: number; domains: number }> = {
    create: { clients: 0, domains: 0 },
    update: { clients: 0, domains: 0 },
    delete: { clients: 0, domains: 0 },
  };
  for (const change of changes) counts[change.action][`${change.type}s`]++;
  const parts: string[] = [];
  for (const action of ['create', 'update', 'delete'] as const) {
    const { clients, domains } = counts[action];
    if (clients + domains === 0) continue;
    const what = [clients > 0 ? plural(clients, 'client') : '', domains > 0 ? plural(domains, 'domain') : '']
      .filter(Boolean)
      .join(', ');
    parts.push(`${clients + domains} to ${action} (${what})`);
  }
  return parts.join(', ');
}

/**
 * `domain "x" is listed under client "a" but belongs to client "b" on the panel`. The owner is
 * another customer: `nameOwner: false` (a pull-request comment) says "another client".
 */
export function conflictLine(c: Plan['conflicts'][number], nameOwner = true): string {
  if (c.subdomains !== undefined) {
    const shown =
      c.subdomains
        .slice(0, 3)
        .map((s) => quote(s))
        .join(', ') + (c.subdomains.length > 3 ? ` and ${c.subdomains.length - 3} more` : '');
    return (
      `domain ${quote(c.domain)}${unicodeForm(c.domain)} of client ${quote(c.client)} is to be deleted, ` +
      `but its subdomains ${shown} stay on the panel: mark them absent too, or keep the domain`
    );
  }
  const owner = !nameOwner
    ? 'another client'
    : c.owner.startsWith('#')
      ? `client id ${c.owner.slice(1)}`
      : `client ${quote(c.owner)}`;
  return (
    `domain ${quote(c.domain)}${unicodeForm(c.domain)} is listed under client ${quote(c.client)} ` +
    `but belongs to ${owner} on the panel`
  );
}

/** `client "alice": the panel shows its email nowhere: not compared` */
export function unknownLine(u: Plan['unknowns'][number]): string {
  return clientUnknownLine(u);
}

/** `2 clients, 5 domains` (domains "not counted" when the panel could not list them). */
export function unmanagedCounts(u: Plan['unmanaged']): string {
  const domains =
    u.domains === undefined ? 'domains not counted (the panel cannot list them)' : plural(u.domains.length, 'domain');
  return `${plural(u.clients.length, 'client')}, ${domains}`;
}

export function hasUnmanaged(u: Plan['unmanaged']): boolean {
  return u.clients.length > 0 || (u.domains?.length ?? 0) > 0;
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
