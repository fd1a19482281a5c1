/**
 * The database's field table, diff rule, changes and phrases: what differs between the manifest
 * and the panel (remote_hosts as a set, a field the record lacks unknown), the conflicts (another
 * client's name, a rename) whatever else is wrong, deletes only by state: absent and marked as
 * destroying data, the requests the changes become and how the plan's text says them.
 */
import { describe, expect, it } from 'vitest';
import {
  createDatabase,
  DATABASE_FIELD_NAMES,
  databaseConflictText,
  databaseFieldChanges,
  databaseLine,
  databaseRequest,
  databaseSubject,
  type DatabaseDiffView,
  diffDatabase,
  type LiveDatabase,
  unlistedDatabasesNote,
  type WantedDatabase,
} from '../../../src/kinds/database/index.js';

const LIVE: LiveDatabase = {
  id: 4,
  idUser: 3,
  name: 'alice_wp',
  user: 'alice_wp',
  description: 'WordPress',
  remoteHosts: ['10.0.0.0/8', '192.0.2.10'],
  size: 1000,
};

const OTHER: LiveDatabase = { ...LIVE, id: 9, idUser: 3, name: 'alice_shop', user: 'shop' };

function want(wants: WantedDatabase['wants'], extra: Partial<WantedDatabase> = {}): WantedDatabase {
  return { name: 'alice_wp', user: 'alice_wp', userGiven: false, state: 'present', wants, ...extra };
}

const VIEW: DatabaseDiffView = {
  client: 'alice',
  clientId: 3,
  ownerName: (id) => (id === 5 ? 'bob' : `#${id}`),
  databaseWithUser: (user) => [LIVE, OTHER].find((d) => d.user === user),
};

describe('the database field table', () => {
  it("has the manifest's names, and no user (a changed user is a rename)", () => {
    expect(DATABASE_FIELD_NAMES).toEqual(['remote_hosts', 'description']);
  });

  it('compares remote_hosts as a set and says which fields the record lacks', () => {
    expect(databaseFieldChanges({ remote_hosts: ['192.0.2.10', '10.0.0.0/8'] }, LIVE)).toEqual([]);
    const unknowns: string[] = [];
    expect(
      databaseFieldChanges(
        { remote_hosts: ['192.0.2.0/24', '10.0.0.0/8'], description: 'x' },
        { ...LIVE, description: undefined },
        (f) => unknowns.push(f),
      ),
    ).toEqual([{ field: 'remote_hosts', before: ['10.0.0.0/8', '192.0.2.10'], after: ['10.0.0.0/8', '192.0.2.0/24'] }]);
    expect(unknowns).toEqual(['description']);
  });
});

