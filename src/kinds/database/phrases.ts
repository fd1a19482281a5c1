/**
 * How people's text says a database's change: `+ database "alice_wp" (user "alice_wp",
 * remote_hosts [192.0.2.0/24], description "WordPress")`, `~ database "alice_wp": remote_hosts +
 * 192.0.2.0/24`, `- database "old_db" with the data stored in it`. Names and descriptions may
 * come from a panel and hold anything: they are printed as data (escape.ts). Pure.
 */
import { quote } from '../../escape.js';
import { assertNever } from '../../util.js';
import type { KindNoun } from '../common.js';
import type { CreateDatabase, DatabaseChange } from './changes.js';
import { databaseField, type DatabaseFieldChange } from './fields.js';
import { hostSet } from './hosts.js';

/** How people's text names the kind. */
export const DATABASE_NOUN: KindNoun = { one: 'database', many: 'databases' };

/** What a database's delete takes with it, as the notes on deletes say it. */
export const DATABASE_DELETE_TAKES = 'the data stored in it';

/** `database "alice_wp" of client "alice"`: a change's subject in a sentence. */
export function databaseSubject(change: DatabaseChange): string {
  return `database ${quote(change.name)} of client ${quote(change.client)}`;
}

/** What a create sets: its user, then each field the manifest gives, in the table's order. */
export function databaseCreatedParts(change: CreateDatabase): string[] {
  const parts = [`user ${quote(change.user)}`];
  const { remote_hosts: hosts, description } = change.wants;
  if (hosts !== undefined) parts.push(`remote_hosts ${databaseField('remote_hosts').text(hosts)}`);
  if (description !== undefined && description !== '') parts.push(`description ${quote(description)}`);
  return parts;
}

/**
 * One field an update changes: `remote_hosts + 192.0.2.0/24, - 10.0.0.0/8` (what the list gains,
 * then what it loses), `description: (none) -> "WordPress"`.
 */
export function databaseFieldPart(change: DatabaseFieldChange): string {
  switch (change.field) {
    case 'remote_hosts': {
      const had = new Set(change.before);
      const has = new Set(change.after);
      const added = hostSet(change.after).filter((h) => !had.has(h));
      const removed = hostSet(change.before).filter((h) => !has.has(h));
      return `remote_hosts ${[...added.map((h) => `+ ${h}`), ...removed.map((h) => `- ${h}`)].join(', ')}`;
    }
    case 'description': {
      const row = databaseField('description');
      return `description: ${row.text(change.before)} -> ${row.text(change.after)}`;
    }
    default:
      return assertNever(change);
  }
}

/** ` with the data stored in it` after a delete; else ''. */
export function databaseGoesWith(change: DatabaseChange): string {
  return change.action === 'delete' ? ` with ${DATABASE_DELETE_TAKES}` : '';
}

/** A change as one line of the plan's text, its sign first. */
export function databaseLine(change: DatabaseChange): string {
  const subject = `database ${quote(change.name)}`;
  switch (change.action) {
    case 'create':
      return `+ ${subject} (${databaseCreatedParts(change).join(', ')})`;
    case 'update':
      return `~ ${subject}: ${change.fields.map(databaseFieldPart).join(', ')}`;
    case 'delete':
      return `- ${subject}${databaseGoesWith(change)}`;
    default:
      return assertNever(change);
  }
}
