/**
 * How people's text says an FTP user's change: `+ ftp_user "alice_deploy" (home
 * /www/alice.example, description "deploys")`, `~ ftp_user "alice_deploy": home: /www ->
 * /www/alice.example`, `- ftp_user "alice_old"`. Names, homes and descriptions may come from a
 * panel and hold anything: they are printed as data (escape.ts). Pure.
 */
import { quote } from '../../escape.js';
import { assertNever } from '../../util.js';
import type { KindNoun } from '../common.js';
import { type CreateFtpUser, FTP_USER_KIND_NAME, type FtpUserChange, type UpdateFtpUser } from './changes.js';
import { ftpUserField, type FtpUserFieldChange } from './fields.js';

/** How people's text names the kind. */
export const FTP_USER_NOUN: KindNoun = { one: 'FTP user', many: 'FTP users' };

/** `FTP user "alice_deploy" of client "alice"`: a change's subject in a sentence. */
export function ftpUserSubject(change: FtpUserChange): string {
  return `FTP user ${quote(change.name)} of client ${quote(change.client)}`;
}

/** `ftp_user "alice_deploy"`: a change's subject on its own diff line. */
export function ftpUserLineSubject(change: FtpUserChange): string {
  return `${FTP_USER_KIND_NAME} ${quote(change.name)}`;
}

/** What a create sets, in the table's order: `home /www/alice.example`, `description "deploys"` (an empty one unsaid). */
export function ftpUserCreatedParts(change: CreateFtpUser): string[] {
  const parts = [`home ${ftpUserField('home').text(change.wants.home)}`];
  const { description } = change.wants;
  if (description !== undefined && description !== '') parts.push(`description ${quote(description)}`);
  return parts;
}

/** One field an update changes: `home: /www -> /www/alice.example`, `description: (none) -> "deploys"`. */
export function ftpUserFieldPart(change: FtpUserFieldChange): string {
  switch (change.field) {
    case 'home': {
      const row = ftpUserField('home');
      return `home: ${row.text(change.before)} -> ${row.text(change.after)}`;
    }
    case 'description': {
      const row = ftpUserField('description');
      return `description: ${row.text(change.before)} -> ${row.text(change.after)}`;
    }
    default:
      return assertNever(change);
  }
}

/** Each field an update changes, in the table's order. */
export function ftpUserUpdatedParts(change: UpdateFtpUser): string[] {
  return change.fields.map(ftpUserFieldPart);
}

/** A change as one line of the plan's text, its sign first. */
export function ftpUserLine(change: FtpUserChange): string {
  switch (change.action) {
    case 'create':
      return `+ ${ftpUserLineSubject(change)} (${ftpUserCreatedParts(change).join(', ')})`;
    case 'update':
      return `~ ${ftpUserLineSubject(change)}: ${ftpUserUpdatedParts(change).join(', ')}`;
    case 'delete':
      return `- ${ftpUserLineSubject(change)}`;
    default:
      return assertNever(change);
  }
}
