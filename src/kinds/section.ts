/**
 * A kind's manifest section (Kind.section): a list under a parent item of the manifest
 * (`mailboxes` under a domain item, `databases` and `ftp_users` under a client item), what the
 * manifest stage asks of it (how one parent's list is read and checked, its prune key and how
 * `prune.keep` matches its things), what the planner asks of it (its diff under each parent it
 * walks, and what it does with the parent's things the manifest does not list) and what the run's
 * ask reads for it. The stages loop over the kinds that have one and name none of them: a new
 * section is its room's object and its kind's `section` member (docs/architecture.md, "Adding a
 * resource kind"). Pure, ground floor only: the stages hand in where things stand and what they
 * know of the panel.
 */

/** The manifest items a section stands under. */
export type SectionParent = 'client' | 'domain';

/** A place in a manifest file; line and column count from 1 (manifest/types.ts Location). */
export interface SectionPlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * A problem at its place, as the manifest stage collects them (manifest/types.ts Diagnostic); `L`
 * a place the caller's locator gives (every room's manifest reader is generic over it).
 */
export type PlacedProblem<L extends SectionPlace> = L & {
  readonly severity: 'error' | 'warning';
  readonly message: string;
};

/** Where a path below a list stands (`[0, 'aliases', 1]`), at its key rather than its value when `atKey`. */
export type PathLocator<L extends SectionPlace> = (path: readonly (string | number)[], atKey: boolean) => L;

/** A problem at a section's place. */
export type SectionProblem = PlacedProblem<SectionPlace>;

/** Where a path below the section's list stands. */
export type SectionLocator = PathLocator<SectionPlace>;

/** What the manifest stage tells a section of the parent item its list stands under. */
export interface SectionItemContext {
  /** How messages name the client: `client "alice"`. */
  readonly client: string;
  /** The parent's name in comparison form: the domain's (lowercase ASCII), or the client's username. */
  readonly parent: string;
  /** The parent item says `state: absent`: it has none of the section's things (they go with it). */
  readonly parentAbsent: boolean;
  /** The domains the manifest lists under the same client (comparison form). */
  readonly clientDomains: ReadonlySet<string>;
  /** How messages name the client that lists `domain` earlier in the manifest; undefined: none does. */
  readonly ownerOf: (domain: string) => string | undefined;
  /** The usernames the manifest lists so far (clients share the panel's names with some things). */
  readonly usernames: ReadonlySet<string>;
  readonly locate: SectionLocator;
  /**
   * Where the value under `key` of item `index` of the list stands: what `locate([index, key],
   * false)` gives, without the path's steps where the manifest stage can (asked for each item
   * read). Absent: ask `locate`.
   */
  readonly itemAt?: (index: number, key: string) => SectionPlace;
}

/** One parent's list as read: the items it gives (in its order, each with where its name stands) and its problems. */
export interface SectionItems<W> {
  readonly items: readonly W[];
  readonly problems: readonly SectionProblem[];
}

/** What a keep pattern the section claims is (KindSection.keepPattern): a problem (the end of a sentence), or accepted. */
export type KeepPatternCheck = { readonly problem: string } | { readonly keep: string };

/** A section's key under `prune:` (`prune.mailboxes`). */
export interface SectionPrune {
  /** The key under `prune`. */
  readonly key: string;
  /**
   * The problem when the manifest gives the key at all (`prune.databases`: a database is never
   * deleted for not being listed); absent when the key is accepted (a boolean, default false).
   */
  readonly refused?: (at: SectionPlace) => SectionProblem;
}

/** What the planner knows of the parent a section's list is diffed under. */
export interface SectionParentView {
  /** The owner's username. */
  readonly client: string;
  /** The owner's id on the panel; null when the same run creates the client. */
  readonly clientId: number | null;
  /** A domain section's domain (lowercase ASCII); undefined for a client section. */
  readonly domain: string | undefined;
  /**
   * The username (or `#<id>`) of the client the panel has the domain under, when that is
   * another client than the owner: each of the section's things on it is a conflict naming
   * them, and nothing is sent. Undefined otherwise.
   */
  readonly otherOwner: string | undefined;
  /** Whether the same run creates this domain (lowercase ASCII). */
  readonly domainCreated: (domain: string) => boolean;
  /** The username of a client by id (`#<id>` when the panel does not list it). */
  readonly ownerName: (id: number) => string;
}

/** What the planner knows of a client the manifest lists, for the things of a section it does not list. */
export interface SectionClientView {
  readonly client: string;
  /** The client's id on the panel; null when the same run creates it (then it has nothing unlisted). */
  readonly clientId: number | null;
  /** The client's domains on the panel (lowercase ASCII; neither system domains nor those whose record does not say). */
  readonly liveDomains: readonly string[];
  /** Whether the run deletes this domain of the client (its things go with it). */
  readonly domainDeleted: (domain: string) => boolean;
  /** Whether `prune` says the section's key true. */
  readonly prune: boolean;
  /** The `prune.keep` patterns: a thing one matches (the section's own matcher) is never pruned. */
  readonly keep: readonly string[];
}

