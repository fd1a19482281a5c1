import type { Live } from '../panel/types.js';
import { type FactIndex, kindOf } from '../kinds/index.js';
import type { Fact } from '../kinds/facts.js';
import { sha256Hex } from '../util.js';
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

/** `sha256:<hex>` over the facts in key order: the same facts give the same fingerprint. */
export function fingerprintOf(facts: ReadonlyMap<string, string>): string {
  const entries = [...facts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `sha256:${sha256Hex(JSON.stringify(entries))}`;
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
