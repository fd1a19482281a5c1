/**
 * The database's changes: their types, how the diff rule makes them and the requests they become,
 * and the conflicts it finds. A database's password is never in a change nor in its request: the
 * secrets code adds the one it made and journaled to the create's body just before it is sent.
 * Pure.
 *
 * `DATABASE_KIND_NAME` is the kind's name in the table of kinds (src/kinds/index.ts KINDS).
 */
import { type ChangeBase, type ChangeId, changeId, type NewIds, type PanelRequest } from '../common.js';
import { type PasswordKindRequests, passwordKindRequest } from '../password-kind.js';
import { databaseFieldBody, type DatabaseFieldChange, type DatabaseWants } from './fields.js';
import { DATABASES_PATH } from './record.js';

/** The kind's name: a change's `type`, the first part of its id (`database:alice_wp`). */
export const DATABASE_KIND_NAME = 'database';
export type DatabaseKindName = typeof DATABASE_KIND_NAME;

/** What the database's changes share: the name is the database's, the client its owner's username. */
interface DatabaseChangeBase extends ChangeBase<DatabaseKindName> {
  readonly type: DatabaseKindName;
  readonly client: string;
}

/**
 * A database the panel lacks: `POST /databases` with its client's id, its name, its user and each
 * field the manifest gives (the password made here is added when it is sent). After its client's
 * create when the same run makes it.
 */
export interface CreateDatabase extends DatabaseChangeBase {
  readonly action: 'create';
  /** The owner's id when it exists already; null when it is created in the same run. */
  readonly clientId: number | null;
  readonly user: string;
  readonly wants: DatabaseWants;
}

/** A database whose managed fields differ: `PUT /databases/{id}` with only those fields (remote_hosts whole). */
export interface UpdateDatabase extends DatabaseChangeBase {
  readonly action: 'update';
  readonly databaseId: number;
  /** In the order of the field table; at least one. */
  readonly fields: readonly DatabaseFieldChange[];
}

/** A database deleted (only by `state: absent`): `DELETE /databases/{id}`; its data goes with it. */
export interface DeleteDatabase extends DatabaseChangeBase {
  readonly action: 'delete';
  readonly databaseId: number;
  /** Always true: a database's delete destroys the data stored in it (JSON `destroys_data`). */
  readonly destroysData: true;
}

export type DatabaseChange = CreateDatabase | UpdateDatabase | DeleteDatabase;

/** A database's change id: `database:alice_wp`. */
export function databaseChangeId(name: string): ChangeId<DatabaseKindName> {
  return changeId(DATABASE_KIND_NAME, name);
}

export function createDatabase(
  name: string,
  user: string,
  wants: DatabaseWants,
  owner: { readonly client: string; readonly clientId: number | null },
  reason = 'not on the panel',
): CreateDatabase {
  return {
    id: databaseChangeId(name),
    action: 'create',
    type: DATABASE_KIND_NAME,
    name,
    client: owner.client,
    clientId: owner.clientId,
    user,
    wants,
    reason,
    dependsOn: owner.clientId === null ? [changeId('client', owner.client)] : [],
  };
}

export function updateDatabase(
  name: string,
  client: string,
  databaseId: number,
  fields: readonly DatabaseFieldChange[],
  reason = 'differs from the manifest',
): UpdateDatabase {
  return {
    id: databaseChangeId(name),
    action: 'update',
    type: DATABASE_KIND_NAME,
    name,
    client,
    databaseId,
    fields,
    reason,
    dependsOn: [],
  };
}

export function deleteDatabase(
  name: string,
  client: string,
  databaseId: number,
  reason = 'state: absent in the manifest',
): DeleteDatabase {
  return {
    id: databaseChangeId(name),
    action: 'delete',
    type: DATABASE_KIND_NAME,
    name,
    client,
    databaseId,
    destroysData: true,
    reason,
    dependsOn: [],
  };
}

/** The database's part of the requests the password kinds share (../password-kind.ts). */
export const DATABASE_REQUESTS: PasswordKindRequests<DatabaseChange> = {
  path: DATABASES_PATH,
  id: (change) => change.databaseId,
  createBody: (change) => ({
    database_name: change.name,
    database_username: change.user,
    ...databaseFieldBody(change.wants),
  }),
  fieldBody: databaseFieldBody,
};

/**
 * The request a change becomes. A create of a database whose client the same run creates takes
 * its `id_user` from `newIds`; before apply (a preview) it is null: known after apply. An update
 * sends only the fields that differ, remote_hosts as a whole list.
 */
export function databaseRequest(change: DatabaseChange, newIds?: NewIds): PanelRequest {
  return passwordKindRequest(DATABASE_REQUESTS, change, newIds);
}

/**
 * What apply cannot do as the manifest says of a database; nothing is sent for it:
 * - `owner`: the panel has the name under another client (`owner`: a username, or `#<id>`);
 * - `rename`: the manifest gives the database a user other than the one the panel holds
 *   (`panel_user`), or a new database a user another database on the panel has (`held_by`).
 *   A database cannot be renamed in place: rename in the panel, then in the manifest.
 * Its keys are the plan document's (`conflicts`), as the other kinds' conflicts.
 */
export type DatabaseConflict =
  /** `owner` left out when the panel's record does not say whose it is (nothing is sent for it either). */
  | { readonly database: string; readonly client: string; readonly reason: 'owner'; readonly owner?: string }
  | {
      readonly database: string;
      readonly client: string;
      readonly reason: 'rename';
      readonly user: string;
      readonly panel_user?: string;
      readonly held_by?: string;
    };

/** Whether a plan's conflict is a database's: it names one. */
export function isDatabaseConflict(c: object): c is DatabaseConflict {
  return 'database' in c && 'reason' in c;
}