/** What a section's diff answers: changes, conflicts (nothing sent for them), unknowns and notes, each in order. */
export interface SectionDiff<C, X, U> {
  readonly changes: readonly C[];
  readonly conflicts: readonly X[];
  /** Managed fields the panel's records do not carry: never compared, said once. */
  readonly unknowns: readonly U[];
  /** Sentences the plan says beside its changes (unlisted databases kept). */
  readonly notes: readonly string[];
}

/**
 * A section's conflicts as the stages meet them among the plan's (KindSection.conflicts): which
 * are its, the item each is of (located at that item's line), and how the refusal counts them.
 */
export interface SectionConflicts<X> {
  /** Whether a plan's conflict is one of this section's (told apart by its fields). */
  is(conflict: object): conflict is X & object;
  /** The manifest client it is listed under, and its item's name (as the section's items give it: `nameOf`). */
  at(conflict: X): { readonly client: string; readonly name: string };
  /** An item's name, to find the item a conflict is of. */
  nameOf(item: { readonly loc: SectionPlace }): string;
  /** The refusal's count of `n` of them: `2 mailboxes of the manifest stand on domains of another client`. */
  summary(n: number): string;
  /** What to do, when they are the refusal's first kind of conflict. */
  readonly hint: string;
}

/** A diff that answers nothing. */
export const NO_SECTION_DIFF: SectionDiff<never, never, never> = {
  changes: [],
  conflicts: [],
  unknowns: [],
  notes: [],
};

/**
 * A kind's manifest section: `P` its parent, `W` an item as the manifest gives it (with `loc`
 * where its name stands), `S` what the manifest remembers across its parents and parts (to refuse
 * an item listed twice), `LP` the kind's part of the live panel (Live), `IX` its index of that
 * part for the diff (built once per plan), `C` its changes, `X` its conflicts, `U` its unknowns.
 */
export interface KindSection<P extends SectionParent, W extends { readonly loc: SectionPlace }, S, LP, IX, C, X, U> {
  readonly parent: P;
  /** Its key in the parent item (`mailboxes`). */
  readonly key: string;

  // --- The manifest (manifest/build.ts, parts.ts, prune.ts) ---
  /**
   * A fresh memory of the items listed so far (one per manifest, shared by its parts), or a copy
   * of `from` (a part's read that may be given up and read again keeps its own until it is done).
   */
  seen(from?: S): S;
  /** One parent's list (`list` as the data has it: the schema checked its shape), read and checked. */
  items(list: unknown, ctx: SectionItemContext, seen: S): SectionItems<W>;
  /** Its key under `prune`; undefined: none. */
  readonly prune: SectionPrune | undefined;
  /**
   * A `prune.keep` pattern the section claims (an address with `@`, which the names' check
   * refuses): its own check, and the pattern kept; undefined for a pattern it leaves to the others.
   */
  keepPattern?(pattern: string): KeepPatternCheck | undefined;

  // --- The plan (plan/diff.ts walk) ---
  /** Its part of the live panel as the diff looks things up: built once per plan. */
  index(part: LP): IX;
  /**
   * One parent's items (its list as the manifest gives it, present or absent), against the
   * panel: called after the parent's rule decided it stays or is created.
   */
  diff(wanted: readonly W[], index: IX, view: SectionParentView): SectionDiff<C, X, U>;
  /**
   * What it does with a listed client's things the manifest does not list (`wanted`: every item
   * the manifest gives the client, over all its parents; undefined when none of its parents gives
   * the key): pruned when `view.prune`, counted in a note, or nothing. Called once per client the
   * manifest lists and the scope covers, that stays.
   */
  unlisted(wanted: readonly W[] | undefined, index: IX, view: SectionClientView): SectionDiff<C, X, U>;
  /**
   * The section's changes of the whole plan (in walk order) put in the order they must run among
   * themselves (their `dependsOn` added: what frees an address before what takes it), and the
   * sentences of those that cannot be ordered (the plan is refused with them). Absent: as walked.
   */
  arrange?(changes: readonly C[], index: IX): { readonly changes: readonly C[]; readonly problems: readonly string[] };

  // --- Its conflicts (api/rails.ts, api/prepare.ts): told apart, counted, located ---
  /** What the stages need of its conflicts (`X`); absent for a section whose diff makes none. */
  readonly conflicts?: SectionConflicts<X>;

  // --- The run's ask (plan/reads.ts) ---
  /**
   * What the run's ask says to read its list (`{ mailboxes: true }`, its list read's ask): asked
   * only when the manifest gives its key under a client the scope covers, or prune names it.
   */
  readonly asks: { readonly [key: string]: unknown };
}

/**
 * Any kind's section, whatever its types: what the table holds and the stages loop over (its
 * members take what the stage got from the same section: its items, its seen, its index).
 */
export type AnyKindSection = KindSection<
  SectionParent,
  { readonly loc: SectionPlace },
  unknown,
  never,
  unknown,
  unknown,
  unknown,
  unknown
>;

/** The items of section `S` as the manifest gives them. */
export type SectionItemOf<S> =
  S extends KindSection<SectionParent, infer W, unknown, never, unknown, unknown, unknown, unknown> ? W : never;
