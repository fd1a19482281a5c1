/**
 * What a saved plan's fingerprint covers for an FTP user's changes (plan/fingerprint.ts gathers
 * the facts of every change and hashes them). The FTP users must have been read (the run's ask:
 * read.ts FtpUsersAsk) for a plan holding an FTP user's change. Pure.
 */
import { quote } from '../../escape.js';
import { assertNever, canonical } from '../../util.js';
import { type ClientFactIndex, existingClient } from '../client/index.js';
import { type Fact, idFact, valueOf } from '../facts.js';
import type { FtpUserChange } from './changes.js';
import { ftpUserField, type FtpUserFieldChange } from './fields.js';
import type { FtpUsersIndex } from './read.js';

/** The live panel as an FTP user's facts look it up: the clients, and the FTP users' index (read.ts). */
export interface FtpUserFactIndex extends Pick<ClientFactIndex, 'clients'> {
  indexOf(kind: 'ftp_user'): FtpUsersIndex;
}

/**
 * The facts an FTP user's change depends on:
 * - a create: `ftp_user:<name>` absent; an existing owner: `owner:<client>` `id:<n>`;
 * - an update: `ftp_user:<name>` `id:<n>`, and each field's value before
 *   (`ftp-user-field:<name>:<field>`): a value changed in the panel after review makes it stale;
 * - a delete: `ftp_user:<name>` `id:<n>`.
 */
export function ftpUserFacts(change: FtpUserChange): Fact<FtpUserFactIndex>[] {
  const { name } = change;
  const record = (expected: string, does: string): Fact<FtpUserFactIndex> => ({
    topic: 'ftp_user',
    subject: name,
    expected,
    actual: (live) => idFact(live.indexOf('ftp_user').byName.get(name)?.id),
    reason: (actual) =>
      actual === 'absent'
        ? `FTP user ${quote(name)}, which the plan ${does}, is no longer on the panel`
        : expected === 'absent'
          ? `FTP user ${quote(name)} now exists on the panel (id ${valueOf(actual)}); the plan would create it`
          : `FTP user ${quote(name)} now has id ${valueOf(actual)}; the plan ${does} id ${valueOf(expected)}`,
  });
  switch (change.action) {
    case 'create':
      return [
        record('absent', 'creates'),
        ...(change.clientId === null
          ? []
          : [existingClient(change.client, change.clientId, 'owner', 'which the plan adds an FTP user to')]),
      ];
    case 'update':
      return [record(idFact(change.ftpUserId), 'updates'), ...change.fields.map((f) => fieldFact(name, f))];
    case 'delete':
      return [record(idFact(change.ftpUserId), 'deletes')];
    default:
      return assertNever(change);
  }
}

/** A field's value before an update, as the panel holds it now: `unknown` when the record does not say, `absent` with no FTP user. */
function fieldFact(name: string, change: FtpUserFieldChange): Fact<FtpUserFactIndex> {
  return {
    topic: 'ftp-user-field',
    subject: `${name}:${change.field}`,
    expected: canonical(change.before),
    actual: (live) => {
      const user = live.indexOf('ftp_user').byName.get(name);
      if (user === undefined) return 'absent';
      const row = ftpUserField(change.field);
      const value = row.live(user);
      return value === undefined ? 'unknown' : canonical(row.normal(value));
    },
    reason: () =>
      `FTP user ${quote(name)}'s ${change.field} changed on the panel since the plan was made: ` +
      'the plan would undo that change',
  };
}
