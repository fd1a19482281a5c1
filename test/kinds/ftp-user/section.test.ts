/**
 * The FTP user's manifest section (FTP_USER_SECTION): a client item's list read through the
 * section, the diff under a client (a name another client holds is a conflict naming it), and
 * prune.ftp_users of a listed client's unlisted FTP users, never a keep match.
 */
import { describe, expect, it } from 'vitest';
import type { LiveFtpUser } from '../../../src/kinds/ftp-user/index.js';
import { FTP_USER_SECTION } from '../../../src/kinds/ftp-user/section.js';
import type { SectionItemContext, SectionParentView } from '../../../src/kinds/section.js';

function live(id: number, name: string, idUser = 3): LiveFtpUser {
  return { id, idUser, name, description: '', home: '/www' };
}

const CONTEXT: SectionItemContext = {
  client: 'client "alice"',
  parent: 'alice',
  parentAbsent: false,
  clientDomains: new Set(),
  ownerOf: () => undefined,
  usernames: new Set(['alice']),
  locate: (path) => ({ file: 'm.yaml', line: 30 + Number(path[0] ?? 0), column: 7 }),
};

const PARENT: SectionParentView = {
  client: 'alice',
  clientId: 3,
  domain: undefined,
  otherOwner: undefined,
  domainCreated: () => false,
  ownerName: (id) => (id === 4 ? 'bob' : `#${id}`),
};

describe('the FTP user section', () => {
  it('stands under a client item, as "ftp_users", pruned by prune.ftp_users', () => {
    expect(FTP_USER_SECTION.parent).toBe('client');
    expect(FTP_USER_SECTION.key).toBe('ftp_users');
    expect(FTP_USER_SECTION.prune).toEqual({ key: 'ftp_users' });
    expect(FTP_USER_SECTION.asks).toEqual({ ftpUsers: true });
  });

  it('creates, and makes a name another client holds a conflict naming it', () => {
    const { items, problems } = FTP_USER_SECTION.items(
      [{ name: 'alice_deploy' }, { name: 'taken' }],
      CONTEXT,
      FTP_USER_SECTION.seen(),
    );
    expect(problems).toEqual([]);
    const answer = FTP_USER_SECTION.diff(
      items,
      FTP_USER_SECTION.index({ read: true, records: [live(7, 'taken', 4)] }),
      PARENT,
    );
    expect(answer.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['create alice_deploy']);
    expect(answer.conflicts).toEqual([{ ftp_user: 'taken', client: 'alice', owner: 'bob' }]);
  });

  it("prunes a listed client's unlisted FTP users, never a keep match nor another client's", () => {
    const { items } = FTP_USER_SECTION.items([{ name: 'alice_deploy' }], CONTEXT, FTP_USER_SECTION.seen());
    const index = FTP_USER_SECTION.index({
      read: true,
      records: [live(1, 'alice_deploy'), live(2, 'alice_old'), live(3, 'alice_ci'), live(4, 'bob_old', 4)],
    });
    const view = {
      client: 'alice',
      clientId: 3,
      liveDomains: [],
      domainDeleted: () => false,
      prune: true,
      keep: ['*_ci'],
    };
    expect(FTP_USER_SECTION.unlisted(items, index, view).changes.map((c) => `${c.action} ${c.name}`)).toEqual([
      'delete alice_old',
    ]);
    expect(FTP_USER_SECTION.unlisted(items, index, { ...view, prune: false }).changes).toEqual([]);
  });
});