describe('the database diff rule', () => {
  it('creates what the panel lacks, after its client when the same run creates it', () => {
    const { change } = diffDatabase(want({ remote_hosts: [] }), undefined, VIEW);
    expect(change).toEqual(createDatabase('alice_wp', 'alice_wp', { remote_hosts: [] }, VIEW));
    expect(change?.dependsOn).toEqual([]);
    const later = diffDatabase(want({}), undefined, { ...VIEW, clientId: null }).change;
    expect(later?.dependsOn).toEqual(['client:alice']);
    expect(databaseRequest(later!)).toEqual({
      method: 'POST',
      path: '/databases',
      body: { id_user: null, database_name: 'alice_wp', database_username: 'alice_wp' },
    });
    expect(databaseRequest(later!, new Map([['client:alice', 12]]))).toMatchObject({ body: { id_user: 12 } });
  });

  it('updates only the fields that differ, remote_hosts whole', () => {
    const { change, conflict } = diffDatabase(
      want({ remote_hosts: ['192.0.2.0/24'], description: 'WordPress' }),
      LIVE,
      VIEW,
    );
    expect(conflict).toBeUndefined();
    expect(change).toMatchObject({ action: 'update', databaseId: 4, fields: [{ field: 'remote_hosts' }] });
    expect(databaseRequest(change!)).toEqual({
      method: 'PUT',
      path: '/databases/4',
      body: { remote_hosts: ['192.0.2.0/24'] },
    });
    expect(databaseLine(change!)).toBe(
      '~ database "alice_wp": remote_hosts + 192.0.2.0/24, - 10.0.0.0/8, - 192.0.2.10',
    );
    expect(diffDatabase(want({ remote_hosts: ['192.0.2.10', '10.0.0.0/8'] }), LIVE, VIEW)).toEqual({
      change: undefined,
      conflict: undefined,
      unknowns: [],
    });
  });

  it('deletes only by state: absent, marked as destroying data', () => {
    const { change } = diffDatabase(want({}, { state: 'absent' }), LIVE, VIEW);
    expect(change).toMatchObject({
      action: 'delete',
      databaseId: 4,
      destroysData: true,
      reason: 'state: absent in the manifest',
    });
    expect(databaseRequest(change!)).toEqual({ method: 'DELETE', path: '/databases/4', body: null });
    expect(databaseLine(change!)).toBe('- database "alice_wp" with the data stored in it');
    expect(diffDatabase(want({}, { state: 'absent' }), undefined, VIEW).change).toBeUndefined();
  });

  it('never deletes an unlisted database: a note counts them', () => {
    expect(unlistedDatabasesNote([LIVE, OTHER], new Set(['alice_wp']), 'alice')).toEqual({
      count: 1,
      text: '1 database of client "alice" is not in the manifest: kept (a database is deleted only by state: absent on its name, never by prune)',
    });
    expect(unlistedDatabasesNote([LIVE], new Set(['alice_wp']), 'alice')).toBeUndefined();
  });

  it("names the owner of another client's database, whatever else is wrong with the entry", () => {
    const bobs = { ...LIVE, idUser: 5 };
    for (const w of [want({ remote_hosts: [] }), want({}, { user: 'other' }), want({}, { state: 'absent' })]) {
      const { change, conflict } = diffDatabase(w, bobs, VIEW);
      expect(change).toBeUndefined();
      expect(conflict).toEqual({ database: 'alice_wp', client: 'alice', reason: 'owner', owner: 'bob' });
    }
    expect(diffDatabase(want({}), bobs, { ...VIEW, clientId: null }).conflict).toMatchObject({ owner: 'bob' });
    expect(databaseConflictText({ database: 'alice_wp', client: 'alice', reason: 'owner', owner: 'bob' })).toBe(
      'database "alice_wp" of client "alice" belongs to client "bob" on the panel: a database name is unique on the ' +
        'whole panel; choose another name, or move the entry to "bob"',
    );
  });

  it('neither updates nor deletes a database whose record does not say whose it is', () => {
    const unsaid = { ...LIVE, idUser: undefined };
    for (const w of [want({ description: 'x' }), want({}, { state: 'absent' })]) {
      const { change, conflict } = diffDatabase(w, unsaid, VIEW);
      expect(change).toBeUndefined();
      expect(conflict).toEqual({ database: 'alice_wp', client: 'alice', reason: 'owner' });
    }
    expect(databaseConflictText({ database: 'alice_wp', client: 'alice', reason: 'owner' })).toBe(
      'database "alice_wp" of client "alice": the panel\'s record does not say which client has it: nothing is ' +
        "planned of it; check the panel's answer to GET /databases",
    );
  });

  it('refuses a rename: a changed user, or a new database with a user another has', () => {
    const changed = diffDatabase(want({ description: 'x' }, { user: 'wp2', userGiven: true }), LIVE, VIEW);
    expect(changed).toEqual({
      change: undefined,
      conflict: { database: 'alice_wp', client: 'alice', reason: 'rename', user: 'wp2', panel_user: 'alice_wp' },
      unknowns: [],
    });
    expect(databaseConflictText(changed.conflict!)).toBe(
      'database "alice_wp" of client "alice" has the user "alice_wp" on the panel, the manifest gives "wp2": that is a ' +
        'rename, which would lose its data as a delete and a create; rename in the panel, then in the manifest',
    );
    const moved = diffDatabase(want({}, { name: 'alice_new', user: 'shop' }), undefined, VIEW);
    expect(moved.conflict).toEqual({
      database: 'alice_new',
      client: 'alice',
      reason: 'rename',
      user: 'shop',
      held_by: 'alice_shop',
    });
    expect(databaseConflictText(moved.conflict!)).toContain(
      'gives the user "shop", which database "alice_shop" has on the panel',
    );
    expect(diffDatabase(want({}), { ...LIVE, user: undefined }, VIEW).conflict).toBeUndefined();
  });
});

describe("a database change's text", () => {
  it('says a create with its user and fields', () => {
    const change = createDatabase(
      'alice_wp',
      'wp',
      { remote_hosts: ['192.0.2.0/24'], description: 'WordPress' },
      { client: 'alice', clientId: 3 },
    );
    expect(databaseLine(change)).toBe(
      '+ database "alice_wp" (user "wp", remote_hosts [192.0.2.0/24], description "WordPress")',
    );
    expect(databaseLine(createDatabase('a', 'a', { remote_hosts: [] }, { client: 'alice', clientId: 3 }))).toBe(
      '+ database "a" (user "a", remote_hosts [] (local only))',
    );
    expect(databaseSubject(change)).toBe('database "alice_wp" of client "alice"');
  });

  it('says a description change, and prints data as data', () => {
    const { change } = diffDatabase(want({ description: 'new\u001b[31m' }), { ...LIVE, description: '' }, VIEW);
    expect(databaseLine(change!)).toBe('~ database "alice_wp": description: (none) -> "new\\u001b[31m"');
  });
});
