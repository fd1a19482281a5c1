/**
 * The database's manifest section (DATABASE_SECTION): a client item's list read through the
 * section, prune.databases refused, the diff under a client (another client's name and a rename
 * are conflicts), and the note on unlisted databases, never a delete.
 */
import { describe, expect, it } from 'vitest';
import type { LiveDatabase } from '../../../src/kinds/database/index.js';
import { DATABASE_SECTION } from '../../../src/kinds/database/section.js';
import type { SectionItemContext, SectionParentView } from '../../../src/kinds/section.js';

function live(id: number, name: string, more: Partial<LiveDatabase> = {}): LiveDatabase {
  return { id, idUser: 3, name, user: name, description: '', remoteHosts: [], size: 0, ...more };
}

const CONTEXT: SectionItemContext = {
  client: 'client "alice"',
  parent: 'alice',
  parentAbsent: false,
  clientDomains: new Set(),
  ownerOf: () => undefined,
  usernames: new Set(['alice']),
  locate: (path) => ({ file: 'm.yaml', line: 20 + Number(path[0] ?? 0), column: 7 }),
};

const PARENT: SectionParentView = {
  client: 'alice',
  clientId: 3,
  domain: undefined,
  otherOwner: undefined,
  domainCreated: () => false,
  ownerName: (id) => (id === 4 ? 'bob' : `#${id}`),
};

describe('the database section', () => {
  it('stands under a client item, as "databases"; prune.databases is an error at its key', () => {
    expect(DATABASE_SECTION.parent).toBe('client');
    expect(DATABASE_SECTION.key).toBe('databases');
    expect(DATABASE_SECTION.asks).toEqual({ databases: true });
    const problem = DATABASE_SECTION.prune?.refused?.({ file: 'm.yaml', line: 3, column: 3 });
    expect(problem).toMatchObject({ line: 3, column: 3, severity: 'error' });
    expect(problem?.message).toContain('prune.databases is not accepted');
  });

  it('reads a list with the names remembered across clients', () => {
    const seen = DATABASE_SECTION.seen();
    expect(DATABASE_SECTION.items([{ name: 'alice_wp' }], CONTEXT, seen).items.map((d) => d.user)).toEqual([
      'alice_wp',
    ]);
    const again = DATABASE_SECTION.items([{ name: 'alice_wp' }], { ...CONTEXT, client: 'client "bob"' }, seen);
    expect(again.items).toEqual([]);
    expect(again.problems).toHaveLength(1);
  });

  it("creates, deletes on state: absent, and makes another client's name a conflict naming it", () => {
    const { items } = DATABASE_SECTION.items(
      [{ name: 'alice_wp' }, { name: 'alice_old', state: 'absent' }, { name: 'bobs' }],
      CONTEXT,
      DATABASE_SECTION.seen(),
    );
    const index = DATABASE_SECTION.index({
      read: true,
      records: [live(1, 'alice_old'), live(2, 'bobs', { idUser: 4 })],
    });
    const answer = DATABASE_SECTION.diff(items, index, PARENT);
    expect(answer.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['create alice_wp', 'delete alice_old']);
    expect(answer.conflicts).toEqual([{ database: 'bobs', client: 'alice', reason: 'owner', owner: 'bob' }]);
  });

  it('never deletes an unlisted database: a note counts them, when the client lists its databases', () => {
    const { items } = DATABASE_SECTION.items([{ name: 'alice_wp' }], CONTEXT, DATABASE_SECTION.seen());
    const index = DATABASE_SECTION.index({
      read: true,
      records: [live(1, 'alice_wp'), live(2, 'alice_x'), live(3, 'bob_x', { idUser: 4 })],
    });
    const view = { client: 'alice', clientId: 3, liveDomains: [], domainDeleted: () => false, prune: true, keep: [] };
    const answer = DATABASE_SECTION.unlisted(items, index, view);
    expect(answer.changes).toEqual([]);
    expect(answer.notes).toEqual([
      expect.stringContaining('1 database of client "alice" is not in the manifest: kept'),
    ]);
    expect(DATABASE_SECTION.unlisted(undefined, index, view).notes).toEqual([]);
  });
});
