/**
 * What a resource kind is to the stages: one typed descriptor per room (its `kind.ts`), gathered
 * in the table of kinds (`./index.ts` KINDS). The planner, the saved plan, the fingerprint, the
 * guards, the renderers and apply loop over the table and ask each change's kind; none of them
 * names a kind. Pure, ground floor only: a descriptor holds the room's pure functions, and the
 * stages hand in what touches the world.
 */
import type { Applied, ApplyStage } from './apply.js';
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

  // --- apply: how the apply adapter carries out a change of the kind (apply/panel-adapter.ts) ---
  readonly apply: KindApply<C>;
}

/** A change of `C` that does `A`. */
type ActionOf<C, A extends AnyChange['action']> = Extract<C, { readonly action: A }>;

/**
 * How apply carries out a kind's changes, through what the stage hands in (./apply.ts): the
 * room's own writes and reads, the stage's slot, signal and panel client behind them.
 */
export interface KindApply<C extends AnyChange> {
  /**
   * Carries out a create the kind writes itself (no secret; an answer lost is settled by its
   * name); undefined for a kind whose creates apply/create.ts carries out (the write-ahead
   * secrets, adoption, settling).
   */
  create?(change: ActionOf<C, 'create'>, stage: ApplyStage): Promise<Applied>;
  /**
   * Carries out an update: a plain PUT of its request (retried by the client where a repeat is
   * safe), or a whole-object write built from a read taken just before it, never resent as it was
   * (stage.writeWhole).
   */
  update(change: ActionOf<C, 'update'>, stage: ApplyStage): Promise<Applied>;
  /** How a delete is carried out; undefined for a kind that has none. */
  readonly delete?: KindDelete<ActionOf<C, 'delete'>>;
}

/** What apply needs of a kind's delete (the DELETE itself is its request, sent by the adapter). */
export interface KindDelete<D> {
  /** The panel's id of what it deletes: the change's outcome. */
  id(change: D): number;
  /** What must hold before the DELETE is sent (read through `stage`); throws, nothing sent, when it does not. */
  before?(change: D, stage: ApplyStage): Promise<void>;
  /** After an answer lost: whether it is still there, read again (not through the slot: the adapter runs it). */
  stillThere(change: D, stage: ApplyStage): Promise<boolean>;
}

/** A kind of any name: what a loop over the table sees. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SomeKind = Kind<string, any, any, any>;

/** The changes of a kind's descriptor. */
export type ChangeOf<K> = K extends Kind<string, infer C, unknown, unknown> ? C : never;

/** The live panel as a kind's facts look it up. */
export type FactIndexOf<K> = K extends Kind<string, AnyChange & { type: string }, infer I, unknown> ? I : never;
