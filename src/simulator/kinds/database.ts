/**
 * The simulator's module of databases: /databases, the `databases` of the seed's clients, and
 * their life with their client (kinds/database-records.ts has the record and the name rules).
 *
 *
 * Where the API's description is silent (docs/panel-api.md, "The simulator"), the simulator
 * chooses:
 * - GET /databases lists every database as a bare array, like the other lists; GET
 *   /databases/{id} and /databases/name/{database_name} answer one (404 unknown). No answer
 *   carries a password or its hash.
 * - Fields: `id_user` (integer), `database_name` (`[a-z0-9_]{1,64}`), `database_username`
 *   (`[a-z0-9_]{1,32}`; default: the database name), `password` (a string of at least 8
 *   characters), `description` (string), `remote_hosts` (an array of IP addresses, networks or
 *   host names, none twice; [] local access only). Other fields are ignored (`password_hash`
 *   too).
 * - POST: `id_user`, `database_name` and `password` required. Checks in order, each a 400
 *   unless said: body shape -> names -> password length -> remote hosts -> `id_user` a client
 *   (404, like POST /domains) -> the name free across the panel -> the user free across the
 *   panel. 201 `{"id"}`.
 * - PUT /databases/{id}: partial (`remote_hosts` replaces the list whole, `password` optional).
 *   Unknown id 404 -> body shape -> `database_name`, `database_username` or `id_user` other
 *   than the database's (400: an identity) -> the checks above. 200 `{"id"}`.
 * - DELETE /databases/{id}: 200 `{"id": N}`, or 204 without a body with `deleteStatus: 204`;
 *   404 for an unknown id. A client's delete deletes its databases, each its own change.
 */
import { isRecord } from '../../util.js';
import { type Answer, deleted, error } from '../answer.js';
import type { SeedContext, SimKind } from '../kind.js';
import type { SimStore } from '../store.js';
import { passwordProblem } from './client.js';
import { collection } from './collection.js';
import {
  DATABASE_NAME,
  DATABASE_USER,
  readRemoteHost,
  type SimDatabase,
  type SimulatorSeedDatabase,
  userKey,
} from './database-records.js';
import { hashPassword } from './mailbox-records.js';
import type { Refusal } from './mailbox-requests.js';
import { type PasswordUpdate, updatedWithPassword } from './password-update.js';

/** A body's fields, their shapes checked; absent ones were not given. */
interface DatabaseFields {
  readonly idUser?: number;
  readonly name?: string;
  readonly user?: string;
  readonly password?: string;
  readonly description?: string;
  readonly remoteHosts?: readonly string[];
  /** The seed's only. */
  readonly size?: number;
}

const bad = (message: string): Refusal => ({ status: 400, message });

const NAME_RULE = 'use 1 to 64 lowercase letters, digits or underscores';
const USER_RULE = 'use 1 to 32 lowercase letters, digits or underscores';

function remoteHosts(value: unknown): readonly string[] | Refusal {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    return bad("The field 'remote_hosts' must be an array of IP addresses, networks or host names.");
  const hosts: string[] = [];
  for (const item of value) {
    const read = readRemoteHost(item);
    if ('problem' in read) return bad(`The remote host '${item}' ${read.problem}.`);
    if (hosts.includes(read.host)) return bad(`The remote host '${item}' is listed twice in 'remote_hosts'.`);
    hosts.push(read.host);
  }
  return hosts;
}

/** The fields of a POST or PUT body (or a seed item made into one). `required`: POST's; `size`: the seed's. */
function fieldsOf(body: Readonly<Record<string, unknown>>, required: boolean, size = false): DatabaseFields | Refusal {
  const { id_user: idUser, database_name: name, database_username: user, password, description } = body;
  if (required || idUser !== undefined)
    if (!Number.isSafeInteger(idUser)) return bad("The field 'id_user' is required and must be an integer.");
  if (required || name !== undefined)
    if (typeof name !== 'string') return bad("The field 'database_name' is required and must be a string.");
  if (typeof name === 'string' && !DATABASE_NAME.test(name))
    return bad(`The database name '${name}' is invalid: ${NAME_RULE}.`);
  if (user !== undefined && (typeof user !== 'string' || !DATABASE_USER.test(user)))
    return bad(`The database user ${JSON.stringify(user)} is invalid: ${USER_RULE}.`);
  if (required && password === undefined) return bad("The field 'password' is required: the panel makes none.");
  const badPassword = password === undefined ? undefined : passwordProblem(password);
  if (badPassword !== undefined) return bad(badPassword);
  if (description !== undefined && typeof description !== 'string')
    return bad("The field 'description' must be a string.");
  if (size && body.size !== undefined && !(Number.isSafeInteger(body.size) && (body.size as number) >= 0))
    return bad("The field 'size' must be a whole number of bytes, 0 or more.");
  const hosts = body.remote_hosts === undefined ? undefined : remoteHosts(body.remote_hosts);
  if (hosts !== undefined && 'status' in hosts) return hosts;
  return {
    ...(idUser === undefined ? {} : { idUser: idUser as number }),
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof user === 'string' ? { user } : {}),
    ...(typeof password === 'string' ? { password } : {}),
    ...(description === undefined ? {} : { description }),
    ...(hosts === undefined ? {} : { remoteHosts: hosts }),
    ...(size && body.size !== undefined ? { size: body.size as number } : {}),
  };
}

