/**
 * The mailbox's manifest section (MAILBOX_SECTION): one domain item's list read through the
 * section with the addresses remembered across parents, keep patterns that are addresses, the
 * diff under a domain (a domain of another client is a conflict naming it, nothing planned), the
 * prune of a listed client's unlisted mailboxes, and the run's ask.
 */
import { describe, expect, it } from 'vitest';
import { liveMailbox } from './live.js';
import { MAILBOX_SECTION } from '../../../src/kinds/mailbox/section.js';
import type { SectionClientView, SectionItemContext, SectionParentView } from '../../../src/kinds/section.js';

function context(parent: string, more: Partial<SectionItemContext> = {}): SectionItemContext {
  return {
    client: 'client "alice"',
    parent,
    parentAbsent: false,
    clientDomains: new Set([parent]),
    ownerOf: () => undefined,
    usernames: new Set(['alice']),
    locate: (path) => ({ file: 'm.yaml', line: 10 + Number(path[0] ?? 0), column: 5 }),
    ...more,
  };
}

const PARENT: SectionParentView = {
  client: 'alice',
  clientId: 3,
  domain: 'alice.example',
  otherOwner: undefined,
  domainCreated: () => false,
  ownerName: (id) => `#${id}`,
};

describe('the mailbox section', () => {
  it('stands under a domain item, as "mailboxes", pruned by prune.mailboxes, read by its own ask', () => {
    expect(MAILBOX_SECTION.parent).toBe('domain');
    expect(MAILBOX_SECTION.key).toBe('mailboxes');
    expect(MAILBOX_SECTION.prune?.key).toBe('mailboxes');
    expect(MAILBOX_SECTION.prune).toEqual({ key: 'mailboxes' });
    expect(MAILBOX_SECTION.asks).toEqual({ mailboxes: true });
  });

  it('reads a list with the addresses remembered across domain items (and parts)', () => {
    const seen = MAILBOX_SECTION.seen();
    const first = MAILBOX_SECTION.items([{ name: 'info', quota: '2 GiB' }], context('alice.example'), seen);
    expect(first.problems).toEqual([]);
    expect(first.items.map((m) => [m.address, m.wants.quota, m.loc.line])).toEqual([
      ['info@alice.example', 2 * 1024 ** 3, 10],
    ]);
    const again = MAILBOX_SECTION.items([{ name: 'INFO' }], context('alice.example'), seen);
    expect(again.items).toEqual([]);
    expect(again.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('is listed twice (first at line 10)'),
    ]);
  });

  it('refuses a list under a domain marked absent', () => {
    const read = MAILBOX_SECTION.items(
      [{ name: 'info' }],
      context('a.example', { parentAbsent: true }),
      MAILBOX_SECTION.seen(),
    );
    expect(read.problems.map((p) => p.message)).toEqual([expect.stringContaining('has state: absent')]);
  });

  it('claims the keep patterns with an "@", and leaves the others', () => {
    const check = (pattern: string) => MAILBOX_SECTION.keepPattern?.(pattern);
    expect(check('info@*')).toEqual({ keep: 'info@*' });
    expect(check('*@alice.example')).toEqual({ keep: '*@alice.example' });
    expect(check('legacy-*')).toBeUndefined();
    const problem = (pattern: string): string => {
      const answer = check(pattern);
      return answer !== undefined && 'problem' in answer ? answer.problem : '';
    };
    expect(problem('info@')).toContain('not an address pattern');
    expect(problem('info @x.example')).toContain('not an address pattern');
    expect(problem('info@x..example')).toContain('empty label');
  });

  it('creates, updates and deletes under a domain, with unknowns named', () => {
    const { items } = MAILBOX_SECTION.items(
      [
        { name: 'info', quota: '1 GiB' },
        { name: 'new', description: 'x' },
        { name: 'old', state: 'absent' },
      ],
      context('alice.example'),
      MAILBOX_SECTION.seen(),
    );
    const index = MAILBOX_SECTION.index({
      read: true,
      records: [liveMailbox(1, 'info@alice.example', { maxSize: 0 }), liveMailbox(2, 'old@alice.example')],
    });
    const answer = MAILBOX_SECTION.diff(items, index, PARENT);
    expect(answer.changes.map((c) => `${c.action} ${c.name}`)).toEqual([
      'update info@alice.example',
      'create new@alice.example',
      'delete old@alice.example',
    ]);
    expect(answer.conflicts).toEqual([]);
    const unread = MAILBOX_SECTION.diff(
      items,
      MAILBOX_SECTION.index({ read: true, records: [liveMailbox(1, 'info@alice.example', { maxSize: undefined })] }),
      PARENT,
    );
    expect(unread.unknowns).toEqual([{ client: 'alice', mailbox: 'info@alice.example', field: 'quota' }]);
  });

  it('makes every mailbox of a domain another client has a conflict naming that client, and plans nothing', () => {
    const { items } = MAILBOX_SECTION.items(
      [{ name: 'info' }, { name: 'old', state: 'absent' }],
      context('bob.example'),
      MAILBOX_SECTION.seen(),
    );
    const answer = MAILBOX_SECTION.diff(
      items,
      MAILBOX_SECTION.index({ read: true, records: [liveMailbox(9, 'old@bob.example')] }),
      {
        ...PARENT,
        domain: 'bob.example',
        otherOwner: 'bob',
      },
    );
    expect(answer.changes).toEqual([]);
    expect(answer.conflicts).toEqual([
      { mailbox: 'info@bob.example', client: 'alice', owner: 'bob' },
      { mailbox: 'old@bob.example', client: 'alice', owner: 'bob' },
    ]);
  });

  it("neither updates nor deletes a mailbox whose record names another owner than its domain's", () => {
    const { items } = MAILBOX_SECTION.items(
      [
        { name: 'info', quota: '1 GiB' },
        { name: 'old', state: 'absent' },
      ],
      context('alice.example'),
      MAILBOX_SECTION.seen(),
    );
    const index = MAILBOX_SECTION.index({
      read: true,
      records: [
        liveMailbox(1, 'info@alice.example', { idUser: 4 }),
        liveMailbox(2, 'old@alice.example', { idUser: 4 }),
      ],
    });
    const answer = MAILBOX_SECTION.diff(items, index, PARENT);
    expect(answer.changes).toEqual([]);
    expect(answer.conflicts).toEqual([
      { mailbox: 'info@alice.example', client: 'alice', owner: '#4' },
      { mailbox: 'old@alice.example', client: 'alice', owner: '#4' },
    ]);
  });

  it("prunes a listed client's unlisted mailboxes on its domains that stay, never a keep match, only with prune", () => {
    const index = MAILBOX_SECTION.index({
      read: true,
      records: [
        liveMailbox(1, 'info@alice.example'),
        liveMailbox(2, 'stale@alice.example'),
        liveMailbox(3, 'postmaster@alice.example'),
        liveMailbox(4, 'x@gone.example'),
        liveMailbox(5, 'y@bob.example', { idUser: 4 }),
        liveMailbox(6, 'bobs@alice.example', { idUser: 4 }),
      ],
    });
    const view: SectionClientView = {
      client: 'alice',
      clientId: 3,
      liveDomains: ['alice.example', 'gone.example'],
      domainDeleted: (d) => d === 'gone.example',
      prune: true,
      keep: ['postmaster@*'],
    };
    const { items } = MAILBOX_SECTION.items([{ name: 'info' }], context('alice.example'), MAILBOX_SECTION.seen());
    expect(MAILBOX_SECTION.unlisted(items, index, view).changes.map((c) => `${c.action} ${c.name}`)).toEqual([
      'delete stale@alice.example',
    ]);
    expect(MAILBOX_SECTION.unlisted(items, index, { ...view, prune: false }).changes).toEqual([]);
    expect(MAILBOX_SECTION.unlisted(items, index, { ...view, clientId: null }).changes).toEqual([]);
  });

  it('orders what frees an address before what takes it', () => {
    const seen = MAILBOX_SECTION.seen();
    const { items } = MAILBOX_SECTION.items([{ name: 'new', aliases: ['hello'] }], context('alice.example'), seen);
    const index = MAILBOX_SECTION.index({ read: true, records: [liveMailbox(1, 'hello@alice.example')] });
    const planned = MAILBOX_SECTION.diff(items, index, PARENT).changes;
    const pruned = MAILBOX_SECTION.unlisted(items, index, {
      client: 'alice',
      clientId: 3,
      liveDomains: ['alice.example'],
      domainDeleted: () => false,
      prune: true,
      keep: [],
    }).changes;
    const arranged = MAILBOX_SECTION.arrange?.([...planned, ...pruned], index);
    expect(arranged?.problems).toEqual([]);
    const create = arranged?.changes.find((c) => c.action === 'create');
    expect(create?.dependsOn).toContain('mailbox:hello@alice.example');
  });
});
