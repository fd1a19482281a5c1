/**
 * The simulator's module of domains: /domains, the domains of the seed's clients (with their
 * zones' records), and domains of state files written before domains had settings. The record
 * is kinds/domain-records.ts's, its settings domain-settings.ts's; its zone follows it
 * (kinds/zone.ts: the hooks of SimKind.follows).
 *
 * PUT and DELETE, as billing systems drive them (panel-api.md, "The account lifecycle"). Where
 * the API's description is silent, the simulator chooses:
 * - PUT is partial: only the fields sent change. A domain takes `is_disabled`, `php_version`,
 *   `security` and `target` (domain-settings.ts: a nested object given replaces the stored one
 *   whole, keys left out are gone; a wrong type is a 400 and nothing changes). A different
 *   `domain` is refused with 400: it is an identity. Other fields (the record's read-only ones
 *   like `status` or `apache` too) are ignored. The answer is 200 `{"id": N}`.
 * - DELETE of a domain that has subdomains is refused with 400 (delete them first); a system
 *   domain is refused with 400. The answer is 200 `{"id": N}`, or 204 without a body with
 *   `deleteStatus: 204`. An unknown id is 404.
 */
import { domainToUnicode } from 'node:url';
import { isRecord } from '../../util.js';
import { normalizeDomain } from '../../names.js';
import { type Answer, deleted, error } from '../answer.js';
import {
  domainExtras,
  SETTING_KEYS,
  settingMessage,
  type SettingsInput,
  settingsOf,
  settingsProblem,
  withSettings,
} from '../domain-settings.js';
import type { Arrival, Family, RouteOptions, SeedChildren, SeedContext, SimKind, SimRequest } from '../kind.js';
import { type SimStore, timestamp } from '../store.js';
import type { SimulatorSeedDns } from '../zones.js';
import type { SimClient } from './client-records.js';
import { collection } from './collection.js';
import type { SimDomain } from './domain-records.js';
import type { SimulatorSeedMailbox } from './mailbox-records.js';

/** The domain the simulator gives each new client, like a panel's system domain. */
export const SYSTEM_DOMAIN_SUFFIX = 'sim.keyhelp.test';

export interface SimulatorSeedDomain extends SettingsInput {
  readonly name: string;
  /**
   * The domain's zone (not for a subdomain: its records live in its parent's zone). `records`
   * replace the default ones, and then `is_custom_dns` defaults to true (zones.ts).
   */
  readonly dns?: SimulatorSeedDns;
  /** Its mailboxes, in order (kinds/mailbox.ts): local parts, or objects with one. */
  readonly mailboxes?: readonly (string | SimulatorSeedMailbox)[];
}

/** A problem with a request, as the panel would answer it. */
interface Refusal {
  readonly status: 400 | 404;
  readonly message: string;
}

/**
 * Why this domain cannot be created for this user, or its ASCII name when it can. The user
 * must be a client (an administrator's id is refused like an unknown one).
 */
function checkNewDomain(store: SimStore, domain: string, idUser: number): Refusal | { name: string } {
  const normal = normalizeDomain(domain);
  if ('problem' in normal) return { status: 400, message: `The domain '${domain}' is invalid: it ${normal.problem}.` };
  if (!store.clients.has(idUser)) return { status: 404, message: `The client with id_user ${idUser} was not found.` };
  if (store.keyed('domains', normal.name) !== undefined)
    return { status: 400, message: `The domain '${domain}' already exists.` };
  return normal;
}

/**
 * Creates a domain that checkNewDomain accepted, with settings that settingsProblem accepted
 * merged over the defaults (domain-settings.ts). Its parent is `idParent` when given (0: top
 * level; parentOf checked it), else the nearest enclosing domain of the same user; one that
 * belongs to another user does not make it a subdomain.
 */
function addDomain(
  store: SimStore,
  input: { name: string; idUser: number; system: boolean; settings?: SettingsInput; idParent?: number },
  when: Arrival,
): SimDomain {
  let parent: SimDomain | undefined = input.idParent === undefined ? undefined : store.domains.get(input.idParent);
  const labels = input.idParent === undefined ? input.name.split('.') : [];
  for (let i = 1; i < labels.length - 1 && parent === undefined; i++) {
    const candidate = store.keyed('domains', labels.slice(i).join('.'));
    if (candidate?.id_user === input.idUser) parent = candidate;
  }
  const extras = domainExtras(store.clients.get(input.idUser)?.username ?? '', input.name);
  // In the order of the panel's own answer (go-acme/lego's fixture), for readers comparing them.
  const domain: SimDomain = {
    id: store.nextId('domains'),
    id_user: input.idUser,
    id_parent_domain: parent?.id ?? 0,
    status: extras.status,
    domain: input.name,
    domain_utf8: domainToUnicode(input.name),
    created_at: timestamp(when.now),
    php_version: extras.php_version,
    is_disabled: false,
    is_custom_dns: extras.is_custom_dns,
    is_dns_disabled: extras.is_dns_disabled,
    is_subdomain: parent !== undefined,
    is_system_domain: input.system,
    target: extras.target,
    security: extras.security,
    apache: extras.apache,
  };
  const record = withSettings(domain, input.settings ?? {}, 'merge');
  store.set('domains', record);
  when.family.created('domain', store, record, when);
  return record;
}

