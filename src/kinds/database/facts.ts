/**
 * What a saved plan's fingerprint covers for a database's changes (plan/fingerprint.ts gathers
 * the facts of every change and hashes them). The databases must have been read (the run's ask:
 * read.ts DatabasesAsk) for a plan holding a database's change. Pure.
 */
import { quote } from '../../escape.js';
import { assertNever, canonical } from '../../util.js';
import { type ClientFactIndex, existingClient } from '../client/index.js';
import { type Fact, idFact, valueOf } from '../facts.js';
import type { DatabaseChange } from './changes.js';
import { databaseField, type DatabaseFieldChange } from './fields.js';
import { hostSet } from './hosts.js';
import type { DatabasesIndex } from './read.js';

/** The live panel as a database's facts look it up: the clients, and the databases' index (read.ts). */
export interface DatabaseFactIndex extends Pick<ClientFactIndex, 'clients'> {
  indexOf(kind: 'database'): DatabasesIndex;
}

/**
 * The facts a database's change depends on:
 * - a create: `database:<name>` absent; its user held by no database (`database-user:<user>`
 *   absent: one that holds it now makes the create a rename); an existing owner: `owner:<client>`
 *   `id:<n>` (the client it is created under);
 * - an update: `database:<name>` `id:<n>`, and each field's value before
 *   (`database-field:<name>:<field>`): a value changed in the panel after review makes it stale;
 * - a delete: `database:<name>` `id:<n>` (a database made again under the name is another one,
 *   with other data).
 */
export function databaseFacts(change: DatabaseChange): Fact<DatabaseFactIndex>[] {
  const { name } = change;
  const record = (expected: string, does: string): Fact<DatabaseFactIndex> => ({
    topic: 'database',
    subject: name,
    expected,
    actual: (live) => idFact(live.indexOf('database').byName.get(name)?.id),
    reason: (actual) =>
      actual === 'absent'
        ? `database ${quote(name)}, which the plan ${does}, is no longer on the panel`
        : expected === 'absent'
          ? `database ${quote(name)} now exists on the panel (id ${valueOf(actual)}); the plan would create it`
          : `database ${quote(name)} now has id ${valueOf(actual)}; the plan ${does} id ${valueOf(expected)}`,
  });
  switch (change.action) {
    case 'create': {
      const { user } = change;
      const facts: Fact<DatabaseFactIndex>[] = [
        record('absent', 'creates'),
        {
          topic: 'database-user',
          subject: user,
          expected: 'absent',
          actual: (live) => {
            const holder = live.indexOf('database').byUser.get(user);
            return holder === undefined ? 'absent' : `database:${holder.name}`;
          },
          reason: (actual) =>
            `database ${quote(valueOf(actual))} now has the user ${quote(user)} on the panel; ` +
            `the plan would create database ${quote(name)} with it`,
        },
      ];
      if (change.clientId !== null)
        facts.push(existingClient(change.client, change.clientId, 'owner', 'which the plan adds a database to'));
      return facts;
    }
    case 'update':
      return [record(idFact(change.databaseId), 'updates'), ...change.fields.map((f) => fieldFact(name, f))];
    case 'delete':
      return [record(idFact(change.databaseId), 'deletes')];
    default:
      return assertNever(change);
  }
}

/** A field's value before an update, as the panel holds it now: `unknown` when the record does not say, `absent` with no database. */
function fieldFact(name: string, change: DatabaseFieldChange): Fact<DatabaseFactIndex> {
  const shown = (value: unknown): string => canonical(Array.isArray(value) ? hostSet(value as string[]) : value);
  return {
    topic: 'database-field',
    subject: `${name}:${change.field}`,
    expected: shown(change.before),
    actual: (live) => {
      const database = live.indexOf('database').byName.get(name);
      if (database === undefined) return 'absent';
      const value = databaseField(change.field).live(database);
      return value === undefined ? 'unknown' : shown(value);
    },
    reason: () =>
      `database ${quote(name)}'s ${change.field} changed on the panel since the plan was made: ` +
      'the plan would undo that change',
  };
}
