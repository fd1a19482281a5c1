/**
 * The mailbox's changes: their types, how the diff rule makes them and the requests they become.
 * A mailbox's password is never in a change nor in its request: the secrets code adds the one
 * it made and journaled to the create's body just before it is sent. Pure.
 *
 * `MAILBOX_KIND_NAME` is the kind's name in the table of kinds (src/kinds/index.ts KINDS): the
 * changes join the `Change` union through the table's entry (./kind.ts).
 */
import { type ChangeBase, type ChangeId, changeId, type NewIds, type PanelRequest } from '../common.js';
import { type PasswordKindRequests, passwordKindRequest } from '../password-kind.js';
import { fieldBody, type MailboxFieldChange, type MailboxWants } from './fields.js';
import { MAILBOXES_PATH } from './record.js';

/** The kind's name: a change's `type`, the first part of its id (`mailbox:info@alice.example`). */
export const MAILBOX_KIND_NAME = 'mailbox';
export type MailboxKindName = typeof MAILBOX_KIND_NAME;

/** What the mailbox's changes share: the name is the address (lowercase ASCII), the client its owner's username. */
interface MailboxChangeBase extends ChangeBase<MailboxKindName> {
  readonly type: MailboxKindName;
  readonly client: string;
}

/**
 * A mailbox the panel lacks: `POST /emails` with its client's id, its address and each field the
 * manifest gives (the password made here is added when it is sent). After its client's and
 * domain's creates, and those of its aliases' domains, when the same run makes them.
 */
export interface CreateMailbox extends MailboxChangeBase {
  readonly action: 'create';
  /** The owner's id when it exists already; null when it is created in the same run. */
  readonly clientId: number | null;
  /** The domain it is on (lowercase ASCII). */
  readonly domain: string;
  /** The fields the manifest gives, in its terms (aliases and forwardings as full addresses). */
  readonly wants: MailboxWants;
}

/** A mailbox whose managed fields differ: `PUT /emails/{id}` with only those fields (lists whole). */
export interface UpdateMailbox extends MailboxChangeBase {
  readonly action: 'update';
  readonly mailboxId: number;
  /** In the order of the field table; at least one. */
  readonly fields: readonly MailboxFieldChange[];
}

/** A mailbox deleted (`state: absent`, or pruned): `DELETE /emails/{id}`; the mail stored in it goes with it. */
export interface DeleteMailbox extends MailboxChangeBase {
  readonly action: 'delete';
  readonly mailboxId: number;
  /** Always true: a mailbox's delete destroys the mail stored in it (JSON `destroys_data`). */
  readonly destroysData: true;
}

export type MailboxChange = CreateMailbox | UpdateMailbox | DeleteMailbox;

/** A mailbox's change id: `mailbox:info@alice.example`. */
export function mailboxChangeId(address: string): ChangeId<MailboxKindName> {
  return changeId(MAILBOX_KIND_NAME, address);
}

/** What a create needs beyond the manifest's mailbox: its client, and the creates it waits for. */
export interface MailboxOwner {
  readonly client: string;
  /** null: the client is created in the same run. */
  readonly clientId: number | null;
  /** The changes it waits for (its client's and domains' creates), as the diff rule found them. */
  readonly dependsOn: readonly ChangeId[];
}

export function createMailbox(
  address: string,
  domain: string,
  wants: MailboxWants,
  owner: MailboxOwner,
  reason = 'not on the panel',
): CreateMailbox {
  return {
    id: mailboxChangeId(address),
    action: 'create',
    type: MAILBOX_KIND_NAME,
    name: address,
    client: owner.client,
    clientId: owner.clientId,
    domain,
    wants,
    reason,
    dependsOn: owner.dependsOn,
  };
}

export function updateMailbox(
  address: string,
  client: string,
  mailboxId: number,
  fields: readonly MailboxFieldChange[],
  reason = 'differs from the manifest',
): UpdateMailbox {
  return {
    id: mailboxChangeId(address),
    action: 'update',
    type: MAILBOX_KIND_NAME,
    name: address,
    client,
    mailboxId,
    fields,
    reason,
    dependsOn: [],
  };
}

export function deleteMailbox(address: string, client: string, mailboxId: number, reason: string): DeleteMailbox {
  return {
    id: mailboxChangeId(address),
    action: 'delete',
    type: MAILBOX_KIND_NAME,
    name: address,
    client,
    mailboxId,
    destroysData: true,
    reason,
    dependsOn: [],
  };
}

/** The mailbox's part of the requests the password kinds share (../password-kind.ts). */
export const MAILBOX_REQUESTS: PasswordKindRequests<MailboxChange> = {
  path: MAILBOXES_PATH,
  id: (change) => change.mailboxId,
  createBody: (change) => ({ email: change.name, ...fieldBody(change.wants) }),
  fieldBody,
};

/**
 * The request a change becomes. A create of a mailbox whose client the same run creates takes its
 * `id_user` from `newIds`; before apply (a preview) it is null: known after apply. An update
 * sends only the fields that differ, aliases and forwardings as whole lists.
 */
export function mailboxRequest(change: MailboxChange, newIds?: NewIds): PanelRequest {
  return passwordKindRequest(MAILBOX_REQUESTS, change, newIds);
}
