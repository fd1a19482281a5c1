import { domainToUnicode } from 'node:url';
import { USERNAME_PATTERN, normalizeDomain } from '../names.js';
import { domainExtras, type SettingsInput, type SimDomainExtras, withSettings } from './domain-settings.js';
import { seedPlanParts, type SimPlan, type SimPlanSections } from './hosting-plans.js';
import { addZoneOf, dropZoneOf, type SimZone, type SimZoneRecord } from './zones.js';

export type { SimPlan } from './hosting-plans.js';

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

/**
 * A domain as GET /domains answers it: `domain` is ASCII (punycode), `domain_utf8` its Unicode
 * form; its settings (domain-settings.ts) in the panel's shapes.
 */
export interface SimDomain extends SimDomainExtras {
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
  /** DNS zones by domain id: one per domain that is not a subdomain (zones.ts). */
  readonly zones: ReadonlyMap<number, SimZone>;
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
 * The plans of a seed that names none, their records whole (hosting-plans.ts seedPlanParts:
 * limited, doubled, unlimited). 'Premium Plus' has a space on purpose: plan names may contain
 * spaces (docs/panel-api.md).
 */
export const DEFAULT_HOSTING_PLANS: readonly string[] = ['Basic', 'Standard', 'Premium Plus'];

/** The domain the simulator gives each new client, like a panel's system domain. */
export const SYSTEM_DOMAIN_SUFFIX = 'sim.keyhelp.test';

/** A problem with a request, as the panel would answer it. */
interface Refusal {
  readonly status: 400 | 404;
  readonly message: string;
}

/**
 * One change to the store, as every mutation makes it: the state file (state-file.ts) logs
 * each and replays them with `apply`. A record is set whole; removing a client removes its
 * domains first, each its own change. state-file.ts writes a change as it is, one JSON line:
 * change this shape only together with that file's format version.
 */
export type StoreChange =
  | { readonly set: 'plans'; readonly record: SimPlan }
  | { readonly set: 'admins'; readonly record: { readonly id: number; readonly username: string } }
  | { readonly set: 'clients'; readonly record: SimClient }
  | { readonly set: 'domains'; readonly record: SimDomain }
  | { readonly set: 'passwords'; readonly record: { readonly id: number; readonly password: string } }
  | { readonly set: 'zones'; readonly record: SimZoneRecord }
  | { readonly delete: 'plans' | 'clients' | 'domains'; readonly id: number };

/** The store behind the simulator: records by id plus name indexes, so every request is O(1). */
export class SimStore implements SimulatorState {
  readonly plans = new Map<number, SimPlan>();
  readonly clients = new Map<number, SimClient>();
  readonly domains = new Map<number, SimDomain>();
  readonly admins = new Map<string, number>();
  readonly zones = new Map<number, SimZone>();
  private readonly plansByName = new Map<string, SimPlan>();
  private readonly clientsByName = new Map<string, SimClient>();
  private readonly domainsByName = new Map<string, SimDomain>();
  /** Passwords by client id: never part of a client's record, so no answer can carry one. */
  private readonly passwords = new Map<number, string>();
  private nextPlanId = 1;
  private nextUserId = 1;
  private nextDomainId = 1;
  /** Told of every change once it is made (the state file logs it). */
  onChange: ((change: StoreChange) => void) | undefined;

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
    this.commit({ set: 'passwords', record: { id, password } });
  }

  /** The plan a client gets when POST /clients names none: the first plan. */
  defaultPlan(): SimPlan | undefined {
    return this.plans.values().next().value;
  }

  /** A plan with `sections` (hosting-plans.ts); default: the values of a plan seeded by name at this position. */
  addPlan(name: string, sections: SimPlanSections = seedPlanParts(this.plans.size)): SimPlan {
    const plan: SimPlan = { id: this.nextPlanId, name, ...sections };
    this.commit({ set: 'plans', record: plan });
    return plan;
  }

