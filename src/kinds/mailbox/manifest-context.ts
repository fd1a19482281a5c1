/**
 * What a domain item's `mailboxes` list is read against (manifest.ts): where things stand, the
 * problems found, and the addresses the manifest lists so far (`seen`, shared across its domains
 * and parts). Pure.
 */
import { quote } from '../../escape.js';
import type { PathLocator, PlacedProblem, SectionPlace as Place } from '../section.js';

export type { Place };

/** A problem at its place, as the manifest stage collects them. */
export type MailboxProblem<L extends Place> = PlacedProblem<L>;

/**
 * Where a path below the `mailboxes` list stands (`[0, 'aliases', 1]`: the second alias of the
 * first item), at its key rather than its value when `atKey`.
 */
export type MailboxLocator<L extends Place> = PathLocator<L>;

/**
 * An address taken by an earlier entry: as written, by a mailbox or as an alias of one, where. A
 * mailbox's own is the listed mailbox itself (no `aliasOf`).
 */
export interface Taken<L extends Place> {
  readonly input: string;
  /** The mailbox's address whose alias it is; undefined: the mailbox's own. */
  readonly aliasOf?: string | undefined;
  readonly loc: L;
}

/**
 * The addresses the manifest lists so far, shared across its domains and parts so that one
 * address is listed once: `names` each mailbox's (present or absent), `aliases` each alias. An
 * address a present mailbox takes (claimOf) is a present mailbox's or an alias: a mailbox marked
 * absent frees its address, and an alias may take it in the same apply.
 */
export interface MailboxSeen<L extends Place> {
  readonly names: Map<string, Named<L>>;
  readonly aliases: Map<string, Taken<L>>;
}

/** A mailbox's own address as `seen` keeps it: the listed mailbox itself. */
export type Named<L extends Place> = Taken<L> & { readonly state: 'present' | 'absent' };

export function mailboxSeen<L extends Place>(): MailboxSeen<L> {
  return { names: new Map(), aliases: new Map() };
}

/** Who takes `address` so far: a present mailbox (its own), or a mailbox as its alias; undefined: none. */
export function claimOf<L extends Place>(seen: MailboxSeen<L>, address: string): Taken<L> | undefined {
  const alias = seen.aliases.get(address);
  if (alias !== undefined) return alias;
  const named = seen.names.get(address);
  return named?.state === 'present' ? named : undefined;
}

/** What the list is read against: its domain and client, the client's other domains, and the caller's places. */
export interface MailboxListContext<L extends Place> {
  /** The domain the list is under, in comparison form (lowercase ASCII). */
  readonly domain: string;
  /** How messages name the client: `client "alice"`. */
  readonly client: string;
  /** The domains the manifest lists under the same client (comparison form): an alias may be on one of them. */
  readonly clientDomains: ReadonlySet<string>;
  /** How messages name the client that lists `domain` elsewhere in the manifest; undefined: none does. */
  readonly ownerOf?: (domain: string) => string | undefined;
  readonly locate: MailboxLocator<L>;
  /** Where the value under `key` of item `index` stands: `locate([index, key], false)`, asked for each item. */
  readonly itemAt?: ((index: number, key: string) => L) | undefined;
  readonly seen: MailboxSeen<L>;
  /** The domain item says `state: absent`: it has no mailboxes (they go with it). */
  readonly domainAbsent?: boolean;
}

/** How messages name a mailbox: by its address once known, else by its place in the list. */
export function labelOf(address: string | undefined, index: number, domain: string): string {
  return address === undefined ? `mailbox #${index + 1} of domain ${quote(domain)}` : `mailbox ${quote(address)}`;
}

/**
 * Where the paths below one item stand, and its problems, for an item that has one or gives more
 * than a name (readItem reads a plain item without it): its messages' label (labelOf) made only
 * when one is reported.
 */
export class ItemPlaces<L extends Place> {
  constructor(
    readonly ctx: MailboxListContext<L>,
    private readonly problems: MailboxProblem<L>[],
    readonly index: number,
  ) {}

  /** The place of `path` below the item. */
  at(path: readonly (string | number)[]): L {
    return this.ctx.locate([this.index, ...path], false);
  }

  /** A problem at `path` below the item (at its key when `atKey`). */
  error(path: readonly (string | number)[], message: string, atKey = false): void {
    this.problems.push({ ...this.ctx.locate([this.index, ...path], atKey), severity: 'error', message });
  }

  /** How messages name the mailbox of address `address` (labelOf). */
  label(address: string): string {
    return labelOf(address, this.index, this.ctx.domain);
  }
}

/** `(same as "Info")` when the first spelling differs from this one; else ''. */
export function sameAs(first: string, input: string): string {
  return first === input ? '' : ` (same as ${quote(first)})`;
}
