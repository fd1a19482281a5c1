/**
 * The database's descriptor (src/kinds/database/kind.ts), member by member, as the stages
 * ask it: its requests, the plan document both ways, its
 * phrases (a delete marked as destroying data), its weight and order, its secret, and the facts
 * a saved plan's fingerprint checks.
 */
import { describe, expect, it } from 'vitest';
import { readsForSavedPlan } from '../../../src/plan/reads.js';
import { changeId } from '../../../src/kinds/common.js';
import { factKey } from '../../../src/kinds/facts.js';
import { DATABASE_KIND } from '../../../src/kinds/database/kind.js';
import {
  createDatabase,
  type DatabaseChange,
  type DatabaseChangeJson,
  deleteDatabase,
  type LiveDatabase,
  updateDatabase,
} from '../../../src/kinds/database/index.js';
import { databasesIndex } from '../../../src/kinds/database/read.js';
import type { DatabaseFactIndex } from '../../../src/kinds/database/facts.js';

const K = DATABASE_KIND;

const CREATE = createDatabase(
  'alice_wp',
  'wp',
  { remote_hosts: ['192.0.2.0/24'], description: 'WordPress' },
  { client: 'alice', clientId: 3 },
);
const CREATE_NEW_CLIENT = createDatabase('alice_shop', 'alice_shop', {}, { client: 'alice', clientId: null });
const UPDATE = updateDatabase('alice_wp', 'alice', 4, [
  { field: 'remote_hosts', before: ['10.0.0.0/8'], after: ['192.0.2.0/24'] },
  { field: 'description', before: '', after: 'WordPress' },
]);
const DELETE = deleteDatabase('old_db', 'alice', 7);
const ALL: DatabaseChange[] = [CREATE, CREATE_NEW_CLIENT, UPDATE, DELETE];

/** A change through the plan document and back, as plan/saved-changes.ts writes and reads it. */
function roundTrip(change: DatabaseChange): DatabaseChange {
  const item = JSON.parse(
    JSON.stringify({ action: change.action, ...K.toJson(change), request: K.request(change) }),
  ) as DatabaseChangeJson;
  return K.fromJson(item, { name: change.name, reason: change.reason, dependsOn: change.dependsOn });
}

describe('the database descriptor: identity, order, weight', () => {
  it('is named by the kind, after clients, at its client entry', () => {
    expect(K.name).toBe('database');
    expect(K.noun).toEqual({ one: 'database', many: 'databases' });
    expect(K.order).toEqual({ after: ['client'], at: 'client' });
    expect(K.waitsForCreatesBelow).toBe(false);
    // Nothing of its own: a saved plan reads its list again for the section (plan/reads.ts).
    expect(K.readsAgain(UPDATE)).toEqual({});
    const saved = { changes: [UPDATE], conflicts: [], unknowns: [], unmanaged: { clients: [], domains: [] } };
    expect(readsForSavedPlan(saved as never)).toMatchObject({ databases: true });
  });

  it('weighs a create 1 created, a delete 1 destroyed, an update nothing', () => {
    expect(K.weight(CREATE)).toEqual({ creates: 1, deletes: 0 });
    expect(K.weight(UPDATE)).toEqual({ creates: 0, deletes: 0 });
    expect(K.weight(DELETE)).toEqual({ creates: 0, deletes: 1 });
  });
});

