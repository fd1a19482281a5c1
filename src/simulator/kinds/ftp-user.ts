/**
 * The simulator's module of FTP users: /ftp-users, the `ftp_users` of the seed's clients, and
 * their life with their client (kinds/ftp-user-records.ts has the record and the name rule).
 *
 *
 * Where the API's description is silent (docs/panel-api.md, "The simulator"), the simulator
 * chooses:
 * - GET /ftp-users lists every FTP user as a bare array, like the other lists; GET
 *   /ftp-users/{id} and /ftp-users/name/{username} answer one (404 unknown). No answer carries
 *   a password or its hash.
 * - Fields: `id_user` (integer), `username` (`[a-z0-9][a-z0-9._-]{0,63}`, not a client's or an
 *   administrator's username), `home_directory` (`/www` or `/files` or a folder under one, the
 *   leading '/' optional; stored with it, without a trailing '/'), `password` (a string of at
 *   least 8 characters), `description` (string). Other fields are ignored (`password_hash` too).
 * - POST: `id_user`, `username`, `home_directory` and `password` required. Checks in order, each
 *   a 400 unless said: body shape -> username -> home -> password length -> `id_user` a client
 *   (404, like POST /domains) -> the username free (no FTP user's, client's or
 *   administrator's). 201 `{"id"}`.
 * - With `customFtpUsernames: false` (a panel whose "custom FTP usernames" setting is off) the
 *   panel names the user itself: `<client's username>_ftp<N>`, N the smallest from 1 that is
 *   free; `username` may then be left out and is ignored when given (still checked when given).
 * - PUT /ftp-users/{id}: partial (`password` optional). Unknown id 404 -> body shape ->
 *   `username` or `id_user` other than the user's (400: an identity) -> the checks above.
 *   200 `{"id"}`.
 * - DELETE /ftp-users/{id}: as for databases. A client's delete deletes its FTP users, each its
 *   own change.
 */
import { isRecord } from '../../util.js';
import { type Answer, deleted, error } from '../answer.js';
import type { SeedContext, SimKind } from '../kind.js';
import type { SimStore } from '../store.js';
import { passwordProblem } from './client.js';
import { collection } from './collection.js';
import { FTP_USERNAME, readHome, type SimFtpUser, type SimulatorSeedFtpUser } from './ftp-user-records.js';
import { hashPassword } from './mailbox-records.js';
import type { Refusal } from './mailbox-requests.js';
import { type PasswordUpdate, updatedWithPassword } from './password-update.js';

/** A body's fields, their shapes checked; absent ones were not given. */
interface FtpUserFields {
  readonly idUser?: number;
  readonly username?: string;
  readonly home?: string;
  readonly password?: string;
  readonly description?: string;
}

const bad = (message: string): Refusal => ({ status: 400, message });

const NAME_RULE = "use a lowercase letter or digit first, then lowercase letters, digits, '.', '_' or '-' (at most 64)";

/** The fields of a POST or PUT body (or a seed item made into one). `required`: POST's (`username` aside). */
function fieldsOf(body: Readonly<Record<string, unknown>>, required: boolean): FtpUserFields | Refusal {
  const { id_user: idUser, username, home_directory: home, password, description } = body;
  if (required || idUser !== undefined)
    if (!Number.isSafeInteger(idUser)) return bad("The field 'id_user' is required and must be an integer.");
  if (username !== undefined && (typeof username !== 'string' || !FTP_USERNAME.test(username)))
    return bad(`The FTP username ${JSON.stringify(username)} is invalid: ${NAME_RULE}.`);
  if (required || home !== undefined)
    if (typeof home !== 'string') return bad("The field 'home_directory' is required and must be a string.");
  const readHomeDir = typeof home === 'string' ? readHome(home) : undefined;
  if (readHomeDir !== undefined && 'problem' in readHomeDir)
    return bad(`The home directory '${String(home)}' ${readHomeDir.problem}.`);
  if (required && password === undefined) return bad("The field 'password' is required: the panel makes none.");
  const badPassword = password === undefined ? undefined : passwordProblem(password);
  if (badPassword !== undefined) return bad(badPassword);
  if (description !== undefined && typeof description !== 'string')
    return bad("The field 'description' must be a string.");
  return {
    ...(idUser === undefined ? {} : { idUser: idUser as number }),
    ...(typeof username === 'string' ? { username } : {}),
    ...(readHomeDir === undefined ? {} : { home: readHomeDir.home }),
    ...(typeof password === 'string' ? { password } : {}),
    ...(description === undefined ? {} : { description }),
  };
}

/** Why `username` cannot be a new FTP user's, or undefined when it can. */
function takenProblem(store: SimStore, username: string): Refusal | undefined {
  if (store.keyed('ftpUsers', username) !== undefined) return bad(`The FTP username '${username}' is already taken.`);
  if (store.named('clients', username) !== undefined || store.named('admins', username) !== undefined)
    return bad(`The FTP username '${username}' is a panel user's username.`);
  return undefined;
}

/** The name a panel without custom FTP usernames gives a client's next FTP user. */
function panelName(store: SimStore, client: string): string {
  for (let n = 1; ; n += 1) {
    const name = `${client}_ftp${n}`;
    if (takenProblem(store, name) === undefined) return name;
  }
}

