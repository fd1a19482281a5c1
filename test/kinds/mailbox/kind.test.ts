/**
 * The mailbox as a kind of the table: each of its changes written to a saved plan and read back
 * the same (the schema, its fromJson and its checks, and the fingerprint over its facts), and how
 * the text, Markdown and JSON renderings say a create, an update and a delete.
 */
import { describe, expect, it } from 'vitest';
import { planFingerprint, staleReasons } from '../../../src/plan/fingerprint.js';
import { parsePlanFile } from '../../../src/plan/saved.js';
import type { Plan } from '../../../src/plan/types.js';
import { diff } from '../../../src/plan/diff.js';
import type { PlanView } from '../../../src/render/common.js';
import { renderPlanJson } from '../../../src/render/json.js';
import { renderPlanMarkdown } from '../../../src/render/markdown.js';
import { renderPlanText } from '../../../src/render/text.js';
import type { Live } from '../../../src/kinds/index.js';
import { createMailbox, deleteMailbox, type LiveMailbox, updateMailbox } from '../../../src/kinds/mailbox/index.js';
import { desired, live } from '../../helpers/builders.js';

const GiB = 1024 ** 3;
const DESIRED = desired({ alice: { domains: ['alice.example'] } });
const mailbox = (id: number, address: string, maxSize: number, aliases: string[]): LiveMailbox => ({
  id,
  idUser: 7,
  address,
  unicode: address,
  description: '',
  maxSize,
  catchAll: false,
  storeForwardedEmails: false,
  aliases,
  forwardings: [],
});
// The mailboxes read, as a plan with mailbox changes reads them.
const LIVE: Live = {
  ...live([[7, 'alice']], [[70, 'alice.example', 7]]),
  mailbox: {
    read: true,
    records: [mailbox(41, 'desk@alice.example', GiB, ['a@alice.example']), mailbox(42, 'old@alice.example', 0, [])],
  },
};

const CREATE = createMailbox(
  'info@alice.example',
  'alice.example',
  { quota: 2 * GiB, aliases: ['hello@alice.example'], description: 'Front desk' },
  { client: 'alice', clientId: 7, dependsOn: [] },
);
const UPDATE = updateMailbox('desk@alice.example', 'alice', 41, [
  { field: 'quota', before: GiB, after: 2 * GiB },
  { field: 'aliases', before: ['a@alice.example'], after: ['b@alice.example'] },
]);
const DELETE = deleteMailbox('old@alice.example', 'alice', 42, 'state: absent in the manifest');

function view(plan: Plan): PlanView {
  return {
    plan,
    panelUrl: 'https://panel.example/api/v2',
    manifest: 'm.yaml',
    showUnmanaged: false,
    notes: [],
    manifestSha256: 'a'.repeat(64),
    fingerprint: planFingerprint(plan, LIVE),
  };
}

const plan = (...changes: Plan['changes']): Plan => ({ ...diff(DESIRED, LIVE), changes });

describe('the mailbox in a saved plan', () => {
  it.each([CREATE, UPDATE, DELETE])('$action: written and read back the same', (change) => {
    const written = plan(change);
    const back = parsePlanFile(renderPlanJson(view(written)), 'plan.json');
    expect(back.plan.changes).toEqual([change]);
    expect(back.fingerprint).toBe(planFingerprint(written, LIVE));
    expect(staleReasons(written, LIVE)).toEqual([]);
  });

  it('is stale when the panel moved since, or when its mailboxes were not read', () => {
    const moved: Live = { ...LIVE, mailbox: { read: true, records: [mailbox(41, 'desk@alice.example', 3 * GiB, [])] } };
    expect(staleReasons(plan(CREATE, UPDATE, DELETE), moved)).toEqual([
      'mailbox "desk@alice.example"\'s quota changed on the panel since the plan was made: the update would undo that change',
      'mailbox "desk@alice.example"\'s aliases changed on the panel since the plan was made: the update would undo that change',
      'mailbox "old@alice.example", which the plan deletes, is no longer on the panel',
    ]);
    const unread: Live = { ...LIVE, mailbox: { read: false, records: [] } };
    expect(staleReasons(plan(CREATE), unread)).toEqual([
      'the panel\'s mailboxes were not read, so mailbox "info@alice.example", which the plan creates, cannot be checked',
    ]);
  });

  it('refuses an edited request, naming the change', () => {
    const doc = JSON.parse(renderPlanJson(view(plan(UPDATE)))) as { changes: { request: { body: object } }[] };
    doc.changes[0]!.request.body = { max_size: 1 };
    expect(() => parsePlanFile(JSON.stringify(doc), 'plan.json')).toThrow();
  });

  it('holds the type, name, client and fields in JSON, never a password', () => {
    const doc = JSON.parse(renderPlanJson(view(plan(CREATE, UPDATE, DELETE)))) as {
      changes: Record<string, unknown>[];
    };
    expect(doc.changes.map((c) => [c.type, c.name, c.client])).toEqual([
      ['mailbox', 'info@alice.example', 'alice'],
      ['mailbox', 'desk@alice.example', 'alice'],
      ['mailbox', 'old@alice.example', 'alice'],
    ]);
    expect(doc.changes[0]).toMatchObject({
      values: { quota: 2 * GiB, aliases: ['hello@alice.example'], description: 'Front desk' },
      request: {
        method: 'POST',
        path: '/emails',
        body: { id_user: 7, email: 'info@alice.example', max_size: 2 * GiB },
      },
    });
    expect(doc.changes[2]).toMatchObject({ mailbox_id: 42, destroys_data: true });
    expect(JSON.stringify(doc)).not.toContain('password');
  });
});

describe('the mailbox in the plan for people', () => {
  it('text: a create with its parts in parentheses, an update field by field, a delete with the mail', () => {
    const text = renderPlanText(view(plan(CREATE, UPDATE, DELETE)), { color: false });
    expect(text).toContain('  + mailbox "info@alice.example" (quota 2 GiB, 1 alias, description "Front desk")\n');
    expect(text).toContain('  # mailbox "info@alice.example" of client "alice" will be created: not on the panel\n');
    expect(text).toContain(
      '  ~ mailbox "desk@alice.example": quota: 1 GiB -> 2 GiB, aliases: + "b@alice.example", - "a@alice.example"\n',
    );
    expect(text).toContain('with the mail stored in it');
    expect(text).toContain('DELETE /emails/42');
  });

  it('Markdown: the same lines, and the delete marked as destroying data', () => {
    const md = renderPlanMarkdown(view(plan(CREATE, UPDATE, DELETE)));
    expect(md).toContain('+ mailbox "info@alice.example" (quota 2 GiB, 1 alias, description "Front desk")');
    expect(md).toContain('~ mailbox "desk@alice.example": quota: 1 GiB -> 2 GiB');
    expect(md).toContain('- mailbox "old@alice.example" with the mail stored in it');
    expect(md).toContain('the mail stored in it');
  });
});
