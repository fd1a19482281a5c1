/**
 * PUT and DELETE of clients and domains, as billing systems drive them (panel-api.md, "The
 * account lifecycle"). Where the API's description is silent, the simulator chooses:
 * - PUT is partial: only the fields sent change. A client takes `id_hosting_plan` (an existing
 *   plan; null or 0 for none), `email` (an address, or "" for none), `is_suspended` (boolean),
 *   `language` and `password` (see below); a domain takes `is_disabled`, `php_version`,
 *   `security` and `target` (domain-settings.ts: a nested object given replaces the stored one
 *   whole, keys left out are gone; a wrong type is a 400 and nothing changes).
 *   A different `username` or `domain` is refused with 400: they are identities. Other fields
 *   (the record's read-only ones like `status` or `apache` too) are ignored. The answer is 200
 *   `{"id": N}`.
 * - DELETE of a client takes all its domains with it (system ones too). DELETE of a domain
 *   that has subdomains is refused with 400 (delete them first); a system domain is refused
 *   with 400. The answer is 200 `{"id": N}`, or 204 without a body with `deleteStatus: 204`.
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
import type { Answer } from './answer.js';
import { settingMessage, settingsOf, settingsProblem, withSettings } from './domain-settings.js';
import type { SimClient, SimStore } from './store.js';
import { isRecord } from '../util.js';

export interface LifecycleOptions {
  /** How a DELETE answers: 200 with `{"id"}` (default) or 204 without a body. */
  readonly deleteStatus: 200 | 204;
}

type Refuse = (status: number, message: string) => Answer;

/** The shortest password the simulator accepts, like the panel's own rules ("at least 8 characters everywhere"). */
const MIN_PASSWORD_LENGTH = 8;

/** Why a `password` field is refused (400), or undefined when it is accepted. */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string') return "The field 'password' must be a string.";
  if (Array.from(password).length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  return undefined;
}

export function updateClient(store: SimStore, id: number, body: unknown, refuse: Refuse): Answer {
  const client = store.clients.get(id);
  if (client === undefined) return refuse(404, 'The requested client was not found.');
  if (!isRecord(body)) return refuse(400, 'The request body must be a JSON object.');
  const { username, email, id_hosting_plan: plan, is_suspended: suspended, language } = body;
  if (username !== undefined && username !== client.username)
    return refuse(400, 'The username of a client cannot be changed.');
  if (email !== undefined && (typeof email !== 'string' || (email !== '' && !/^[^@\s]+@[^@\s]+$/.test(email)))) {
    return refuse(400, "The field 'email' must be a valid email address.");
  }
  if (
    plan !== undefined &&
    plan !== null &&
    plan !== 0 &&
    !(Number.isSafeInteger(plan) && store.plans.has(plan as number))
  ) {
    return refuse(400, `The hosting plan with id ${JSON.stringify(plan)} does not exist.`);
  }
  if (suspended !== undefined && typeof suspended !== 'boolean')
    return refuse(400, "The field 'is_suspended' must be a boolean.");
  if (language !== undefined && typeof language !== 'string')
    return refuse(400, "The field 'language' must be a string.");
  const badPassword = body.password === undefined ? undefined : passwordProblem(body.password);
  if (badPassword !== undefined) return refuse(400, badPassword);
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
  store.replaceClient(next);
  if (typeof body.password === 'string') store.setPassword(id, body.password);
  return { status: 200, json: { id }, mutated: true };
}

export function deleteClient(store: SimStore, id: number, options: LifecycleOptions, refuse: Refuse): Answer {
  if (!store.clients.has(id)) return refuse(404, 'The requested client was not found.');
  store.removeClient(id);
  return deleted(id, options);
}

export function updateDomain(store: SimStore, id: number, body: unknown, refuse: Refuse): Answer {
  const domain = store.domains.get(id);
  if (domain === undefined) return refuse(404, 'The requested domain was not found.');
  if (!isRecord(body)) return refuse(400, 'The request body must be a JSON object.');
  const { domain: name, is_disabled: disabled } = body;
  if (name !== undefined && name !== domain.domain && name !== domain.domain_utf8)
    return refuse(400, 'The name of a domain cannot be changed.');
  if (disabled !== undefined && typeof disabled !== 'boolean')
    return refuse(400, "The field 'is_disabled' must be a boolean.");
  const problem = settingsProblem(body);
  if (problem !== undefined) return refuse(400, settingMessage(problem));
  const next = withSettings(domain, settingsOf(body), 'whole');
  store.replaceDomain({ ...next, ...(disabled === undefined ? {} : { is_disabled: disabled }) });
  return { status: 200, json: { id }, mutated: true };
}

export function deleteDomain(store: SimStore, id: number, options: LifecycleOptions, refuse: Refuse): Answer {
  const domain = store.domains.get(id);
  if (domain === undefined) return refuse(404, 'The requested domain was not found.');
  if (domain.is_system_domain) return refuse(400, 'A system domain cannot be deleted.');
  for (const other of store.domains.values()) {
    if (other.id_parent_domain === id)
      return refuse(400, `The domain '${domain.domain}' has subdomains: delete them first.`);
  }
  store.removeDomain(id);
  return deleted(id, options);
}

function deleted(id: number, options: LifecycleOptions): Answer {
  return options.deleteStatus === 204 ? { status: 204, mutated: true } : { status: 200, json: { id }, mutated: true };
}