  /** Replaces a plan's record (same id; its name may change): a PUT. */
  replacePlan(plan: SimPlan): void {
    this.commit({ set: 'plans', record: plan });
  }

  /** Removes a plan (hosting-plan-requests.ts refuses it while a client is on it): a DELETE. */
  removePlan(id: number): void {
    if (this.plans.has(id)) this.commit({ delete: 'plans', id });
  }

  addAdmin(username: string): void {
    this.commit({ set: 'admins', record: { id: this.nextUserId, username: username.toLowerCase() } });
  }

  /** Why a client of this name and plan cannot be created, or undefined when it can. */
  checkNewClient(username: string, idHostingPlan: number | undefined): Refusal | undefined {
    if (!USERNAME_PATTERN.test(username)) {
      return {
        status: 400,
        message:
          `The username '${username}' is invalid: ` +
          `use a lowercase letter first, then lowercase letters, digits, '-' or '_' (at most 32 characters).`,
      };
    }
    // Administrators share the namespace: refused here although GET /clients/name/<admin> is 404 (docs/panel-api.md).
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
      id: this.nextUserId,
      username: input.username,
      email: input.email ?? '',
      ...(idHostingPlan === undefined ? {} : { id_hosting_plan: idHostingPlan }),
      is_suspended: input.suspended ?? false,
      language: input.language ?? 'en',
      created_at: timestamp(now),
    };
    this.commit({ set: 'clients', record: client });
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
   * Creates a domain that checkNewDomain accepted, with settings that settingsProblem accepted
   * merged over the defaults (domain-settings.ts). Its parent is `idParent` when given (0: top
   * level; parentProblem checked it), else the nearest enclosing domain of the same user; one
   * that belongs to another user does not make it a subdomain.
   */
  addDomain(
    input: { name: string; idUser: number; system: boolean; settings?: SettingsInput; idParent?: number },
    now: Date,
  ): SimDomain {
    let parent: SimDomain | undefined = input.idParent === undefined ? undefined : this.domains.get(input.idParent);
    const labels = input.idParent === undefined ? input.name.split('.') : [];
    for (let i = 1; i < labels.length - 1 && parent === undefined; i++) {
      const candidate = this.domainsByName.get(labels.slice(i).join('.'));
      if (candidate?.id_user === input.idUser) parent = candidate;
    }
    const extras = domainExtras(this.clients.get(input.idUser)?.username ?? '', input.name);
    // In the order of the panel's own answer (go-acme/lego's fixture), for readers comparing them.
    const domain: SimDomain = {
      id: this.nextDomainId,
      id_user: input.idUser,
      id_parent_domain: parent?.id ?? 0,
      status: extras.status,
      domain: input.name,
      domain_utf8: domainToUnicode(input.name),
      created_at: timestamp(now),
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
    this.commit({ set: 'domains', record });
    addZoneOf(this, record);
    return record;
  }

  /** The system domain every new client gets when the option is on; skipped if the name is taken. */
  addSystemDomain(client: SimClient, now: Date): void {
    const name = `${client.username.replaceAll('_', '-')}.${SYSTEM_DOMAIN_SUFFIX}`;
    const check = this.checkNewDomain(name, client.id);
    if ('name' in check) this.addDomain({ name: check.name, idUser: client.id, system: true }, now);
  }

  /** Replaces a client's record (same id; its username never changes): a PUT. */
  replaceClient(client: SimClient): void {
    this.commit({ set: 'clients', record: client });
  }

  /** Removes a client and every domain of it, system ones too: a DELETE. */
  removeClient(id: number): void {
    if (!this.clients.has(id)) return;
    for (const domain of [...this.domains.values()]) if (domain.id_user === id) this.removeDomain(domain.id);
    this.commit({ delete: 'clients', id });
  }

  /** Replaces a domain's record (same id and name): a PUT. */
  replaceDomain(domain: SimDomain): void {
    this.commit({ set: 'domains', record: domain });
  }

  /** Removes a domain and its zone; a subdomain's default records leave its parent's zone (zones.ts). */
  removeDomain(id: number): void {
    const domain = this.domains.get(id);
    if (domain === undefined) return;
    dropZoneOf(this, domain);
    this.commit({ delete: 'domains', id });
  }

  /** Sets a domain's zone whole (zones.ts decides what it holds). */
  setZone(id: number, zone: SimZone): void {
    this.commit({ set: 'zones', record: { id, ...zone } });
  }

  /**
   * Makes a change (a mutation's, or one replayed from the state file); the id sequences
   * move past every id set, so a replayed log continues them.
   */
  apply(change: StoreChange): void {
    if ('delete' in change) {
      const { id } = change;
      if (change.delete === 'plans') {
        const plan = this.plans.get(id);
        this.plans.delete(id);
        if (plan !== undefined) this.plansByName.delete(plan.name);
      } else if (change.delete === 'domains') {
        const domain = this.domains.get(id);
        this.domains.delete(id);
        this.zones.delete(id);
        if (domain !== undefined) this.domainsByName.delete(domain.domain.toLowerCase());
      } else {
        const client = this.clients.get(id);
        this.clients.delete(id);
        if (client !== undefined) this.clientsByName.delete(client.username.toLowerCase());
        this.passwords.delete(id);
      }
      return;
    }
    switch (change.set) {
      case 'plans': {
        const before = this.plans.get(change.record.id);
        if (before !== undefined) this.plansByName.delete(before.name); // a rename
        this.plans.set(change.record.id, change.record);
        this.plansByName.set(change.record.name, change.record);
        this.nextPlanId = Math.max(this.nextPlanId, change.record.id + 1);
        return;
      }
      case 'admins':
        this.admins.set(change.record.username, change.record.id);
        this.nextUserId = Math.max(this.nextUserId, change.record.id + 1);
        return;
      case 'clients':
        this.clients.set(change.record.id, change.record);
        this.clientsByName.set(change.record.username.toLowerCase(), change.record);
        this.nextUserId = Math.max(this.nextUserId, change.record.id + 1);
        return;
      case 'domains':
        this.domains.set(change.record.id, change.record);
        this.domainsByName.set(change.record.domain.toLowerCase(), change.record);
        this.nextDomainId = Math.max(this.nextDomainId, change.record.id + 1);
        return;
      case 'passwords':
        this.passwords.set(change.record.id, change.record.password);
        return;
      case 'zones': {
        const { id, ...zone } = change.record;
        this.zones.set(id, zone);
        return;
      }
    }
  }

  /** Everything the state file keeps beyond the public maps: the id sequences and the passwords. */
  internals(): { sequences: IdSequences; passwords: ReadonlyMap<number, string> } {
    return {
      sequences: { nextPlanId: this.nextPlanId, nextUserId: this.nextUserId, nextDomainId: this.nextDomainId },
      passwords: this.passwords,
    };
  }

  /** Moves the id sequences on to at least `sequences` (ids of records deleted since are not reused). */
  continueSequences(sequences: IdSequences): void {
    this.nextPlanId = Math.max(this.nextPlanId, sequences.nextPlanId);
    this.nextUserId = Math.max(this.nextUserId, sequences.nextUserId);
    this.nextDomainId = Math.max(this.nextDomainId, sequences.nextDomainId);
  }

  private commit(change: StoreChange): void {
    this.apply(change);
    this.onChange?.(change);
  }
}

/** The next id of each sequence: plans, users (administrators and clients), domains. */
export interface IdSequences {
  readonly nextPlanId: number;
  readonly nextUserId: number;
  readonly nextDomainId: number;
}

/** ISO 8601 with an explicit offset, like the panel's `created_at` ("2019-08-15T11:29:13+02:00"). */
function timestamp(now: Date): string {
  return `${now.toISOString().slice(0, 19)}+00:00`;
}
