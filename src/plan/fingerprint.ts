import type { Live } from '../panel/types.js';
import { type FactIndex, kindOf } from '../kinds/index.js';
import { type Fact, factKey } from '../kinds/facts.js';
import { compare } from '../util.js';
import { sha256OfPieces } from './json-pieces.js';
import { FactTable } from './fact-table.js';
import { LiveIndex } from './live-index.js';
import { takesFacts } from './takes.js';
import type { Change, Plan } from './types.js';

/**
 * A saved plan's fingerprint: exactly the panel facts the plan depends on, so that apply can
 * tell a plan that still does what was reviewed from one the panel has moved under (stale).
 * Accounts the plan neither creates nor references do not make it stale. Each kind's room says
 * which facts its changes depend on; this file reads them from the live panel's index
 * (live-index.ts, each part built on first use: a plan that only creates asks for no domain
 * lists) and hashes them.
 */

/** A fact of a kind's room or of what a delete takes. */
type AnyFact = Fact<FactIndex> | Fact<{ readonly live: Live }>;

/**
 * The facts one change depends on, as its kind's room states them (each room's facts.ts), and
 * what a delete takes of other kinds, when it counted it (takes.ts).
 */
function factsOf(change: Change): readonly AnyFact[] {
  const own = kindOf(change).facts(change);
  const takes = takesFacts(change);
  return takes.length === 0 ? own : [...own, ...takes];
}

/** The panel facts the plan depends on, as `key -> value`, read from `live` (for people and tests). */
export function dependencyFacts(plan: Plan, live: Live): Map<string, string> {
  const now = new LiveIndex(live);
  const facts = new Map<string, string>();
  for (const change of plan.changes) for (const fact of factsOf(change)) facts.set(factKey(fact), fact.actual(now));
  return facts;
}

/** The facts as the plan itself says they were when it was made (for people and tests). */
export function expectedFacts(plan: Plan): Map<string, string> {
  const facts = new Map<string, string>();
  for (const change of plan.changes) for (const fact of factsOf(change)) facts.set(factKey(fact), fact.expected);
  return facts;
}

/**
 * `sha256:<hex>` over the facts in key order (the JSON text of their `[key, value]` pairs): the
 * same facts give the same fingerprint. This is the fingerprint's definition; planFingerprint
 * and expectedFingerprint make the same value without the map (fact-table.ts).
 */
export function fingerprintOf(facts: ReadonlyMap<string, string>): string {
  const keys = [...facts.keys()].sort(compare);
  return sha256OfPieces(factPairs(keys, facts));
}

/** The fingerprint of the live state `plan` was (or is to be) applied against: fingerprintOf(dependencyFacts(plan, live)). */
export function planFingerprint(plan: Plan, live: Live): string {
  const now = new LiveIndex(live);
  return tableOf(plan, (fact) => fact.actual(now)).fingerprint();
}

/** The fingerprint the plan's own facts make (a saved plan's check): fingerprintOf(expectedFacts(plan)). */
export function expectedFingerprint(plan: Plan): string {
  return tableOf(plan, (fact) => fact.expected).fingerprint();
}

/** The plan's facts in a FactTable (fact-table.ts): the map dependencyFacts makes, without its keys. */
function tableOf(plan: Plan, valueOf: (fact: AnyFact) => string): FactTable {
  const table = new FactTable();
  for (const change of plan.changes)
    for (const fact of factsOf(change)) table.add(fact.topic, fact.subject, valueOf(fact));
  return table;
}

/** `[["k1","v1"],["k2","v2"]]` in pieces, a pair each: JSON.stringify of the pairs, piece by piece. */
function* factPairs(keys: readonly string[], facts: ReadonlyMap<string, string>): Generator<string> {
  yield '[';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    yield `${i === 0 ? '' : ','}[${JSON.stringify(key)},${JSON.stringify(facts.get(key))}]`;
  }
  yield ']';
}

/** One sentence per fact that differs between what the plan expects and `live`; empty: not stale. */
export function staleReasons(plan: Plan, live: Live): string[] {
  const now = new LiveIndex(live);
  const reasons: string[] = [];
  const seen = new Set<string>();
  for (const fact of plan.changes.flatMap(factsOf)) {
    // Two domains of one owner share its fact: one sentence.
    const key = factKey(fact);
    if (seen.has(key)) continue;
    seen.add(key);
    const actual = fact.actual(now);
    if (actual !== fact.expected) reasons.push(fact.reason(actual, now));
  }
  return reasons;
}
