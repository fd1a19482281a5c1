/**
 * The FTP user's changes: their types, how the diff rule makes them and the requests they become.
 * A password is never in a change nor in its request: the secrets code adds the one it made and
 * journaled to the create's body just before it is sent. Pure.
 *
 * `FTP_USER_KIND_NAME` is the kind's name in the table of kinds (src/kinds/index.ts KINDS).
 */
import { quote } from '../../escape.js';
import { type ChangeBase, type ChangeId, changeId, type NewIds, type PanelRequest } from '../common.js';
import { type PasswordKindRequests, passwordKindRequest } from '../password-kind.js';
import { type FtpUserFieldChange, ftpUserFieldBody, type FtpUserWants } from './fields.js';
import { DEFAULT_FTP_HOME } from './home.js';
import { FTP_USERS_PATH } from './record.js';

/** The kind's name: a change's `type`, the first part of its id (`ftp_user:alice_deploy`). */
export const FTP_USER_KIND_NAME = 'ftp_user';
export type FtpUserKindName = typeof FTP_USER_KIND_NAME;

/** What the FTP user's changes share: the name is the FTP user's, the client its owner's username. */
interface FtpUserChangeBase extends ChangeBase<FtpUserKindName> {
  readonly type: FtpUserKindName;
  readonly client: string;
}

/** The fields a create sends: always a home (DEFAULT_FTP_HOME when the manifest gives none). */
export type FtpUserCreateValues = FtpUserWants & { readonly home: string };

/**
 * An FTP user the panel lacks: `POST /ftp-users` with its client's id, its name, its home and
 * description (the password made here is added when it is sent). After its client's create, and
 * the create of the domain its home names, when the same run makes them.
 */
export interface CreateFtpUser extends FtpUserChangeBase {
  readonly action: 'create';
  /** The owner's id when it exists already; null when it is created in the same run. */
  readonly clientId: number | null;
  readonly wants: FtpUserCreateValues;
}

/** An FTP user whose managed fields differ: `PUT /ftp-users/{id}` with only those fields. */
export interface UpdateFtpUser extends FtpUserChangeBase {
  readonly action: 'update';
  readonly ftpUserId: number;
  /** In the order of the field table; at least one. */
  readonly fields: readonly FtpUserFieldChange[];
}

/** An FTP user deleted (`state: absent`, or pruned): `DELETE /ftp-users/{id}`; the files in its home stay. */
export interface DeleteFtpUser extends FtpUserChangeBase {
  readonly action: 'delete';
  readonly ftpUserId: number;
}

export type FtpUserChange = CreateFtpUser | UpdateFtpUser | DeleteFtpUser;

/**
 * An FTP user name held by another client on the panel: nothing is planned of it. In the plan's
 * `conflicts` as it is (snake_case keys, like every kind's conflict).
 */
export interface FtpUserConflict {
  readonly ftp_user: string;
  /** The manifest's client for it. */
  readonly client: string;
  /** The panel's owner: a username, or `#<id>` when the owner is not in the client list; left out when the record does not say. */
  readonly owner?: string;
}

/** Whether a plan's conflict is an FTP user's. */
export function isFtpUserConflict(c: object): c is FtpUserConflict {
  return typeof (c as { ftp_user?: unknown }).ftp_user === 'string';
}

/**
 * `FTP user "x" is listed under client "a" but belongs to client "b" on the panel`. The owner is
 * another customer: `nameOwner: false` (a pull-request comment) says "another client".
 */
export function ftpUserConflictText(c: FtpUserConflict, nameOwner = true): string {
  const listed = `FTP user ${quote(c.ftp_user)} is listed under client ${quote(c.client)}`;
  if (c.owner === undefined)
    return (
      `${listed}, but the panel has it and its record does not say which client owns it: ` +
      'nothing is planned of it (check it in the panel)'
    );
  const owner = nameOwner ? `client ${quote(c.owner)}` : 'another client';
  return (
    `${listed} but belongs to ${owner} on the panel: an FTP user name is unique on the panel; ` +
    'choose another name' +
    (nameOwner ? `, or move the entry under client ${quote(c.owner)}` : '')
  );
}

/** An FTP user's change id: `ftp_user:alice_deploy`. */
export function ftpUserChangeId(name: string): ChangeId<FtpUserKindName> {
  return changeId(FTP_USER_KIND_NAME, name);
}

/** What a create needs beyond the manifest's FTP user: its client, and the creates it waits for. */
export interface FtpUserOwner {
  readonly client: string;
  /** null: the client is created in the same run. */
  readonly clientId: number | null;
  /** The changes it waits for (its client's and its home domain's creates), as the diff rule found them. */
  readonly dependsOn: readonly ChangeId[];
}

export function createFtpUser(
  name: string,
  wants: FtpUserWants,
  owner: FtpUserOwner,
  reason = 'not on the panel',
): CreateFtpUser {
  return {
    id: ftpUserChangeId(name),
    action: 'create',
    type: FTP_USER_KIND_NAME,
    name,
    client: owner.client,
    clientId: owner.clientId,
    wants: { ...wants, home: wants.home ?? DEFAULT_FTP_HOME },
    reason,
    dependsOn: owner.dependsOn,
  };
}

export function updateFtpUser(
  name: string,
  client: string,
  ftpUserId: number,
  fields: readonly FtpUserFieldChange[],
  reason = 'differs from the manifest',
): UpdateFtpUser {
  return {
    id: ftpUserChangeId(name),
    action: 'update',
    type: FTP_USER_KIND_NAME,
    name,
    client,
    ftpUserId,
    fields,
    reason,
    dependsOn: [],
  };
}

export function deleteFtpUser(name: string, client: string, ftpUserId: number, reason: string): DeleteFtpUser {
  return {
    id: ftpUserChangeId(name),
    action: 'delete',
    type: FTP_USER_KIND_NAME,
    name,
    client,
    ftpUserId,
    reason,
    dependsOn: [],
  };
}

/** The FTP user's part of the requests the password kinds share (../password-kind.ts). */
export const FTP_USER_REQUESTS: PasswordKindRequests<FtpUserChange> = {
  path: FTP_USERS_PATH,
  id: (change) => change.ftpUserId,
  createBody: (change) => ({ username: change.name, ...ftpUserFieldBody(change.wants) }),
  fieldBody: ftpUserFieldBody,
};

/**
 * The request a change becomes. A create of an FTP user whose client the same run creates takes
 * its `id_user` from `newIds`; before apply (a preview) it is null: known after apply. An update
 * sends only the fields that differ.
 */
export function ftpUserRequest(change: FtpUserChange, newIds?: NewIds): PanelRequest {
  return passwordKindRequest(FTP_USER_REQUESTS, change, newIds);
}

/**
 * Where the panel names FTP users itself ("custom FTP usernames" off): when the created record's
 * name differs from the one sent, the failure of the create (the password is recorded under the
 * panel's name by the caller, so nothing is lost); undefined when the names agree.
 */
export function panelNamedFtpUser(
  sent: string,
  created: string,
): { readonly message: string; readonly hint: string } | undefined {
  if (sent.toLowerCase() === created.trim().toLowerCase()) return undefined;
  return {
    message:
      `FTP user ${quote(sent)} was created by the panel as ${quote(created)}: the panel names FTP users itself; ` +
      `its password is recorded under ${quote(created)}`,
    hint:
      'turn on "custom FTP usernames" in the panel\'s settings, delete FTP user ' +
      `${quote(created)} in the panel (or list it in the manifest under that name), then run apply again`,
  };
}
