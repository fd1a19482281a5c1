import { ProvisionError } from '../errors.js';
import { isRecord } from '../util.js';
import { SimStore, type SimulatorSeed, type SimulatorSeedClient } from './store.js';

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
      hint: 'e.g. {"hostingPlans": ["Basic"], "clients": [{"username": "alice", "plan": "Basic", "domains": ["alice.example"]}]}',
    });
  }
  unknownKeys(json, ['hostingPlans', 'admins', 'clients'], 'seed');
  const hostingPlans = strings(json.hostingPlans, 'hostingPlans');
  const admins = strings(json.admins, 'admins');
  const clients: SimulatorSeedClient[] = [];
  if (json.clients !== undefined && !Array.isArray(json.clients)) problems.push('clients must be an array');
  for (const [index, value] of (Array.isArray(json.clients) ? (json.clients as unknown[]) : []).entries()) {
    const where = `clients[${index}]`;
    if (!isRecord(value)) {
      problems.push(`${where} must be an object`);
      continue;
    }
    unknownKeys(value, ['username', 'plan', 'email', 'domains'], where);
    const { username, plan, email } = value;
    if (typeof username !== 'string') problems.push(`${where}.username must be a string`);
    if (plan !== undefined && typeof plan !== 'string') problems.push(`${where}.plan must be a string`);
    if (email !== undefined && typeof email !== 'string') problems.push(`${where}.email must be a string`);
    const domains = strings(value.domains, `${where}.domains`);
    if (typeof username === 'string') {
      clients.push({
        username,
        ...(typeof plan === 'string' ? { plan } : {}),
        ...(typeof email === 'string' ? { email } : {}),
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
  SimStore.fromSeed(seed, { systemDomains: false, source, now: new Date() });
  return seed;
}
