/**
 * Databases in export (Kind.export.list: the `databases` list of a client item): the client's
 * databases as export writes them (`export --with databases`: export.ts databaseEntry, sorted by
 * name, never a password), and the edits of `export --into` (../list-export.ts): a listed
 * database's `user`, `remote_hosts` and `description` get the panel's values where they differ
 * (a key the item leaves out stays out, but a user other than the name is written: it is the
 * database's identity); one the manifest cannot hold stays as written, warned. Pure.
 */
import { quote } from '../../escape.js';
import { compare } from '../../util.js';
import { LONE_SURROGATE } from '../common.js';
import type { ExportedParent, ListExport, Warn } from '../export.js';
import { type ListRoom, listEditOf } from '../list-export.js';
import { databaseEntry } from './export.js';
import { DATABASE_FIELDS } from './fields.js';
import { DATABASE_USER_PATTERN, DATABASES_KEY } from './manifest.js';
import type { DatabasesIndex } from './read.js';
import type { LiveDatabase } from './record.js';
import type { DatabaseItem } from './section.js';

/** The live panel as the databases' export looks it up (export/model.ts LiveModel is one). */
export interface DatabaseExportPanel {
  readonly index: { indexOf(kind: 'database'): DatabasesIndex };
}

/** The client's databases on the panel, by name. */
function clientDatabases(parent: ExportedParent<unknown>, panel: DatabaseExportPanel): LiveDatabase[] {
  const owned = panel.index.indexOf('database').byClient.get(parent.ownerId) ?? [];
  return [...owned].sort((a, b) => compare(a.name, b.name));
}

/** A database as export writes it, or undefined (warned) when its name or user cannot be written. */
function written(live: LiveDatabase, owner: string, warn: Warn): unknown {
  const { entry, left } = databaseEntry(live);
  for (const reason of left) warn(`database ${quote(live.name)} of client ${quote(owner)}: ${reason}`);
  return entry;
}

/** The keys of a listed database whose values differ from the panel's (see the module comment). */
function databaseKeys(item: DatabaseItem, live: LiveDatabase, name: string, warn: Warn) {
  const keys: { key: string; value: unknown }[] = [];
  if (live.user !== undefined && live.user !== item.user) {
    if (DATABASE_USER_PATTERN.test(live.user)) keys.push({ key: 'user', value: live.user });
    else warn(`${name}: the panel's user ${quote(live.user)} is not one the manifest accepts: "user" left as written`);
  }
  const entry = databaseEntry(live).entry;
  for (const row of DATABASE_FIELDS) {
    const wanted = item.wants[row.key];
    const seen = row.live(live);
    if (wanted === undefined || seen === undefined || row.same(seen, wanted)) continue;
    if (row.key === 'remote_hosts') {
      if (entry?.remote_hosts === undefined)
        warn(`${name}: a remote host of the panel's is not one the manifest accepts: "remote_hosts" left as written`);
      else keys.push({ key: row.key, value: entry.remote_hosts });
    } else if (typeof seen === 'string' && LONE_SURROGATE.test(seen))
      warn(`${name}: the panel's description is not valid Unicode: "description" left as written`);
    else keys.push({ key: row.key, value: seen });
  }
  return keys;
}

/** The databases in export: the `databases` list of a client item. */
export const DATABASES_EXPORT: ListExport<DatabaseExportPanel, DatabaseItem, unknown> = {
  parent: 'client',
  key: DATABASES_KEY,
  entries: (parent, panel, warn) =>
    clientDatabases(parent, panel).flatMap((live) => written(live, parent.owner, warn) ?? []),
  identity: (item) => item.name,
  edits(listed, parent, panel, ctx, warn) {
    const index = panel.index.indexOf('database');
    const describe = (item: DatabaseItem): string => `database ${quote(item.name)} of client ${quote(parent.owner)}`;
    const room: ListRoom<DatabaseItem, LiveDatabase> = {
      find: (item) => index.byName.get(item.name),
      present: (item) => item.state === 'present',
      elsewhere: (live) => (live.idUser !== undefined && live.idUser !== parent.ownerId ? 'another client' : undefined),
      keys: (item, live, w) => databaseKeys(item, live, describe(item), w),
      records: clientDatabases(parent, panel),
      identity: (live) => live.name,
      entry: (live, w) => written(live, parent.owner, w),
      describe,
    };
    return listEditOf(listed, room, ctx, warn);
  },
};
