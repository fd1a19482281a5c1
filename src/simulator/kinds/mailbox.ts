/**
 * The simulator's module of mailboxes: /emails (kinds/mailbox-requests.ts has the rules of POST
 * and PUT, kinds/mailbox-records.ts the record), the `mailboxes` of the seed's domains, and
 * their life with their domain.
 *
 * Where the API's description is silent (docs/panel-api.md, "The simulator"), the simulator
 * chooses:
 * - GET /emails lists every mailbox as a bare array, like the other lists; GET /emails/{id}
 *   answers one (404 unknown). There is no /emails/name/{address} (none was seen): 404 like an
 *   unknown path. No answer carries a password or its hash.
 * - DELETE /emails/{id}: 200 `{"id": N}`, or 204 without a body with `deleteStatus: 204`; 404
 *   for an unknown id.
 * - A domain's delete (its own, or its client's) deletes the mailboxes on it, each its own
 *   change, and drops the aliases on it from the other mailboxes of the client.
 */
import { isRecord } from '../../util.js';
import { type Answer, deleted, error } from '../answer.js';
import type { SeedContext, SimKind } from '../kind.js';
import type { SimStore } from '../store.js';
import { collection } from './collection.js';
import { domainOf, readAddress, type SimulatorSeedMailbox } from './mailbox-records.js';
import { addMailbox, changeMailbox, fieldsOf } from './mailbox-requests.js';

const SEED_KEYS = [
  'name',
  'password',
  'description',
  'max_size',
  'size',
  'aliases',
  'forwardings',
  'catch_all',
  'store_forwarded_emails',
];

/** The first problem of a seed domain's `mailboxes`, each pushed when `problems` is given. */
function seedProblems(value: unknown, where: string, problems: string[] = []): string | undefined {
  const first = problems.length;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of local parts or {"name": ...} objects`);
    return problems[first];
  }
  for (const [index, item] of (value as unknown[]).entries()) {
    const at = `${where}[${index}]`;
    const mailbox = typeof item === 'string' ? { name: item } : item;
    if (!isRecord(mailbox)) {
      problems.push(`${at} must be a local part or an object {${SEED_KEYS.map((key) => `"${key}"`).join(', ')}}`);
      continue;
    }
    for (const key of Object.keys(mailbox))
      if (!SEED_KEYS.includes(key))
        problems.push(`${at}: unknown key ${JSON.stringify(key)} (allowed: ${SEED_KEYS.join(', ')})`);
    const { name } = mailbox;
    if (typeof name !== 'string' || name.includes('@') || 'problem' in readAddress(`${name}@example.com`))
      problems.push(`${at}.name must be a local part, like "info"`);
    const fields = fieldsOf({ ...mailbox, email: undefined, id_user: undefined }, false, true);
    if ('status' in fields) problems.push(`${at}: ${fields.message}`);
  }
  return problems[first];
}

/** Adds a seed domain's mailboxes, in order; `where` is the domain's place in the seed. */
function addSeedMailboxes(
  store: SimStore,
  domainId: number,
  value: readonly unknown[],
  where: string,
  { fail }: SeedContext,
): void {
  const domain = store.domains.get(domainId);
  if (domain === undefined) return;
  for (const [index, item] of value.entries()) {
    const mailbox = (typeof item === 'string' ? { name: item } : item) as SimulatorSeedMailbox;
    const body = { ...mailbox, id_user: domain.id_user, email: `${mailbox.name}@${domain.domain}` };
    const fields = fieldsOf(body, false, true);
    const added = 'status' in fields ? fields : addMailbox(store, fields);
    if ('status' in added) fail(`${where}.mailboxes[${index}]: ${added.message}`);
  }
}

/** The mailboxes on a domain that goes, and the aliases on it of the others. */
function dropDomain(store: SimStore, domainId: number): void {
  const domain = store.domains.get(domainId);
  if (domain === undefined) return;
  for (const mailbox of [...store.mailboxes.values()]) {
    if (domainOf(mailbox.email) === domain.domain) {
      store.remove('mailboxes', mailbox.id);
      continue;
    }
    const kept = mailbox.aliases.flatMap((alias, i) => (domainOf(alias) === domain.domain ? [] : [i]));
    if (kept.length < mailbox.aliases.length)
      store.set('mailboxes', {
        ...mailbox,
        aliases: kept.map((i) => mailbox.aliases[i] ?? ''),
        aliases_utf8: kept.map((i) => mailbox.aliases_utf8[i] ?? ''),
      });
  }
}

function created(store: SimStore, body: Record<string, unknown>): Answer {
  const fields = fieldsOf(body, true);
  const added = 'status' in fields ? fields : addMailbox(store, fields);
  if ('status' in added) return error(added.status, added.message);
  return { status: 201, json: { id: added.id }, mutated: true };
}

function updated(store: SimStore, id: number, body: unknown): Answer {
  const before = store.mailboxes.get(id);
  if (before === undefined) return error(404, 'The requested mailbox was not found.');
  if (!isRecord(body)) return error(400, 'The request body must be a JSON object.');
  const fields = fieldsOf(body, false);
  const changed = 'status' in fields ? fields : changeMailbox(store, before, fields);
  if ('status' in changed) return error(changed.status, changed.message);
  return { status: 200, json: { id }, mutated: true };
}

export const MAILBOX_SIM: SimKind<object, 'mailbox'> = {
  name: 'mailbox',
  routes: {
    emails: collection({
      list: 'mailboxes',
      one: 'mailbox',
      byName: false,
      create: created,
      update: updated,
      remove: (store, id, { options }) => {
        if (!store.mailboxes.has(id)) return error(404, 'The requested mailbox was not found.');
        store.remove('mailboxes', id);
        return deleted(id, options.deleteStatus);
      },
    }),
  },
  follows: { parent: 'domain', removing: dropDomain },
  childSeed: {
    parent: 'domain',
    key: 'mailboxes',
    parse: (value, where, problems) => {
      seedProblems(value, `${where}.mailboxes`, problems);
      return value;
    },
    check: (value, where) => seedProblems(value, `${where}.mailboxes`),
    build: (value, domain, store, where, context) => {
      if (Array.isArray(value)) addSeedMailboxes(store, domain.id, value as unknown[], where, context);
    },
  },
};
