/**
 * The database's manifest section (Kind.section, ../section.ts): `databases` under a client item,
 * read and checked by manifest.ts (`databaseItems`, names and users remembered across the
 * manifest and its parts); `prune.databases` refused (databasePruneProblem: a database is deleted
 * only by `state: absent`); the diff under each client the planner walks (diff-rule.ts), and a
 * note counting a listed client's databases the manifest does not list (kept). Not in the table
 * of kinds yet: the database's descriptor takes it as its `section`. Pure.
 */
import type { DatabasesPart } from './read.js';
import { quote } from '../../escape.js';
import { plural } from '../../util.js';
import { isDatabaseConflict } from './changes.js';
import { type KindSection, NO_SECTION_DIFF, type SectionPlace } from '../section.js';
import type { DatabaseChange, DatabaseConflict } from './changes.js';
import { diffDatabase, unlistedDatabasesNote } from './diff-rule.js';
import type { DatabaseField } from './fields.js';
import {
  DATABASES_KEY,
  databaseItems,
  databasePruneProblem,
  type DatabaseSeen,
  databaseSeen,
  type ListedDatabase,
} from './manifest.js';
import type { LiveDatabase } from './record.js';

/** The panel's databases as the diff looks them up: by name, by user, by owner. */
export interface DatabaseIndex {
  readonly byName: ReadonlyMap<string, LiveDatabase>;
  readonly byUser: ReadonlyMap<string, LiveDatabase>;
  readonly byOwner: ReadonlyMap<number, readonly LiveDatabase[]>;
}

/** A managed field the panel's record of a database does not carry. */
export interface DatabaseUnknown {
  readonly client: string;
  readonly database: string;
  readonly field: DatabaseField;
}

/** Whether a plan's unknown is a database's. */
export function isDatabaseUnknown(u: object): u is DatabaseUnknown {
  return typeof (u as { database?: unknown }).database === 'string';
}

/** An unknown for people: the field is never compared nor changed. */
export function databaseUnknownLine(u: DatabaseUnknown): string {
  return `database ${quote(u.database)}: the panel's record shows no ${u.field}: not compared, not changed`;
}

/** The databases of a client item as the manifest stage holds them. */
export type DatabaseItem = ListedDatabase<SectionPlace>;

function indexDatabases(part: readonly LiveDatabase[]): DatabaseIndex {
  const byName = new Map<string, LiveDatabase>();
  const byUser = new Map<string, LiveDatabase>();
  const byOwner = new Map<number, LiveDatabase[]>();
  for (const database of part) {
    byName.set(database.name, database);
    if (database.user !== undefined) byUser.set(database.user, database);
    if (database.idUser === undefined) continue;
    const list = byOwner.get(database.idUser);
    if (list === undefined) byOwner.set(database.idUser, [database]);
    else list.push(database);
  }
  return { byName, byUser, byOwner };
}

/**
 * The database's section: `databases` under a client item, `prune.databases` an error, and
 * `{ databases: true }` in the run's ask (the database's list read: GET /databases once).
 */
export const DATABASE_SECTION: KindSection<
  'client',
  DatabaseItem,
  DatabaseSeen<SectionPlace>,
  DatabasesPart,
  DatabaseIndex,
  DatabaseChange,
  DatabaseConflict,
  DatabaseUnknown
> = {
  parent: 'client',
  key: DATABASES_KEY,
  seen: (from) => (from === undefined ? databaseSeen() : { names: new Map(from.names), users: new Map(from.users) }),
  items(list, ctx, seen) {
    const read = databaseItems(list, {
      client: ctx.client,
      locate: ctx.locate,
      seen,
      clientAbsent: ctx.parentAbsent,
    });
    return { items: read.databases, problems: read.problems };
  },
  prune: { key: DATABASES_KEY, refused: databasePruneProblem },
  index: (part) => indexDatabases(part.records),
  diff(wanted, index, view) {
    const changes: DatabaseChange[] = [];
    const conflicts: DatabaseConflict[] = [];
    const unknowns: DatabaseUnknown[] = [];
    const ruleView = {
      client: view.client,
      clientId: view.clientId,
      ownerName: view.ownerName,
      databaseWithUser: (user: string) => index.byUser.get(user),
    };
    for (const want of wanted) {
      const decided = diffDatabase(want, index.byName.get(want.name), ruleView);
      if (decided.change !== undefined) changes.push(decided.change);
      if (decided.conflict !== undefined) conflicts.push(decided.conflict);
      for (const field of decided.unknowns) unknowns.push({ client: view.client, database: want.name, field });
    }
    return { changes, conflicts, unknowns, notes: [] };
  },
  // Never pruned: a note counts the client's databases the manifest does not list, when it lists some.
  unlisted(wanted, index, view) {
    if (wanted === undefined || view.clientId === null) return NO_SECTION_DIFF;
    const note = unlistedDatabasesNote(
      index.byOwner.get(view.clientId) ?? [],
      new Set(wanted.map((d) => d.name)),
      view.client,
    );
    return note === undefined ? NO_SECTION_DIFF : { ...NO_SECTION_DIFF, notes: [note.text] };
  },
  conflicts: {
    is: isDatabaseConflict,
    at: (c) => ({ client: c.client, name: c.database }),
    nameOf: (item) => (item as DatabaseItem).name,
    summary: (n) => `${plural(n, 'database')} of the manifest cannot be planned as listed`,
    hint: "rename it in the panel (then in the manifest), or choose another name: the panel's database names are unique on the whole panel",
  },
  asks: { databases: true },
};
