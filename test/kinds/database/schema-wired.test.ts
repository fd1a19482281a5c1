/**
 * The database room's schema fragment (schema.json), as composed into the published schemas:
 * the manifest takes databases under a client, the plan takes each change the room makes (as the
 * document writes it) and its conflicts, the snapshot the databases as their read writes them.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  createDatabase,
  type DatabaseChange,
  type DatabaseConflict,
  databaseRequest,
  databaseToJson,
  deleteDatabase,
  updateDatabase,
} from '../../../src/kinds/database/index.js';
import { DATABASE_READ } from '../../../src/kinds/database/read.js';

/** The published schemas (schemas/*.schema.json), by document. */
function published(): Map<string, unknown> {
  return new Map(
    ['manifest', 'plan', 'snapshot'].map((document) => [
      document,
      JSON.parse(readFileSync(new URL(`../../../schemas/${document}.schema.json`, import.meta.url), 'utf8')) as unknown,
    ]),
  );
}

/** A change as the plan document writes it. */
function item(change: DatabaseChange): Record<string, unknown> {
  return {
    id: change.id,
    action: change.action,
    type: change.type,
    name: change.name,
    reason: change.reason,
    depends_on: change.dependsOn,
    request: databaseRequest(change),
    ...databaseToJson(change),
  };
}

describe("the database room's schema fragment, published", () => {
  const schemas = published();
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  it('gives the manifest databases under a client, and no password', () => {
    const valid = ajv.compile(schemas.get('manifest') as object);
    const manifest = {
      version: 1,
      clients: [
        {
          username: 'alice',
          databases: [
            { name: 'alice_wp', user: 'alice_wp', remote_hosts: ['192.0.2.0/24'], description: 'WordPress' },
            { name: 'old_db', state: 'absent' },
          ],
        },
      ],
    };
    expect(valid(manifest), JSON.stringify(valid.errors)).toBe(true);
    const bad = structuredClone(manifest);
    (bad.clients[0]!.databases[0] as Record<string, unknown>).password = 'secret';
    expect(valid(bad)).toBe(false);
    const hosts = structuredClone(manifest);
    (hosts.clients[0]!.databases[0] as Record<string, unknown>).remote_hosts = '192.0.2.0/24';
    expect(valid(hosts)).toBe(false);
  });

  it("gives the plan each of a database's changes, a delete marked as destroying data", () => {
    const plan = schemas.get('plan') as { $defs: Record<string, unknown> };
    const valid = ajv.compile({ $defs: plan.$defs, $ref: '#/$defs/change' });
    const changes: DatabaseChange[] = [
      createDatabase(
        'alice_wp',
        'wp',
        { remote_hosts: ['192.0.2.0/24'], description: 'x' },
        { client: 'alice', clientId: null },
      ),
      updateDatabase('alice_wp', 'alice', 4, [{ field: 'remote_hosts', before: [], after: ['10.0.0.0/8'] }]),
      deleteDatabase('old_db', 'alice', 5),
    ];
    for (const change of changes) {
      const json = item(change);
      expect(valid(json), JSON.stringify(valid.errors)).toBe(true);
    }
    const deleted = item(changes[2]!);
    expect(deleted).toMatchObject({ type: 'database', name: 'old_db', client: 'alice', destroys_data: true });
    expect(valid({ ...deleted, destroys_data: false })).toBe(false);
    expect(valid({ ...item(changes[0]!), type: 'databases' })).toBe(false);
    expect(valid({ ...item(changes[0]!), name: 'Alice-WP' })).toBe(false);
  });

  it("gives the plan a database's conflicts, keys as written", () => {
    const plan = schemas.get('plan') as { $defs: Record<string, unknown>; properties: { conflicts: object } };
    const valid = ajv.compile({ $defs: plan.$defs, ...plan.properties.conflicts });
    const conflicts: DatabaseConflict[] = [
      { database: 'a', client: 'alice', reason: 'owner', owner: 'bob' },
      { database: 'a', client: 'alice', reason: 'rename', user: 'x', panel_user: 'a' },
      { database: 'b', client: 'alice', reason: 'rename', user: 'x', held_by: 'c' },
    ];
    expect(valid(conflicts), JSON.stringify(valid.errors)).toBe(true);
    expect(valid([{ database: 'a', client: 'alice', reason: 'moved' }])).toBe(false);
  });

  it('gives the snapshot the databases as their read writes them, optional (a read without them has none)', () => {
    const snapshot = schemas.get('snapshot') as { properties: Record<string, object>; required: unknown[] };
    expect(snapshot.required).not.toContain('databases');
    const valid = ajv.compile(snapshot.properties.databases!);
    const part = {
      read: true,
      records: [
        { id: 4, idUser: 3, name: 'alice_wp', user: 'wp', description: '', remoteHosts: ['192.0.2.0/24'], size: 0 },
        {
          id: 5,
          idUser: undefined,
          name: 'old_db',
          user: undefined,
          description: undefined,
          remoteHosts: undefined,
          size: undefined,
        },
      ],
    };
    const written = JSON.parse(JSON.stringify(DATABASE_READ.snapshot.write(part))) as { databases: unknown[] };
    expect(valid(written.databases), JSON.stringify(valid.errors)).toBe(true);
    expect(valid([{ database_name: 'x' }])).toBe(false);
  });
});
