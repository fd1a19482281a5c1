import type { Live, LiveClient, LiveDomain } from '../panel/types.js';
import {
  clientFacts,
  type ClientFactIndex,
  type HostingPlans,
  hostingPlans as plansIn,
} from '../kinds/client/index.js';
import { domainFacts, type DomainFactIndex } from '../kinds/domain.js';
import type { Fact } from '../kinds/facts.js';
import { assertNever, compare, sha256Hex } from '../util.js';
import type { Change, Plan } from './types.js';

/**
 * A saved plan's fingerprint: exactly the panel facts the plan depends on, so that apply can
 * tell a plan that still does what was reviewed from one the panel has moved under (stale).
 * Accounts the plan neither creates nor references do not make it stale. Each kind's room says
 * which facts its changes depend on; this file indexes the live panel once and hashes them.
 */

/** The live panel, indexed by what the facts of every kind look up. */
type LiveIndex = ClientFactIndex & DomainFactIndex;

/** The facts one change depends on, as its kind's room states them (kinds/client/facts.ts, kinds/domain.ts). */
function factsOf(change: Change): Fact<LiveIndex>[] {
  switch (change.type) {
    case 'client':
      return clientFacts(change);
    case 'domain':
      return domainFacts(change);
    default:
      return assertNever(change);
  }
}

/**
 * The index, each part built on first use: a plan without changes asks for none, and a plan
 * that only creates asks for no domain lists (at 100,000 clients, building what is not asked
 * for is most of plan's peak memory after the read).
 */
function index(live: Live): LiveIndex {
  let clients: Map<string, LiveClient> | undefined;
  let domains: Map<string, LiveDomain> | undefined;
  let hostingPlans: Map<string, number> | undefined;
  let plans: HostingPlans | undefined;
  let usernames: Map<number, string> | undefined;
  let sorted: LiveDomain[] | undefined;
  let domainNames: Map<number, string[]> | undefined;
  // Each domain files itself under its suffixes of the same owner, so the whole index costs
  // the domains times their labels.
  let below: Map<string, string[]> | undefined;
  const domainsByName = (): Map<string, LiveDomain> => {
    if (domains === undefined) {
      domains = new Map();
      for (const d of live.domains) domains.set(d.name, d);
    }
    return domains;
  };
  const sortedDomains = (): LiveDomain[] => {
    sorted ??= live.domains.filter((d) => !d.isSystem).sort((a, b) => compare(a.name, b.name));
    return sorted;
  };
  return {
    complete: live.domainsComplete,
    get clients() {
      if (clients === undefined) {
        clients = new Map();
        for (const c of live.clients) clients.set(c.username, c);
      }
      return clients;
    },
    get domains() {
      return domainsByName();
    },
    get hostingPlans() {
      hostingPlans ??= new Map(live.hostingPlans.map((p) => [p.name, p.id]));
      return hostingPlans;
    },
    get plans() {
      plans ??= plansIn(live.hostingPlans);
      return plans;
    },
    get usernames() {
      if (usernames === undefined) {
        usernames = new Map();
        for (const c of live.clients) usernames.set(c.id, c.username);
      }
      return usernames;
    },
    get domainNames() {
      if (domainNames === undefined) {
        domainNames = new Map();
        for (const d of sortedDomains()) {
          const list = domainNames.get(d.idUser);
          if (list === undefined) domainNames.set(d.idUser, [d.name]);
          else list.push(d.name);
        }
      }
      return domainNames;
    },
    subdomains(name: string, owner: number): readonly string[] {
      if (below === undefined) {
        below = new Map();
        const byName = domainsByName();
        for (const d of sortedDomains()) {
          for (let dot = d.name.indexOf('.'); dot !== -1; dot = d.name.indexOf('.', dot + 1)) {
            const suffix = d.name.slice(dot + 1);
            if (byName.get(suffix)?.idUser !== d.idUser) continue;
            const key = `${d.idUser}:${suffix}`;
            const list = below.get(key);
            if (list === undefined) below.set(key, [d.name]);
            else list.push(d.name);
          }
        }
      }
      return below.get(`${owner}:${name}`) ?? [];
    },
  };
}

/** The panel facts the plan depends on, as `key -> value`, read from `live`. */
export function dependencyFacts(plan: Plan, live: Live): Map<string, string> {
  const now = index(live);
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
