/**
 * The simulator's module of clients and administrators (one user id sequence, one namespace):
 * /clients, GET /admins, the seed's `admins` and `clients`, and the clients' passwords. The
 * records are kinds/client-records.ts's.
 *
 * PUT and DELETE, as billing systems drive them (panel-api.md, "The account lifecycle"). Where
 * the API's description is silent, the simulator chooses:
 * - PUT is partial: only the fields sent change. A client takes `id_hosting_plan` (an existing
 *   plan; null or 0 for none), `email` (an address, or "" for none), `is_suspended` (boolean),
 *   `language` and `password` (see below). A different `username` is refused with 400: it is
 *   an identity. Other fields are ignored. The answer is 200 `{"id": N}`.
 * - DELETE of a client takes all its domains with it (system ones too). The answer is 200
 *   `{"id": N}`, or 204 without a body with `deleteStatus: 204`.
 * - An unknown id, or an administrator's, is 404.
 * - Passwords (the panel's rules are not documented): a `password`, in POST /clients or PUT
 *   /clients/{id}, must be a string of at least MIN_PASSWORD_LENGTH characters, else 400 and
 *   nothing changes; no other rule (case, digits) is enforced. Given to POST /clients, it is
 *   the client's password and the 201 holds only `{"id"}`; left out, the simulator makes one
 *   and answers `{"id", "password"}` (with `acceptsPassword: false` a given one is ignored
 *   that way, like a panel that does not take the field). Given to PUT, it replaces the
 *   client's password. A password is never part of a client's record or any answer after the
 *   201; tests read it with `state.passwordOf(username)`.
 */
import { randomBytes } from 'node:crypto';
import { USERNAME_PATTERN } from '../../names.js';
import { isRecord } from '../../util.js';
import { type Answer, deleted, error, notAllowed, notFound, ok } from '../answer.js';
import type { RouteOptions, SeedChildren, SimKind, SimRequest } from '../kind.js';
import { type SimStore, timestamp } from '../store.js';
import type { SimClient } from './client-records.js';
import { collection } from './collection.js';
import type { SimulatorSeedDomain } from './domain.js';
import type { SimulatorSeedDatabase } from './database-records.js';
import type { SimulatorSeedFtpUser } from './ftp-user-records.js';

export interface ClientSeed {
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
  /** Its databases, in order (kinds/database.ts): names, or objects with one. */
  readonly databases?: readonly (string | SimulatorSeedDatabase)[];
  /** Its FTP users, in order (kinds/ftp-user.ts): usernames, or objects with one. */
  readonly ftp_users?: readonly (string | SimulatorSeedFtpUser)[];
}

/** The shortest password the simulator accepts, like the panel's own rules ("at least 8 characters everywhere"). */
const MIN_PASSWORD_LENGTH = 8;

/** Why a `password` field is refused (400), or undefined when it is accepted. */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string') return "The field 'password' must be a string.";
  if (Array.from(password).length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  return undefined;
}

/** Why a client of this name and plan cannot be created (a 400's message), or undefined when it can. */
function newClientProblem(store: SimStore, username: string, idHostingPlan: number | undefined): string | undefined {
  if (!USERNAME_PATTERN.test(username)) {
    return (
      `The username '${username}' is invalid: ` +
      `use a lowercase letter first, then lowercase letters, digits, '-' or '_' (at most 32 characters).`
    );
  }
  // Administrators share the namespace: refused here although GET /clients/name/<admin> is 404 (docs/panel-api.md).
  if (store.named('clients', username) !== undefined || store.named('admins', username) !== undefined)
    return `The username '${username}' is already in use.`;
  if (idHostingPlan !== undefined && !store.plans.has(idHostingPlan))
    return `The hosting plan with id ${idHostingPlan} does not exist.`;
  return undefined;
}

/** Creates a client that newClientProblem accepted; no plan given: the panel's default plan, the first one. */
function addClient(
  store: SimStore,
  input: { username: string; email?: string; idHostingPlan?: number; language?: string; suspended?: boolean },
  now: Date,
): SimClient {
  const idHostingPlan = input.idHostingPlan ?? store.plans.values().next().value?.id;
  const client: SimClient = {
    id: store.nextId('clients'),
    username: input.username,
    email: input.email ?? '',
    ...(idHostingPlan === undefined ? {} : { id_hosting_plan: idHostingPlan }),
    is_suspended: input.suspended ?? false,
    language: input.language ?? 'en',
    created_at: timestamp(now),
  };
  store.set('clients', client);
  return client;
}

