/**
 * FTP users in export (Kind.export.list: the `ftp_users` list of a client item): the client's FTP
 * users as export writes them (`export --with ftp-users`: export.ts ftpUserEntry, sorted by name,
 * never a password), and the edits of `export --into` (../list-export.ts): a listed FTP user's
 * `home` and `description` get the panel's values where they differ (a key the item leaves out
 * stays out); one the manifest cannot hold stays as written, warned. Pure.
 */
import { quote } from '../../escape.js';
import { globMatcher } from '../../names.js';
import { compare } from '../../util.js';
import { LONE_SURROGATE } from '../common.js';
import type { ExportedParent, ListExport, Warn } from '../export.js';
import { type ListRoom, listEditOf } from '../list-export.js';
import { ftpUserEntry } from './export.js';
import { FTP_USER_FIELDS } from './fields.js';
import { normalizeHome } from './home.js';
import { FTP_USERS_KEY } from './manifest.js';
import type { FtpUsersIndex } from './read.js';
import type { LiveFtpUser } from './record.js';
import type { FtpUserItem } from './section.js';

/** The live panel as the FTP users' export looks it up (export/model.ts LiveModel is one). */
export interface FtpUserExportPanel {
  readonly index: { indexOf(kind: 'ftp_user'): FtpUsersIndex };
}

/** The client's FTP users on the panel, by name. */
function clientFtpUsers(parent: ExportedParent<unknown>, panel: FtpUserExportPanel): LiveFtpUser[] {
  const owned = panel.index.indexOf('ftp_user').byClient.get(parent.ownerId) ?? [];
  return [...owned].sort((a, b) => compare(a.name, b.name));
}

/** An FTP user as export writes it, or undefined (warned) when its name cannot be written. */
function written(live: LiveFtpUser, owner: string, warn: Warn): unknown {
  const { entry, left } = ftpUserEntry(live);
  for (const reason of left) warn(`FTP user ${quote(live.name)} of client ${quote(owner)}: ${reason}`);
  return entry;
}

/** The keys of a listed FTP user whose values differ from the panel's (see the module comment). */
function ftpUserKeys(item: FtpUserItem, live: LiveFtpUser, name: string, warn: Warn) {
  const keys: { key: string; value: unknown }[] = [];
  for (const row of FTP_USER_FIELDS) {
    const wanted = item.wants[row.key];
    const seen = row.live(live);
    if (wanted === undefined || seen === undefined || row.same(seen, wanted)) continue;
    if (row.key === 'home') {
      const home = normalizeHome(seen);
      if ('home' in home) keys.push({ key: row.key, value: home.home });
      else warn(`${name}: the panel's home ${quote(seen)} is not one the manifest accepts: "home" left as written`);
    } else if (LONE_SURROGATE.test(seen))
      warn(`${name}: the panel's description is not valid Unicode: "description" left as written`);
    else keys.push({ key: row.key, value: seen });
  }
  return keys;
}

/** The FTP users in export: the `ftp_users` list of a client item. */
export const FTP_USERS_EXPORT: ListExport<FtpUserExportPanel, FtpUserItem, unknown> = {
  parent: 'client',
  key: FTP_USERS_KEY,
  entries: (parent, panel, warn) =>
    clientFtpUsers(parent, panel).flatMap((live) => written(live, parent.owner, warn) ?? []),
  identity: (item) => item.name,
  edits(listed, parent, panel, ctx, warn) {
    const index = panel.index.indexOf('ftp_user');
    const kept = globMatcher(ctx.keep);
    const describe = (item: FtpUserItem): string => `FTP user ${quote(item.name)} of client ${quote(parent.owner)}`;
    const room: ListRoom<FtpUserItem, LiveFtpUser> = {
      find: (item) => index.byName.get(item.name),
      present: (item) => item.state === 'present',
      elsewhere: (live) => (live.idUser !== undefined && live.idUser !== parent.ownerId ? 'another client' : undefined),
      keys: (item, live, w) => ftpUserKeys(item, live, describe(item), w),
      records: clientFtpUsers(parent, panel),
      identity: (live) => live.name,
      kept: (live) => kept(live.name),
      entry: (live, w) => written(live, parent.owner, w),
      describe,
    };
    return listEditOf(listed, room, ctx, warn);
  },
};
