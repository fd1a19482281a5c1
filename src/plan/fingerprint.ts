import type { Live, LiveClient, LiveDomain } from '../panel/types.js';
import { fieldFact, type HostingPlans, hostingPlans as plansIn } from '../kinds/client/index.js';
import { assertNever, compare, sha256Hex } from '../util.js';
import type { Change, HostingPlanRef, Plan } from './types.js';
import { quote } from '../escape.js';

/**
 * A saved plan's fingerprint: exactly the panel facts the plan depends on, so that apply can
 * tell a plan that still does what was reviewed from one the panel has moved under (stale).
 * Accounts the plan neither creates nor references do not make it stale.
 */

/** The live panel, indexed by what the facts look up. */
interface LiveIndex {
  readonly clients: ReadonlyMap<string, LiveClient>;
  readonly domains: ReadonlyMap<string, LiveDomain>;
  readonly hostingPlans: ReadonlyMap<string, number>;
  /** The hosting plans, as a managed field's value is compared and printed by. */
  readonly plans: HostingPlans;
  /** Client id → username, to name an owner. */
  readonly usernames: ReadonlyMap<number, string>;
  /** Client id → its domains, system domains not counted, sorted. */
  readonly domainNames: ReadonlyMap<number, readonly string[]>;
  /** Whether `domains` is the panel's whole list. */
  readonly complete: boolean;
  /** The domains of `owner` under `name` (system domains not counted), sorted. */
  subdomains(name: string, owner: number): readonly string[];
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
 * - a client it creates: `client:<name>` absent; a hosting plan it names: `hosting-plan:<name>` `id:<n>`;
 * - a domain it creates: `domain:<name>` absent; an existing owner: `owner:<name>` `id:<n>`;
 * - a client it updates: `client:<name>` `id:<n>`, and each field's value before
 *   (`field:<name>:<field>`), and the hosting plan it moves to;
 * - a client it deletes: `client:<name>` `id:<n>`, and how many domains go with it
 *   (`client-domains:<name>`): a domain added since would be deleted unreviewed;
 * - a domain it deletes: `domain-record:<name>` with its id and owner.
 */
function factsOf(change: Change): Fact[] {
  switch (change.action) {
    case 'create':
      switch (change.type) {
        case 'client':
          return [
            absentClient(change.name),
            ...(change.hostingPlan === undefined ? [] : [hostingPlanFact(change.hostingPlan)]),
          ];
        case 'domain': {
          const { name, client, clientId } = change;
          const facts: Fact[] = [
            {
              key: `domain:${name}`,
              expected: 'absent',
              actual: (live) => {
                const domain = live.domains.get(name);
                return domain === undefined ? 'absent' : `owner:${domain.idUser}`;
              },
              reason: (actual, live) =>
                `domain ${quote(name)} now exists on the panel (${ownerText(Number(valueOf(actual)), live)}); the plan would create it`,
            },
          ];
          if (clientId !== null)
            facts.push(existingClient(client, clientId, 'owner', 'which the plan adds domains to'));
          return facts;
        }
        default:
          return assertNever(change);
      }
    case 'update': {
      const { name, clientId } = change;
      const facts = [existingClient(name, clientId, 'client', 'which the plan updates')];
      for (const field of change.fields) {
        const expected = JSON.stringify(field.before);
        facts.push({
          key: `field:${name}:${field.field}`,
          expected,
          actual: (live) => {
            const client = live.clients.get(name);
            return client === undefined ? 'absent' : fieldFact(client, field.field, live.plans);
          },
          reason: (actual) =>
            `client ${quote(name)}'s ${field.field} is now ${actual === 'absent' ? 'gone' : actual}; the plan was made when it was ${expected}`,
        });
      }
      if (change.hostingPlan !== undefined) facts.push(hostingPlanFact(change.hostingPlan));
      return facts;
    }
    case 'delete':
      switch (change.type) {
        case 'client': {
          const { name, clientId, domainNames } = change;
          const expected = namesFact(domainNames);
          return [
            existingClient(name, clientId, 'client', 'which the plan deletes'),
            {
              key: `client-domains:${name}`,
              expected,
              actual: (live) =>
                namesFact(live.complete ? (live.domainNames.get(live.clients.get(name)?.id ?? -1) ?? []) : null),
              reason: (actual) =>
                `the domains that go with client ${quote(name)} changed: ${namesDifference(expected, actual)}`,
            },
          ];
        }
        case 'domain': {
          const { name, domainId, clientId, subdomains } = change;
          const expected = `id:${domainId},owner:${clientId}`;
          const below = namesFact(subdomains);
          return [
            {
              key: `subdomains:${name}`,
              expected: below,
              actual: (live) => namesFact(live.subdomains(name, clientId)),
              reason: (actual) =>
                `the subdomains of ${quote(name)}, which the plan deletes, changed: ${namesDifference(below, actual)}`,
            },
            {
              key: `domain-record:${name}`,
              expected,
              actual: (live) => {
                const domain = live.domains.get(name);
                return domain === undefined ? 'absent' : `id:${domain.id},owner:${domain.idUser}`;
              },
              reason: (actual, live) => {
                if (actual === 'absent')
                  return `domain ${quote(name)}, which the plan deletes, is no longer on the panel`;
                const domain = live.domains.get(name);
                return domain === undefined || domain.id !== domainId
                  ? `domain ${quote(name)} was made again on the panel (id ${domain?.id ?? '?'}; the plan deletes id ${domainId})`
                  : `domain ${quote(name)} now belongs to ${ownerText(domain.idUser, live)}; the plan deletes it from client id ${clientId}`;
              },
            },
          ];
        }
        default:
          return assertNever(change);
      }
    default:
      return assertNever(change);
  }
}

function absentClient(name: string): Fact {
  return {
    key: `client:${name}`,
    expected: 'absent',
    actual: (live) => idFact(live.clients.get(name)?.id),
    reason: (actual) =>
      `client ${quote(name)} now exists on the panel (id ${valueOf(actual)}); the plan would create it`,
  };
}

/** `prefix:<name>` is `id:<clientId>`: the client is still there, under the same id. */
function existingClient(name: string, clientId: number, prefix: 'client' | 'owner', role: string): Fact {
  return {
    key: `${prefix}:${name}`,
    expected: idFact(clientId),
    actual: (live) => idFact(live.clients.get(name)?.id),
    reason: (actual) =>
      actual === 'absent'
        ? `client ${quote(name)} (id ${clientId}), ${role}, is no longer on the panel`
        : `client ${quote(name)} now has id ${valueOf(actual)}; the plan says ${clientId}`,
  };
}

function hostingPlanFact(plan: HostingPlanRef): Fact {
  return {
    key: `hosting-plan:${plan.name}`,
    expected: idFact(plan.id),
    actual: (live) => idFact(live.hostingPlans.get(plan.name)),
    reason: (actual) =>
      actual === 'absent'
        ? `hosting plan ${quote(plan.name)} is no longer on the panel`
        : `hosting plan ${quote(plan.name)} now has id ${valueOf(actual)}; the plan says ${plan.id}`,
  };
}

function ownerText(id: number, live: LiveIndex): string {
  const owner = live.usernames.get(id);
  return owner === undefined ? `client id ${id}` : `client ${quote(owner)}`;
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

/** A sorted list of names as a fact's value; `unknown` when the panel cannot list them. */
function namesFact(names: readonly string[] | null): string {
  return names === null ? 'unknown' : JSON.stringify([...names].sort(compare));
}

/** What changed between two names facts, for people: `now also "x.example"; no longer "y.example"`. */
function namesDifference(expected: string, actual: string): string {
  if (expected === 'unknown' || actual === 'unknown')
    return actual === 'unknown'
      ? 'the panel cannot list them now'
      : 'the panel lists them now, and could not when the plan was made';
  const before = new Set(JSON.parse(expected) as string[]);
  const after = new Set(JSON.parse(actual) as string[]);
  const added = [...after].filter((n) => !before.has(n));
  const removed = [...before].filter((n) => !after.has(n));
  const list = (names: string[]): string =>
    names
      .slice(0, 5)
      .map((n) => quote(n))
      .join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
  return [added.length > 0 ? `now also ${list(added)}` : '', removed.length > 0 ? `no longer ${list(removed)}` : '']
    .filter(Boolean)
    .join('; ');
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