/** A client as an answer shows it: without `id_hosting_plan` where `clientPlanIds` says so. */
function clientAnswer(client: SimClient, where: 'list' | 'record', options: RouteOptions): SimClient {
  const shown = options.clientPlanIds ?? 'everywhere';
  if (shown === 'everywhere' || (shown === 'records' && where === 'record')) return client;
  const rest: { -readonly [K in keyof SimClient]: SimClient[K] } = { ...client };
  delete rest.id_hosting_plan;
  return rest;
}

function createClient(store: SimStore, body: Record<string, unknown>, { options, family }: SimRequest): Answer {
  const { username, email, language, is_suspended: suspended, password } = body;
  const idHostingPlan = body.id_hosting_plan ?? undefined;
  if (typeof username !== 'string' || username === '')
    return error(400, "The field 'username' is required and must be a string.");
  if (email !== undefined && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))) {
    return error(400, "The field 'email' must be a valid email address.");
  }
  if (language !== undefined && typeof language !== 'string')
    return error(400, "The field 'language' must be a string.");
  if (suspended !== undefined && typeof suspended !== 'boolean')
    return error(400, "The field 'is_suspended' must be a boolean.");
  // Taken and ignored: the simulator mails no one (tests read what was sent with `intercept`).
  if (body.send_login_credentials !== undefined && typeof body.send_login_credentials !== 'boolean')
    return error(400, "The field 'send_login_credentials' must be a boolean.");
  const given = options.acceptsPassword === false ? undefined : password;
  const badPassword = given === undefined ? undefined : passwordProblem(given);
  if (badPassword !== undefined) return error(400, badPassword);
  if (idHostingPlan !== undefined && !Number.isSafeInteger(idHostingPlan)) {
    return error(400, "The field 'id_hosting_plan' must be an integer.");
  }
  const planId = idHostingPlan as number | undefined;
  const refusal = newClientProblem(store, username, planId);
  if (refusal !== undefined) return error(400, refusal);
  const now = options.now();
  const client = addClient(
    store,
    {
      username,
      ...(email === undefined ? {} : { email }),
      ...(planId === undefined ? {} : { idHostingPlan: planId }),
      ...(language === undefined ? {} : { language }),
      ...(suspended === undefined ? {} : { suspended }),
    },
    now,
  );
  family.created('client', store, client, { now, systemDomains: options.systemDomains, family });
  if (typeof given === 'string') {
    // The password given is used; the answer then holds only the id (panel-api.md allows it).
    store.set('passwords', { id: client.id, password: given });
    return { status: 201, json: { id: client.id }, mutated: true };
  }
  // The panel generates the password and returns it this once; it can never be read again.
  const generated = randomBytes(18).toString('base64url');
  store.set('passwords', { id: client.id, password: generated });
  return { status: 201, json: { id: client.id, password: generated }, mutated: true };
}

function updateClient(store: SimStore, id: number, body: unknown): Answer {
  const client = store.clients.get(id);
  if (client === undefined) return error(404, 'The requested client was not found.');
  if (!isRecord(body)) return error(400, 'The request body must be a JSON object.');
  const { username, email, id_hosting_plan: plan, is_suspended: suspended, language } = body;
  if (username !== undefined && username !== client.username)
    return error(400, 'The username of a client cannot be changed.');
  if (email !== undefined && (typeof email !== 'string' || (email !== '' && !/^[^@\s]+@[^@\s]+$/.test(email)))) {
    return error(400, "The field 'email' must be a valid email address.");
  }
  if (
    plan !== undefined &&
    plan !== null &&
    plan !== 0 &&
    !(Number.isSafeInteger(plan) && store.plans.has(plan as number))
  ) {
    return error(400, `The hosting plan with id ${JSON.stringify(plan)} does not exist.`);
  }
  if (suspended !== undefined && typeof suspended !== 'boolean')
    return error(400, "The field 'is_suspended' must be a boolean.");
  if (language !== undefined && typeof language !== 'string')
    return error(400, "The field 'language' must be a string.");
  const badPassword = body.password === undefined ? undefined : passwordProblem(body.password);
  if (badPassword !== undefined) return error(400, badPassword);
  const nextPlan =
    plan === undefined ? client.id_hosting_plan : plan === null || plan === 0 ? undefined : (plan as number);
  const next: SimClient = {
    id: client.id,
    username: client.username,
    email: email ?? client.email,
    ...(nextPlan === undefined ? {} : { id_hosting_plan: nextPlan }),
    is_suspended: suspended ?? client.is_suspended,
    language: language ?? client.language,
    created_at: client.created_at,
  };
  store.set('clients', next);
  if (typeof body.password === 'string') store.set('passwords', { id, password: body.password });
  return { status: 200, json: { id }, mutated: true };
}

/** DELETE /clients/{id}: the client and every domain of it, system ones too, each its own change. */
function deleteClient(store: SimStore, id: number, { options, family }: SimRequest): Answer {
  if (!store.clients.has(id)) return error(404, 'The requested client was not found.');
  family.removing('client', store, id);
  store.remove('clients', id);
  return deleted(id, options.deleteStatus);
}

