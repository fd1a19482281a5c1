/**
 * A client item's `databases` list as the manifest gives it (`databases: [{name: alice_wp, user:
 * alice_wp, remote_hosts: ["192.0.2.0/24"], description: WordPress}, {name: old_db, state:
 * absent}]`): the databases it wants, and the checks the JSON Schema cannot make, each at
 * file:line:column with what to write: a name or user the panel refuses (the rule is said), a
 * remote host that is none, a host listed twice, a name or user listed twice in the manifest
 * (across the parts of a manifest directory through the `seen` the caller shares), a database
 * marked absent with other keys. `prune.databases` is refused (databasePruneProblem): a database
 * is deleted only by `state: absent`. The schema checks the shapes (the room's schema.json); an
 * item it refuses is passed over here. Pure: the caller hands in where things stand (a locator).
 */
import { quote } from '../../escape.js';
import { isRecord, placeOf } from '../../util.js';
import { DATABASE_FIELD_NAMES, type DatabaseWants } from './fields.js';
import { hostSet, normalizeRemoteHost } from './hosts.js';
import type { PathLocator, PlacedProblem, SectionPlace as Place } from '../section.js';

/** The key of a client item that lists its databases (and the key `prune` refuses). */
export const DATABASES_KEY = 'databases';

/** The key under which an item names its database; the key of its user. */
export const DATABASE_NAME_KEY = 'name';
export const DATABASE_USER_KEY = 'user';

/** The keys of a database item, in the order the schema lists them. */
export const DATABASE_ITEM_KEYS: readonly string[] = [
  DATABASE_NAME_KEY,
  'state',
  DATABASE_USER_KEY,
  ...DATABASE_FIELD_NAMES,
];

/** The panel's rule for a database's name (docs/panel-api.md: the simulator's, close to MySQL's). */
export const DATABASE_NAME_PATTERN = /^[a-z0-9_]{1,64}$/;
export const DATABASE_NAME_RULE = 'lowercase letters a-z, digits and "_", 1 to 64 characters';

/** The panel's rule for a database user's name. */
export const DATABASE_USER_PATTERN = /^[a-z0-9_]{1,32}$/;
export const DATABASE_USER_RULE = 'lowercase letters a-z, digits and "_", 1 to 32 characters';

export type { Place };

/** A problem at its place, as the manifest stage collects them. */
export type DatabaseProblem<L extends Place> = PlacedProblem<L>;

/** Where a path below the `databases` list stands (`[0, 'remote_hosts', 1]`), at its key rather than its value when `atKey`. */
export type DatabaseLocator<L extends Place> = PathLocator<L>;

/** A database as the manifest wants it. */
export interface WantedDatabase {
  readonly name: string;
  /** Its user: as given, else the name. */
  readonly user: string;
  /** Whether the item gives `user` (else it defaults to the name). */
  readonly userGiven: boolean;
  readonly state: 'present' | 'absent';
  /** The fields it manages (none for one marked absent); remote hosts in comparison form. */
  readonly wants: DatabaseWants;
}

/** A database the list gives, and where its name stands. */
export interface ListedDatabase<L extends Place> extends WantedDatabase {
  readonly loc: L;
}

/** An earlier entry that holds a name or a user: which database, of which client, where. */
interface Taken<L extends Place> {
  readonly database: string;
  readonly client: string;
  readonly loc: L;
}

/**
 * The names and users the manifest lists so far, shared across its clients and parts: a
 * database's name (present or absent) once, a user once among present databases (an absent one
 * frees its user: another may take it in the same apply).
 */
export interface DatabaseSeen<L extends Place> {
  readonly names: Map<string, Taken<L>>;
  readonly users: Map<string, Taken<L>>;
}

export function databaseSeen<L extends Place>(): DatabaseSeen<L> {
  return { names: new Map(), users: new Map() };
}

/** What the list is read against: its client and the caller's places. */
export interface DatabaseListContext<L extends Place> {
  /** How messages name the client: `client "alice"`. */
  readonly client: string;
  readonly locate: DatabaseLocator<L>;
  readonly seen: DatabaseSeen<L>;
  /** The client item says `state: absent`: it has no databases (they go with it). */
  readonly clientAbsent?: boolean;
}

type ErrorAt = (path: readonly (string | number)[], message: string, atKey?: boolean) => void;

/**
 * The databases a client item's `databases` list gives (in its order; an item the schema refuses,
 * or whose name is refused or listed twice, is left out), and every problem the schema leaves to
 * the room.
 */
export function databaseItems<L extends Place>(
  list: unknown,
  ctx: DatabaseListContext<L>,
): { readonly databases: ListedDatabase<L>[]; readonly problems: DatabaseProblem<L>[] } {
  const databases: ListedDatabase<L>[] = [];
  const problems: DatabaseProblem<L>[] = [];
  if (!Array.isArray(list)) return { databases, problems };
  if (ctx.clientAbsent === true) {
    problems.push({
      ...ctx.locate([], false),
      severity: 'error',
      message:
        `${ctx.client} has state: absent and "${DATABASES_KEY}": a client that is deleted has no databases ` +
        `(they go with it, with their data); remove "${DATABASES_KEY}", or the state`,
    });
    return { databases, problems };
  }
  list.forEach((item: unknown, index) => {
    const error: ErrorAt = (path, message, atKey = false) => {
      problems.push({ ...ctx.locate([index, ...path], atKey), severity: 'error', message });
    };
    const database = readItem(item, index, ctx, error);
    if (database !== undefined) databases.push(database);
  });
  return { databases, problems };
}

