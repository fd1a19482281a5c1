/**
 * The database's list read, look-ups, apply and doctor members, over real HTTP against the
 * simulator: GET /databases only when the ask asks, indexed by name, user and client; a part not
 * read holds nothing and judges nothing gone; the snapshot part both ways; found by name and id;
 * a delete whose answer was lost read back from the list.
 */
import { describe, expect, test } from 'vitest';
import { DATABASE_KIND } from '../../../src/kinds/database/kind.js';
import { DATABASE_READ, DATABASES_NOT_READ, type DatabasesPart } from '../../../src/kinds/database/read.js';
import { deleteDatabase, updateDatabase } from '../../../src/kinds/database/index.js';
import { send } from '../../../src/apply/send.js';
import type { ApplyStage } from '../../../src/kinds/apply.js';
import type { SnapshotReading } from '../../../src/kinds/read.js';
import { listReader } from '../../../src/panel/read.js';
import { parseSeed } from '../../../src/simulator/index.js';
import { client } from '../../helpers/panel.js';
import { call } from '../../helpers/sim-http.js';
import { sim } from '../../helpers/sim.js';

const SEED = parseSeed(
  {
    clients: [
      {
        username: 'alice',
        databases: [
          'alice_shop',
          { name: 'alice_wp', database_username: 'wp', description: 'WordPress', remote_hosts: ['192.0.2.0/24'] },
        ],
      },
      { username: 'bob', databases: ['bob_db'] },
    ],
  },
  'seed.json',
);

async function panel(): Promise<{ reader: ReturnType<typeof listReader>; requests: () => string[]; ids: number[] }> {
  const s = await sim({ seed: SEED, systemDomains: false });
  const ids = ['alice', 'bob'].map((name) => s.state.clientNamed(name)?.id ?? 0);
  return { reader: listReader(client(s)), requests: () => s.requests.map((r) => `${r.method} ${r.path}`), ids };
}

/** A snapshot document's reading, as api/snapshot-read.ts hands it. */
function reading(document: Record<string, unknown>): SnapshotReading {
  return {
    value: (key) => document[key],
    at: (key) => `snapshot.json: ${key}`,
    list: (key) => {
      const value = document[key];
      if (!Array.isArray(value)) throw new Error(`needs "${key}" as a list`);
      return value as unknown[];
    },
    bad: (problem) => new Error(problem),
    digests: false,
    isDigest: () => false,
  };
}

describe('the databases list read', () => {
  test('is needed only when the ask asks for databases', () => {
    expect(DATABASE_READ.needed({})).toBe(false);
    expect(DATABASE_READ.needed({ databases: false })).toBe(false);
    expect(DATABASE_READ.needed({ databases: true })).toBe(true);
    expect(DATABASE_READ.empty).toEqual({ records: [], read: false });
    expect(DATABASE_KIND.read).toBe(DATABASE_READ);
  });

  test('reads GET /databases once, checks it, and indexes by name, user and client', async () => {
    const { reader, requests, ids } = await panel();
    const part = await DATABASE_READ.list(reader, { databases: true }, {});
    await DATABASE_READ.check?.(part, reader, { databases: true }, {});
    expect(requests().filter((r) => r.includes('/databases'))).toEqual(['GET /databases']);
    expect(part.read).toBe(true);
    expect(part.records.map((d) => d.name)).toEqual(['alice_shop', 'alice_wp', 'bob_db']);
    const index = DATABASE_READ.index!(part);
    expect(index.byName.get('alice_wp')).toMatchObject({ user: 'wp', remoteHosts: ['192.0.2.0/24'] });
    expect(index.byUser.get('wp')?.name).toBe('alice_wp');
    expect(index.byClient.get(ids[0]!)?.map((d) => d.name)).toEqual(['alice_shop', 'alice_wp']);
    expect(index.byClient.get(ids[1]!)?.map((d) => d.name)).toEqual(['bob_db']);
  });

  test('refuses a list in which two records share a name', async () => {
    const { reader } = await panel();
    const part = await DATABASE_READ.list(reader, { databases: true }, {});
    const twice: DatabasesPart = { ...part, records: [...part.records, { ...part.records[0]!, id: 99 }] };
    await expect(async () => DATABASE_READ.check?.(twice, reader, { databases: true }, {})).rejects.toThrow(
      /records share one "database_name"/,
    );
  });

  test('a snapshot holds the read part whole and reads it back; a part not read writes nothing', async () => {
    const { reader } = await panel();
    const part = await DATABASE_READ.list(reader, { databases: true }, {});
    const written = JSON.parse(JSON.stringify(DATABASE_READ.snapshot.write(part))) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual(['databases']);
    expect(DATABASE_READ.snapshot.read(reading(written))).toEqual(part);
    expect(DATABASE_READ.snapshot.write(DATABASES_NOT_READ)).toEqual({});
    expect(DATABASE_READ.snapshot.read(reading({}))).toEqual(DATABASES_NOT_READ);
  });

  test('the secrets look-ups: a part not read judges nothing gone; found by name and by id', async () => {
    const { reader } = await panel();
    const lookUps = DATABASE_READ.lookUps!;
    expect(lookUps.inPart(DATABASES_NOT_READ)).toBeUndefined();
    const part = await DATABASE_READ.list(reader, { databases: true }, {});
    expect(lookUps.inPart(part)?.map((t) => t.name)).toEqual(['alice_shop', 'alice_wp', 'bob_db']);
    const wp = await lookUps.find(reader, 'alice_wp');
    expect(wp).toMatchObject({ id: part.records[1]!.id });
    expect(await lookUps.find(reader, 'nobody_db')).toBeUndefined();
    expect(await lookUps.findById(reader, wp!.id)).toMatchObject({ id: wp!.id });
    expect(await lookUps.findById(reader, 999)).toBeUndefined();
  });
});

describe('the database apply and doctor members', () => {
  test("an update PUTs its request; a delete's lost answer is read back from the list", async () => {
    const s = await sim({ seed: SEED, systemDomains: false });
    const panelClient = client(s);
    const reader = listReader(panelClient);
    const part = await DATABASE_READ.list(reader, { databases: true }, {});
    const wp = part.records[1]!;
    const stage = {
      panel: panelClient,
      newIds: new Map(),
      send: (request) => send(panelClient, request, undefined),
    } as Pick<ApplyStage, 'panel' | 'newIds' | 'send'> as ApplyStage;
    const update = updateDatabase('alice_wp', 'alice', wp.id, [
      { field: 'description', before: 'WordPress', after: 'Blog' },
    ]);
    expect(await DATABASE_KIND.apply.update(update, stage)).toEqual({ id: wp.id });
    expect((await call(s, 'GET', `/databases/${wp.id}`)).json).toMatchObject({ description: 'Blog' });
    const remove = DATABASE_KIND.apply.delete!;
    const gone = deleteDatabase('alice_wp', 'alice', wp.id);
    expect(remove.id(gone)).toBe(wp.id);
    expect(await remove.stillThere(gone, stage)).toBe(true);
    await call(s, 'DELETE', `/databases/${wp.id}`);
    expect(await remove.stillThere(gone, stage)).toBe(false);
  });

  test('doctor reads GET /databases whole, and says what a panel without it costs', () => {
    expect(DATABASE_KIND.doctor.list).toMatchObject({ path: '/databases', provesKey: false });
    expect(DATABASE_KIND.doctor.list?.mayLack?.statuses).toEqual([404, 405]);
    expect(DATABASE_KIND.doctor.check).toBeUndefined();
  });
});
