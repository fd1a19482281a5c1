import { domainToUnicode } from 'node:url';
import { ProvisionError } from '../errors.js';
import { USERNAME_PATTERN, normalizeDomain } from '../names.js';
import { isRecord } from '../util.js';

/** A hosting plan as GET /hosting-plans answers it. Sizes in bytes, -1 = unlimited. */
export interface SimPlan {
  readonly id: number;
  readonly name: string;
  readonly resources: Readonly<Record<string, number>>;
  readonly permissions: Readonly<Record<string, boolean>>;
  readonly php: Readonly<Record<string, string | number>>;
  readonly php_fpm: Readonly<Record<string, number>>;
}

/** A client as GET /clients answers it. `id_hosting_plan` is absent when the panel has no plan at all. */
export interface SimClient {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly id_hosting_plan?: number;
  readonly is_suspended: boolean;
  readonly language: string;
  readonly created_at: string;
}

/** A domain as GET /domains answers it: `domain` is ASCII (punycode), `domain_utf8` its Unicode form. */
export interface SimDomain {
  readonly id: number;
  readonly id_user: number;
  /** 0 for a top-level domain. */
  readonly id_parent_domain: number;
  readonly domain: string;
  readonly domain_utf8: string;
  readonly is_subdomain: boolean;
  readonly is_system_domain: boolean;
  readonly is_disabled: boolean;
  readonly created_at: string;
}

/**
 * Read access to the simulator's state, for tests. The maps are keyed by id, iterate in
 * creation order, and are live: they change as requests arrive. The `*Named` look-ups are
 * O(1) and use the same rules as the API's /name/ endpoints.
 */
export interface SimulatorState {
  readonly plans: ReadonlyMap<number, SimPlan>;
  readonly clients: ReadonlyMap<number, SimClient>;
  readonly domains: ReadonlyMap<number, SimDomain>;
  /** Administrator usernames -> user id. They share one namespace (and id sequence) with clients. */
  readonly admins: ReadonlyMap<string, number>;
  /** Exact, case-sensitive name. */
  planNamed(name: string): SimPlan | undefined;
  /** Case-insensitive. */
  clientNamed(username: string): SimClient | undefined;
  /** Case-insensitive, UTF-8 or punycode. */
  domainNamed(name: string): SimDomain | undefined;
  /**
   * For tests only (the API never shows a password): the password the simulator holds for a
   * client (case-insensitive username), as set by its POST /clients or a later PUT with
   * `password`; undefined for an unknown client, or a seeded one that never got one.
   */
  passwordOf(username: string): string | undefined;
}

/**
 * Initial content of a fresh simulator (ignored when a state file exists). Everything is
 * referenced by name; ids are assigned in order: plans from 1, administrators then clients
 * from 1 (one user id sequence), domains from 1.
 */
export interface SimulatorSeed {
  /** Default: DEFAULT_HOSTING_PLANS. The first one is the panel's default plan. */
  readonly hostingPlans?: readonly string[];
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
  /** Created in order, so a subdomain listed after its parent gets `id_parent_domain`. */
  readonly domains?: readonly string[];
}

/** 'Premium Plus' has a space on purpose: plan names may contain spaces (panel-api.md, trap 3). */
export const DEFAULT_HOSTING_PLANS: readonly string[] = ['Basic', 'Standard', 'Premium Plus'];

/** The domain the simulator gives each new client, like a panel's system domain. */
export const SYSTEM_DOMAIN_SUFFIX = 'sim.keyhelp.test';

const GIB = 1024 ** 3;

/** A problem with a request, as the panel would answer it. */
export interface Refusal {
  readonly status: 400 | 404;
  readonly message: string;
}

/** The store behind the simulator: records by id plus name indexes, so every request is O(1). */
export class SimStore implements SimulatorState {
  readonly plans = new Map<number, SimPlan>();
  readonly clients = new Map<number, SimClient>();
  readonly domains = new Map<number, SimDomain>();
  readonly admins = new Map<string, number>();
  private readonly plansByName = new Map<string, SimPlan>();
  private readonly clientsByName = new Map<string, SimClient>();
  private readonly domainsByName = new Map<string, SimDomain>();
  /** Passwords by client id: never part of a client's record, so no answer can carry one. */
  private readonly passwords = new Map<number, string>();
  private nextPlanId = 1;
  private nextUserId = 1;
  private nextDomainId = 1;

  planNamed(name: string): SimPlan | undefined {
    return this.plansByName.get(name);
  }

  clientNamed(username: string): SimClient | undefined {
    return this.clientsByName.get(username.toLowerCase());
  }

  domainNamed(name: string): SimDomain | undefined {
    const normal = normalizeDomain(name);
    return this.domainsByName.get('name' in normal ? normal.name : name.toLowerCase());
  }

  passwordOf(username: string): string | undefined {
    const client = this.clientNamed(username);
    return client === undefined ? undefined : this.passwords.get(client.id);
  }

  /** Sets a client's password (POST /clients, PUT /clients/{id}). */
  setPassword(id: number, password: string): void {
    this.passwords.set(id, password);
  }

