/**
 * A mailbox's change in the plan document, both ways (`type: mailbox`, `name` its address,
 * `client`, its fields in the manifest's names), with the checks a change read back must pass:
 * its request sends what the change says. No password is ever in it. Pure.
 */
import type { ChangeBase } from '../common.js';
import { passwordKindFromJson, passwordKindToJson, type PasswordKindShape, requestProblem } from '../password-kind.js';
import { domainOf } from './address.js';
import { MAILBOX_KIND_NAME, MAILBOX_REQUESTS, type MailboxChange, mailboxRequest } from './changes.js';
import type { MailboxFieldChange, MailboxWants } from './fields.js';

/** A mailbox's change as the plan document holds it, beside the common fields; the schema checked it. */
export interface MailboxChangeJson {
  readonly action: 'create' | 'update' | 'delete';
  readonly client?: string;
  readonly client_id?: number | null;
  readonly domain?: string;
  readonly values?: MailboxWants;
  readonly mailbox_id?: number;
  readonly fields?: readonly MailboxFieldChange[];
  readonly destroys_data?: boolean;
  readonly request?: unknown;
}

/** The mailbox's part of the plan document the password kinds share (../password-kind.ts). */
const MAILBOX_DOCUMENT: PasswordKindShape<MailboxChange, MailboxChangeJson> = {
  ...MAILBOX_REQUESTS,
  type: MAILBOX_KIND_NAME,
  idKey: 'mailbox_id',
  withId: (mailboxId) => ({ mailboxId }),
  destroysData: true,
  createJson: (change) => ({ domain: change.domain }),
  createFromJson: (item, name) => ({ domain: item.domain ?? domainOf(name), wants: item.values ?? {} }),
};

/** What a mailbox's change adds to the common fields, in the document's order. */
export function mailboxToJson(change: MailboxChange): Record<string, unknown> {
  return passwordKindToJson(MAILBOX_DOCUMENT, change);
}

/** A mailbox's change read back (the schema requires each action's fields; the fallbacks are never used). */
export function mailboxFromJson(
  item: MailboxChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): MailboxChange {
  return passwordKindFromJson(MAILBOX_DOCUMENT, item, base);
}

/**
 * What a mailbox's change read back must say of itself beyond the schema: it is on the domain its
 * address names, and its request is the one the change makes (a create's `id_user` aside, which
 * apply fills in when the client is created in the same run).
 */
export function mailboxProblems(change: MailboxChange, item: MailboxChangeJson, path: string): string[] {
  const problems: string[] = [];
  if (change.action === 'create' && change.domain !== domainOf(change.name))
    problems.push(`${path}.domain: is not the domain of ${change.name}: the file was edited`);
  const problem = requestProblem(item, mailboxRequest(change), path);
  if (problem !== undefined) problems.push(problem);
  return problems;
}