/** POST /databases (or a seed's database): the record added, or the refusal. */
function addDatabase(store: SimStore, fields: DatabaseFields): SimDatabase | Refusal {
  const { idUser = 0, name = '' } = fields;
  const user = fields.user ?? name;
  if (user.length > 32) return bad(`The database user '${user}' is invalid: ${USER_RULE}.`);
  const client = store.clients.get(idUser);
  if (client === undefined) return { status: 404, message: `The client with id_user ${idUser} was not found.` };
  if (store.keyed('databases', name) !== undefined) return bad(`The database name '${name}' is already taken.`);
  if (store.keyed('databases', userKey(user)) !== undefined)
    return bad(`The database user '${user}' is already taken.`);
  const record: SimDatabase = {
    id: store.nextId('databases'),
    id_user: client.id,
    database_name: name,
    database_username: user,
    description: fields.description ?? '',
    size: fields.size ?? 0,
    remote_hosts: fields.remoteHosts ?? [],
  };
  store.set('databases', record);
  if (fields.password !== undefined)
    store.set('databasePasswords', { id: record.id, hash: hashPassword(fields.password) });
  return record;
}

function created(store: SimStore, body: Record<string, unknown>): Answer {
  const fields = fieldsOf(body, true);
  const added = 'status' in fields ? fields : addDatabase(store, fields);
  if ('status' in added) return error(added.status, added.message);
  return { status: 201, json: { id: added.id }, mutated: true };
}

/** PUT /databases/{id}: its description and remote hosts; its name, user and client never change. */
const DATABASE_UPDATE: PasswordUpdate<SimDatabase, DatabaseFields> = {
  notFound: 'The requested database was not found.',
  get: (store, id) => store.databases.get(id),
  fieldsOf: (body) => fieldsOf(body, false),
  fixed: (fields, before) =>
    fields.name !== undefined && fields.name !== before.database_name
      ? 'The name of a database cannot be changed.'
      : fields.user !== undefined && fields.user !== before.database_username
        ? 'The user of a database cannot be changed.'
        : fields.idUser !== undefined && fields.idUser !== before.id_user
          ? 'A database cannot be moved to another client.'
          : undefined,
  save: (store, before, fields) => {
    store.set('databases', {
      ...before,
      ...(fields.description === undefined ? {} : { description: fields.description }),
      ...(fields.remoteHosts === undefined ? {} : { remote_hosts: fields.remoteHosts }),
    });
  },
  savePassword: (store, id, hash) => {
    store.set('databasePasswords', { id, hash });
  },
};

function updated(store: SimStore, id: number, body: unknown): Answer {
  return updatedWithPassword(DATABASE_UPDATE, store, id, body);
}

const SEED_KEYS = ['name', 'database_username', 'password', 'description', 'remote_hosts', 'size'];

/** The first problem of a seed client's `databases`, each pushed when `problems` is given. */
function seedProblems(value: unknown, where: string, problems: string[] = []): string | undefined {
  const first = problems.length;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of names or {"name": ...} objects`);
    return problems[first];
  }
  for (const [index, item] of (value as unknown[]).entries()) {
    const at = `${where}[${index}]`;
    const database = typeof item === 'string' ? { name: item } : item;
    if (!isRecord(database)) {
      problems.push(`${at} must be a name or an object {${SEED_KEYS.map((key) => `"${key}"`).join(', ')}}`);
      continue;
    }
    for (const key of Object.keys(database))
      if (!SEED_KEYS.includes(key))
        problems.push(`${at}: unknown key ${JSON.stringify(key)} (allowed: ${SEED_KEYS.join(', ')})`);
    if (typeof database.name !== 'string' || !DATABASE_NAME.test(database.name))
      problems.push(`${at}.name must be a database name: ${NAME_RULE}`);
    const fields = fieldsOf({ ...database, name: undefined, id_user: undefined }, false, true);
    if ('status' in fields) problems.push(`${at}: ${fields.message}`);
  }
  return problems[first];
}

function addSeedDatabases(
  store: SimStore,
  clientId: number,
  value: readonly unknown[],
  where: string,
  { fail }: SeedContext,
): void {
  for (const [index, item] of value.entries()) {
    const database = (typeof item === 'string' ? { name: item } : item) as SimulatorSeedDatabase;
    const fields = fieldsOf({ ...database, id_user: clientId, database_name: database.name }, false, true);
    const added = 'status' in fields ? fields : addDatabase(store, fields);
    if ('status' in added) fail(`${where}.databases[${index}]: ${added.message}`);
  }
}

export const DATABASE_SIM: SimKind<object, 'database'> = {
  name: 'database',
  routes: {
    databases: collection({
      list: 'databases',
      one: 'database',
      create: created,
      update: updated,
      remove: (store, id, { options }) => {
        if (!store.databases.has(id)) return error(404, 'The requested database was not found.');
        store.remove('databases', id);
        return deleted(id, options.deleteStatus);
      },
    }),
  },
  follows: {
    parent: 'client',
    removing: (store, clientId) => {
      for (const database of [...store.databases.values()])
        if (database.id_user === clientId) store.remove('databases', database.id);
    },
  },
  childSeed: {
    parent: 'client',
    key: 'databases',
    parse: (value, where, problems) => {
      seedProblems(value, `${where}.databases`, problems);
      return value;
    },
    check: (value, where) => seedProblems(value, `${where}.databases`),
    build: (value, client, store, where, context) => {
      if (Array.isArray(value)) addSeedDatabases(store, client.id, value as unknown[], where, context);
    },
  },
};
