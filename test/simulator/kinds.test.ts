/**
 * The simulator's kinds as modules (src/simulator/kinds/): one per kind of src/kinds, each path
 * served by one of them, and a state file that holds every list they declare, so that a
 * stopped simulator comes back with all of it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { SIM_ONLY_KINDS } from '../../src/simulator/kind.js';
import { SIM_KINDS } from '../../src/simulator/kinds/index.js';
import { LIST_NAMES } from '../../src/simulator/lists.js';
import { call, createClient, tempDir } from '../helpers/sim-http.js';
import { startSim } from '../helpers/sim.js';

describe('the simulator has one module per kind', () => {
  test('each kind of src/kinds has its module, named after it (and those served ahead of their room)', () => {
    expect(Object.keys(SIM_KINDS).sort()).toEqual([...new Set([...KIND_NAMES, ...SIM_ONLY_KINDS])].sort());
    for (const [name, kind] of Object.entries(SIM_KINDS)) expect(kind.name).toBe(name);
  });

  test('no two kinds serve the same path or the same key of the seed', () => {
    const modules = Object.values(SIM_KINDS);
    const routes = modules.flatMap((kind) => Object.keys(kind.routes));
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes.sort()).toEqual([
      'admins',
      'clients',
      'databases',
      'dns',
      'domains',
      'emails',
      'ftp-users',
      'hosting-plans',
    ]);
    const seedKeys = modules.flatMap((kind) => [
      ...(kind.seed?.keys ?? []),
      ...('childSeed' in kind ? [`${kind.childSeed.parent}.${kind.childSeed.key}`] : []),
    ]);
    expect(new Set(seedKeys).size).toBe(seedKeys.length);
  });

  test('a stopped simulator writes every list of every kind, and loads them all back', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({
      statePath,
      seed: {
        clients: [
          {
            username: 'bob',
            domains: [
              {
                name: 'bob.example',
                dns: { records: [] },
                mailboxes: [{ name: 'info', password: 'a-mailbox-password', aliases: ['hello@bob.example'] }],
              },
            ],
            databases: [{ name: 'bob_wp', password: 'a-database-password', remote_hosts: ['192.0.2.0/24'] }],
            ftp_users: [{ name: 'bob_deploy', password: 'an-ftp-password', home_directory: '/www/bob.example' }],
          },
        ],
      },
    });
    const alice = await createClient(first, { username: 'alice', password: 'a-long-password' });
    await call(first, 'POST', '/domains', { body: { domain: 'alice.example', id_user: alice } });
    const before = {
      plans: [...first.state.plans],
      clients: [...first.state.clients],
      domains: [...first.state.domains],
      zones: [...first.state.zones],
      admins: [...first.state.admins],
      mailboxes: [...first.state.mailboxes],
      databases: [...first.state.databases],
      ftpUsers: [...first.state.ftpUsers],
    };
    await first.close();

    const snapshot = JSON.parse(await readFile(statePath, 'utf8')) as Record<string, unknown>;
    for (const list of LIST_NAMES) expect(snapshot[list], list).toEqual(expect.arrayContaining([expect.anything()]));
    expect(snapshot).toMatchObject({ nextPlanId: 4, nextUserId: 4, plansWhole: true });

    const second = await startSim({ statePath });
    try {
      expect({
        plans: [...second.state.plans],
        clients: [...second.state.clients],
        domains: [...second.state.domains],
        zones: [...second.state.zones],
        admins: [...second.state.admins],
        mailboxes: [...second.state.mailboxes],
        databases: [...second.state.databases],
        ftpUsers: [...second.state.ftpUsers],
      }).toEqual(before);
      expect(second.state.databasePasswordIs('bob_wp', 'a-database-password')).toBe(true);
      expect(second.state.ftpUserPasswordIs('bob_deploy', 'an-ftp-password')).toBe(true);
      expect(second.state.mailboxPasswordIs('info@bob.example', 'a-mailbox-password')).toBe(true);
      expect(second.state.passwordOf('alice')).toBe('a-long-password');
      expect(second.state.zones.get(second.state.domainNamed('bob.example')?.id ?? 0)?.records.other).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
