/**
 * The simulator's module of hosting plans: /hosting-plans (hosting-plan-requests.ts has the
 * rules of POST, PUT and DELETE, hosting-plans.ts the record), the seed's `hostingPlans`, and
 * plans of state files written before plans were whole records.
 */
import { isRecord } from '../../util.js';
import { error } from '../answer.js';
import { createPlan, deletePlan, type PlanStore, updatePlan } from '../hosting-plan-requests.js';
import {
  mergedSections,
  PLAN_SECTIONS,
  planFromOldFile,
  planProblem,
  sectionsOf,
  seedPlanParts,
  type SimulatorSeedPlan,
} from '../hosting-plans.js';
import type { SimKind } from '../kind.js';
import type { SimStore } from '../store.js';
import { collection } from './collection.js';

/**
 * The plans of a seed that names none, their records whole (hosting-plans.ts seedPlanParts:
 * limited, doubled, unlimited). 'Premium Plus' has a space on purpose: plan names may contain
 * spaces (docs/panel-api.md).
 */
export const DEFAULT_HOSTING_PLANS: readonly string[] = ['Basic', 'Standard', 'Premium Plus'];

export interface PlanSeed {
  /**
   * Default: DEFAULT_HOSTING_PLANS. The first one is the panel's default plan. A name, or an
   * object whose sections are merged over what a name at that position gets
   * (hosting-plans.ts seedPlanParts): `{"name": "Gold", "php": {"memory_limit": "1G"}}`.
   */
  readonly hostingPlans?: readonly (string | SimulatorSeedPlan)[];
}

/** The store as plan requests use it. */
function planStore(store: SimStore): PlanStore {
  return {
    plans: store.plans,
    clients: store.clients,
    planNamed: (name) => store.planNamed(name),
    addPlan: (name, sections) => {
      const plan = { id: store.nextId('plans'), name, ...sections };
      store.set('plans', plan);
      return plan;
    },
    replacePlan: (plan) => {
      store.set('plans', plan);
    },
    removePlan: (id) => {
      store.remove('plans', id);
    },
  };
}

export const HOSTING_PLAN_SIM: SimKind<PlanSeed, 'hosting_plan'> = {
  name: 'hosting_plan',
  routes: {
    'hosting-plans': collection({
      list: 'plans',
      one: 'hosting plan',
      create: (store, body) => createPlan(planStore(store), body, error),
      update: (store, id, body) => updatePlan(planStore(store), id, body, error),
      remove: (store, id, { options }) => deletePlan(planStore(store), id, options.deleteStatus, error),
    }),
  },
  seed: {
    keys: ['hostingPlans'],
    parse: (json, problems) => {
      const hostingPlans = seedPlans(json.hostingPlans, problems);
      return hostingPlans === undefined ? {} : { hostingPlans };
    },
    build: (seed, store, { fail }) => {
      for (const [index, item] of (seed.hostingPlans ?? DEFAULT_HOSTING_PLANS).entries()) {
        const plan = typeof item === 'string' ? { name: item } : item;
        const problem = planProblem({ ...plan, name: undefined }, false);
        if (typeof plan.name !== 'string') fail(`hostingPlans[${index}].name must be a string`);
        if (problem !== undefined) fail(`hostingPlans[${index}].${problem.field} ${problem.fault}`);
        if (store.planNamed(plan.name) !== undefined) fail(`hosting plan '${plan.name}' is listed twice`);
        planStore(store).addPlan(plan.name, mergedSections(seedPlanParts(store.plans.size), plan));
      }
    },
  },
  stateFile: {
    // Every plan of the file is a whole record (absent in files of older versions: their plans get filled in).
    mark: 'plansWhole',
    upgrade: (change, _store, marked) =>
      'set' in change && change.set === 'plans' && !marked
        ? { set: 'plans', record: planFromOldFile(change.record) }
        : change,
  },
};

/** The seed's `hostingPlans`: each a name, or an object with `name` and sections; problems are pushed. */
function seedPlans(value: unknown, problems: string[]): readonly (string | SimulatorSeedPlan)[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push('hostingPlans must be an array of names or {"name": ...} objects');
    return undefined;
  }
  const plans: (string | SimulatorSeedPlan)[] = [];
  const allowed = ['name', ...PLAN_SECTIONS];
  for (const [index, item] of (value as unknown[]).entries()) {
    const at = `hostingPlans[${index}]`;
    if (typeof item === 'string') {
      plans.push(item);
      continue;
    }
    if (!isRecord(item)) {
      problems.push(`${at} must be a name or an object {"name", ${PLAN_SECTIONS.map((s) => `"${s}"`).join(', ')}}`);
      continue;
    }
    for (const key of Object.keys(item))
      if (!allowed.includes(key))
        problems.push(`${at}: unknown key ${JSON.stringify(key)} (allowed: ${allowed.join(', ')})`);
    // Any name, even "" (a panel may hold one): POST /hosting-plans is stricter.
    if (typeof item.name !== 'string') problems.push(`${at}.name must be a string`);
    const problem = planProblem({ ...item, name: undefined }, false);
    if (problem !== undefined) problems.push(`${at}.${problem.field} ${problem.fault}`);
    else if (typeof item.name === 'string') plans.push({ name: item.name, ...sectionsOf(item) });
  }
  return plans;
}