/** One item, checked; undefined when the schema refuses its shape, or its name is refused or taken. */
function readItem<L extends Place>(
  item: unknown,
  index: number,
  ctx: DatabaseListContext<L>,
  error: ErrorAt,
): ListedDatabase<L> | undefined {
  if (!isRecord(item) || typeof item[DATABASE_NAME_KEY] !== 'string') return undefined;
  const name = item[DATABASE_NAME_KEY];
  if (!DATABASE_NAME_PATTERN.test(name)) {
    error(
      [DATABASE_NAME_KEY],
      `"${DATABASE_NAME_KEY}" ${quote(name)} of database #${index + 1} of ${ctx.client} is not a name the panel ` +
        `accepts: a database's name is ${DATABASE_NAME_RULE}`,
    );
    return undefined;
  }
  const label = `database ${quote(name)}`;
  const loc = ctx.locate([index, DATABASE_NAME_KEY], false);
  const state = item.state === 'absent' ? 'absent' : 'present';
  const first = ctx.seen.names.get(name);
  if (first !== undefined) {
    error(
      [DATABASE_NAME_KEY],
      `${label} is listed twice (first at ${placeOf(first.loc, loc.file)}, under ${first.client}): ` +
        'a database name is unique on the whole panel; remove one',
    );
    return undefined;
  }
  ctx.seen.names.set(name, { database: name, client: ctx.client, loc });
  if (state === 'absent') {
    const extra = [DATABASE_USER_KEY, ...DATABASE_FIELD_NAMES].filter((key) => Object.hasOwn(item, key));
    const [key] = extra;
    if (key !== undefined)
      error(
        [key],
        `${label} has state: absent: remove ${extra.map((k) => `"${k}"`).join(', ')} (a database that is deleted ` +
          `has no other keys than "${DATABASE_NAME_KEY}" and "state"), or remove "state: absent" to keep the database ` +
          'and its data',
        true,
      );
    return { name, user: name, userGiven: false, state, wants: {}, loc };
  }
  const given = typeof item[DATABASE_USER_KEY] === 'string' ? item[DATABASE_USER_KEY] : undefined;
  const user = given ?? name;
  if (!DATABASE_USER_PATTERN.test(user))
    error(
      given === undefined ? [DATABASE_NAME_KEY] : [DATABASE_USER_KEY],
      given === undefined
        ? `${label} has no "${DATABASE_USER_KEY}", so its user is its name, which the panel refuses as a user ` +
            `(a database user is ${DATABASE_USER_RULE}): give a "${DATABASE_USER_KEY}"`
        : `"${DATABASE_USER_KEY}" ${quote(user)} of ${label} is not a user the panel accepts: a database user is ${DATABASE_USER_RULE}`,
    );
  else {
    const holder = ctx.seen.users.get(user);
    if (holder !== undefined)
      error(
        given === undefined ? [DATABASE_NAME_KEY] : [DATABASE_USER_KEY],
        `the user ${quote(user)} of ${label} is already the user of database ${quote(holder.database)} ` +
          `(at ${placeOf(holder.loc, loc.file)}): a database user belongs to one database; give another "${DATABASE_USER_KEY}"`,
      );
    else
      ctx.seen.users.set(user, {
        database: name,
        client: ctx.client,
        loc: given === undefined ? loc : ctx.locate([index, DATABASE_USER_KEY], false),
      });
  }
  return { name, user, userGiven: given !== undefined, state, wants: itemWants(item, label, error), loc };
}

/** The fields a present item gives, each checked; a value refused is left out (not managed). */
function itemWants(item: Readonly<Record<string, unknown>>, label: string, error: ErrorAt): DatabaseWants {
  const wants: { -readonly [K in keyof DatabaseWants]: DatabaseWants[K] } = {};
  if (Array.isArray(item.remote_hosts)) {
    const hosts = remoteHosts(item.remote_hosts, label, error);
    if (hosts !== undefined) wants.remote_hosts = hosts;
  }
  if (typeof item.description === 'string') wants.description = item.description;
  return wants;
}

/** Each remote host in comparison form, each once; undefined (not managed) when one is refused. */
function remoteHosts(list: readonly unknown[], label: string, error: ErrorAt): readonly string[] | undefined {
  const hosts: string[] = [];
  const refused = { any: false };
  list.forEach((entry, i) => {
    if (typeof entry !== 'string') return; // the schema refuses it
    const what = `remote host ${quote(entry)} of ${label}`;
    const read = normalizeRemoteHost(entry);
    if ('problem' in read) {
      refused.any = true;
      error(['remote_hosts', i], `${what} ${read.problem}`);
    } else if (hosts.includes(read.host)) {
      refused.any = true;
      error(['remote_hosts', i], `${what} is listed twice in its remote_hosts: remove one`);
    } else hosts.push(read.host);
  });
  return refused.any ? undefined : hostSet(hosts);
}

/**
 * `prune.databases` in the manifest (`at` where its key stands): always an error, whatever its
 * value, for a database holds data that an omission must never destroy.
 */
export function databasePruneProblem<L extends Place>(at: L): DatabaseProblem<L> {
  return {
    ...at,
    severity: 'error',
    message:
      `prune.${DATABASES_KEY} is not accepted: a database is never deleted for not being listed, only by ` +
      `"state: absent" on its name (its data goes with it); remove prune.${DATABASES_KEY}`,
  };
}
