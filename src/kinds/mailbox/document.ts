/**
 * A mailbox's change in the plan document, both ways (`type: mailbox`, `name` its address,
 * `client`, its fields in the manifest's names), with the checks a change read back must pass:
 * its request sends what the change says. No password is ever in it. Pure.
 */
import { assertNever, canonical, isRecord } from '../../util.js';
import type { ChangeBase } from '../common.js';
import { domainOf } from './address.js';
import {
  mailboxChangeId,
  MAILBOX_KIND_NAME,
  type MailboxChange,
  type MailboxKindName,
  mailboxRequest,
} from './changes.js';
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

/** What a mailbox's change adds to the common fields, in the document's order. */
export function mailboxToJson(change: MailboxChange): Record<string, unknown> {
  switch (change.action) {
    case 'create':
      return { client: change.client, client_id: change.clientId, domain: change.domain, values: change.wants };
    case 'update':
      return { client: change.client, mailbox_id: change.mailboxId, fields: change.fields };
    case 'delete':
      return { client: change.client, mailbox_id: change.mailboxId, destroys_data: change.destroysData };
    default:
      return assertNever(change);
  }
}

/** A mailbox's change read back (the schema requires each action's fields; the fallbacks are never used). */
export function mailboxFromJson(
  item: MailboxChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): MailboxChange {
  const common = {
    ...base,
    id: mailboxChangeId(base.name),
    type: MAILBOX_KIND_NAME as MailboxKindName,
    client: item.client ?? '',
  };
  switch (item.action) {
    case 'create':
      return {
        ...common,
        action: 'create',
        clientId: item.client_id ?? null,
        domain: item.domain ?? domainOf(base.name),
        wants: item.values ?? {},
      };
    case 'update':
      return { ...common, action: 'update', mailboxId: item.mailbox_id ?? 0, fields: item.fields ?? [] };
    case 'delete':
      return { ...common, action: 'delete', mailboxId: item.mailbox_id ?? 0, destroysData: true };
    default:
      return assertNever(item.action);
  }
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
  const sent = isRecord(item.request) ? item.request : {};
  const made = mailboxRequest(change);
  const body = (value: unknown): string => {
    if (!isRecord(value)) return canonical(value);
    return canonical(Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id_user')));
  };
  if (sent.method !== made.method || sent.path !== made.path || body(sent.body) !== body(made.body))
    problems.push(`${path}.request: is not the request the change makes: the file was edited`);
  return problems;
}