describe('the database descriptor: requests', () => {
  it('a create POSTs its client, name, user and fields, never a password', () => {
    expect(K.request(CREATE)).toEqual({
      method: 'POST',
      path: '/databases',
      body: {
        id_user: 3,
        database_name: 'alice_wp',
        database_username: 'wp',
        remote_hosts: ['192.0.2.0/24'],
        description: 'WordPress',
      },
    });
  });

  it("a new client's id comes from the run's creates, null before apply", () => {
    expect(K.request(CREATE_NEW_CLIENT).body?.id_user).toBeNull();
    const ids = new Map([[changeId('client', 'alice'), 12]]);
    expect(K.request(CREATE_NEW_CLIENT, ids).body?.id_user).toBe(12);
  });

  it('an update PUTs only the fields that differ, a delete is a DELETE by id', () => {
    expect(K.request(UPDATE)).toEqual({
      method: 'PUT',
      path: '/databases/4',
      body: { remote_hosts: ['192.0.2.0/24'], description: 'WordPress' },
    });
    expect(K.request(DELETE)).toEqual({ method: 'DELETE', path: '/databases/7', body: null });
  });

  it('its secret adds the password to the body as sent, and a reset PUTs one', () => {
    const secret = K.secret!;
    expect(secret.journalKind).toBe('database');
    expect(secret.panelMakesOne).toBe(false);
    expect(secret.panelNaming).toBeUndefined();
    expect(secret.withPassword(K.request(CREATE), 'pw-123456789').body).toMatchObject({
      database_name: 'alice_wp',
      password: 'pw-123456789',
    });
    expect(K.request(CREATE).body).not.toHaveProperty('password');
    expect(secret.resetRequest(4, 'pw-123456789')).toEqual({
      method: 'PUT',
      path: '/databases/4',
      body: { password: 'pw-123456789' },
    });
    expect(secret.namePattern.test('alice_wp')).toBe(true);
    expect(secret.namePattern.test('Alice-WP')).toBe(false);
    expect(secret.nameRule).toContain('alice_wp');
  });
});

describe('the database descriptor: the plan document', () => {
  it.each(ALL.map((c) => [`${c.action} ${c.name}`, c] as const))('%s reads back as written', (_, change) => {
    expect(roundTrip(change)).toEqual(change);
  });

  it('a delete says it destroys data', () => {
    expect(K.toJson(DELETE)).toEqual({ client: 'alice', database_id: 7, destroys_data: true });
  });

  it('a change read back whose request was edited is refused; one as written is not', () => {
    const item = { action: 'update', ...K.toJson(UPDATE), request: K.request(UPDATE) } as DatabaseChangeJson;
    const never = (): undefined => undefined;
    expect(K.problems(UPDATE, item, 'changes[0]', never)).toEqual([]);
    const edited = { ...item, request: { ...K.request(UPDATE), path: '/databases/5' } };
    expect(K.problems(UPDATE, edited, 'changes[0]', never)).toEqual([
      'changes[0].request: is not the request the change makes: the file was edited',
    ]);
  });

  it("a create for a client made in the same run must depend on the client's create", () => {
    const item = {
      action: 'create',
      ...K.toJson(CREATE_NEW_CLIENT),
      request: K.request(CREATE_NEW_CLIENT),
    } as DatabaseChangeJson;
    const never = (): undefined => undefined;
    expect(K.problems(CREATE_NEW_CLIENT, item, 'changes[1]', never)).toEqual([]);
    expect(K.problems({ ...CREATE_NEW_CLIENT, dependsOn: [] }, item, 'changes[1]', never)).toEqual([
      'changes[1].client_id: null, yet the change does not depend on "client:alice"',
    ]);
  });
});

