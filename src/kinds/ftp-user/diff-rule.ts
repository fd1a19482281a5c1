/**
 * The FTP user's diff rule, as the planner asks it under each client it plans: an FTP user the
 * panel lacks is created (after its client's create and the create of the domain its home names,
 * in the same run); one it has gets an update with the managed fields that differ (a home compared
 * in its normal form, a field the record does not carry an unknown, never a change); `state:
 * absent` deletes one the panel has; a name another client holds is a conflict naming the owner
 * (listed, or marked absent alike). `prune.ftp_users`: a listed client's FTP users the manifest
 * does not list are deleted, never one `keep` matches. Pure: the planner hands in what it knows.
 */
import { type ChangeId, changeId } from '../common.js';
import {
  createFtpUser,
  deleteFtpUser,
  type DeleteFtpUser,
  type FtpUserChange,
  type FtpUserConflict,
  updateFtpUser,
} from './changes.js';
import { type FtpUserField, ftpUserFieldChanges } from './fields.js';
import type { WantedFtpUser } from './manifest.js';
import type { LiveFtpUser } from './record.js';

/** What the rule reads beside the FTP user's own record. */
export interface FtpUserDiffView {
  /** The owner's username. */
  readonly client: string;
  /** The owner's id on the panel; null when the same run creates the client. */
  readonly clientId: number | null;
  /** Whether the same run creates this domain (lowercase ASCII): a create whose home names it waits. */
  domainCreated(domain: string): boolean;
  /** The username of a client by id (`#<id>` when the panel does not list it). */
  ownerName(id: number): string;
}

/** What the rule decides of one FTP user. */
export type FtpUserDecision =
  | { readonly action: 'conflict'; readonly conflict: FtpUserConflict }
  | {
      readonly action: 'change';
      readonly change: FtpUserChange | undefined;
      /** The managed fields the panel's record does not carry, in the table's order. */
      readonly unknowns: readonly FtpUserField[];
    };

/** The rule for an FTP user the manifest lists, against its record on the panel by name (undefined: none). */
export function diffFtpUser(
  want: WantedFtpUser,
  live: LiveFtpUser | undefined,
  view: FtpUserDiffView,
): FtpUserDecision {
  if (live !== undefined && (view.clientId === null || live.idUser !== view.clientId))
    return {
      action: 'conflict',
      conflict:
        live.idUser === undefined
          ? { ftp_user: want.name, client: view.client }
          : { ftp_user: want.name, client: view.client, owner: view.ownerName(live.idUser) },
    };
  if (want.state === 'absent')
    return {
      action: 'change',
      change: live === undefined ? undefined : removeFtpUser(live, view.client, 'state: absent in the manifest'),
      unknowns: [],
    };
  if (live === undefined)
    return {
      action: 'change',
      change: createFtpUser(want.name, want.wants, {
        client: view.client,
        clientId: view.clientId,
        dependsOn: waitsFor(want, view),
      }),
      unknowns: [],
    };
  const unknowns: FtpUserField[] = [];
  const fields = ftpUserFieldChanges(want.wants, live, (field) => unknowns.push(field));
  return {
    action: 'change',
    change: fields.length === 0 ? undefined : updateFtpUser(want.name, view.client, live.id, fields),
    unknowns,
  };
}

/** The delete of a live FTP user (`state: absent`, or pruned: `reason` says which). */
export function removeFtpUser(live: LiveFtpUser, client: string, reason: string): DeleteFtpUser {
  return deleteFtpUser(live.name, client, live.id, reason);
}

/**
 * `prune.ftp_users` for one client the manifest lists: the deletes of its FTP users on the panel
 * (`live`: those whose `id_user` is the client's) that the manifest does not list (`listed`: every
 * name the manifest gives, present or absent), never one `keep` matches, sorted by name. The
 * caller passes only clients the manifest lists: prune never reaches others.
 */
export function pruneFtpUsers(
  live: readonly LiveFtpUser[],
  listed: ReadonlySet<string>,
  keep: (name: string) => boolean,
  client: string,
): DeleteFtpUser[] {
  return live
    .filter((u) => !listed.has(u.name) && !keep(u.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((u) => removeFtpUser(u, client, 'not in the manifest (prune.ftp_users)'));
}

/** The creates a new FTP user waits for: its client's, and its home domain's. */
function waitsFor(want: WantedFtpUser, view: FtpUserDiffView): ChangeId[] {
  const waits: ChangeId[] = [];
  if (view.clientId === null) waits.push(changeId('client', view.client));
  if (want.homeDomain !== undefined && view.domainCreated(want.homeDomain))
    waits.push(changeId('domain', want.homeDomain));
  return waits;
}