/** The system domain every new client gets when the option is on; skipped if the name is taken. */
function addSystemDomain(store: SimStore, client: SimClient, when: Arrival): void {
  const name = `${client.username.replaceAll('_', '-')}.${SYSTEM_DOMAIN_SUFFIX}`;
  const check = checkNewDomain(store, name, client.id);
  if ('name' in check) addDomain(store, { name: check.name, idUser: client.id, system: true }, when);
}

/** Removes a domain, after what follows it (its zone's records: kinds/zone.ts). */
function removeDomain(store: SimStore, id: number, family: Family): void {
  if (!store.domains.has(id)) return;
  family.removing('domain', store, id);
  store.remove('domains', id);
}

function createDomain(store: SimStore, body: Record<string, unknown>, { options, family }: SimRequest): Answer {
  const { domain, id_user: idUser } = body;
  if (typeof domain !== 'string' || domain === '')
    return error(400, "The field 'domain' is required and must be a string.");
  if (!Number.isSafeInteger(idUser)) return error(400, "The field 'id_user' is required and must be an integer.");
  const problem = settingsProblem(body);
  if (problem !== undefined) return error(400, settingMessage(problem));
  const check = checkNewDomain(store, domain, idUser as number);
  if ('status' in check) return error(check.status, check.message);
  const parent = parentOf(store, body.id_parent_domain, check.name, idUser as number, options);
  if (typeof parent === 'object') return error(parent.status, parent.message);
  const settings = settingsOf(body);
  const created = addDomain(
    store,
    {
      name: check.name,
      idUser: idUser as number,
      system: false,
      settings,
      ...(parent === undefined ? {} : { idParent: parent }),
    },
    { now: options.now(), systemDomains: options.systemDomains, family },
  );
  return { status: 201, json: { id: created.id }, mutated: true };
}

/**
 * A new domain's `id_parent_domain`: 0 for a top-level domain, or a domain of the same user that
 * encloses the new name (the simulator's checks; the panel's are not documented). Undefined:
 * none given, and the simulator guesses (the default) — with `parentDomains: 'given'`, top level.
 */
function parentOf(
  store: SimStore,
  given: unknown,
  name: string,
  idUser: number,
  options: RouteOptions,
): number | { status: number; message: string } | undefined {
  if (given === undefined) return options.parentDomains === 'given' ? 0 : undefined;
  if (!Number.isSafeInteger(given) || (given as number) < 0)
    return { status: 400, message: "The field 'id_parent_domain' must be an integer (0: a top-level domain)." };
  const id = given as number;
  if (id === 0) return 0;
  const parent = store.domains.get(id);
  if (parent === undefined) return { status: 404, message: `The parent domain with id ${id} was not found.` };
  if (parent.id_user !== idUser)
    return { status: 400, message: `The parent domain '${parent.domain}' belongs to another client.` };
  if (!name.endsWith(`.${parent.domain}`))
    return { status: 400, message: `The domain '${name}' is not a subdomain of '${parent.domain}'.` };
  return parent.id;
}

function updateDomain(store: SimStore, id: number, body: unknown): Answer {
  const domain = store.domains.get(id);
  if (domain === undefined) return error(404, 'The requested domain was not found.');
  if (!isRecord(body)) return error(400, 'The request body must be a JSON object.');
  const { domain: name, is_disabled: disabled } = body;
  if (name !== undefined && name !== domain.domain && name !== domain.domain_utf8)
    return error(400, 'The name of a domain cannot be changed.');
  if (disabled !== undefined && typeof disabled !== 'boolean')
    return error(400, "The field 'is_disabled' must be a boolean.");
  const problem = settingsProblem(body);
  if (problem !== undefined) return error(400, settingMessage(problem));
  const next = withSettings(domain, settingsOf(body), 'whole');
  store.set('domains', { ...next, ...(disabled === undefined ? {} : { is_disabled: disabled }) });
  return { status: 200, json: { id }, mutated: true };
}