describe('the database descriptor: phrases', () => {
  it('says each change in people words', () => {
    expect(K.subject(CREATE)).toBe('database "alice_wp" of client "alice"');
    expect(K.lineSubject(CREATE)).toBe('database "alice_wp"');
    expect(K.clientOf(CREATE)).toBe('alice');
    expect(K.unicodeOf(CREATE)).toBe('');
    expect(K.createdParts(CREATE)).toEqual(['user "wp"', 'remote_hosts [192.0.2.0/24]', 'description "WordPress"']);
    expect(K.updatedParts(UPDATE)).toEqual([
      'remote_hosts + 192.0.2.0/24, - 10.0.0.0/8',
      'description: (none) -> "WordPress"',
    ]);
    expect(K.notes(UPDATE)).toEqual([]);
    expect(K.details(DELETE)).toEqual({ what: '', after: '' });
  });

  it('marks a delete as destroying data, in its line and the note on deletes', () => {
    expect(K.goesWith(DELETE)).toBe(' with the data stored in it');
    expect(K.goesWith(UPDATE)).toBe('');
    expect(K.deleteTakes).toBe('a database with the data stored in it');
    expect(K.createsRow).toBe('some');
  });

  it("names another client's database in a conflict only when others may be named", () => {
    const owner = { database: 'alice_wp', client: 'alice', reason: 'owner', owner: 'bob' };
    expect(K.conflictLine?.(owner, true)).toContain('belongs to client "bob"');
    expect(K.conflictLine?.(owner, false)).toContain('belongs to another client');
    expect(K.conflictLine?.(owner, false)).not.toContain('bob');
    const held = { database: 'alice_new', client: 'alice', reason: 'rename', user: 'wp', held_by: 'bob_wp' };
    expect(K.conflictLine?.(held, true)).toContain('database "bob_wp"');
    expect(K.conflictLine?.(held, false)).not.toContain('bob_wp');
    expect(K.conflictLine?.({ domain: 'a.example', client: 'alice', owner: 'bob' }, true)).toBeUndefined();
  });
});

describe('the database descriptor: facts', () => {
  const LIVE: LiveDatabase = {
    id: 4,
    idUser: 3,
    name: 'alice_wp',
    user: 'alice_wp',
    description: '',
    remoteHosts: ['10.0.0.0/8'],
    size: 0,
  };

  function index(
    databases: readonly LiveDatabase[],
    clients: Record<string, number> = { alice: 3 },
  ): DatabaseFactIndex {
    const byName = new Map(Object.entries(clients).map(([username, id]) => [username, { id, username }]));
    return { clients: byName, indexOf: () => databasesIndex(databases) };
  }

  /** Each fact's key and whether it holds against `live`. */
  function holds(change: DatabaseChange, live: DatabaseFactIndex): Record<string, boolean> {
    return Object.fromEntries(K.facts(change).map((f) => [factKey(f), f.actual(live) === f.expected]));
  }

  it('a create holds while the name and the user are free and its client stays', () => {
    expect(holds(CREATE, index([]))).toEqual({
      'database:alice_wp': true,
      'database-user:wp': true,
      'owner:alice': true,
    });
    expect(holds(CREATE, index([{ ...LIVE, user: 'wp', name: 'other' }]))['database-user:wp']).toBe(false);
    expect(holds(CREATE, index([LIVE]))['database:alice_wp']).toBe(false);
    expect(holds(CREATE, index([], { alice: 9 }))['owner:alice']).toBe(false);
    expect(Object.keys(holds(CREATE_NEW_CLIENT, index([])))).toEqual([
      'database:alice_shop',
      'database-user:alice_shop',
    ]);
  });

  it("an update holds while the database and each field's value before stay", () => {
    expect(holds(UPDATE, index([LIVE]))).toEqual({
      'database:alice_wp': true,
      'database-field:alice_wp:remote_hosts': true,
      'database-field:alice_wp:description': true,
    });
    const moved = holds(UPDATE, index([{ ...LIVE, remoteHosts: ['10.0.0.0/8', '192.0.2.1'] }]));
    expect(moved['database-field:alice_wp:remote_hosts']).toBe(false);
    const gone = K.facts(UPDATE).find((f) => factKey(f) === 'database:alice_wp')!;
    expect(gone.reason(gone.actual(index([])), index([]))).toBe(
      'database "alice_wp", which the plan updates, is no longer on the panel',
    );
  });

  it('a delete holds while the database keeps its id', () => {
    const old: LiveDatabase = { ...LIVE, id: 7, name: 'old_db' };
    expect(holds(DELETE, index([old]))).toEqual({ 'database:old_db': true });
    expect(holds(DELETE, index([{ ...old, id: 8 }]))).toEqual({ 'database:old_db': false });
  });
});
