/**
 * A mailbox's change in the plan document: written and read back to the same change, checked
 * against the room's pending schema pieces (with the other kinds' definitions they name), and a
 * request edited in the file found.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  createMailbox,
  deleteMailbox,
  type MailboxChange,
  type MailboxChangeJson,
  mailboxFromJson,
  mailboxProblems,
  mailboxRequest,
  mailboxToJson,
  updateMailbox,
} from '../../../src/kinds/mailbox/index.js';

const GiB = 1024 ** 3;

const fragment = (room: string, file = 'schema.json'): Record<string, Record<string, unknown>> =>
  JSON.parse(readFileSync(new URL(`../../../src/kinds/${room}/${file}`, import.meta.url), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;

const mine = fragment('mailbox');
const valid = new Ajv2020({ strict: false }).compile({
  $defs: {
    ...fragment('client')['plan.defs'],
    ...fragment('domain')['plan.defs'],
    ...mine['plan.defs'],
    id: { type: 'integer', minimum: 1 },
  },
  type: 'object',
  required: ['id', 'action', 'type', 'name', 'reason', 'depends_on', 'request'],
  allOf: mine['plan.changes'],
});

const CHANGES: MailboxChange[] = [
  createMailbox(
    'info@alice.example',
    'alice.example',
    { quota: 2 * GiB, aliases: ['hello@alice.example'], catch_all: false, description: 'Front desk' },
    { client: 'alice', clientId: null, dependsOn: ['client:alice', 'domain:alice.example'] },
  ),
  updateMailbox('info@alice.example', 'alice', 7, [
    { field: 'quota', before: GiB, after: 2 * GiB },
    { field: 'forwardings', before: [], after: ['owner@example.net'] },
  ]),
  deleteMailbox('old@alice.example', 'alice', 8, 'state: absent in the manifest'),
];

/** A change as the plan document writes it: the common fields, then the kind's own. */
function document(change: MailboxChange): Record<string, unknown> {
  return {
    id: change.id,
    action: change.action,
    type: change.type,
    name: change.name,
    reason: change.reason,
    depends_on: change.dependsOn,
    request: mailboxRequest(change),
    ...mailboxToJson(change),
  };
}

describe("a mailbox's change in the plan document", () => {
  it('is what the schema pieces take, and reads back to the same change', () => {
    for (const change of CHANGES) {
      const item = document(change);
      expect(valid(item), JSON.stringify(valid.errors)).toBe(true);
      const back = mailboxFromJson(item as unknown as MailboxChangeJson, {
        name: change.name,
        reason: change.reason,
        dependsOn: change.dependsOn,
      });
      expect(back).toEqual(change);
      expect(mailboxProblems(back, item as unknown as MailboxChangeJson, 'changes[0]')).toEqual([]);
    }
    expect(JSON.stringify(CHANGES.map(document))).not.toMatch(/password/);
  });

  it('is refused by the schema pieces when a field is missing or of another kind', () => {
    const [create, update, remove] = CHANGES.map(document);
    expect(valid({ ...create, values: { quota: '2 GiB' } })).toBe(false);
    expect(valid({ ...update, fields: [] })).toBe(false);
    expect(valid({ ...update, fields: [{ field: 'quota', before: 1, after: 'x' }] })).toBe(false);
    expect(valid({ ...remove, destroys_data: false })).toBe(false);
    expect(valid({ ...remove, password: 'x' })).toBe(false);
  });

  it('finds a request edited in the file', () => {
    const [create, update] = CHANGES;
    const item = document(update!) as { request: { body: Record<string, unknown> } };
    item.request.body.max_size = 1;
    expect(mailboxProblems(update!, item as unknown as MailboxChangeJson, 'changes[1]')).toEqual([
      'changes[1].request: is not the request the change makes: the file was edited',
    ]);
    const created = document(create!) as { request: { body: Record<string, unknown> } };
    created.request.body.id_user = 12; // filled in by apply: not an edit
    expect(mailboxProblems(create!, created as unknown as MailboxChangeJson, 'changes[0]')).toEqual([]);
  });
});