  /** The plan a client gets when POST /clients names none: the first plan. */
  defaultPlan(): SimPlan | undefined {
    return this.plans.values().next().value;
  }

  addPlan(name: string): SimPlan {
    const index = this.plans.size;
    const unlimited = index >= 2;
    const plan: SimPlan = {
      id: this.nextPlanId++,
      name,
      resources: {
        disk_space: unlimited ? -1 : 10 * (index + 1) * GIB,
        traffic: unlimited ? -1 : 100 * (index + 1) * GIB,
        domains: unlimited ? -1 : 5 * (index + 1),
        subdomains: -1,
        email_accounts: unlimited ? -1 : 10 * (index + 1),
        databases: unlimited ? -1 : 2 * (index + 1),
        ftp_users: unlimited ? -1 : 2 * (index + 1),
      },
      permissions: { ssh: index > 0, cronjobs: true, php: true },
      php: { memory_limit: '256M', max_execution_time: 30 },
      php_fpm: { max_children: 5 * (index + 1) },
    };
    this.insertPlan(plan);
    return plan;
  }

  addAdmin(username: string): void {
    this.admins.set(username.toLowerCase(), this.nextUserId++);
  }

  /** Why a client of this name and plan cannot be created, or undefined when it can. */
  checkNewClient(username: string, idHostingPlan: number | undefined): Refusal | undefined {
    if (!USERNAME_PATTERN.test(username)) {
      return {
        status: 400,
        message: `The username '${username}' is invalid: use a lowercase letter first, then lowercase letters, digits, '-' or '_' (at most 32 characters).`,
      };
    }
    // Administrators share the namespace: refused here although GET /clients/name/<admin> is 404 (trap 1).
    if (this.clientsByName.has(username) || this.admins.has(username)) {
      return { status: 400, message: `The username '${username}' is already in use.` };
    }
    if (idHostingPlan !== undefined && !this.plans.has(idHostingPlan)) {
      return { status: 400, message: `The hosting plan with id ${idHostingPlan} does not exist.` };
    }
    return undefined;
  }

  /** Creates a client that checkNewClient accepted. */
  addClient(
    input: {
      username: string;
      email?: string;
      idHostingPlan?: number;
      language?: string;
      suspended?: boolean;
    },
    now: Date,
  ): SimClient {
    const idHostingPlan = input.idHostingPlan ?? this.defaultPlan()?.id;
    const client: SimClient = {
      id: this.nextUserId++,
      username: input.username,
      email: input.email ?? '',
      ...(idHostingPlan === undefined ? {} : { id_hosting_plan: idHostingPlan }),
      is_suspended: input.suspended ?? false,
      language: input.language ?? 'en',
      created_at: timestamp(now),
    };
    this.insertClient(client);
    return client;
  }

  /**
   * Why this domain cannot be created for this user, or its ASCII name when it can. The user
   * must be a client (an administrator's id is refused like an unknown one).
   */
  checkNewDomain(domain: string, idUser: number): Refusal | { name: string } {
    const normal = normalizeDomain(domain);
    if ('problem' in normal)
      return { status: 400, message: `The domain '${domain}' is invalid: it ${normal.problem}.` };
    if (!this.clients.has(idUser)) return { status: 404, message: `The client with id_user ${idUser} was not found.` };
    if (this.domainsByName.has(normal.name)) return { status: 400, message: `The domain '${domain}' already exists.` };
    return normal;
  }

  /**
   * Creates a domain that checkNewDomain accepted. Its parent is the nearest enclosing domain
   * of the same user; one that belongs to another user does not make it a subdomain.
   */
  addDomain(input: { name: string; idUser: number; system: boolean }, now: Date): SimDomain {
    let parent: SimDomain | undefined;
    const labels = input.name.split('.');
    for (let i = 1; i < labels.length - 1 && parent === undefined; i++) {
      const candidate = this.domainsByName.get(labels.slice(i).join('.'));
      if (candidate?.id_user === input.idUser) parent = candidate;
    }
    const domain: SimDomain = {
      id: this.nextDomainId++,
      id_user: input.idUser,
      id_parent_domain: parent?.id ?? 0,
      domain: input.name,
      domain_utf8: domainToUnicode(input.name),
      is_subdomain: parent !== undefined,
      is_system_domain: input.system,
      is_disabled: false,
      created_at: timestamp(now),
    };
    this.insertDomain(domain);
    return domain;
  }

  /** The system domain every new client gets when the option is on; skipped if the name is taken. */
  addSystemDomain(client: SimClient, now: Date): void {
    const name = `${client.username.replaceAll('_', '-')}.${SYSTEM_DOMAIN_SUFFIX}`;
    const check = this.checkNewDomain(name, client.id);
    if ('name' in check) this.addDomain({ name: check.name, idUser: client.id, system: true }, now);
  }

  /** The state file's content (see STATE_FORMAT). */
  toJSON(): StateFile {
    return {
      format: STATE_FORMAT,
      version: 1,
      nextPlanId: this.nextPlanId,
      nextUserId: this.nextUserId,
      nextDomainId: this.nextDomainId,
      admins: [...this.admins].map(([username, id]) => ({ id, username })),
      plans: [...this.plans.values()],
      clients: [...this.clients.values()],
      domains: [...this.domains.values()],
      passwords: [...this.passwords].map(([id, password]) => ({ id, password })),
    };
  }

