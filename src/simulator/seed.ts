import { ProvisionError } from '../errors.js';
import { isRecord } from '../util.js';
import { USERNAME_PATTERN } from '../names.js';
import { SETTING_KEYS, type SettingsInput, settingsOf, settingsProblem } from './domain-settings.js';
import {
  mergedSections,
  PLAN_SECTIONS,
  planProblem,
  sectionsOf,
  seedPlanParts,
  type SimulatorSeedPlan,
} from './hosting-plans.js';
import { DEFAULT_HOSTING_PLANS, SimStore } from './store.js';
import { seedDnsProblem, seededZone, type SimulatorSeedDns, storeZone } from './zones.js';

/**
 * Initial content of a fresh simulator (ignored when a state file exists). Everything is
 * referenced by name; ids are assigned in order: plans from 1, administrators then clients
 * from 1 (one user id sequence), domains from 1.
 */
export interface SimulatorSeed {
  /**
   * Default: DEFAULT_HOSTING_PLANS. The first one is the panel's default plan. A name, or an
   * object whose sections are merged over what a name at that position gets
   * (hosting-plans.ts seedPlanParts): `{"name": "Gold", "php": {"memory_limit": "1G"}}`.
   */
  readonly hostingPlans?: readonly (string | SimulatorSeedPlan)[];
  /** Default: ['admin']. */
  readonly admins?: readonly string[];
  readonly clients?: readonly SimulatorSeedClient[];
}

export interface SimulatorSeedClient {
  readonly username: string;
  /** A hosting plan's name; default: the panel's default plan. */
  readonly plan?: string;
  readonly email?: string;
  /** Default false. */
  readonly suspended?: boolean;
  /** An ISO 639-1 code; default 'en'. */
  readonly language?: string;
  /**
   * Created in order, so a subdomain listed after its parent gets `id_parent_domain`. A name, or
   * a name with settings (merged over the defaults, like POST /domains) and DNS records.
   */
  readonly domains?: readonly (string | SimulatorSeedDomain)[];
}

export interface SimulatorSeedDomain extends SettingsInput {
  readonly name: string;
  /**
   * The domain's zone (not for a subdomain: its records live in its parent's zone). `records`
   * replace the default ones, and then `is_custom_dns` defaults to true (zones.ts).
   */
  readonly dns?: SimulatorSeedDns;
}

/**
 * Validates a seed file's parsed content. Unknown keys are refused (a typo would otherwise
 * seed nothing), and references are checked by building the state once.
 */
export function parseSeed(json: unknown, source: string): SimulatorSeed {
  const problems: string[] = [];
  const strings = (value: unknown, where: string): readonly string[] | undefined => {
    if (value === undefined) return undefined;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
    problems.push(`${where} must be an array of strings`);
    return undefined;
  };
  const unknownKeys = (value: Record<string, unknown>, allowed: readonly string[], where: string): void => {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) problems.push(`${where}: unknown key "${key}" (allowed: ${allowed.join(', ')})`);
    }
  };
  if (!isRecord(json)) {
    throw new ProvisionError('usage', `${source}: a simulator seed must be a JSON object`, {
      hint:
        'e.g. {"hostingPlans": ["Basic"], "clients": [' +
        '{"username": "alice", "plan": "Basic", "domains": ["alice.example"]}]}',
    });
  }
  unknownKeys(json, ['hostingPlans', 'admins', 'clients'], 'seed');
  const hostingPlans = seedPlans(json.hostingPlans, problems);
  const admins = strings(json.admins, 'admins');
  const clients: SimulatorSeedClient[] = [];
  if (json.clients !== undefined && !Array.isArray(json.clients)) problems.push('clients must be an array');
  for (const [index, value] of (Array.isArray(json.clients) ? (json.clients as unknown[]) : []).entries()) {
    const where = `clients[${index}]`;
    if (!isRecord(value)) {
      problems.push(`${where} must be an object`);
      continue;
    }
    unknownKeys(value, ['username', 'plan', 'email', 'suspended', 'language', 'domains'], where);
    const { username, plan, email, suspended, language } = value;
    if (typeof username !== 'string') problems.push(`${where}.username must be a string`);
    if (plan !== undefined && typeof plan !== 'string') problems.push(`${where}.plan must be a string`);
    if (email !== undefined && typeof email !== 'string') problems.push(`${where}.email must be a string`);
    if (suspended !== undefined && typeof suspended !== 'boolean')
      problems.push(`${where}.suspended must be true or false`);
    if (language !== undefined && typeof language !== 'string') problems.push(`${where}.language must be a string`);
    const domains = seedDomains(value.domains, `${where}.domains`, problems);
    if (typeof username === 'string') {
      clients.push({
        username,
        ...(typeof plan === 'string' ? { plan } : {}),
        ...(typeof email === 'string' ? { email } : {}),
        ...(typeof suspended === 'boolean' ? { suspended } : {}),
        ...(typeof language === 'string' ? { language } : {}),
        ...(domains === undefined ? {} : { domains }),
      });
    }
  }
  if (problems.length > 0) {
    throw new ProvisionError('usage', `${source}: invalid simulator seed: ${problems.join('; ')}`);
  }
  const seed: SimulatorSeed = {
    ...(hostingPlans === undefined ? {} : { hostingPlans }),
    ...(admins === undefined ? {} : { admins }),
    clients,
  };
  storeFromSeed(seed, { systemDomains: false, source, now: new Date() });
  return seed;
}

