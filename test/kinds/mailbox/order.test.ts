/**
 * What the mailbox room decides across mailboxes: prune (only what the manifest does not list,
 * never a keep match), keep patterns against addresses, and the order in which what frees an
 * address, an alias or a catch-all goes before what takes it.
 */
import { describe, expect, it } from 'vitest';
import { liveMailbox } from './live.js';
import {
  addressKeepMatcher,
  createMailbox,
  deleteMailbox,
  freeBeforeTake,
  type MailboxChange,
  pruneMailboxes,
  updateMailbox,
} from '../../../src/kinds/mailbox/index.js';

const OWNER = { client: 'alice', clientId: 3, dependsOn: [] };

describe('prune and keep', () => {
  it('deletes only the mailboxes the manifest does not list, never a keep match', () => {
    const keep = addressKeepMatcher(['postmaster@*', '*@xn--bcher-kva.example']);
    const deletes = pruneMailboxes(
      [
        liveMailbox(1, 'info@alice.example'),
        liveMailbox(2, 'zz@alice.example'),
        liveMailbox(3, 'postmaster@alice.example'),
        liveMailbox(4, 'old@alice.example'),
        liveMailbox(5, 'post@xn--bcher-kva.example'),
      ],
      new Set(['info@alice.example']),
      keep,
      'alice',
    );
    expect(deletes.map((d) => [d.name, d.mailboxId, d.reason, d.destroysData])).toEqual([
      ['old@alice.example', 4, 'not in the manifest (prune.mailboxes)', true],
      ['zz@alice.example', 2, 'not in the manifest (prune.mailboxes)', true],
    ]);
  });

  it('matches keep patterns against the address and its Unicode form, in any case', () => {
    const keep = addressKeepMatcher(['INFO@*', 'post@bücher.example']);
    expect(keep('info@alice.example')).toBe(true);
    expect(keep('post@xn--bcher-kva.example')).toBe(true);
    expect(keep('post@alice.example')).toBe(false);
  });
});

describe('free before take', () => {
  it('puts the delete or update that frees an address or alias before what takes it', () => {
    const changes: MailboxChange[] = [
      createMailbox('hello@alice.example', 'alice.example', {}, OWNER),
      createMailbox('new@alice.example', 'alice.example', { aliases: ['contact@alice.example'] }, OWNER),
      updateMailbox('info@alice.example', 'alice', 1, [
        { field: 'aliases', before: ['contact@alice.example', 'hello@alice.example'], after: [] },
      ]),
      deleteMailbox('old@alice.example', 'alice', 2, 'state: absent in the manifest'),
      updateMailbox('desk@alice.example', 'alice', 3, [
        { field: 'aliases', before: [], after: ['old@alice.example', 'olds@alice.example'] },
      ]),
    ];
    const records = new Map([[2, liveMailbox(2, 'old@alice.example', { aliases: ['olds@alice.example'] })]]);
    const { changes: ordered, circular } = freeBeforeTake(changes, (id) => records.get(id));
    expect(circular).toEqual([]);
    expect(ordered.map((c) => [c.id, c.dependsOn])).toEqual([
      ['mailbox:hello@alice.example', ['mailbox:info@alice.example']],
      ['mailbox:new@alice.example', ['mailbox:info@alice.example']],
      ['mailbox:info@alice.example', []],
      ['mailbox:old@alice.example', []],
      ['mailbox:desk@alice.example', ['mailbox:old@alice.example']],
    ]);
  });

  it('turns the old catch-all off before the new one on, on the same domain only', () => {
    const changes: MailboxChange[] = [
      updateMailbox('all@alice.example', 'alice', 5, [{ field: 'catch_all', before: false, after: true }]),
      updateMailbox('info@alice.example', 'alice', 1, [{ field: 'catch_all', before: true, after: false }]),
      createMailbox('any@bob.example', 'bob.example', { catch_all: true }, { ...OWNER, dependsOn: ['client:bob'] }),
      deleteMailbox('gone@bob.example', 'bob', 9, 'pruned'),
      createMailbox('other@carol.example', 'carol.example', { catch_all: true }, OWNER),
    ];
    const records = new Map([[9, liveMailbox(9, 'gone@bob.example', { catchAll: true })]]);
    const { changes: ordered } = freeBeforeTake(changes, (id) => records.get(id));
    expect(ordered.map((c) => c.dependsOn)).toEqual([
      ['mailbox:info@alice.example'],
      [],
      ['client:bob', 'mailbox:gone@bob.example'],
      [],
      [],
    ]);
  });

  it('names the changes that would each wait for the other', () => {
    const changes: MailboxChange[] = [
      updateMailbox('a@alice.example', 'alice', 1, [
        { field: 'aliases', before: ['x@alice.example'], after: ['y@alice.example'] },
      ]),
      updateMailbox('b@alice.example', 'alice', 2, [
        { field: 'aliases', before: ['y@alice.example'], after: ['x@alice.example'] },
      ]),
      createMailbox('c@alice.example', 'alice.example', {}, OWNER),
    ];
    expect(freeBeforeTake(changes, () => undefined).circular).toEqual([
      'mailbox:a@alice.example',
      'mailbox:b@alice.example',
    ]);
  });
});