export const CLIENT_SIM: SimKind<ClientSeed, 'client'> = {
  name: 'client',
  routes: {
    admins: (store, { method, segments }) => {
      const path = `/${segments.join('/')}`;
      if (segments.length !== 1) return notFound(path);
      if (method !== 'GET') return notAllowed(method, path, ['GET']);
      return ok(store.records('admins').map(({ id, username }) => ({ id, username })));
    },
    clients: collection({
      list: 'clients',
      one: 'client',
      // Like panels whose list leaves managed fields out: GET /clients/{id} has them.
      listed: (records, options) =>
        options.clientListFields
          ? records.map((c) => clientAnswer(c, 'list', options))
          : records.map((c) => ({ id: c.id, username: c.username, language: c.language, created_at: c.created_at })),
      shown: (record, options) => clientAnswer(record, 'record', options),
      create: createClient,
      update: updateClient,
      remove: deleteClient,
    }),
  },
  seed: {
    keys: ['admins', 'clients'],
    parse: (json, problems, children) => {
      const { admins } = json;
      const strings =
        admins === undefined || (Array.isArray(admins) && admins.every((item) => typeof item === 'string'));
      if (!strings) problems.push('admins must be an array of strings');
      const clients = seedClients(json.clients, problems, children('client'));
      return { ...(strings && admins !== undefined ? { admins } : {}), clients };
    },
    build: (seed, store, context) => {
      const { fail, now } = context;
      for (const username of seed.admins ?? ['admin']) {
        if (!USERNAME_PATTERN.test(username)) fail(`administrator '${username}' is not a valid username`);
        if (store.named('admins', username) !== undefined) fail(`administrator '${username}' is listed twice`);
        store.set('admins', { id: store.nextId('admins'), username: username.toLowerCase() });
      }
      for (const [index, seedClient] of (seed.clients ?? []).entries()) {
        const where = `clients[${index}]`;
        let idHostingPlan: number | undefined;
        if (seedClient.plan !== undefined) {
          idHostingPlan = store.planNamed(seedClient.plan)?.id;
          if (idHostingPlan === undefined) fail(`${where}: hosting plan '${seedClient.plan}' is not in hostingPlans`);
        }
        const refusal = newClientProblem(store, seedClient.username, idHostingPlan);
        if (refusal !== undefined) fail(`${where}: ${refusal}`);
        const client = addClient(
          store,
          {
            username: seedClient.username,
            ...(seedClient.email === undefined ? {} : { email: seedClient.email }),
            ...(seedClient.suspended === undefined ? {} : { suspended: seedClient.suspended }),
            ...(seedClient.language === undefined ? {} : { language: seedClient.language }),
            ...(idHostingPlan === undefined ? {} : { idHostingPlan }),
          },
          now,
        );
        context.family.created('client', store, client, context);
        context.children('client').build(seedClient, client, store, where, context);
      }
    },
  },
};

/** The seed's `clients`; problems are pushed. */
function seedClients(value: unknown, problems: string[], children: SeedChildren): SimulatorSeedClient[] {
  const clients: SimulatorSeedClient[] = [];
  if (value !== undefined && !Array.isArray(value)) problems.push('clients must be an array');
  for (const [index, item] of (Array.isArray(value) ? (value as unknown[]) : []).entries()) {
    const where = `clients[${index}]`;
    if (!isRecord(item)) {
      problems.push(`${where} must be an object`);
      continue;
    }
    const allowed = ['username', 'plan', 'email', 'suspended', 'language', ...children.keys];
    for (const key of Object.keys(item))
      if (!allowed.includes(key)) problems.push(`${where}: unknown key "${key}" (allowed: ${allowed.join(', ')})`);
    const { username, plan, email, suspended, language } = item;
    if (typeof username !== 'string') problems.push(`${where}.username must be a string`);
    if (plan !== undefined && typeof plan !== 'string') problems.push(`${where}.plan must be a string`);
    if (email !== undefined && typeof email !== 'string') problems.push(`${where}.email must be a string`);
    if (suspended !== undefined && typeof suspended !== 'boolean')
      problems.push(`${where}.suspended must be true or false`);
    if (language !== undefined && typeof language !== 'string') problems.push(`${where}.language must be a string`);
    const below = children.parse(item, where, problems);
    if (typeof username === 'string') {
      clients.push({
        username,
        ...(typeof plan === 'string' ? { plan } : {}),
        ...(typeof email === 'string' ? { email } : {}),
        ...(typeof suspended === 'boolean' ? { suspended } : {}),
        ...(typeof language === 'string' ? { language } : {}),
        ...below,
      });
    }
  }
  return clients;
}