function deleteDomain(store: SimStore, id: number, { options, family }: SimRequest): Answer {
  const domain = store.domains.get(id);
  if (domain === undefined) return error(404, 'The requested domain was not found.');
  if (domain.is_system_domain) return error(400, 'A system domain cannot be deleted.');
  for (const other of store.domains.values()) {
    if (other.id_parent_domain === id)
      return error(400, `The domain '${domain.domain}' has subdomains: delete them first.`);
  }
  removeDomain(store, id, family);
  return deleted(id, options.deleteStatus);
}

/** A seed client's `domains`: each a name, or an object with `name` and settings; problems are pushed. */
function seedDomains(
  value: unknown,
  where: string,
  problems: string[],
  children: SeedChildren,
): readonly (string | SimulatorSeedDomain)[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of names or {"name": ...} objects`);
    return undefined;
  }
  const domains: (string | SimulatorSeedDomain)[] = [];
  const allowed = ['name', ...SETTING_KEYS, ...children.keys];
  for (const [index, item] of (value as unknown[]).entries()) {
    const at = `${where}[${index}]`;
    if (typeof item === 'string') {
      domains.push(item);
      continue;
    }
    if (!isRecord(item)) {
      problems.push(`${at} must be a name or an object {${allowed.map((key) => `"${key}"`).join(', ')}}`);
      continue;
    }
    for (const key of Object.keys(item))
      if (!allowed.includes(key))
        problems.push(`${at}: unknown key ${JSON.stringify(key)} (allowed: ${allowed.join(', ')})`);
    if (typeof item.name !== 'string') problems.push(`${at}.name must be a string`);
    const problem = settingsProblem(item);
    if (problem !== undefined) problems.push(`${at}.${problem.field} ${problem.fault}`);
    const before = problems.length;
    const below = children.parse(item, at, problems);
    if (problems.length === before && problem === undefined && typeof item.name === 'string')
      domains.push({ name: item.name, ...settingsOf(item), ...below });
  }
  return domains;
}

/** Adds a seed client's domains, in order (`where`: the client's place in the seed, `clients[0]`). */
function addSeedDomains(
  store: SimStore,
  client: { readonly id: number },
  items: readonly (string | SimulatorSeedDomain)[],
  where: string,
  context: SeedContext,
): void {
  const { fail } = context;
  const children = context.children('domain');
  for (const [at, item] of items.entries()) {
    const domain = typeof item === 'string' ? { name: item } : item;
    const place = `${where}.domains[${at}]`;
    // Checked again: a seed given in code (startSimulator's `seed`) skips parseSeed.
    const problem = settingsProblem(domain);
    if (problem !== undefined) fail(`${place}.${problem.field} ${problem.fault}`);
    const below = children.check(domain, place);
    if (below !== undefined) fail(below);
    const check = checkNewDomain(store, domain.name, client.id);
    if ('status' in check) fail(`${where}: ${check.message}`);
    else {
      const settings = settingsOf(domain);
      const added = addDomain(store, { name: check.name, idUser: client.id, system: false, settings }, context);
      children.build(domain, added, store, place, context);
    }
  }
}

export const DOMAIN_SIM: SimKind<object, 'domain'> = {
  name: 'domain',
  routes: {
    domains: collection({
      list: 'domains',
      one: 'domain',
      // A panel without the list endpoint answers like for any unknown path.
      listed: (records, options) => (options.listDomains ? records : undefined),
      create: createDomain,
      update: updateDomain,
      remove: deleteDomain,
    }),
  },
  // A client's system domain comes with it (`systemDomains`), and its domains go with it, system ones too.
  follows: {
    parent: 'client',
    created: (store, { id }, when) => {
      const client = store.clients.get(id);
      if (when.systemDomains && client !== undefined) addSystemDomain(store, client, when);
    },
    removing: (store, idUser, family) => {
      for (const domain of [...store.domains.values()])
        if (domain.id_user === idUser) removeDomain(store, domain.id, family);
    },
  },
  childSeed: {
    parent: 'client',
    key: 'domains',
    parse: (value, where, problems, children) => seedDomains(value, `${where}.domains`, problems, children('domain')),
    build: (value, client, store, where, context) => {
      addSeedDomains(store, client, (value ?? []) as readonly (string | SimulatorSeedDomain)[], where, context);
    },
  },
  stateFile: {
    /**
     * A domain from a file written before domains had settings (php_version, security,
     * target...) gets the defaults a new domain has, its owner's document root included. A key
     * the record has is kept as it is, even a nested object a PUT left partial.
     */
    upgrade: (change, store) => {
      if (!('set' in change) || change.set !== 'domains') return change;
      const { record } = change;
      const owner = store.clients.get(record.id_user)?.username ?? '';
      return { set: 'domains', record: { ...domainExtras(owner, record.domain), ...record } };
    },
  },
};
