/**
 * A mailbox's update and delete carried out, through what the apply stage hands in (../apply.ts);
 * its create is the one write-ahead create with a secret (apply/create-secret.ts: the password
 * made here, on disk before the POST, settled by a look-up after a lost answer). An update is a
 * plain PUT of only the fields that differ (lists whole), retried as any idempotent request. A
 * delete whose answer was lost is read back by the mailbox's id.
 */
import type { KindApply } from '../kind.js';
import { type MailboxChange, mailboxRequest } from './changes.js';
import { MAILBOX_RECORD } from './record.js';

/** How apply carries out a mailbox's update and delete (Kind.apply). */
export const MAILBOX_APPLY: KindApply<MailboxChange> = {
  async update(change, stage) {
    await stage.send(mailboxRequest(change, stage.newIds));
    return { id: change.mailboxId };
  },
  delete: {
    id: (change) => change.mailboxId,
    stillThere: async (change, stage) =>
      (await stage.lookUp.recordById(MAILBOX_RECORD, change.mailboxId)) !== undefined,
  },
};
