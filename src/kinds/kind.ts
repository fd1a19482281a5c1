/**
 * What a resource kind is to the stages: one typed descriptor per room (its `kind.ts`), gathered
 * in the table of kinds (`./index.ts` KINDS). The planner, the saved plan, the fingerprint, the
 * guards, the renderers and apply loop over the table and ask each change's kind; none of them
 * names a kind. Pure, ground floor only: a descriptor holds the room's pure functions, and the
 * stages hand in what touches the world.
 */
import type { ChangeBase, ChangeId, KindNoun, PanelRequest } from './common.js';
import type { Fact } from './facts.js';

/** What every change is: a kind's name in `type`, and an action. */
export interface AnyChange extends ChangeBase {
  readonly action: 'create' | 'update' | 'delete';
}

/**
 * The ids the panel gave to what the same run created, by change id (`client:alice` → 7): a change
 * that names something created before it takes its id from here. Empty (or absent) before apply:
 * a preview says "known after apply".
 */
export type NewIds = ReadonlyMap<ChangeId, number>;

/** How much a change creates and destroys (Kind.weight). */
export interface Weight {
  readonly creates: number;
  readonly deletes: number;
  readonly unknown?: true;
}

/** A create counts 1 created, a delete 1 destroyed, an update nothing: the weight of a kind whose changes take nothing with them. */
export function kindWeight(change: AnyChange): Weight {
  return change.action === 'create'
    ? { creates: 1, deletes: 0 }
    : change.action === 'delete'
      ? { creates: 0, deletes: 1 }
      : { creates: 0, deletes: 0 };
}

/** The fields every saved change has, as a kind's room reads its own around them. */
export type ChangeJsonBase = Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>;

/** A change listed before this one in a saved plan, by id; undefined when none is. */
export type EarlierChange = (id: ChangeId) => AnyChange | undefined;

/**
 * One resource kind, as its room describes it to the stages. `N` is its name (a change's `type`,
 * the first part of its id), `C` its changes, `I` the live panel as its facts look it up, `J` a
 * change of its kind as the plan document holds it.
 */
export interface Kind<N extends string, C extends AnyChange & { readonly type: N }, I, J> {
  readonly name: N;
  /** How people's text names it: `1 client`, `2 clients`. */
  readonly noun: KindNoun;
  /** Whether its create makes a secret (a password) that goes to the secrets journal first. */
  readonly secret: boolean;

  /** The HTTP call a change becomes: the one converter of the kind. */
  request(change: C, newIds?: NewIds): PanelRequest;
  /** The panel facts a change depends on, for a saved plan's fingerprint. */
  facts(change: C): readonly Fact<I>[];

  /** A change's own fields in the plan document (the common ones are written around them). */
  toJson(change: C): Record<string, unknown>;
  /** A change read back from the plan document; `base` holds the common fields. */
  fromJson(item: J, base: ChangeJsonBase): C;
  /** What a change read back must say of itself beyond the schema, at `path`. */
  problems(change: C, item: J, path: string, earlier: EarlierChange): readonly string[];

  /** `client "alice"`, `domain "a.example" of client "alice"`: a change's subject in a sentence. */
  subject(change: C): string;
  /** A change's subject on its own diff line (its client left out: the line above says it). */
  lineSubject(change: C): string;
  /** The client a change belongs to; undefined for a kind that belongs to none. */
  clientOf(change: C): string | undefined;
  /** ` with its 3 domains, mail, databases and files` after a delete that takes more; else ''. */
  goesWith(change: C): string;
  /** ` (bücher.example)` beside a name that has a Unicode form; else ''. */
  unicodeOf(change: C): string;
  /** Each thing an update changes, in people's words, one part each. */
  updatedFields(change: Extract<C, { readonly action: 'update' }>): readonly string[];
  /** The request as one line, when the kind says it shorter than its whole body; else undefined. */
  requestLine?(change: C): string;
  /**
   * How much a change creates and destroys, for the mass-change rails: a create counts 1, a
   * delete 1 plus what goes with it (`unknown` when that cannot be counted), an update what it
   * removes (a zone's records).
   */
  weight(change: C): Weight;

  // The planner's area: the order of changes (plan/order.ts), apply's waits, a saved plan's reads (plan/reads.ts).
  /**
   * Whether a change waits for the creates, in the same run, of the domains below its name, and
   * only waits for them (one that failed or was skipped does not hold it back): a zone's, whose
   * records a subdomain's POST adds to (its PUT, built from a read after them, must keep them).
   */
  readonly waitsForCreatesBelow: boolean;
  /** What the panel must be read again for, to check a saved plan's change against it (beyond a client's fields). */
  readsAgain(change: C): ReadsAgain;
}

/** What a saved plan's change needs read from the panel (Kind.readsAgain; plan/reads.ts gathers them). */
export interface ReadsAgain {
  /** Domains looked up by name on a panel without GET /domains (the fingerprint checks them). */
  readonly domainNames: readonly string[];
  /** Domains whose DNS zones are read (GET /dns/{id}). */
  readonly zones: readonly string[];
}

/** A kind of any name: what a loop over the table sees. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SomeKind = Kind<string, any, any, any>;

/** The changes of a kind's descriptor. */
export type ChangeOf<K> = K extends Kind<string, infer C, unknown, unknown> ? C : never;

/** The live panel as a kind's facts look it up. */
export type FactIndexOf<K> = K extends Kind<string, AnyChange & { type: string }, infer I, unknown> ? I : never;
