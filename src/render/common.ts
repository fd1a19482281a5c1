/**
 * What every renderer shares: a change's words (its subject, its sign, its request in one
 * line), the kinds' nouns, and a plan's findings in one sentence each. Each kind's room words
 * its own (src/kinds, its `kind.ts`): the renderers ask a change's kind (`kindOf`) or loop over
 * the table, and name no kind. Pure.
 */
import { assertNever, plural } from '../util.js';
import type { Change, Plan } from '../plan/types.js';
import { requestFor } from '../plan/requests.js';
import type { PlanSource } from '../plan/saved.js';
import { jsonText } from '../escape.js';
import { KIND_NAMES, KINDS, kindOf, type KindName } from '../kinds/index.js';
import type { KindNoun } from '../kinds/common.js';
import type { KindTakenWith, KindTakes, TakenWords } from '../kinds/takes.js';

export { paint, type Style } from './paint.js';

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
export const NOUNS = Object.fromEntries(KIND_NAMES.map((name) => [name, KINDS[name].noun])) as {
  readonly [K in KindName]: KindNoun;
};

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
  return kindOf(change).goesWith(change, takenWords(change));
}

/**
 * What a delete's counts (Kind.takes, kinds/takes.ts) say it takes of other kinds, in the table's
 * order (`3 <things>` in the kind's noun, none of a kind it takes none of; `an unknown number of
 * <things>` for a kind it takes whose list the panel could not give; `at least 3 <things>`, or `up
 * to 2 <things>` when none is known to be its, where the panel lists some without an owner);
 * undefined when it carries none.
 */
function takenWords(change: Change): TakenWords | undefined {
  const takes = (kindOf(change) as { readonly takes?: KindTakes<Change> }).takes?.of(change);
  if (takes === undefined) return undefined;
  const parts = KIND_NAMES.flatMap((kind) => {
    const takenWith = (KINDS[kind] as { readonly takenWith?: KindTakenWith<unknown> }).takenWith;
    if (takenWith?.parents.includes(change.type) !== true) return [];
    const count = takes.counts[kind];
    if (count === undefined) return [`an unknown number of ${NOUNS[kind].many}`];
    // More the panel lists without an owner may go too: the count is a least.
    const more = takes.unattributed?.[kind] ?? 0;
    if (more > 0) return [count === 0 ? `up to ${countOf(more, kind)}` : `at least ${countOf(count, kind)}`];
    return count === 0 ? [] : [countOf(count, kind)];
  });
  return { parts, destroysData: takes.destroysData };
}

/** ` (bücher.example)` beside a change's name when its kind has a Unicode form of it; else ''. */
export function unicodeOf(change: Change): string {
  return kindOf(change).unicodeOf(change);
}

/**
 * A change's subject on its own diff line: `client "carol"`, `domain "shop.alice.example"`. A
 * domain's client is left out: the comment line above says it, and Markdown groups by client.
 */
export function lineSubject(change: Change): string {
  return kindOf(change).lineSubject(change);
}

/**
 * `domain "x" is listed under client "a" but belongs to client "b" on the panel`: a conflict in
 * the words of the kind it is of (each kind's room tells its own apart). The owner may be
 * another customer: `nameOwner: false` (a pull-request comment) says "another client".
 */
export function conflictLine(c: Plan['conflicts'][number], nameOwner = true): string {
  for (const name of KIND_NAMES) {
    const line = KINDS[name].conflictLine?.(c, nameOwner);
    if (line !== undefined) return line;
  }
  // Every conflict the planner makes, or a plan file's schema admits, is some kind's.
  throw new Error(`a conflict of no kind: ${jsonText(c)}`);
}

/** `client "alice": the panel shows its email nowhere: not compared`, or a domain's setting so. */
export function unknownLine(u: Plan['unknowns'][number]): string {
  for (const name of KIND_NAMES) {
    const line = KINDS[name].unknownLine?.(u);
    if (line !== undefined) return line;
  }
  throw new Error(`an unknown of no kind: ${jsonText(u)}`);
}
