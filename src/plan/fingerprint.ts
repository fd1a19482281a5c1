import type { Live } from '../panel/types.js';
import { assertNever, sha256Hex } from '../util.js';
import type { Change, Plan } from './types.js';
import { quote } from '../escape.js';

/**
 * A saved plan's fingerprint: exactly the panel facts the plan depends on, so that apply can
 * tell a plan that still does what was reviewed from one the panel has moved under (stale).
 * Accounts the plan neither creates nor references do not make it stale.
 */

/** The live panel, indexed by what the facts look up. */
interface LiveIndex {
  readonly clients: ReadonlyMap<string, number>;
  /** Domain name → owner id. */
  readonly domains: ReadonlyMap<string, number>;
  readonly hostingPlans: ReadonlyMap<string, number>;
  /** Client id → username, to name an owner. */
  readonly usernames: ReadonlyMap<number, string>;
}

/** One fact a change depends on: its key, its value when the plan was made, and now. */
interface Fact {
  readonly key: string;
  readonly expected: string;
  actual(live: LiveIndex): string;
  /** Why the plan is stale when `actual` differs from `expected`, for people. */
  reason(actual: string, live: LiveIndex): string;
}

const idFact = (n: number | undefined): string => (n === undefined ? 'absent' : `id:${n}`);
/** The number in `id:7` or `owner:7`. */
const valueOf = (fact: string): string => fact.slice(fact.indexOf(':') + 1);

/**
 * The facts one change depends on:
 * - a client it creates: `client:<name>` absent; a hosting plan it resolved: `hosting-plan:<name>` `id:<n>`;
 * - a domain it creates: `domain:<name>` absent; an existing owner: `owner:<name>` `id:<n>`.
 */
function factsOf(change: Change): Fact[] {
  switch (change.type) {
    case 'client': {
      const { name, hostingPlan } = change;
      const facts: Fact[] = [
        {
          key: `client:${name}`,
          expected: 'absent',
          actual: (live) => idFact(live.clients.get(name)),
          reason: (actual) => `client ${quote(name)} now exists on the panel (id ${valueOf(actual)}); the plan would create it`,
        },
      ];
      if (hostingPlan !== undefined) {
        facts.push({
          key: `hosting-plan:${hostingPlan.name}`,
          expected: idFact(hostingPlan.id),
          actual: (live) => idFact(live.hostingPlans.get(hostingPlan.name)),
          reason: (actual) =>
            actual === 'absent' ? `hosting plan ${quote(hostingPlan.name)} is no longer on the panel` : `hosting plan ${quote(hostingPlan.name)} now has id ${valueOf(actual)}; the plan says ${hostingPlan.id}`,
        });
      }
      return facts;
    }
    case 'domain': {
      const { name, client, clientId } = change;
      const facts: Fact[] = [
        {
          key: `domain:${name}`,
          expected: 'absent',
          actual: (live) => {
            const owner = live.domains.get(name);
            return owner === undefined ? 'absent' : `owner:${owner}`;
          },
          reason: (actual, live) => {
            const owner = live.usernames.get(Number(valueOf(actual)));
            return `domain ${quote(name)} now exists on the panel (${owner === undefined ? `client id ${valueOf(actual)}` : `client ${quote(owner)}`}); the plan would create it`;
          },
        },
      ];
      if (clientId !== null) {
        facts.push({
          key: `owner:${client}`,
          expected: idFact(clientId),
          actual: (live) => idFact(live.clients.get(client)),
          reason: (actual) =>
            actual === 'absent' ? `client ${quote(client)} (id ${clientId}), which the plan adds domains to, is no longer on the panel` : `client ${quote(client)} now has id ${valueOf(actual)}; the plan says ${clientId}`,
        });
      }
      return facts;
    }
    default:
      return assertNever(change);
  }
}

function index(live: Live): LiveIndex {
  return {
    clients: new Map(live.clients.map((c) => [c.username, c.id])),
    domains: new Map(live.domains.map((d) => [d.name, d.idUser])),
    hostingPlans: new Map(live.hostingPlans.map((p) => [p.name, p.id])),
    usernames: new Map(live.clients.map((c) => [c.id, c.username])),
  };
}

/** The panel facts the plan depends on, as `key -> value`, read from `live`. */
export function dependencyFacts(plan: Plan, live: Live): Map<string, string> {
  const now = index(live);
  return new Map(plan.changes.flatMap(factsOf).map((fact) => [fact.key, fact.actual(now)]));
}

/** The facts as the plan itself says they were when it was made. */
export function expectedFacts(plan: Plan): Map<string, string> {
  return new Map(plan.changes.flatMap(factsOf).map((fact) => [fact.key, fact.expected]));
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
  const now = index(live);
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