/** Builds the state a seed describes; refusals become ProvisionError('usage') naming `source`. */
export function storeFromSeed(
  seed: SimulatorSeed,
  options: { systemDomains: boolean; source: string; now: Date },
): SimStore {
  const store = new SimStore();
  const fail = (message: string): never => {
    throw new ProvisionError('usage', `${options.source}: ${message}`, {
      hint: 'fix the simulator seed: clients name existing hosting plans, names are unique',
    });
  };
  for (const [index, item] of (seed.hostingPlans ?? DEFAULT_HOSTING_PLANS).entries()) {
    const plan = typeof item === 'string' ? { name: item } : item;
    // Checked again: a seed given in code (startSimulator's `seed`) skips parseSeed.
    const problem = planProblem({ ...plan, name: undefined }, false);
    if (typeof plan.name !== 'string') fail(`hostingPlans[${index}].name must be a string`);
    if (problem !== undefined) fail(`hostingPlans[${index}].${problem.field} ${problem.fault}`);
    if (store.planNamed(plan.name) !== undefined) fail(`hosting plan '${plan.name}' is listed twice`);
    store.addPlan(plan.name, mergedSections(seedPlanParts(store.plans.size), plan));
  }
  for (const username of seed.admins ?? ['admin']) {
    if (!USERNAME_PATTERN.test(username)) fail(`administrator '${username}' is not a valid username`);
    if (store.admins.has(username)) fail(`administrator '${username}' is listed twice`);
    store.addAdmin(username);
  }
  for (const [index, seedClient] of (seed.clients ?? []).entries()) {
    const where = `clients[${index}]`;
    let idHostingPlan: number | undefined;
    if (seedClient.plan !== undefined) {
      idHostingPlan = store.planNamed(seedClient.plan)?.id;
      if (idHostingPlan === undefined) fail(`${where}: hosting plan '${seedClient.plan}' is not in hostingPlans`);
    }
    const refusal = store.checkNewClient(seedClient.username, idHostingPlan);
    if (refusal !== undefined) fail(`${where}: ${refusal.message}`);
    const client = store.addClient(
      {
        username: seedClient.username,
        ...(seedClient.email === undefined ? {} : { email: seedClient.email }),
        ...(seedClient.suspended === undefined ? {} : { suspended: seedClient.suspended }),
        ...(seedClient.language === undefined ? {} : { language: seedClient.language }),
        ...(idHostingPlan === undefined ? {} : { idHostingPlan }),
      },
      options.now,
    );
    if (options.systemDomains) store.addSystemDomain(client, options.now);
    for (const [at, item] of (seedClient.domains ?? []).entries()) {
      const domain = typeof item === 'string' ? { name: item } : item;
      // Checked again: a seed given in code (startSimulator's `seed`) skips parseSeed.
      const problem = settingsProblem(domain);
      if (problem !== undefined) fail(`${where}.domains[${at}].${problem.field} ${problem.fault}`);
      const dnsProblem =
        domain.dns === undefined ? undefined : seedDnsProblem(domain.dns, `${where}.domains[${at}].dns`);
      if (dnsProblem !== undefined) fail(dnsProblem);
      const check = store.checkNewDomain(domain.name, client.id);
      if ('status' in check) fail(`${where}: ${check.message}`);
      else {
        const settings = settingsOf(domain);
        const added = store.addDomain({ name: check.name, idUser: client.id, system: false, settings }, options.now);
        const zone = store.zones.get(added.id);
        if (domain.dns === undefined) continue;
        if (zone === undefined)
          fail(`${where}.domains[${at}].dns: '${added.domain}' is a subdomain: give its records in its parent's dns`);
        else storeZone(store, added.id, seededZone(zone, domain.dns));
      }
    }
  }
  return store;
}

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

/** A seed client's `domains`: each a name, or an object with `name` and settings; problems are pushed. */
function seedDomains(
  value: unknown,
  where: string,
  problems: string[],
): readonly (string | SimulatorSeedDomain)[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of names or {"name": ...} objects`);
    return undefined;
  }
  const domains: (string | SimulatorSeedDomain)[] = [];
  const allowed = ['name', ...SETTING_KEYS, 'dns'];
  for (const [index, item] of (value as unknown[]).entries()) {
    const at = `${where}[${index}]`;
    if (typeof item === 'string') {
      domains.push(item);
      continue;
    }
    if (!isRecord(item)) {
      problems.push(`${at} must be a name or an object {"name", "php_version", "security", "target", "dns"}`);
      continue;
    }
    for (const key of Object.keys(item))
      if (!allowed.includes(key))
        problems.push(`${at}: unknown key ${JSON.stringify(key)} (allowed: ${allowed.join(', ')})`);
    if (typeof item.name !== 'string') problems.push(`${at}.name must be a string`);
    const problem = settingsProblem(item);
    if (problem !== undefined) problems.push(`${at}.${problem.field} ${problem.fault}`);
    const dnsProblem = item.dns === undefined ? undefined : seedDnsProblem(item.dns, `${at}.dns`);
    if (dnsProblem !== undefined) problems.push(dnsProblem);
    else if (problem === undefined && typeof item.name === 'string')
      domains.push({
        name: item.name,
        ...settingsOf(item),
        ...(item.dns === undefined ? {} : { dns: item.dns as SimulatorSeedDns }),
      });
  }
  return domains;
}
