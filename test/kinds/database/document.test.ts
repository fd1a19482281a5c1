/**
 * A database's change in the plan document written and read back to the same change, a request
 * edited in the file found; its secret parts (the password only as it is sent, a new one by a
 * PUT, the journal's name); and its export entry, which the manifest reads back to no change.
 */
import { describe, expect, it } from 'vitest';
import {
  createDatabase,
  type DatabaseChange,
  type DatabaseChangeJson,
  databaseEntry,
  databaseFromJson,
  databaseItems,
  databaseProblems,
  databaseRequest,
  databaseResetRequest,
  databaseSecretName,
  databaseSeen,
  databaseToJson,
  databaseWithPassword,
  deleteDatabase,
  diffDatabase,
  type LiveDatabase,
  updateDatabase,
} from '../../../src/kinds/database/index.js';

const CHANGES: DatabaseChange[] = [
  createDatabase('alice_wp', 'wp', { remote_hosts: ['192.0.2.0/24'] }, { client: 'alice', clientId: 3 }),
  createDatabase('alice_new', 'alice_new', {}, { client: 'alice', clientId: null }),
  updateDatabase('alice_wp', 'alice', 4, [{ field: 'description', before: '', after: 'WordPress' }]),
  deleteDatabase('old_db', 'alice', 5),
];

/** A change as the document holds it: the common fields, the kind's own, the request. */
function written(change: DatabaseChange): DatabaseChangeJson {
  return { action: change.action, request: databaseRequest(change), ...databaseToJson(change) };
}

describe("a database's change in the plan document", () => {
  it('reads back to the same change, its request the one the change makes', () => {
    for (const change of CHANGES) {
      const json = written(change);
      const back = databaseFromJson(json, { name: change.name, reason: change.reason, dependsOn: change.dependsOn });
      expect(back).toEqual(change);
      expect(databaseProblems(back, json, 'changes[0]')).toEqual([]);
    }
  });

  it('finds a request edited in the file', () => {
    const change = CHANGES[0]!;
    const json = { ...written(change), request: { ...databaseRequest(change), body: { database_username: 'root' } } };
    expect(databaseProblems(change, json, 'changes[0]')).toEqual([
      'changes[0].request: is not the request the change makes: the file was edited',
    ]);
  });
});

describe("a database's secret", () => {
  it('goes into the create only as it is sent, and a new one by a PUT', () => {
    const planned = databaseRequest(CHANGES[0]!);
    expect(planned.body).not.toHaveProperty('password');
    expect(JSON.stringify(databaseToJson(CHANGES[0]!))).not.toContain('password');
    expect(databaseWithPassword(planned, 'Pw-made-here-1').body).toEqual({
      ...planned.body,
      password: 'Pw-made-here-1',
    });
    expect(databaseResetRequest(4, 'Pw-2')).toEqual({
      method: 'PUT',
      path: '/databases/4',
      body: { password: 'Pw-2' },
    });
  });

  it('names it in the journal by its name, or says the rule', () => {
    expect(databaseSecretName(' alice_wp ')).toEqual({ name: 'alice_wp' });
    expect(databaseSecretName('Alice-WP')).toEqual({
      problem:
        'is not a database\'s name: a database is named by its name: lowercase letters a-z, digits and "_", 1 to 64 characters, like alice_wp',
    });
  });
});

describe("a database's export entry", () => {
  const live: LiveDatabase = {
    id: 4,
    idUser: 3,
    name: 'alice_wp',
    user: 'wp',
    description: 'WordPress',
    remoteHosts: ['192.0.2.0/24', 'db.example.net'],
    size: 10,
  };

  it('writes what reads back to no change, never a password', () => {
    const { entry, left } = databaseEntry(live);
    expect(left).toEqual([]);
    expect(entry).toEqual({
      name: 'alice_wp',
      user: 'wp',
      remote_hosts: ['192.0.2.0/24', 'db.example.net'],
      description: 'WordPress',
    });
    const { databases, problems } = databaseItems([entry], {
      client: 'client "alice"',
      locate: () => ({ file: 'm.yaml', line: 1, column: 1 }),
      seen: databaseSeen(),
    });
    expect(problems).toEqual([]);
    const decision = diffDatabase(databases[0]!, live, {
      client: 'alice',
      clientId: 3,
      ownerName: String,
      databaseWithUser: () => live,
    });
    expect(decision.change).toBeUndefined();
    expect(decision.conflict).toBeUndefined();
  });

  it('leaves out the user when it is the name, [] kept, and says what it cannot write', () => {
    expect(databaseEntry({ ...live, user: 'alice_wp', remoteHosts: [], description: '' }).entry).toEqual({
      name: 'alice_wp',
      remote_hosts: [],
    });
    expect(databaseEntry({ ...live, remoteHosts: ['%'] })).toMatchObject({
      entry: { name: 'alice_wp', user: 'wp' },
      left: ['a remote host is not one the manifest accepts (a wildcard?): remote_hosts left out'],
    });
    expect(databaseEntry({ ...live, name: 'Alice' })).toEqual({
      entry: undefined,
      left: ['its name is not one the manifest accepts: left out'],
    });
  });
});
