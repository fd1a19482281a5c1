/**
 * The table of kinds: every resource kind the engine manages, by name, each its room's
 * descriptor (kind.ts). The stages loop over it and ask a change's kind (`kindOf`); a change's
 * type, its id and the kind names derive from it. A new kind is a room, its entry here, its
 * schema fragment and its simulator module (docs/architecture.md, "Adding a kind"). The order of
 * the entries is the order in which summaries list the kinds.
 */
import { CLIENT_KIND } from './client/kind.js';
import { DOMAIN_KIND } from './domain/kind.js';
import { HOSTING_PLAN_KIND } from './hosting-plan/kind.js';
import type { ChangeOf, FactIndexOf, Kind } from './kind.js';
import { ZONE_KIND } from './zone/kind.js';

export const KINDS = {
  client: CLIENT_KIND,
  domain: DOMAIN_KIND,
  dns_zone: ZONE_KIND,
  hosting_plan: HOSTING_PLAN_KIND,
} as const;

type Table = typeof KINDS;

/** The kinds' names, as a change's `type` says them. */
export type KindName = keyof Table;

/** The table's names in its order. */
export const KIND_NAMES = Object.keys(KINDS) as readonly KindName[];

/**
 * One change, a closed union on `type` × `action` derived from the table: every branch over it
 * ends in assertNever.
 */
export type Change = { [N in KindName]: ChangeOf<Table[N]> }[KindName];

/** A change's id: `<kind>:<name>` (each kind's changes narrow it to their kind: `Change['id']`). */
export type { ChangeId } from './common.js';

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The live panel as every kind's facts look it up (plan/live-index.ts implements it). */
export type FactIndex = Intersection<{ [N in KindName]: FactIndexOf<Table[N]> }[KindName]>;

/**
 * The descriptor of `change`'s kind, typed for that change: the one place the table is looked
 * up by a change, so that each stage calls a kind's member with a change of that kind.
 */
export function kindOf<C extends Change>(change: C): Kind<C['type'], C, FactIndex, unknown> {
  return KINDS[change.type] as unknown as Kind<C['type'], C, FactIndex, unknown>;
}
