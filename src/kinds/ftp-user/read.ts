/**
 * The FTP users' list read (Kind.read): `GET /ftp-users`, only when the run's ask asks for it (a
 * manifest without `ftp_users` costs no request), ids and names unique; the index the planner and
 * the facts look FTP users up by (name, client id); how the secrets code finds one (by name, by
 * id); their part of a snapshot. Pure: the panel comes in through PanelListReader (../read.ts).
 */
import { quote } from '../../escape.js';
import type { JsonObject } from '../../util.js';
import type { PanelReader } from '../apply.js';
import type { PanelRequest } from '../common.js';
import { findById, ID_HINT, type KindRead, notAsked, type PanelListReader, unique } from '../read.js';
import { FTP_USERS_PATH, type LiveFtpUser, parseFtpUserRecord } from './record.js';

/**
 * The FTP users as one read of the panel holds them (Live, src/kinds/index.ts): `records`, and
 * whether they were read at all (`read`): a part not read holds none, and says nothing of the
 * panel's (no FTP user of it is judged gone, none pruned).
 */
export interface FtpUsersPart {
  readonly records: readonly LiveFtpUser[];
  readonly read: boolean;
}

/**
 * What the FTP users' read takes of the run's ask. `ftpUsers`: whether the run needs the panel's
 * FTP users (the manifest lists `ftp_users` under a client or names `prune.ftp_users`, a saved
 * plan holds an FTP user's change, export asks for them); left out, none is read.
 * (The ask's key is this room's until the stages' ask per kind is settled: plan/reads.ts.)
 */
export interface FtpUsersAsk {
  readonly ftpUsers?: boolean | undefined;
}

/** The FTP users as the planner and the facts look them up. */
export interface FtpUsersIndex {
  /** By name (lowercase). */
  readonly byName: ReadonlyMap<string, LiveFtpUser>;
  /** By their client's id (`id_user`), each client's in the panel's order; a record that does not say is in none. */
  readonly byClient: ReadonlyMap<number, readonly LiveFtpUser[]>;
}

/** The part of a read that did not read the FTP users. */
export const FTP_USERS_NOT_READ: FtpUsersPart = { records: [], read: false };

/** The FTP users' index of `records`. */
export function ftpUsersIndex(records: readonly LiveFtpUser[]): FtpUsersIndex {
  const byName = new Map<string, LiveFtpUser>();
  const byClient = new Map<number, LiveFtpUser[]>();
  for (const user of records) {
    byName.set(user.name, user);
    if (user.idUser === undefined) continue;
    const owned = byClient.get(user.idUser);
    if (owned === undefined) byClient.set(user.idUser, [user]);
    else owned.push(user);
  }
  return { byName, byClient };
}

/** The FTP users' list read (Kind.read): GET /ftp-users when the ask asks; ids and names unique. */
export const FTP_USER_READ: KindRead<FtpUsersPart, FtpUsersAsk, object, FtpUsersIndex> = {
  after: [],
  needed: (ask) => ask.ftpUsers === true,
  empty: FTP_USERS_NOT_READ,
  list: async (panel) => ({ records: await panel.list(FTP_USERS_PATH, parseFtpUserRecord), read: true }),
  check: (part, panel) => {
    const where = panel.describe('GET', FTP_USERS_PATH);
    unique(part.records, (u) => u.id, where, 'id');
    unique(part.records, (u) => u.name, where, 'username');
    return Promise.resolve();
  },
  index: (part) => ftpUsersIndex(part.records),
  snapshot: {
    // A snapshot of a read without FTP users has no key for them (and one taken before they were read reads so).
    write: (part) => (part.read ? { ftp_users: part.records.map(ftpUserRecord) } : {}),
    read: (reading) =>
      reading.value('ftp_users') === undefined
        ? FTP_USERS_NOT_READ
        : {
            records: reading.list('ftp_users').map((r, i) => parseFtpUserRecord(r, `${reading.at('ftp_users')}[${i}]`)),
            read: true,
          },
  },
  // The read holds every FTP user when it reads them, whatever --clients says (the scope filters the plan).
  lookUps: {
    inPart: (part) => (part.read ? part.records.map((u) => ({ name: u.name, id: u.id })) : undefined),
    find: findFtpUser,
    findById: findFtpUserById,
  },
};

/**
 * The FTP user named `name` (any case), from the panel's list (GET /ftp-users: the API documents
 * no look-up by name); undefined when the panel has none.
 */
export async function findFtpUser(panel: PanelListReader, name: string): Promise<LiveFtpUser | undefined> {
  const records = await panel.list(FTP_USERS_PATH, parseFtpUserRecord);
  const lower = name.toLowerCase();
  return records.find((u) => u.name === lower);
}

/** GET /ftp-users/{id}, parsed; undefined on 404 (none, or deleted meanwhile); a record with another id is a contract error. */
export function findFtpUserById(
  panel: Pick<PanelListReader, 'get' | 'describe' | 'statusOf'>,
  id: number,
): Promise<LiveFtpUser | undefined> {
  return findById(panel, FTP_USERS_PATH, id, parseFtpUserRecord, (u) => `FTP user ${quote(u.name)}`);
}

/**
 * The name the panel gave the FTP user it created as `id` (KindSecret.panelNaming): GET
 * /ftp-users/{id}, its `username` (lowercase).
 */
export async function ftpUserNameOf(panel: PanelReader, id: number): Promise<string | undefined> {
  return checkedRecord(panel, id, await panel.get(`${FTP_USERS_PATH}/${id}`)).name;
}

/**
 * The FTP users a create (`request`, its body's `id_user`) may have made under a name of the
 * panel's (KindSecret.panelNaming): GET /ftp-users, those of its client and those whose record
 * does not say whose they are (lowercase names, in the panel's order).
 */
export async function ftpUserCandidates(panel: PanelListReader, request: PanelRequest): Promise<readonly string[]> {
  const owner = request.body?.id_user;
  const records = await panel.list(FTP_USERS_PATH, parseFtpUserRecord);
  return records.filter((u) => u.idUser === undefined || u.idUser === owner).map((u) => u.name);
}

/** The record GET /ftp-users/{id} answered, parsed; one with another id is a contract error. */
function checkedRecord(panel: Pick<PanelReader, 'describe'>, id: number, found: unknown): LiveFtpUser {
  const where = panel.describe('GET', `${FTP_USERS_PATH}/${id}`);
  const record = parseFtpUserRecord(found, where);
  if (record.id !== id) throw notAsked(where, `FTP user ${quote(record.name)} (id ${record.id})`, ID_HINT);
  return record;
}

/** An FTP user in the panel's shape, as a snapshot holds it: what parseFtpUserRecord reads, under the keys the engine sends. */
export function ftpUserRecord(user: LiveFtpUser): JsonObject {
  return {
    id: user.id,
    username: user.name,
    ...(user.idUser === undefined ? {} : { id_user: user.idUser }),
    ...(user.description === undefined ? {} : { description: user.description }),
    ...(user.home === undefined ? {} : { home_directory: user.home }),
  };
}
