/**
 * The FTP user's list read, look-ups, apply members and panel naming, over real HTTP against the
 * simulator: GET /ftp-users only when the ask asks, indexed by name and client; a part not read
 * holds nothing and judges nothing gone; the snapshot part both ways; found by name (any case)
 * and id; a delete whose answer was lost read back from the list; the name a panel without
 * custom FTP usernames gave a new user, read back by its id.
 */
import { describe, expect, test } from 'vitest';
import { send } from '../../../src/apply/send.js';
import type { ApplyStage } from '../../../src/kinds/apply.js';
import { createFtpUser, deleteFtpUser, updateFtpUser } from '../../../src/kinds/ftp-user/index.js';
import { FTP_USER_KIND } from '../../../src/kinds/ftp-user/kind.js';
import { FTP_USER_READ, FTP_USERS_NOT_READ } from '../../../src/kinds/ftp-user/read.js';
import type { SnapshotReading } from '../../../src/kinds/read.js';
import { listReader } from '../../../src/panel/read.js';
import { parseSeed, type SimulatorOptions } from '../../../src/simulator/index.js';
import { client } from '../../helpers/panel.js';
import { call } from '../../helpers/sim-http.js';
import { sim } from '../../helpers/sim.js';

const SEED = parseSeed(
  {
    clients: [
      {
        username: 'alice',
        ftp_users: ['alice_files', { name: 'alice_deploy', home_directory: '/www/alice.example', description: 'd' }],
      },
      { username: 'bob', ftp_users: ['bob_ftp'] },
    ],
  },
  'seed.json',
);

async function panel(options: Partial<SimulatorOptions> = {}) {
  const s = await sim({ seed: SEED, systemDomains: false, ...options });
  const panelClient = client(s);
  const stage = {
    panel: panelClient,
    newIds: new Map(),
    send: (request) => send(panelClient, request, undefined),
  } as Pick<ApplyStage, 'panel' | 'newIds' | 'send'> as ApplyStage;
  return {
    s,
    panelClient,
    stage,
    reader: listReader(panelClient),
    ids: ['alice', 'bob'].map((name) => s.state.clientNamed(name)?.id ?? 0),
  };
}

function reading(document: Record<string, unknown>): SnapshotReading {
  return {
    value: (key) => document[key],
    at: (key) => `snapshot.json: ${key}`,
    list: (key) => document[key] as unknown[],
    bad: (problem) => new Error(problem),
    digests: false,
    isDigest: () => false,
  };
}

describe('the FTP users list read', () => {
  test('is needed only when the ask asks for FTP users', () => {
    expect(FTP_USER_READ.needed({})).toBe(false);
    expect(FTP_USER_READ.needed({ ftpUsers: true })).toBe(true);
    expect(FTP_USER_READ.empty).toEqual({ records: [], read: false });
    expect(FTP_USER_KIND.read).toBe(FTP_USER_READ);
  });

  test('reads GET /ftp-users once, checks it, indexes by name and client; a snapshot holds it', async () => {
    const { s, reader, ids } = await panel();
    const part = await FTP_USER_READ.list(reader, { ftpUsers: true }, {});
    await FTP_USER_READ.check?.(part, reader, { ftpUsers: true }, {});
    expect(s.requests.map((r) => `${r.method} ${r.path}`).filter((r) => r.includes('/ftp-users'))).toEqual([
      'GET /ftp-users',
    ]);
    const index = FTP_USER_READ.index!(part);
    expect(index.byName.get('alice_deploy')).toMatchObject({ home: '/www/alice.example', description: 'd' });
    expect(index.byClient.get(ids[0]!)?.map((u) => u.name)).toEqual(['alice_files', 'alice_deploy']);
    expect(index.byClient.get(ids[1]!)?.map((u) => u.name)).toEqual(['bob_ftp']);
    const written = JSON.parse(JSON.stringify(FTP_USER_READ.snapshot.write(part))) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual(['ftp_users']);
    expect(FTP_USER_READ.snapshot.read(reading(written))).toEqual(part);
    expect(FTP_USER_READ.snapshot.write(FTP_USERS_NOT_READ)).toEqual({});
    expect(FTP_USER_READ.snapshot.read(reading({}))).toEqual(FTP_USERS_NOT_READ);
  });

  test('the secrets look-ups: a part not read judges nothing gone; found by name in any case and by id', async () => {
    const { reader } = await panel();
    const lookUps = FTP_USER_READ.lookUps!;
    expect(lookUps.inPart(FTP_USERS_NOT_READ)).toBeUndefined();
    const part = await FTP_USER_READ.list(reader, { ftpUsers: true }, {});
    expect(lookUps.inPart(part)?.map((t) => t.name)).toEqual(['alice_files', 'alice_deploy', 'bob_ftp']);
    const found = await lookUps.find(reader, 'Alice_Deploy');
    expect(found).toMatchObject({ id: part.records[1]!.id });
    expect(await lookUps.find(reader, 'nobody')).toBeUndefined();
    expect(await lookUps.findById(reader, found!.id)).toMatchObject({ id: found!.id });
    expect(await lookUps.findById(reader, 999)).toBeUndefined();
  });
});

describe('the FTP user apply members', () => {
  test("an update PUTs its request; a delete's lost answer is read back from the list", async () => {
    const { s, reader, stage } = await panel();
    const part = await FTP_USER_READ.list(reader, { ftpUsers: true }, {});
    const deploy = part.records[1]!;
    const update = updateFtpUser('alice_deploy', 'alice', deploy.id, [
      { field: 'home', before: '/www/alice.example', after: '/files/deploy' },
    ]);
    expect(await FTP_USER_KIND.apply.update(update, stage)).toEqual({ id: deploy.id });
    expect((await call(s, 'GET', `/ftp-users/${deploy.id}`)).json).toMatchObject({ home_directory: '/files/deploy' });
    const remove = FTP_USER_KIND.apply.delete!;
    const gone = deleteFtpUser('alice_deploy', 'alice', deploy.id, 'state: absent in the manifest');
    expect(await remove.stillThere(gone, stage)).toBe(true);
    await call(s, 'DELETE', `/ftp-users/${deploy.id}`);
    expect(await remove.stillThere(gone, stage)).toBe(false);
  });
});

describe('a panel that names FTP users itself', () => {
  async function created(options: Partial<SimulatorOptions>): Promise<{ given: string | undefined; name: string }> {
    const { panelClient, ids } = await panel(options);
    const change = createFtpUser('alice_new', {}, { client: 'alice', clientId: ids[0]!, dependsOn: [] });
    const secret = FTP_USER_KIND.secret!;
    const request = secret.withPassword(FTP_USER_KIND.request(change), 'a-long-ftp-password');
    const answer = (await send(panelClient, request, undefined)) as { id: number };
    return { given: await secret.panelNaming?.nameOf(panelClient, answer.id), name: change.name };
  }

  test('is told by the name read back by id: the failure names both', async () => {
    const { given, name } = await created({ customFtpUsernames: false });
    expect(given).toBe('alice_ftp1');
    expect(FTP_USER_KIND.secret?.panelNaming?.renamed(name, given!)?.message).toContain(
      'was created by the panel as "alice_ftp1"',
    );
  });

  test('a panel that takes the name sent is no failure', async () => {
    const { given, name } = await created({});
    expect(given).toBe('alice_new');
    expect(FTP_USER_KIND.secret?.panelNaming?.renamed(name, given!)).toBeUndefined();
  });
});