  /** Rebuilds a store from a state file's content; anything malformed is a usage error naming `source`. */
  static fromFile(data: unknown, source: string): SimStore {
    const fail = (message: string): never => {
      throw new ProvisionError('usage', `${source}: ${message}`, {
        hint: 'the file is not a simulator state file (or it was edited by hand): move it away to start fresh',
      });
    };
    if (!isRecord(data) || data.format !== STATE_FORMAT || data.version !== 1) {
      return fail(`not a simulator state file (expected "format": "${STATE_FORMAT}", "version": 1)`);
    }
    const store = new SimStore();
    for (const [key, check] of [
      ['admins', ['id', 'username']],
      ['plans', ['id', 'name']],
      ['clients', ['id', 'username']],
      ['domains', ['id', 'id_user', 'domain']],
    ] as const) {
      const list = data[key];
      if (!Array.isArray(list)) return fail(`"${key}" must be an array`);
      for (const [index, record] of (list as unknown[]).entries()) {
        const valid =
          isRecord(record) &&
          check.every((field) =>
            field.startsWith('id') ? Number.isInteger(record[field]) : typeof record[field] === 'string',
          );
        if (!valid) fail(`${key}[${index}] needs ${check.join(', ')}`);
      }
    }
    // Shapes were checked above; the remaining fields are trusted as this module wrote them.
    for (const admin of data.admins as { id: number; username: string }[]) store.admins.set(admin.username, admin.id);
    for (const plan of data.plans as SimPlan[]) store.insertPlan(plan);
    for (const client of data.clients as SimClient[]) store.insertClient(client);
    for (const domain of data.domains as SimDomain[]) store.insertDomain(domain);
    // Optional: files written before passwords were kept have none.
    if (Array.isArray(data.passwords)) {
      for (const entry of data.passwords as unknown[]) {
        if (isRecord(entry) && Number.isInteger(entry.id) && typeof entry.password === 'string')
          store.passwords.set(entry.id as number, entry.password);
      }
    }
    // A loop, not Math.max(...ids): spreading tens of thousands of arguments can overflow the stack.
    const next = (stored: unknown, ids: Iterable<number>): number => {
      let result = Number.isInteger(stored) ? (stored as number) : 1;
      for (const id of ids) result = Math.max(result, id + 1);
      return result;
    };
    store.nextPlanId = next(data.nextPlanId, store.plans.keys());
    store.nextUserId = next(data.nextUserId, [...store.clients.keys(), ...store.admins.values()]);
    store.nextDomainId = next(data.nextDomainId, store.domains.keys());
    return store;
  }

  /** Replaces a client's record (same id; its username never changes): a PUT. */
  replaceClient(client: SimClient): void {
    this.insertClient(client);
  }

  /** Removes a client and every domain of it, system ones too: a DELETE. */
  removeClient(id: number): void {
    const client = this.clients.get(id);
    if (client === undefined) return;
    for (const domain of [...this.domains.values()]) if (domain.id_user === id) this.removeDomain(domain.id);
    this.clients.delete(id);
    this.clientsByName.delete(client.username.toLowerCase());
    this.passwords.delete(id);
  }

  /** Replaces a domain's record (same id and name): a PUT. */
  replaceDomain(domain: SimDomain): void {
    this.insertDomain(domain);
  }

  removeDomain(id: number): void {
    const domain = this.domains.get(id);
    if (domain === undefined) return;
    this.domains.delete(id);
    this.domainsByName.delete(domain.domain.toLowerCase());
  }

  private insertPlan(plan: SimPlan): void {
    this.plans.set(plan.id, plan);
    this.plansByName.set(plan.name, plan);
  }

  private insertClient(client: SimClient): void {
    this.clients.set(client.id, client);
    this.clientsByName.set(client.username.toLowerCase(), client);
  }

  private insertDomain(domain: SimDomain): void {
    this.domains.set(domain.id, domain);
    this.domainsByName.set(domain.domain.toLowerCase(), domain);
  }
}

/** Marks a state file, so that an unrelated JSON file is not silently taken for one. */
export const STATE_FORMAT = 'panel-provision-simulator-state';

export interface StateFile {
  readonly format: typeof STATE_FORMAT;
  readonly version: 1;
  readonly nextPlanId: number;
  readonly nextUserId: number;
  readonly nextDomainId: number;
  readonly admins: readonly { id: number; username: string }[];
  readonly plans: readonly SimPlan[];
  readonly clients: readonly SimClient[];
  readonly domains: readonly SimDomain[];
  /** The clients' passwords (a simulator's own, for tests; absent in files of older versions). */
  readonly passwords?: readonly { id: number; password: string }[];
}

/** ISO 8601 with an explicit offset, like the panel's `created_at` ("2019-08-15T11:29:13+02:00"). */
function timestamp(now: Date): string {
  return `${now.toISOString().slice(0, 19)}+00:00`;
}
