/**
 * The seed: the initial content of a fresh simulator (ignored when a state file exists). Each
 * kind's module (kinds/) reads its own top-level keys and builds its records, in the order of
 * kinds/index.ts.
 */
import { ProvisionError } from '../errors.js';
import { isRecord } from '../util.js';
import type { ChildSeedPart, SeedChildren, SeedContext, SimKindName } from './kind.js';
import type { ClientSeed } from './kinds/client.js';
import type { PlanSeed } from './kinds/hosting-plan.js';
import { SIM_FAMILY, SIM_KIND_LIST } from './kinds/index.js';
import { SimStore } from './store.js';

export type { SimulatorSeedClient } from './kinds/client.js';
export type { SimulatorSeedDomain } from './kinds/domain.js';

/**
 * Initial content of a fresh simulator (ignored when a state file exists). Everything is
 * referenced by name; ids are assigned in order: plans from 1, administrators then clients
 * from 1 (one user id sequence), domains from 1. Each kind's part is documented in its module.
 */
export type SimulatorSeed = PlanSeed & ClientSeed;

/**
 * Validates a seed file's parsed content. Unknown keys are refused (a typo would otherwise
 * seed nothing), and references are checked by building the state once.
 */
export function parseSeed(json: unknown, source: string): SimulatorSeed {
  if (!isRecord(json)) {
    throw new ProvisionError('usage', `${source}: a simulator seed must be a JSON object`, {
      hint:
        'e.g. {"hostingPlans": ["Basic"], "clients": [' +
        '{"username": "alice", "plan": "Basic", "domains": ["alice.example"]}]}',
    });
  }
  const problems: string[] = [];
  const allowed = SIM_KIND_LIST.flatMap((kind) => kind.seed?.keys ?? []);
  for (const key of Object.keys(json)) {
    if (!allowed.includes(key)) problems.push(`seed: unknown key "${key}" (allowed: ${allowed.join(', ')})`);
  }
  const parts = SIM_KIND_LIST.map((kind) => kind.seed?.parse(json, problems, childrenOf) ?? {});
  if (problems.length > 0) {
    throw new ProvisionError('usage', `${source}: invalid simulator seed: ${problems.join('; ')}`);
  }
  const seed = Object.assign({}, ...parts) as SimulatorSeed;
  storeFromSeed(seed, { systemDomains: false, source, now: new Date() });
  return seed;
}

/** Builds the state a seed describes; refusals become ProvisionError('usage') naming `source`. */
export function storeFromSeed(
  seed: SimulatorSeed,
  options: { systemDomains: boolean; source: string; now: Date },
): SimStore {
  const store = new SimStore();
  const context: SeedContext = {
    systemDomains: options.systemDomains,
    now: options.now,
    fail: (message) => {
      throw new ProvisionError('usage', `${options.source}: ${message}`, {
        hint: 'fix the simulator seed: clients name existing hosting plans, names are unique',
      });
    },
    children: childrenOf,
    family: SIM_FAMILY,
  };
  for (const kind of SIM_KIND_LIST) kind.seed?.build(seed, store, context);
  return store;
}

/** The child seed parts of the kinds under `parent`, taken together. */
function childrenOf(parent: SimKindName): SeedChildren {
  const parts: ChildSeedPart[] = SIM_KIND_LIST.flatMap((kind) =>
    kind.childSeed?.parent === parent ? [kind.childSeed] : [],
  );
  const given = (item: object): ChildSeedPart[] =>
    parts.filter((part) => (item as Record<string, unknown>)[part.key] !== undefined);
  return {
    keys: parts.map((part) => part.key),
    parse: (item, where, problems) =>
      Object.fromEntries(
        given(item)
          .map((part) => [part.key, part.parse(item[part.key], where, problems, childrenOf)] as const)
          .filter(([, value]) => value !== undefined),
      ),
    check: (item, where) => {
      for (const part of given(item)) {
        const problem = part.check?.((item as Record<string, unknown>)[part.key], where);
        if (problem !== undefined) return problem;
      }
      return undefined;
    },
    build: (item, record, store, where, context) => {
      for (const part of parts) part.build((item as Record<string, unknown>)[part.key], record, store, where, context);
    },
  };
}
