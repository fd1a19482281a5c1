/**
 * What the simulator needs of a resource kind: one module per kind (kinds/), listed in
 * kinds/index.ts. The routes, the seed and the state file loop over them; the store's lists are
 * declared beside each kind's records (lists.ts). A kind under another (a domain under its
 * client, a zone under its domain) hooks into its parent's life (`follows`: created with it,
 * deleted before it) and its seed items (`childSeed`), so the parent's module never names it.
 * Adding a kind to the simulator: its records file with its lists, its module, and a row in
 * lists.ts and in kinds/index.ts.
 */
import type { KindName } from '../kinds/index.js';
import type { Answer, Body } from './answer.js';
import type { SimStore, StoreChange } from './store.js';

/**
 * Kinds the simulator serves before src/kinds has a room for them: the panel's API comes first,
 * so the engine's room can be built and tested against it. Once src/kinds names one, its name
 * here changes nothing (the union is the same) and can be dropped.
 */
export const SIM_ONLY_KINDS: readonly string[] = [];

/** The names of the simulator's kinds: every kind of src/kinds (none is served ahead of its room today). */
export type SimKindName = KindName;

/** The simulator's options that shape answers (SimulatorOptions in index.ts documents each). */
export interface RouteOptions {
  readonly listDomains: boolean;
  /** GET /clients carries `email`, `id_hosting_plan` and `is_suspended` (GET /clients/{id} always does). */
  readonly clientListFields: boolean;
  /**
   * Which client answers carry `id_hosting_plan`: all (default); `records`: GET /clients/{id}
   * and /clients/name/{username} only; `nowhere`: none (the store keeps it all the same).
   */
  readonly clientPlanIds?: 'everywhere' | 'records' | 'nowhere';
  readonly systemDomains: boolean;
  /** POST /clients uses a `password` it is given (default); false: ignores it, like a panel without the field. */
  readonly acceptsPassword?: boolean;
  /**
   * POST /domains without `id_parent_domain`: 'guess' (default) makes it a subdomain of the
   * nearest enclosing domain of the same user; 'given' makes it a top-level domain, like a panel
   * that honours the field and guesses nothing. Given, the field is honoured either way.
   */
  readonly parentDomains?: 'guess' | 'given';
  /**
   * POST /ftp-users names the user as asked (default); false: the panel names it itself, like a
   * panel whose "custom FTP usernames" setting is off (kinds/ftp-user.ts).
   */
  readonly customFtpUsernames?: boolean;
  /** How a DELETE answers: 200 with `{"id"}` (default) or 204 without a body. */
  readonly deleteStatus: 200 | 204;
  readonly now: () => Date;
}

/** One authenticated request, as a kind's route gets it. */
export interface SimRequest {
  readonly method: string;
  /**
   * The path after /api/v2, split on '/', trailing slashes already removed, each segment still
   * percent-encoded; the first is the route's own name.
   */
  readonly segments: readonly string[];
  readonly body: Body;
  readonly options: RouteOptions;
  readonly family: Family;
}

export type SimRoute = (store: SimStore, request: SimRequest) => Answer;

export interface SeedContext {
  readonly systemDomains: boolean;
  readonly now: Date;
  /** Refuses the seed: a usage error naming its source. */
  readonly fail: (message: string) => never;
  /** The seed parts of the kinds under a kind (their ChildSeedPart). */
  readonly children: (kind: SimKindName) => SeedChildren;
  readonly family: Family;
}

/** When a record of a kind comes or goes, what the kinds under it do (their ParentHooks). */
export interface Family {
  /** A record of `parent` was created (by a request or the seed). */
  created(parent: SimKindName, store: SimStore, record: { readonly id: number }, when: Arrival): void;
  /** A record of `parent` is about to be deleted: what belongs to it goes first, each its own change. */
  removing(parent: SimKindName, store: SimStore, id: number): void;
}

/** When and how a record was created, for the kinds under it. */
export interface Arrival {
  readonly now: Date;
  /** The simulator's `systemDomains` option. */
  readonly systemDomains: boolean;
  /** For the records the hooks create in turn. */
  readonly family: Family;
}

/** What a kind does when a record of the kind above it comes or goes (a client's system domain, its domains). */
export interface ParentHooks {
  readonly parent: SimKindName;
  created?(store: SimStore, parent: { readonly id: number }, when: Arrival): void;
  removing?(store: SimStore, parentId: number, family: Family): void;
}

/** A kind's part of the seed (seed.ts): top-level keys of its own. */
export interface SeedPart<S extends object> {
  /** The seed's top-level keys it reads; a seed with a key no kind reads is refused. */
  readonly keys: readonly string[];
  /**
   * Its part of a seed file's JSON, pushing each problem ("clients[0].plan must be a string");
   * `children` as in SeedContext.
   */
  parse(json: Readonly<Record<string, unknown>>, problems: string[], children: (kind: SimKindName) => SeedChildren): S;
  /**
   * Adds its records to a fresh store, after the kinds listed before it. Checks again what
   * `parse` checked: a seed given in code (startSimulator's `seed`) skips parseSeed.
   */
  build(seed: S, store: SimStore, context: SeedContext): void;
}

/**
 * A kind's part of the seed items of the kind above it: one key of each item (a client's
 * `domains`, a domain's `dns`). `where` is always the parent item's place (`clients[0]`); the
 * part adds its key to it.
 */
export interface ChildSeedPart {
  readonly parent: SimKindName;
  readonly key: string;
  /** The key's value checked, pushing each problem; what the parsed item keeps. */
  parse(value: unknown, where: string, problems: string[], children: (kind: SimKindName) => SeedChildren): unknown;
  /** Checked again (a seed given in code skips parseSeed) before the parent's record is added: the first problem. */
  check?(value: unknown, where: string): string | undefined;
  /** After the parent's record is added: adds its own (`value` may be undefined: the key is absent). */
  build(value: unknown, parent: { readonly id: number }, store: SimStore, where: string, context: SeedContext): void;
}

/** The child parts of one kind, taken together (seed.ts makes it). */
export interface SeedChildren {
  /** Their keys, in the order of kinds/index.ts. */
  readonly keys: readonly string[];
  /** Each key an item gives, parsed; problems are pushed. */
  parse(item: Readonly<Record<string, unknown>>, where: string, problems: string[]): Record<string, unknown>;
  /** The first problem of the keys an item gives, or undefined. */
  check(item: object, where: string): string | undefined;
  build(item: object, parent: { readonly id: number }, store: SimStore, where: string, context: SeedContext): void;
}

/** A kind's part of the state file (state-file.ts), whose format stays that of version 1. */
export interface StatePart {
  /** A snapshot key every snapshot sets to true: a file without it was written before it came. */
  readonly mark?: string;
  /** A change read from the file, as a simulator of today would have written it; `marked`: the snapshot has `mark`. */
  upgrade?(change: StoreChange, store: SimStore, marked: boolean): StoreChange;
  /** After the whole file is read: fills in what an older file lacks. */
  afterLoad?(store: SimStore): void;
}

export interface SimKind<S extends object = object, N extends SimKindName = SimKindName> {
  /** The kind's name, as src/kinds names it (or will: SIM_ONLY_KINDS). */
  readonly name: N;
  /** The routes it serves, by the first segment of the path after /api/v2. */
  readonly routes: Readonly<Record<string, SimRoute>>;
  readonly seed?: SeedPart<S>;
  readonly childSeed?: ChildSeedPart;
  /** Its part in the life of the records of the kind above it. */
  readonly follows?: ParentHooks;
  readonly stateFile?: StatePart;
}
