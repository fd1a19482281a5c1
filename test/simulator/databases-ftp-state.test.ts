/**
 * Databases and FTP users in the simulator's seed (a client's `databases` and `ftp_users`) and
 * in its state file: saved as they change, loaded back whole with their password hashes, and
 * absent from older files.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { parseSeed, type SimulatorSeed } from '../../src/simulator/index.js';
import { call, tempDir } from '../helpers/sim-http.js';
import { sim, startSim } from '../helpers/sim.js';

const SEED: SimulatorSeed = {
  clients: [
    {
      username: 'alice',
      databases: [
        'alice_shop',
        {
          name: 'alice_wp',
          database_username: 'wp',
          password: 'a-database-password',
          description: 'WordPress',
          remote_hosts: ['192.0.2.0/24'],
          size: 4096,
        },
      ],
      ftp_users: [
        'alice_files',
        { name: 'alice_deploy', home_directory: '/www/alice.example', password: 'an-ftp-password', description: 'd' },
      ],
    },
  ],
};

/** What parseSeed says of a seed, or undefined when it takes it. */
function seedProblem(seed: unknown): string | undefined {
  try {
    parseSeed(seed, 'seed.json');
  } catch (err) {
    expect(err).toBeInstanceOf(ProvisionError);
    return (err as ProvisionError).message;
  }
  return undefined;
}

