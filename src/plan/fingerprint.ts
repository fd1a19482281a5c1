import type { Live } from '../panel/types.js';
import { type FactIndex, kindOf } from '../kinds/index.js';
import type { Fact } from '../kinds/facts.js';
import { compare } from '../util.js';
import { sha256OfPieces } from './json-pieces.js';
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

/**
 * The facts one change depends on, as its kind's room states them (each room's facts.ts), and
 * what a delete takes of other kinds, when it counted it (takes.ts).
 */
function factsOf(change: Change): readonly (Fact<FactIndex> | Fact<{ readonly live: Live }>)[] {
  const own = kindOf(change).facts(change);
  const takes = takesFacts(change);
  return takes.length === 0 ? own : [...own, ...takes];
}

/** The panel facts the plan depends on, as `key -> value`, read from `live`. */
export function dependencyFacts(plan: Plan, live: Live): Map<string, string> {
  const now = new LiveIndex(live);
  const facts = new Map<string, string>();
  for (const change of plan.changes) for (const fact of factsOf(change)) facts.set(fact.key, fact.actual(now));
  return facts;
}

/** The facts as the plan itself says they were when it was made. */
export function expectedFacts(plan: Plan): Map<string, string> {
  const facts = new Map<string, string>();
  for (const change of plan.changes) for (const fact of factsOf(change)) facts.set(fact.key, fact.expected);
  return facts;
}

/**
 * `sha256:<hex>` over the facts in key order (the JSON text of their `[key, value]` pairs): the
 * same facts give the same fingerprint. Hashed a pair at a time: a plan of 100,000 creates has
 * as many facts, whose whole text would be tens of megabytes held at once.
 */
export function fingerprintOf(facts: ReadonlyMap<string, string>): string {
  const keys = [...facts.keys()].sort(compare);
  return sha256OfPieces(factPairs(keys, facts));
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

/** The fingerprint of the live state `plan` was (or is to be) applied against. */
export function planFingerprint(plan: Plan, live: Live): string {
  return fingerprintOf(dependencyFacts(plan, live));
}

/** One sentence per fact that differs between what the plan expects and `live`; empty: not stale. */
export function staleReasons(plan: Plan, live: Live): string[] {
  const now = new LiveIndex(live);
  const reasons: string[] = [];
  const seen = new Set<string>();
  for (const fact of plan.changes.flatMap(factsOf)) {
    // Two domains of one owner share its fact: one sentence.
    if (seen.has(fact.key)) continue;
    seen.add(fact.key);
    const actual = fact.actual(now);
    if (actual !== fact.expected) reasons.push(fact.reason(actual, now));
  }
  return reasons;
}
