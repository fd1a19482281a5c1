/**
 * The mailbox's field table, diff rule, changes and phrases: what differs between the manifest
 * and the panel (lists as sets, a field the record lacks unknown), the requests the changes
 * become, and how the plan's text says them.
 */
import { describe, expect, it } from 'vitest';
import {
  createdLine,
  diffMailbox,
  fieldChanges,
  type LiveMailbox,
  MAILBOX_FIELD_NAMES,
  mailboxLine,
  mailboxRequest,
  mailboxSubject,
  type MailboxChange,
  type MailboxDiffView,
  updatedParts,
  type WantedMailbox,
} from '../../../src/kinds/mailbox/index.js';

const GiB = 1024 ** 3;

const LIVE: LiveMailbox = {
  id: 7,
  idUser: 3,
  address: 'info@alice.example',
  unicode: 'info@alice.example',
  description: 'Front desk',
  maxSize: GiB,
  catchAll: false,
  storeForwardedEmails: false,
  aliases: ['contact@alice.example', 'hello@alice.example'],
  forwardings: ['owner@example.net'],
};

function want(wants: WantedMailbox['wants'], state: 'present' | 'absent' = 'present'): WantedMailbox {
  return { address: 'info@alice.example', local: 'info', domain: 'alice.example', input: 'info', state, wants };
}

const VIEW: MailboxDiffView = { client: 'alice', clientId: 3, domainCreated: () => false };

describe('the mailbox field table', () => {
  it("has the manifest's names, in order", () => {
    expect(MAILBOX_FIELD_NAMES).toEqual(['quota', 'aliases', 'forwardings', 'keep_copies', 'catch_all', 'description']);
  });

  it('compares aliases and forwardings as sets, and says which fields the record lacks', () => {
    const unknowns: string[] = [];
    expect(
      fieldChanges(
        { aliases: ['hello@alice.example', 'contact@alice.example'], forwardings: ['owner@example.net'], quota: GiB },
        LIVE,
      ),
    ).toEqual([]);
    expect(
      fieldChanges(
        { quota: 2 * GiB, aliases: ['hello@alice.example'], keep_copies: true, description: 'Front desk' },
        { ...LIVE, catchAll: undefined },
        (field) => unknowns.push(field),
      ),
    ).toEqual([
      { field: 'quota', before: GiB, after: 2 * GiB },
      { field: 'aliases', before: ['contact@alice.example', 'hello@alice.example'], after: ['hello@alice.example'] },
      { field: 'keep_copies', before: false, after: true },
    ]);
    fieldChanges({ catch_all: true }, { ...LIVE, catchAll: undefined }, (field) => unknowns.push(field));
    expect(unknowns).toEqual(['catch_all']);
  });
});

describe('the mailbox diff rule', () => {
  it('creates a mailbox the panel lacks, after the creates it needs', () => {
    const { change } = diffMailbox(
      want({ quota: 2 * GiB, aliases: ['hello@alice.example', 'info@alice-shop.example'] }),
      undefined,
      { client: 'alice', clientId: null, domainCreated: (d) => d === 'alice.example' || d === 'alice-shop.example' },
    );
    expect(change).toEqual({
      id: 'mailbox:info@alice.example',
      action: 'create',
      type: 'mailbox',
      name: 'info@alice.example',
      client: 'alice',
      clientId: null,
      domain: 'alice.example',
      wants: { quota: 2 * GiB, aliases: ['hello@alice.example', 'info@alice-shop.example'] },
      reason: 'not on the panel',
      dependsOn: ['client:alice', 'domain:alice.example', 'domain:alice-shop.example'],
    });
    const created = change as MailboxChange;
    expect(mailboxRequest(created)).toEqual({
      method: 'POST',
      path: '/emails',
      body: {
        id_user: null,
        email: 'info@alice.example',
        max_size: 2 * GiB,
        aliases: ['hello@alice.example', 'info@alice-shop.example'],
      },
    });
    expect(mailboxRequest(created, new Map([['client:alice', 12]])).body).toMatchObject({ id_user: 12 });
    expect(JSON.stringify(mailboxRequest(created))).not.toMatch(/password/);
  });

  it('updates only the fields that differ, lists whole', () => {
    const { change, unknowns } = diffMailbox(
      want({ quota: 2 * GiB, aliases: ['hello@alice.example'], forwardings: ['owner@example.net'] }),
      LIVE,
      VIEW,
    );
    expect(unknowns).toEqual([]);
    expect(change).toMatchObject({ id: 'mailbox:info@alice.example', action: 'update', mailboxId: 7, dependsOn: [] });
    expect(mailboxRequest(change as MailboxChange)).toEqual({
      method: 'PUT',
      path: '/emails/7',
      body: { max_size: 2 * GiB, aliases: ['hello@alice.example'] },
    });
    expect(diffMailbox(want({ forwardings: ['owner@example.net'] }), LIVE, VIEW).change).toBeUndefined();
  });

  it('deletes a mailbox marked absent that the panel has, and destroys its mail', () => {
    const { change } = diffMailbox(want({}, 'absent'), LIVE, VIEW);
    expect(change).toMatchObject({
      action: 'delete',
      mailboxId: 7,
      destroysData: true,
      reason: 'state: absent in the manifest',
    });
    expect(mailboxRequest(change as MailboxChange)).toEqual({ method: 'DELETE', path: '/emails/7', body: null });
    expect(diffMailbox(want({}, 'absent'), undefined, VIEW).change).toBeUndefined();
  });
});

describe('the mailbox phrases', () => {
  it('say a create as the plan text does', () => {
    const { change } = diffMailbox(want({ quota: 2 * GiB, aliases: ['hello@alice.example'] }), undefined, VIEW);
    expect(mailboxLine(change as MailboxChange)).toBe('+ mailbox "info@alice.example" (quota 2 GiB, 1 alias)');
    const full = diffMailbox(
      {
        ...want({
          quota: 0,
          aliases: ['a@alice.example', 'b@alice.example'],
          forwardings: ['owner@example.net'],
          keep_copies: true,
          catch_all: true,
          description: 'Front desk',
        }),
        address: 'info@xn--bcher-kva.example',
      },
      undefined,
      VIEW,
    ).change;
    expect(full?.action === 'create' ? createdLine(full) : full).toBe(
      'mailbox "info@xn--bcher-kva.example" (info@bücher.example) (quota unlimited, 2 aliases, 1 forwarding, ' +
        'keeps copies, catch-all, description "Front desk")',
    );
    expect(mailboxSubject(change as MailboxChange)).toBe('mailbox "info@alice.example" of client "alice"');
  });

  it('say an update field by field, a list by what it gains and loses', () => {
    const { change } = diffMailbox(
      want({ quota: 2 * GiB, aliases: ['hello@alice.example', 'new@alice.example'], catch_all: true, description: '' }),
      LIVE,
      VIEW,
    );
    expect(change?.action === 'update' ? updatedParts(change) : change).toEqual([
      'quota: 1 GiB -> 2 GiB',
      'aliases: + "new@alice.example", - "contact@alice.example"',
      'catch_all: false -> true',
      'description: "Front desk" -> (none)',
    ]);
  });

  it('say a delete with what goes with it', () => {
    const { change } = diffMailbox(want({}, 'absent'), LIVE, VIEW);
    expect(mailboxLine(change as MailboxChange)).toBe('- mailbox "info@alice.example" with the mail stored in it');
  });
});
