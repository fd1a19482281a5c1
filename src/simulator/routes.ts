import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { isRecord } from '../util.js';
import type { Answer } from './answer.js';
import { settingMessage, settingsOf, settingsProblem } from './domain-settings.js';
import { createPlan, deletePlan, updatePlan } from './hosting-plan-requests.js';
import {
  deleteClient,
  deleteDomain,
  type LifecycleOptions,
  passwordProblem,
  updateClient,
  updateDomain,
} from './lifecycle.js';
import type { SimClient, SimStore } from './store.js';
import { readZone, writeZone } from './zones.js';

export interface RouteOptions extends LifecycleOptions {
  readonly listDomains: boolean;
  /** GET /clients carries `email`, `id_hosting_plan` and `is_suspended` (GET /clients/{id} always does). */
  readonly clientListFields: boolean;
  /**
   * Which client answers carry `id_hosting_plan`: all (default); `records`: GET /clients/{id}
   * and /clients/name/{username} only; `nowhere`: none (the store keeps it all the same).
   */
  readonly clientPlanIds?: 'everywhere' | 'records' | 'nowhere';
  readonly systemDomains: boolean;
  /** POST /clients uses a `password` it is given (default); false: ignores it, like a panel without the field. */
  readonly acceptsPassword?: boolean;
  /**
   * POST /domains without `id_parent_domain`: 'guess' (default) makes it a subdomain of the
   * nearest enclosing domain of the same user; 'given' makes it a top-level domain, like a panel
   * that honours the field and guesses nothing. Given, the field is honoured either way.
   */
  readonly parentDomains?: 'guess' | 'given';
  readonly now: () => Date;
}

/** The parsed request body: undefined when empty, `invalid` when it is not JSON. */
export type Body =
  { readonly kind: 'none' } | { readonly kind: 'invalid' } | { readonly kind: 'json'; readonly value: unknown };

/** Each collection's name for one record: every one takes GET and POST, and PUT and DELETE by id. */
const COLLECTIONS = {
  'hosting-plans': { one: 'hosting plan' },
  clients: { one: 'client' },
  domains: { one: 'domain' },
} as const;

/**
 * Routes one authenticated request. `segments` is the path after /api/v2, split on '/',
 * trailing slashes already removed, each segment still percent-encoded.
 */
export function route(
  store: SimStore,
  method: string,
  segments: readonly string[],
  body: Body,
  options: RouteOptions,
): Answer {
  const [first, second, third] = segments;
  const path = `/${segments.join('/')}`;
  if (first === 'ping' && segments.length === 1) {
    return method === 'GET' ? ok({ response: 'pong' }) : notAllowed(method, path, ['GET']);
  }
  if (first === 'server' && segments.length === 1) {
    // The shape varies by release (panel-api.md); the simulator says what it is, nothing of the machine.
    return method === 'GET'
      ? ok({
          meta: { hostname: 'simulator.invalid', ip_addresses: ['127.0.0.1'] },
          version: { panel: 'simulator', api: 'v2' },
        })
      : notAllowed(method, path, ['GET']);
  }
  if (first === 'admins' && segments.length === 1) {
    return method === 'GET'
      ? ok([...store.admins].map(([username, id]) => ({ id, username })))
      : notAllowed(method, path, ['GET']);
  }
  if (first === 'dns') return dns(store, method, segments, body);
  if (first !== 'hosting-plans' && first !== 'clients' && first !== 'domains') return notFound(path);
  const collection = first;
  const { one } = COLLECTIONS[collection];

  if (segments.length === 1) {
    if (method === 'GET') {
      // A panel without the list endpoint answers like for any unknown path.
      if (collection === 'domains' && !options.listDomains) return notFound(path);
      const records = [...recordsOf(store, collection).values()];
      // Like panels whose list leaves managed fields out: GET /clients/{id} has them.
      if (collection === 'clients' && !options.clientListFields) {
        return ok(
          (records as SimClient[]).map((c) => ({
            id: c.id,
            username: c.username,
            language: c.language,
            created_at: c.created_at,
          })),
        );
      }
      if (collection === 'clients') return ok((records as SimClient[]).map((c) => clientAnswer(c, 'list', options)));
      return ok(records);
    }
    if (method !== 'POST') return notAllowed(method, path, ['GET', 'POST']);
    if (body.kind === 'none') return error(400, 'The request body is missing: send a JSON object.');
    if (body.kind === 'invalid') return error(400, 'The request body is not valid JSON.');
    if (!isRecord(body.value)) return error(400, 'The request body must be a JSON object.');
    return collection === 'clients'
      ? createClient(store, body.value, options)
      : collection === 'domains'
        ? createDomain(store, body.value, options)
        : createPlan(store, body.value, error);
  }

  // /{collection}/{id} and /{collection}/name/{name}.
  const byName = segments.length === 3 && second === 'name';
  if (!(segments.length === 2 || byName)) return notFound(path);
  const byId = !byName && /^[0-9]{1,15}$/.test(second ?? '');
  if (byId && (method === 'PUT' || method === 'DELETE')) {
    const id = Number(second);
    const value = body.kind === 'json' ? body.value : body.kind === 'invalid' ? undefined : {};
    if (body.kind === 'invalid') return error(400, 'The request body is not valid JSON.');
    if (collection === 'hosting-plans')
      return method === 'PUT'
        ? updatePlan(store, id, value, error)
        : deletePlan(store, id, options.deleteStatus, error);
    if (collection === 'clients')
      return method === 'PUT' ? updateClient(store, id, value, error) : deleteClient(store, id, options, error);
    return method === 'PUT' ? updateDomain(store, id, value, error) : deleteDomain(store, id, options, error);
  }
  if (method !== 'GET') return notAllowed(method, path, byId ? ['GET', 'PUT', 'DELETE'] : ['GET']);
  let record: unknown;
  if (byName) {
    let name: string;
    try {
      // Percent-decoding only: '+' stays a plus sign, so 'Premium+Plus' is not 'Premium Plus'.
      name = decodeURIComponent(third ?? '');
    } catch {
      return error(400, `The path ${path} is not validly percent-encoded.`);
    }
    record =
      collection === 'hosting-plans'
        ? store.planNamed(name)
        : collection === 'clients'
          ? store.clientNamed(name)
          : store.domainNamed(name);
  } else if (/^[0-9]{1,15}$/.test(second ?? '')) {
    record = recordsOf(store, collection).get(Number(second));
  }
  if (record === undefined) return error(404, `The requested ${one} was not found.`);
  return ok(collection === 'clients' ? clientAnswer(record as SimClient, 'record', options) : record);
}