/** POST /ftp-users (or a seed's FTP user): the record added, or the refusal. `custom`: names as given. */
function addFtpUser(store: SimStore, fields: FtpUserFields, custom: boolean): SimFtpUser | Refusal {
  const { idUser = 0 } = fields;
  if (custom && fields.username === undefined) return bad("The field 'username' is required and must be a string.");
  const client = store.clients.get(idUser);
  if (client === undefined) return { status: 404, message: `The client with id_user ${idUser} was not found.` };
  const username = custom ? (fields.username ?? '') : panelName(store, client.username);
  const taken = takenProblem(store, username);
  if (taken !== undefined) return taken;
  const record: SimFtpUser = {
    id: store.nextId('ftpUsers'),
    id_user: client.id,
    username,
    description: fields.description ?? '',
    home_directory: fields.home ?? '/www',
  };
  store.set('ftpUsers', record);
  if (fields.password !== undefined)
    store.set('ftpUserPasswords', { id: record.id, hash: hashPassword(fields.password) });
  return record;
}

/** PUT /ftp-users/{id}: its description and home; its username and client never change. */
const FTP_USER_UPDATE: PasswordUpdate<SimFtpUser, FtpUserFields> = {
  notFound: 'The requested FTP user was not found.',
  get: (store, id) => store.ftpUsers.get(id),
  fieldsOf: (body) => fieldsOf(body, false),
  fixed: (fields, before) =>
    fields.username !== undefined && fields.username !== before.username
      ? 'The username of an FTP user cannot be changed.'
      : fields.idUser !== undefined && fields.idUser !== before.id_user
        ? 'An FTP user cannot be moved to another client.'
        : undefined,
  save: (store, before, fields) => {
    store.set('ftpUsers', {
      ...before,
      ...(fields.description === undefined ? {} : { description: fields.description }),
      ...(fields.home === undefined ? {} : { home_directory: fields.home }),
    });
  },
  savePassword: (store, id, hash) => {
    store.set('ftpUserPasswords', { id, hash });
  },
};

function updated(store: SimStore, id: number, body: unknown): Answer {
  return updatedWithPassword(FTP_USER_UPDATE, store, id, body);
}

const SEED_KEYS = ['name', 'home_directory', 'password', 'description'];

/** The first problem of a seed client's `ftp_users`, each pushed when `problems` is given. */
function seedProblems(value: unknown, where: string, problems: string[] = []): string | undefined {
  const first = problems.length;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of usernames or {"name": ...} objects`);
    return problems[first];
  }
  for (const [index, item] of (value as unknown[]).entries()) {
    const at = `${where}[${index}]`;
    const user = typeof item === 'string' ? { name: item } : item;
    if (!isRecord(user)) {
      problems.push(`${at} must be a username or an object {${SEED_KEYS.map((key) => `"${key}"`).join(', ')}}`);
      continue;
    }
    for (const key of Object.keys(user))
      if (!SEED_KEYS.includes(key))
        problems.push(`${at}: unknown key ${JSON.stringify(key)} (allowed: ${SEED_KEYS.join(', ')})`);
    if (typeof user.name !== 'string' || !FTP_USERNAME.test(user.name))
      problems.push(`${at}.name must be an FTP username: ${NAME_RULE}`);
    const fields = fieldsOf({ ...user, id_user: undefined }, false);
    if ('status' in fields) problems.push(`${at}: ${fields.message}`);
  }
  return problems[first];
}

function addSeedFtpUsers(
  store: SimStore,
  clientId: number,
  value: readonly unknown[],
  where: string,
  { fail }: SeedContext,
): void {
  for (const [index, item] of value.entries()) {
    const user = (typeof item === 'string' ? { name: item } : item) as SimulatorSeedFtpUser;
    const fields = fieldsOf({ ...user, id_user: clientId, username: user.name }, false);
    const added = 'status' in fields ? fields : addFtpUser(store, fields, true);
    if ('status' in added) fail(`${where}.ftp_users[${index}]: ${added.message}`);
  }
}

export const FTP_USER_SIM: SimKind<object, 'ftp_user'> = {
  name: 'ftp_user',
  routes: {
    'ftp-users': collection({
      list: 'ftpUsers',
      one: 'FTP user',
      create: (store, body, { options }) => {
        const custom = options.customFtpUsernames ?? true;
        const fields = fieldsOf(body, true);
        const added = 'status' in fields ? fields : addFtpUser(store, fields, custom);
        if ('status' in added) return error(added.status, added.message);
        return { status: 201, json: { id: added.id }, mutated: true };
      },
      update: updated,
      remove: (store, id, { options }) => {
        if (!store.ftpUsers.has(id)) return error(404, 'The requested FTP user was not found.');
        store.remove('ftpUsers', id);
        return deleted(id, options.deleteStatus);
      },
    }),
  },
  follows: {
    parent: 'client',
    removing: (store, clientId) => {
      for (const user of [...store.ftpUsers.values()]) if (user.id_user === clientId) store.remove('ftpUsers', user.id);
    },
  },
  childSeed: {
    parent: 'client',
    key: 'ftp_users',
    parse: (value, where, problems) => {
      seedProblems(value, `${where}.ftp_users`, problems);
      return value;
    },
    check: (value, where) => seedProblems(value, `${where}.ftp_users`),
    build: (value, client, store, where, context) => {
      if (Array.isArray(value)) addSeedFtpUsers(store, client.id, value as unknown[], where, context);
    },
  },
};
