/**
 * How people's text says a mailbox's change: `+ mailbox "info@alice.example" (quota 2 GiB, 1
 * alias)`, `~ mailbox "info@alice.example": quota 1 GiB -> 2 GiB, aliases + "hello@alice.example"`,
 * `- mailbox "old@alice.example" with the mail stored in it`. Addresses and descriptions may come
 * from a panel and hold anything: they are printed as data (escape.ts). Pure.
 */
import { quote } from '../../escape.js';
import { assertNever } from '../../util.js';
import type { KindNoun } from '../common.js';
import { addressSet, unicodeAddressForm } from './address.js';
import type { CreateMailbox, MailboxChange, UpdateMailbox } from './changes.js';
import { countText, mailboxField, type MailboxFieldChange, type MailboxWants } from './fields.js';
import { quotaText } from './quota.js';

/** How people's text names the kind. */
export const MAILBOX_NOUN: KindNoun = { one: 'mailbox', many: 'mailboxes' };

/** What a mailbox's delete takes with it, as the notes on deletes say it. */
export const MAILBOX_DELETE_TAKES = 'the mail stored in it';

/**
 * `mailbox "info@alice.example" of client "alice"`: a change's subject in a sentence, with the
 * address's Unicode form beside an international one, as a domain's subject has it.
 */
export function mailboxSubject(change: MailboxChange): string {
  return `mailbox ${quote(change.name)}${unicodeAddressForm(change.name)} of client ${quote(change.client)}`;
}

/** `mailbox "info@xn--bcher-kva.example" (info@bücher.example)`: a change's subject on its own diff line. */
export function mailboxLineSubject(change: MailboxChange): string {
  return `mailbox ${quote(change.name)}${unicodeAddressForm(change.name)}`;
}

/**
 * What a create sets, one part each, in the table's order: `quota 2 GiB`, `1 alias`, `2
 * forwardings`, `keeps copies`, `catch-all`, `description "Front desk"`; what is off or empty is
 * left unsaid.
 */
export function createdParts(wants: MailboxWants): string[] {
  const parts: string[] = [];
  if (wants.quota !== undefined) parts.push(`quota ${quotaText(wants.quota)}`);
  if (wants.aliases !== undefined && wants.aliases.length > 0) parts.push(countText('aliases', wants.aliases.length));
  if (wants.forwardings !== undefined && wants.forwardings.length > 0)
    parts.push(countText('forwardings', wants.forwardings.length));
  if (wants.keep_copies === true) parts.push('keeps copies');
  if (wants.catch_all === true) parts.push('catch-all');
  if (wants.description !== undefined && wants.description !== '')
    parts.push(`description ${quote(wants.description)}`);
  return parts;
}

/** `mailbox "info@alice.example" (quota 2 GiB, 1 alias)`: a create on one line, its parts in parentheses (none: the subject). */
export function createdLine(change: CreateMailbox): string {
  const parts = createdParts(change.wants);
  return `${mailboxLineSubject(change)}${parts.length === 0 ? '' : ` (${parts.join(', ')})`}`;
}

/**
 * One field an update changes: `quota: 1 GiB -> 2 GiB`, `keep_copies: false -> true`,
 * `description: (none) -> "Front desk"`; a list by what it gains and loses: `aliases: +
 * "hello@alice.example", - "contact@alice.example"`.
 */
export function fieldPart(change: MailboxFieldChange): string {
  switch (change.field) {
    case 'aliases':
    case 'forwardings':
      return `${change.field}: ${listDiff(change.before, change.after)}`;
    case 'quota':
    case 'keep_copies':
    case 'catch_all':
    case 'description':
      return scalarPart(change);
    default:
      return assertNever(change);
  }
}

/** A scalar field's change, `before -> after` in its row's words. */
function scalarPart(change: Exclude<MailboxFieldChange, { field: 'aliases' | 'forwardings' }>): string {
  switch (change.field) {
    case 'quota': {
      const row = mailboxField('quota');
      return `quota: ${row.text(change.before)} -> ${row.text(change.after)}`;
    }
    case 'description': {
      const row = mailboxField('description');
      return `description: ${row.text(change.before)} -> ${row.text(change.after)}`;
    }
    case 'keep_copies':
    case 'catch_all': {
      const row = mailboxField(change.field);
      return `${change.field}: ${row.text(change.before)} -> ${row.text(change.after)}`;
    }
    default:
      return assertNever(change);
  }
}

/** `+ "hello@alice.example", - "contact@alice.example"`: what a list of addresses gains, then what it loses. */
function listDiff(before: readonly string[], after: readonly string[]): string {
  const had = new Set(before);
  const has = new Set(after);
  const added = addressSet(after).filter((a) => !had.has(a));
  const removed = addressSet(before).filter((a) => !has.has(a));
  return [...added.map((a) => `+ ${quote(a)}`), ...removed.map((a) => `- ${quote(a)}`)].join(', ');
}

/** Each field an update changes, in the table's order (fieldPart). */
export function updatedParts(change: UpdateMailbox): string[] {
  return change.fields.map(fieldPart);
}

/** ` with the mail stored in it` after a delete; else ''. */
export function goesWith(change: MailboxChange): string {
  return change.action === 'delete' ? ` with ${MAILBOX_DELETE_TAKES}` : '';
}

/**
 * A change as one line of the plan's text, its sign first: `+ mailbox "info@alice.example" (quota
 * 2 GiB, 1 alias)`, `~ mailbox "info@alice.example": quota: 1 GiB -> 2 GiB`, `- mailbox
 * "old@alice.example" with the mail stored in it`.
 */
export function mailboxLine(change: MailboxChange): string {
  switch (change.action) {
    case 'create':
      return `+ ${createdLine(change)}`;
    case 'update':
      return `~ ${mailboxLineSubject(change)}: ${updatedParts(change).join(', ')}`;
    case 'delete':
      return `- ${mailboxLineSubject(change)}${goesWith(change)}`;
    default:
      return assertNever(change);
  }
}
