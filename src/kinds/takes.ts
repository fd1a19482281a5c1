/**
 * Deletes that take other kinds' things with them (Kind.takenWith, Kind.takes): a client's delete
 * takes its mailboxes and databases, a domain's its mailboxes. The taken kind says which parents
 * take its things, whether that destroys data, what the run's ask reads of its list and how many
 * one parent's delete takes; the parent's kind says what a delete of its takes from under it and
 * carries the counts on the change (its plan document's `takes` and `destroys_data`). The stages
 * loop over the table (plan/takes.ts counts, api/takes.ts reads the lists only when such a delete
 * is planned) and name no kind. Pure, ground floor only.
 */
import { isRecord } from '../util.js';
import type { RunAsk } from './ask.js';

/** What a parent's delete takes from under it: a client's (its id, its domains: null when the panel cannot list them), or a domain's. */
export type TakeScope =
  | { readonly parent: 'client'; readonly clientId: number; readonly domains: readonly string[] | null }
  | { readonly parent: 'domain'; readonly clientId: number; readonly domain: string };

/**
 * A kind whose things go with another kind's delete (Kind.takenWith), `P` its part of the live
 * panel (its list read's).
 */
export interface KindTakenWith<P> {
  /** The kinds, by name, whose deletes take its things with them. */
  readonly parents: readonly string[];
  /** Whether its things hold data a delete destroys (the mail in a mailbox, a database's tables). */
  readonly destroysData: boolean;
  /** What the run's ask says to read its list (its list read's ask). */
  readonly asks: RunAsk;
  /** Whether `part` holds the panel's whole list (false: not read, nothing can be counted). */
  read(part: P): boolean;
  /** How many of its things in `part` (read whole) go with a delete of `scope`. */
  count(part: P, scope: TakeScope): number;
  /**
   * How many of its things in `part` (read whole) cannot be told whose they are (the record names
   * no owner) and so may go with a delete of `scope` too; absent: every one can be told.
   */
  unattributed?(part: P, scope: TakeScope): number;
}

/**
 * What a parent's delete takes with it, counted (the change's `takes`): how many things of each
 * taken kind, by kind name (a kind whose list could not be read is not named: unknown), and
 * whether any of them holds data.
 */
export interface Takes {
  readonly counts: { readonly [kind: string]: number };
  readonly destroysData: boolean;
  /**
   * Of the kinds counted, how many more things the panel lists without saying whose they are
   * (any may go with the delete: `counts` is then a least), by kind, only kinds with some;
   * absent when there are none. Counted for --max-deletes as if they went too.
   */
  readonly unattributed?: { readonly [kind: string]: number };
}

/** What a parent kind says of its deletes that take things (Kind.takes), `C` its changes. */
export interface KindTakes<C> {
  /** What a change takes from under it; undefined for one that takes nothing (a create, an update). */
  scope(change: C): TakeScope | undefined;
  /** The counts a change carries; undefined: none counted. */
  of(change: C): Takes | undefined;
  /** The change carrying `takes`. */
  with(change: C, takes: Takes): C;
}

/** How the renderers say what a delete takes (Kind.goesWith): `3 mailboxes`, one part each, and whether it destroys data. */
export interface TakenWords {
  readonly parts: readonly string[];
  readonly destroysData: boolean;
}

/**
 * How many things a delete takes in all (each counts for --max-deletes), those that cannot be
 * told whose they are included (as if they went too); 0 when none was counted.
 */
export function takenTotal(takes: Takes | undefined): number {
  if (takes === undefined) return 0;
  let total = 0;
  for (const count of Object.values(takes.counts)) total += count;
  for (const count of Object.values(takes.unattributed ?? {})) total += count;
  return total;
}

/**
 * `takes`, `takes_unattributed` (only when some) and `destroys_data` (only when true) in the plan
 * document; nothing when none was counted.
 */
export function takesToJson(takes: Takes | undefined): Record<string, unknown> {
  if (takes === undefined) return {};
  return {
    takes: { ...takes.counts },
    ...(takes.unattributed === undefined ? {} : { takes_unattributed: { ...takes.unattributed } }),
    ...(takes.destroysData ? { destroys_data: true } : {}),
  };
}

/** Whole numbers by kind, from a plan document's object; those of another type left out. */
function countsFromJson(value: Readonly<Record<string, unknown>>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [kind, count] of Object.entries(value)) if (typeof count === 'number') counts[kind] = count;
  return counts;
}

/** A change's `takes` read back from the plan document; undefined when it has none. */
export function takesFromJson(item: {
  readonly takes?: unknown;
  readonly takes_unattributed?: unknown;
  readonly destroys_data?: unknown;
}): Takes | undefined {
  if (!isRecord(item.takes)) return undefined;
  const counts = countsFromJson(item.takes);
  const unattributed = isRecord(item.takes_unattributed) ? countsFromJson(item.takes_unattributed) : undefined;
  return {
    counts,
    destroysData: item.destroys_data === true,
    ...(unattributed === undefined ? {} : { unattributed }),
  };
}

/** What a change read back must say of its `takes`: data destroyed exactly when it takes something that holds data. */
export function takesProblems(
  item: { readonly takes?: unknown; readonly takes_unattributed?: unknown; readonly destroys_data?: unknown },
  path: string,
): string[] {
  if (item.takes_unattributed !== undefined && !isRecord(item.takes))
    return [`${path}.takes_unattributed: needs takes`];
  if (item.destroys_data === true && !isRecord(item.takes)) return [`${path}.destroys_data: needs takes`];
  if (item.destroys_data === true && takenTotal(takesFromJson(item)) === 0)
    return [`${path}.destroys_data: the delete takes nothing (takes counts none)`];
  return [];
}

/** `3 mailboxes and 1 database`: parts joined as a sentence says them. */
export function joinedParts(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}

/** ` (destroys data)` after what a delete takes, when it does; else ''. */
export function destroysDataMark(taken: TakenWords): string {
  return taken.destroysData ? ' (destroys data)' : '';
}
