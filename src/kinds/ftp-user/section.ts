/**
 * The FTP user's manifest section (Kind.section, ../section.ts): `ftp_users` under a client item,
 * read and checked by manifest.ts (`ftpUserItems`, names remembered across the manifest and its
 * parts), `prune.ftp_users`, the diff under each client the planner walks (diff-rule.ts: a name
 * another client holds is a conflict naming it), and prune of a listed client's FTP users the
 * manifest does not list, never a `prune.keep` match. Not in the table of kinds yet: the FTP
 * user's descriptor takes it as its `section`. Pure.
 */
import { globMatcher } from '../../names.js';
import type { FtpUsersPart } from './read.js';
import { quote } from '../../escape.js';
import { plural } from '../../util.js';
import { isFtpUserConflict } from './changes.js';
import { type KindSection, NO_SECTION_DIFF, type SectionPlace } from '../section.js';
import type { FtpUserChange, FtpUserConflict } from './changes.js';
import { diffFtpUser, pruneFtpUsers } from './diff-rule.js';
import type { FtpUserField } from './fields.js';
import { FTP_USERS_KEY, ftpUserItems, type FtpUserSeen, ftpUserSeen, type ListedFtpUser } from './manifest.js';
import type { LiveFtpUser } from './record.js';

/** The panel's FTP users as the diff looks them up: by name, by owner. */
export interface FtpUserIndex {
  readonly byName: ReadonlyMap<string, LiveFtpUser>;
  readonly byOwner: ReadonlyMap<number, readonly LiveFtpUser[]>;
}

/** A managed field the panel's record of an FTP user does not carry. */
export interface FtpUserUnknown {
  readonly client: string;
  readonly ftp_user: string;
  readonly field: FtpUserField;
}

/** Whether a plan's unknown is an FTP user's. */
export function isFtpUserUnknown(u: object): u is FtpUserUnknown {
  return typeof (u as { ftp_user?: unknown }).ftp_user === 'string';
}

/** An unknown for people: the field is never compared nor changed. */
export function ftpUserUnknownLine(u: FtpUserUnknown): string {
  return `FTP user ${quote(u.ftp_user)}: the panel's record shows no ${u.field}: not compared, not changed`;
}

/** The FTP users of a client item as the manifest stage holds them. */
export type FtpUserItem = ListedFtpUser<SectionPlace>;

function indexFtpUsers(part: readonly LiveFtpUser[]): FtpUserIndex {
  const byName = new Map<string, LiveFtpUser>();
  const byOwner = new Map<number, LiveFtpUser[]>();
  for (const user of part) {
    byName.set(user.name, user);
    if (user.idUser === undefined) continue;
    const list = byOwner.get(user.idUser);
    if (list === undefined) byOwner.set(user.idUser, [user]);
    else list.push(user);
  }
  return { byName, byOwner };
}

/**
 * The FTP user's section: `ftp_users` under a client item, `prune.ftp_users`, and
 * `{ ftpUsers: true }` in the run's ask (the FTP user's list read: GET /ftp-users once).
 */
export const FTP_USER_SECTION: KindSection<
  'client',
  FtpUserItem,
  FtpUserSeen<SectionPlace>,
  FtpUsersPart,
  FtpUserIndex,
  FtpUserChange,
  FtpUserConflict,
  FtpUserUnknown
> = {
  parent: 'client',
  key: FTP_USERS_KEY,
  seen: (from) => (from === undefined ? ftpUserSeen() : new Map(from)),
  items(list, ctx, seen) {
    const read = ftpUserItems(list, {
      client: ctx.client,
      usernames: ctx.usernames,
      locate: ctx.locate,
      seen,
      clientAbsent: ctx.parentAbsent,
    });
    return { items: read.ftpUsers, problems: read.problems };
  },
  prune: { key: FTP_USERS_KEY },
  index: (part) => indexFtpUsers(part.records),
  diff(wanted, index, view) {
    const changes: FtpUserChange[] = [];
    const conflicts: FtpUserConflict[] = [];
    const unknowns: FtpUserUnknown[] = [];
    const ruleView = {
      client: view.client,
      clientId: view.clientId,
      domainCreated: view.domainCreated,
      ownerName: view.ownerName,
    };
    for (const want of wanted) {
      const decided = diffFtpUser(want, index.byName.get(want.name), ruleView);
      if (decided.action === 'conflict') {
        conflicts.push(decided.conflict);
        continue;
      }
      if (decided.change !== undefined) changes.push(decided.change);
      for (const field of decided.unknowns) unknowns.push({ client: view.client, ftp_user: want.name, field });
    }
    return { changes, conflicts, unknowns, notes: [] };
  },
  unlisted(wanted, index, view) {
    if (!view.prune || view.clientId === null) return NO_SECTION_DIFF;
    const listed = new Set((wanted ?? []).map((u) => u.name));
    const pruned = pruneFtpUsers(index.byOwner.get(view.clientId) ?? [], listed, globMatcher(view.keep), view.client);
    return { ...NO_SECTION_DIFF, changes: pruned };
  },
  conflicts: {
    is: isFtpUserConflict,
    at: (c) => ({ client: c.client, name: c.ftp_user }),
    nameOf: (item) => (item as FtpUserItem).name,
    summary: (n) => `${plural(n, 'FTP user')} of the manifest cannot be planned as listed`,
    hint: 'choose another name: FTP user names are unique on the whole panel',
  },
  asks: { ftpUsers: true },
};