/** A client as an answer shows it: without `id_hosting_plan` where `clientPlanIds` says so. */
function clientAnswer(client: SimClient, where: 'list' | 'record', options: RouteOptions): SimClient {
  const shown = options.clientPlanIds ?? 'everywhere';
  if (shown === 'everywhere' || (shown === 'records' && where === 'record')) return client;
  const rest: { -readonly [K in keyof SimClient]: SimClient[K] } = { ...client };
  delete rest.id_hosting_plan;
  return rest;
}

/** GET and PUT /dns/{domain id}, GET /dns/name/{domain}: zones.ts has the rules. */
function dns(store: SimStore, method: string, segments: readonly string[], body: Body): Answer {
  const [, second, third] = segments;
  const path = `/${segments.join('/')}`;
  if (segments.length === 3 && second === 'name') {
    if (method !== 'GET') return notAllowed(method, path, ['GET']);
    let name: string;
    try {
      name = decodeURIComponent(third ?? '');
    } catch {
      return error(400, `The path ${path} is not validly percent-encoded.`);
    }
    return readZone(store, store.domainNamed(name), error);
  }
  if (segments.length !== 2) return notFound(path);
  if (!/^[0-9]{1,15}$/.test(second ?? '')) return error(404, 'The requested domain was not found.');
  const id = Number(second);
  if (method === 'GET') return readZone(store, store.domains.get(id), error);
  if (method !== 'PUT') return notAllowed(method, path, ['GET', 'PUT']);
  if (body.kind === 'none') return error(400, 'The request body is missing: send a JSON object.');
  if (body.kind === 'invalid') return error(400, 'The request body is not valid JSON.');
  return writeZone(store, id, body.value, error);
}

function recordsOf(store: SimStore, collection: keyof typeof COLLECTIONS): ReadonlyMap<number, unknown> {
  return collection === 'hosting-plans' ? store.plans : collection === 'clients' ? store.clients : store.domains;
}

function createClient(store: SimStore, body: Record<string, unknown>, options: RouteOptions): Answer {
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
  const refusal = store.checkNewClient(username, planId);
  if (refusal !== undefined) return error(refusal.status, refusal.message);
  const now = options.now();
  const client = store.addClient(
    {
      username,
      ...(email === undefined ? {} : { email }),
      ...(planId === undefined ? {} : { idHostingPlan: planId }),
      ...(language === undefined ? {} : { language }),
      ...(suspended === undefined ? {} : { suspended }),
    },
    now,
  );
  if (options.systemDomains) store.addSystemDomain(client, now);
  if (typeof given === 'string') {
    // The password given is used; the answer then holds only the id (panel-api.md allows it).
    store.setPassword(client.id, given);
    return { status: 201, json: { id: client.id }, mutated: true };
  }
  // The panel generates the password and returns it this once; it can never be read again.
  const generated = randomBytes(18).toString('base64url');
  store.setPassword(client.id, generated);
  return { status: 201, json: { id: client.id, password: generated }, mutated: true };
}

function createDomain(store: SimStore, body: Record<string, unknown>, options: RouteOptions): Answer {
  const { domain, id_user: idUser } = body;
  if (typeof domain !== 'string' || domain === '')
    return error(400, "The field 'domain' is required and must be a string.");
  if (!Number.isSafeInteger(idUser)) return error(400, "The field 'id_user' is required and must be an integer.");
  const problem = settingsProblem(body);
  if (problem !== undefined) return error(400, settingMessage(problem));
  const check = store.checkNewDomain(domain, idUser as number);
  if ('status' in check) return error(check.status, check.message);
  const parent = parentOf(store, body.id_parent_domain, check.name, idUser as number, options);
  if (typeof parent === 'object') return error(parent.status, parent.message);
  const settings = settingsOf(body);
  const created = store.addDomain(
    {
      name: check.name,
      idUser: idUser as number,
      system: false,
      settings,
      ...(parent === undefined ? {} : { idParent: parent }),
    },
    options.now(),
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

function ok(json: unknown): Answer {
  return { status: 200, json };
}

/** The panel's error shape: `code` is the status and reason phrase, as a string. */
export function error(status: number, message: string, headers?: Record<string, string>): Answer {
  return {
    status,
    json: { code: `${status} ${STATUS_CODES[status] ?? 'Error'}`, message },
    ...(headers ? { headers } : {}),
  };
}

export function notFound(path: string): Answer {
  return error(404, `No route matches ${path}.`);
}

function notAllowed(method: string, path: string, allowed: readonly string[]): Answer {
  return error(405, `The method ${method} is not allowed for ${path}.`, {
    allow: allowed.join(', '),
  });
}
