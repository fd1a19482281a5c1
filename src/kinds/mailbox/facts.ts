/**
 * What a saved plan's fingerprint covers for a mailbox's changes (plan/fingerprint.ts gathers the
 * facts of every change and hashes them). A panel read that did not take in the mailboxes answers
 * `unread` for each fact: the plan is then stale, never applied on a guess. Pure.
 */
import { quote } from '../../escape.js';
import { assertNever, canonical } from '../../util.js';
import { type Fact, idFact, valueOf } from '../facts.js';
import type { MailboxChange } from './changes.js';
import { mailboxField, type MailboxField } from './fields.js';
import type { MailboxIndex } from './read.js';

/** The live panel as a mailbox's facts look it up: the mailboxes' own index (KindRead.index). */
export interface MailboxFactIndex {
  indexOf(name: 'mailbox'): MailboxIndex;
}

/** What a fact says when the read took in no mailboxes. */
const UNREAD = 'unread';

/**
 * The facts a mailbox's change depends on:
 * - a create: `mailbox-record:<address>` absent;
 * - an update: `mailbox-record:<address>` `id:<n>`, and each field it sends as it was when the
 *   plan was made (`mailbox-field:<address>:<field>`: changed in the panel since, the PUT would
 *   undo that change);
 * - a delete: `mailbox-record:<address>` `id:<n>`.
 */
export function mailboxFacts(change: MailboxChange): Fact<MailboxFactIndex>[] {
  const { name } = change;
  const record = (expected: string, does: string): Fact<MailboxFactIndex> => ({
    topic: 'mailbox-record',
    subject: name,
    expected,
    actual: (live) => {
      const index = live.indexOf('mailbox');
      return index.read ? idFact(index.byAddress.get(name)?.id) : UNREAD;
    },
    reason: (actual) =>
      actual === UNREAD
        ? `the panel's mailboxes were not read, so mailbox ${quote(name)}, which the plan ${does}, cannot be checked`
        : actual === 'absent'
          ? `mailbox ${quote(name)}, which the plan ${does}, is no longer on the panel`
          : expected === 'absent'
            ? `mailbox ${quote(name)} now exists on the panel (id ${valueOf(actual)}); the plan would create it`
            : `mailbox ${quote(name)} now has id ${valueOf(actual)}; the plan ${does} id ${valueOf(expected)}`,
  });
  switch (change.action) {
    case 'create':
      return [record('absent', 'creates')];
    case 'update':
      return [
        record(idFact(change.mailboxId), 'updates'),
        ...change.fields.map(({ field, before }) => fieldFact(name, field, canonical(before))),
      ];
    case 'delete':
      return [record(idFact(change.mailboxId), 'deletes')];
    default:
      return assertNever(change);
  }
}

/** A field an update sends, as it was when the plan was made (in the change's form: lists as address sets). */
function fieldFact(name: string, field: MailboxField, expected: string): Fact<MailboxFactIndex> {
  return {
    topic: 'mailbox-field',
    subject: `${name}:${field}`,
    expected,
    actual: (live) => {
      const index = live.indexOf('mailbox');
      if (!index.read) return UNREAD;
      const record = index.byAddress.get(name);
      const value = record === undefined ? undefined : mailboxField(field).live(record);
      return value === undefined ? 'unknown' : canonical(value);
    },
    reason: (actual) =>
      actual === UNREAD
        ? `the panel's mailboxes were not read, so mailbox ${quote(name)}'s ${field} cannot be checked`
        : `mailbox ${quote(name)}'s ${field} changed on the panel since the plan was made: the update would undo that change`,
  };
}