describe('the seed', () => {
  test("a client's databases and FTP users: names, or objects with POST's fields", async () => {
    const s = await sim({ seed: parseSeed(SEED, 'seed.json'), systemDomains: false });
    const alice = s.state.clientNamed('alice')?.id;
    expect((await call(s, 'GET', '/databases')).json).toEqual([
      {
        id: 1,
        id_user: alice,
        database_name: 'alice_shop',
        database_username: 'alice_shop',
        description: '',
        size: 0,
        remote_hosts: [],
      },
      {
        id: 2,
        id_user: alice,
        database_name: 'alice_wp',
        database_username: 'wp',
        description: 'WordPress',
        size: 4096,
        remote_hosts: ['192.0.2.0/24'],
      },
    ]);
    expect((await call(s, 'GET', '/ftp-users')).json).toEqual([
      { id: 1, id_user: alice, username: 'alice_files', description: '', home_directory: '/www' },
      { id: 2, id_user: alice, username: 'alice_deploy', description: 'd', home_directory: '/www/alice.example' },
    ]);
    expect(s.state.databasePasswordIs('alice_wp', 'a-database-password')).toBe(true);
    expect(s.state.databasePasswordIs('alice_shop', 'a-database-password')).toBe(false);
    expect(s.state.ftpUserPasswordIs('alice_deploy', 'an-ftp-password')).toBe(true);
    expect(s.state.ftpUserPasswordIs('alice_files', 'an-ftp-password')).toBe(false);
  });

  test('the default seed has none', async () => {
    const s = await sim();
    expect((await call(s, 'GET', '/databases')).json).toEqual([]);
    expect((await call(s, 'GET', '/ftp-users')).json).toEqual([]);
  });

  test.each([
    [{ databases: 'x' }, /clients\[0\]\.databases must be an array/],
    [{ databases: [{ name: 'Bad' }] }, /clients\[0\]\.databases\[0\]\.name must be a database name/],
    [{ databases: [{ name: 'a', user: 'b' }] }, /databases\[0\]: unknown key "user"/],
    [{ databases: [{ name: 'a', remote_hosts: ['x y'] }] }, /databases\[0\]: The remote host 'x y' is not/],
    [{ databases: ['a', 'a'] }, /databases\[1\]: The database name 'a' is already taken\./],
    [{ ftp_users: [7] }, /clients\[0\]\.ftp_users\[0\] must be a username or an object/],
    [{ ftp_users: [{ name: 'a', home_directory: '/etc' }] }, /ftp_users\[0\]: The home directory '\/etc' is not/],
    [{ ftp_users: [{ name: 'a', password: 'short' }] }, /ftp_users\[0\]: The password must be at least 8/],
    [{ ftp_users: ['alice'] }, /ftp_users\[0\]: The FTP username 'alice' is a panel user's username\./],
  ])('parseSeed refuses %j', (keys, message) => {
    const problem = seedProblem({ clients: [{ username: 'alice', ...keys }] });
    expect(problem).toMatch(/^seed\.json: invalid simulator seed: |^seed\.json: clients/);
    expect(problem).toMatch(message);
  });

  test('a seed given in code skips parseSeed and is checked all the same', async () => {
    await expect(startSim({ seed: { clients: [{ username: 'alice', ftp_users: ['Bad'] }] } })).rejects.toThrow(
      /clients\[0\]\.ftp_users\[0\]: The FTP username "Bad" is invalid/,
    );
  });
});

describe('the state file', () => {
  test('databases and FTP users are saved as they change and come back whole, hashes included', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({ statePath, seed: SEED, systemDomains: false });
    const alice = first.state.clientNamed('alice')?.id ?? 0;
    const db = await call(first, 'POST', '/databases', {
      body: { id_user: alice, database_name: 'alice_new', password: 'new-db-password' },
    });
    expect(db.status).toBe(201);
    await call(first, 'PUT', `/databases/${(db.json as { id: number }).id}`, {
      body: { remote_hosts: ['db.example'] },
    });
    const ftp = await call(first, 'POST', '/ftp-users', {
      body: { id_user: alice, username: 'alice_ci', home_directory: '/files', password: 'ci-ftp-password' },
    });
    expect(ftp.status).toBe(201);
    await call(first, 'DELETE', '/databases/1');
    await call(first, 'DELETE', '/ftp-users/1');
    const logged = (await readFile(statePath, 'utf8')).split('\n').slice(1, -1);
    expect(logged.map((line) => Object.keys(JSON.parse(line) as object).join('+'))).toEqual([
      'set+record',
      'set+record',
      'set+record',
      'set+record',
      'set+record',
      'delete+id',
      'delete+id',
    ]);
    expect(logged.join('\n')).not.toMatch(/new-db-password|ci-ftp-password/);
    const before = { databases: [...first.state.databases], ftpUsers: [...first.state.ftpUsers] };
    await first.close();

    const snapshot = JSON.parse(await readFile(statePath, 'utf8')) as Record<string, unknown>;
    expect(snapshot).toMatchObject({ nextDatabaseId: 4, nextFtpUserId: 4 });
    expect(JSON.stringify(snapshot)).not.toMatch(/password"|a-database-password|an-ftp-password/);
    const second = await sim({ statePath });
    expect({ databases: [...second.state.databases], ftpUsers: [...second.state.ftpUsers] }).toEqual(before);
    expect(second.state.databasePasswordIs('alice_new', 'new-db-password')).toBe(true);
    expect(second.state.databasePasswordIs('alice_wp', 'a-database-password')).toBe(true);
    expect(second.state.ftpUserPasswordIs('alice_ci', 'ci-ftp-password')).toBe(true);
    expect(second.state.ftpUserPasswordIs('alice_deploy', 'an-ftp-password')).toBe(true);
    // The indexes are rebuilt: names and users stay taken; ids go on.
    const taken = await call(second, 'POST', '/databases', {
      body: { id_user: alice, database_name: 'other', database_username: 'wp', password: 'x-password' },
    });
    expect(taken.status).toBe(400);
    const again = await call(second, 'POST', '/databases', {
      body: { id_user: alice, database_name: 'alice_shop', password: 'x-password' },
    });
    expect(again).toMatchObject({ status: 201, json: { id: 4 } });
    const ftpTaken = await call(second, 'POST', '/ftp-users', {
      body: { id_user: alice, username: 'alice_ci', home_directory: '/www', password: 'x-password' },
    });
    expect(ftpTaken.status).toBe(400);
  });

  test('a file written before databases and FTP users loads with none, and takes them from then on', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const snapshot = {
      format: 'panel-provision-simulator-state',
      version: 1,
      nextPlanId: 2,
      nextUserId: 3,
      nextDomainId: 1,
      admins: [{ id: 1, username: 'admin' }],
      plans: [{ id: 1, name: 'Basic', resources: {}, permissions: {}, php: {}, php_fpm: {} }],
      clients: [
        {
          id: 2,
          username: 'alice',
          email: '',
          is_suspended: false,
          language: 'en',
          created_at: '2024-01-02T03:04:05+00:00',
        },
      ],
      domains: [],
    };
    await writeFile(statePath, `${JSON.stringify(snapshot)}\n`);
    const s = await sim({ statePath });
    expect((await call(s, 'GET', '/databases')).json).toEqual([]);
    expect((await call(s, 'GET', '/ftp-users')).json).toEqual([]);
    const db = await call(s, 'POST', '/databases', {
      body: { id_user: 2, database_name: 'alice_wp', password: 'a-database-password' },
    });
    expect(db).toMatchObject({ status: 201, json: { id: 1 } });
    const ftp = await call(s, 'POST', '/ftp-users', {
      body: { id_user: 2, username: 'alice_deploy', home_directory: '/www', password: 'an-ftp-password' },
    });
    expect(ftp).toMatchObject({ status: 201, json: { id: 1 } });
  });
});
