/**
 * The database's diff rule, as the planner asks it under each client it plans: a database the
 * panel lacks is created (after its client's create in the same run); one it has gets an update
 * with the managed fields that differ (fields.ts: remote_hosts as a set, a field the record does
 * not carry an unknown, never a change); `state: absent` deletes one the panel has, marked as
 * destroying data. Conflicts, with nothing sent, whatever else is wrong with the entry: a name
 * the panel has under another client (named), and a rename (a changed user, or a user another
 * database holds). An unlisted database is never deleted: prune has no say (unlistedNote). Pure:
 * the planner hands in what it knows of the client and the panel's databases.
 */
import { plural } from '../../util.js';
import { quote } from '../../escape.js';
import {
  createDatabase,
  type DatabaseChange,
  type DatabaseConflict,
  deleteDatabase,
  updateDatabase,
} from './changes.js';
import { databaseFieldChanges, type DatabaseField } from './fields.js';
import type { WantedDatabase } from './manifest.js';
import type { LiveDatabase } from './record.js';

/** What the rule reads beside the database's own record. */
export interface DatabaseDiffView {
  /** The owner's username, as the manifest lists it. */
  readonly client: string;
  /** The owner's id on the panel; null when the same run creates the client. */
  readonly clientId: number | null;
  /** How a conflict names the client with this id: its username, or `#<id>` when it is no client. */
  ownerName(idUser: number): string;
  /** The panel's database whose user is `user`, if any. */
  databaseWithUser(user: string): LiveDatabase | undefined;
}

/** What the rule decides of one database: a change, a conflict (then no change), or neither. */
export interface DatabaseDecision {
  readonly change: DatabaseChange | undefined;
  readonly conflict: DatabaseConflict | undefined;
  /** The managed fields the panel's record does not carry, in the table's order. */
  readonly unknowns: readonly DatabaseField[];
}

const NONE: DatabaseDecision = { change: undefined, conflict: undefined, unknowns: [] };

/** The rule for a database the manifest lists, against the panel's record of its name (undefined: none). */
export function diffDatabase(
  want: WantedDatabase,
  live: LiveDatabase | undefined,
  view: DatabaseDiffView,
): DatabaseDecision {
  const conflict = (c: DatabaseConflict): DatabaseDecision => ({ ...NONE, conflict: c });
  const base = { database: want.name, client: view.client };
  // A record that does not say whose it is may be another client's: never updated nor deleted.
  if (live !== undefined && live.idUser === undefined) return conflict({ ...base, reason: 'owner' });
  if (live?.idUser !== undefined && live.idUser !== view.clientId)
    return conflict({ ...base, reason: 'owner', owner: view.ownerName(live.idUser) });
  if (want.state === 'absent')
    return live === undefined ? NONE : { ...NONE, change: deleteDatabase(live.name, view.client, live.id) };
  if (live === undefined) {
    const holder = view.databaseWithUser(want.user);
    if (holder !== undefined && holder.name !== want.name)
      return conflict({ ...base, reason: 'rename', user: want.user, held_by: holder.name });
    return { ...NONE, change: createDatabase(want.name, want.user, want.wants, view) };
  }
  if (live.user !== undefined && live.user !== want.user)
    return conflict({ ...base, reason: 'rename', user: want.user, panel_user: live.user });
  const unknowns: DatabaseField[] = [];
  const fields = databaseFieldChanges(want.wants, live, (field) => unknowns.push(field));
  return {
    change: fields.length === 0 ? undefined : updateDatabase(want.name, view.client, live.id, fields),
    conflict: undefined,
    unknowns,
  };
}

/**
 * A conflict for people, with what to do. The owner, or the database holding the user, may be
 * another customer's: `nameOthers: false` (a pull-request comment) does not name them.
 */
export function databaseConflictText(c: DatabaseConflict, nameOthers = true): string {
  const subject = `database ${quote(c.database)} of client ${quote(c.client)}`;
  if (c.reason === 'owner' && c.owner === undefined)
    return `${subject}: the panel's record does not say which client has it: nothing is planned of it; check the panel's answer to GET /databases`;
  if (c.reason === 'owner')
    return nameOthers && c.owner !== undefined
      ? `${subject} belongs to client ${quote(c.owner)} on the panel: a database name is unique on the whole panel; choose another name, or move the entry to ${quote(c.owner)}`
      : `${subject} belongs to another client on the panel: a database name is unique on the whole panel; choose another name`;
  const why =
    c.panel_user !== undefined
      ? `has the user ${quote(c.panel_user)} on the panel, the manifest gives ${quote(c.user)}`
      : `gives the user ${quote(c.user)}, which ${nameOthers ? `database ${quote(c.held_by ?? '')}` : 'another database'} has on the panel`;
  return `${subject} ${why}: that is a rename, which would lose its data as a delete and a create; rename in the panel, then in the manifest`;
}

/**
 * What a plan notes of one listed client's databases that the manifest does not list (`listed`:
 * every name it gives, present or absent): never deleted for that; undefined when there are none.
 */
export function unlistedDatabasesNote(
  live: readonly LiveDatabase[],
  listed: ReadonlySet<string>,
  client: string,
): { readonly count: number; readonly text: string } | undefined {
  const count = live.filter((d) => !listed.has(d.name)).length;
  if (count === 0) return undefined;
  return {
    count,
    text:
      `${plural(count, 'database')} of client ${quote(client)} ${count === 1 ? 'is' : 'are'} not in the manifest: ` +
      'kept (a database is deleted only by state: absent on its name, never by prune)',
  };
}
