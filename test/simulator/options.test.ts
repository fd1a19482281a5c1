import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { DEFAULT_HOSTING_PLANS, parseSeed } from '../../src/simulator/index.js';
import { call, createClient, tempDir } from '../helpers/sim-http.js';
import { sim as start, startSim } from '../helpers/sim.js';
import { API_KEY } from '../helpers/key.js';
import { onDisk } from './on-disk.js';

describe('options', () => {
  test('listDomains false: GET /domains is 404 while name look-ups and POST work', async () => {
    const sim = await start({ listDomains: false });
    const alice = await createClient(sim, { username: 'alice' });
    const list = await call(sim, 'GET', '/domains');
    expect(list.status).toBe(404);
    expect(list.json).toMatchObject({ code: '404 Not Found' });
    expect((await call(sim, 'POST', '/domains', { body: { domain: 'a.example', id_user: alice } })).status).toBe(201);
    expect((await call(sim, 'GET', '/domains/name/a.example')).status).toBe(200);
  });

  test('apiEnabled false: every request, even without a key, gets 200 HTML', async () => {
    const sim = await start({ apiEnabled: false });
    for (const [method, path, key] of [
      ['GET', '/ping', API_KEY],
      ['GET', '/clients', null],
      ['POST', '/clients', API_KEY],
    ] as const) {
      const answer = await call(sim, method, path, { key, body: { username: 'alice' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.text).toMatch(/^<!DOCTYPE html><html>.*API disabled/);
    }
    expect(sim.state.clients.size).toBe(0);
  });

  test('intercept answers instead, sees method, relative path and body, and is logged', async () => {
    const seen: unknown[] = [];
    const sim = await start({
      intercept: (req) => {
        seen.push(req);
        if (req.path === '/clients' && req.method === 'POST') {
          return {
            status: 503,
            json: { code: '503 Service Unavailable', message: 'busy' },
            headers: { 'retry-after': '2' },
          };
        }
        if (req.path === '/ping') return { status: 502, text: 'Bad gateway' };
        return undefined;
      },
    });
    const busy = await call(sim, 'POST', '/clients', { body: { username: 'alice' } });
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('2');
    expect(busy.json).toEqual({ code: '503 Service Unavailable', message: 'busy' });
    const gateway = await call(sim, 'GET', '/ping');
    expect(gateway.status).toBe(502);
    expect(gateway.text).toBe('Bad gateway');
    expect(gateway.headers['content-type']).toMatch(/^text\/plain/);
    expect((await call(sim, 'GET', '/clients')).status).toBe(200);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/clients',
      body: { username: 'alice' },
      headers: { 'x-api-key': API_KEY },
    });
    expect(sim.state.clients.size).toBe(0);
    expect(sim.requests.map((r) => r.status)).toEqual([503, 502, 200]);
  });

  test('a seed: plans, admins, clients with domains; references checked', async () => {
    const sim = await start({
      seed: {
        hostingPlans: ['Small', 'Big Plan'],
        admins: ['root'],
        clients: [
          {
            username: 'alice',
            plan: 'Big Plan',
            email: 'a@example.com',
            domains: ['alice.example', 'www.alice.example'],
          },
        ],
      },
    });
    expect([...sim.state.plans.values()].map((p) => p.name)).toEqual(['Small', 'Big Plan']);
    expect(sim.state.clientNamed('alice')).toMatchObject({ id: 2, id_hosting_plan: 2 });
    expect(sim.state.domainNamed('www.alice.example')).toMatchObject({ is_subdomain: true });
    expect(sim.state.domainNamed('alice.sim.keyhelp.test')).toMatchObject({
      is_system_domain: true,
    });
    expect((await call(sim, 'POST', '/clients', { body: { username: 'root' } })).status).toBe(400);
    expect((await call(sim, 'POST', '/clients', { body: { username: 'admin' } })).status).toBe(201);
  });
});

describe('parseSeed', () => {
  test('accepts a valid seed', () => {
    const seed = parseSeed(
      {
        hostingPlans: ['Basic'],
        clients: [{ username: 'alice', plan: 'Basic', domains: ['a.example'] }],
      },
      'seed.json',
    );
    expect(seed.clients).toEqual([{ username: 'alice', plan: 'Basic', domains: ['a.example'] }]);
  });

  test.each([
    [[], /seed\.json: a simulator seed must be a JSON object/],
    [{ client: [] }, /seed\.json: .*unknown key "client"/],
    [{ clients: [{ username: 7 }] }, /clients\[0\]\.username must be a string/],
    [{ clients: [{ username: 'alice', plan: 'Nope' }] }, /clients\[0\]: hosting plan 'Nope' is not in hostingPlans/],
    [{ clients: [{ username: 'Alice' }] }, /clients\[0\]: The username 'Alice' is invalid/],
    [{ clients: [{ username: 'a' }, { username: 'a' }] }, /clients\[1\]: .*already in use/],
    [
      {
        clients: [
          { username: 'a', domains: ['x.example'] },
          { username: 'b', domains: ['X.example'] },
        ],
      },
      /clients\[1\]: .*already exists/,
    ],
    [{ hostingPlans: ['A', 'A'] }, /hosting plan 'A' is listed twice/],
  ])('refuses %j', (json, message) => {
    let caught: unknown;
    try {
      parseSeed(json, 'seed.json');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProvisionError);
    expect((caught as ProvisionError).code).toBe('usage');
    expect((caught as ProvisionError).message).toMatch(/^seed\.json: /);
    expect((caught as ProvisionError).message).toMatch(message);
  });
});

describe('statePath', () => {
  test('state survives a restart; the seed is then ignored; ids continue', async () => {
    const dir = await tempDir();
    const statePath = join(dir, 'state.json');
    const first = await startSim({ statePath });
    const alice = await createClient(first, { username: 'alice' });
    await call(first, 'POST', '/domains', { body: { domain: 'alice.example', id_user: alice } });
    await first.close();

    const saved = JSON.parse(await readFile(statePath, 'utf8')) as { clients: unknown[] };
    expect(saved.clients).toHaveLength(1);

    const second = await start({ statePath, seed: { hostingPlans: ['Other'] } });
    expect((await call(second, 'GET', '/clients/name/alice')).json).toMatchObject({ id: alice });
    expect((await call(second, 'GET', '/domains/name/alice.example')).status).toBe(200);
    expect([...second.state.plans.values()].map((p) => p.name)).toEqual([...DEFAULT_HOSTING_PLANS]);
    expect((await call(second, 'POST', '/clients', { body: { username: 'alice' } })).status).toBe(400);
    expect(await createClient(second, { username: 'bob' })).toBe(alice + 1);
    expect((await call(second, 'POST', '/clients', { body: { username: 'admin' } })).status).toBe(400);
  });

  test('each mutation is on disk before its answer; concurrent mutations all saved', async () => {
    const dir = await tempDir();
    const statePath = join(dir, 'state.json');
    const sim = await start({ statePath, systemDomains: false });
    await Promise.all(Array.from({ length: 20 }, (_, i) => createClient(sim, { username: `user${i}` })));
    expect((await onDisk(statePath)).clients).toHaveLength(20);
  });

  test('a file that is not a state file is refused with its path', async () => {
    const dir = await tempDir();
    const statePath = join(dir, 'state.json');
    await writeFile(statePath, '{"hello": 1}');
    await expect(startSim({ statePath })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining(statePath) as unknown,
    });
    await writeFile(statePath, 'not json');
    await expect(startSim({ statePath })).rejects.toMatchObject({ code: 'usage' });
  });
});

describe('state file errors', () => {
  test('name the file, what was done and the system code, with what to do', async () => {
    const dir = await tempDir();
    const nowhere = join(dir, 'no-such-dir', 'state.json');
    await expect(startSim({ statePath: nowhere })).rejects.toMatchObject({
      code: 'io',
      message: `cannot write the simulator state file ${nowhere} (ENOENT)`,
      hint: expect.stringContaining('writable') as unknown,
    });
    await expect(startSim({ statePath: dir })).rejects.toMatchObject({
      code: 'io',
      message: `cannot read the simulator state file ${dir} (EISDIR)`,
    });
  });
});

describe('scale', () => {
  // How fast is for the benchmarks; here, that thousands of records are served right.
  test('look-ups and creates work with thousands of records', async () => {
    const clients = Array.from({ length: 3000 }, (_, i) => ({
      username: `user${i}`,
      domains: [`d${i}.example`],
    }));
    const sim = await start({ seed: { clients }, systemDomains: false });
    for (let i = 0; i < 200; i++) {
      expect((await call(sim, 'GET', `/domains/name/d${i * 7}.example`)).status).toBe(200);
    }
    expect((await call(sim, 'POST', '/domains', { body: { domain: 'new.example', id_user: 5 } })).status).toBe(201);
    expect(((await call(sim, 'GET', '/domains')).json as unknown[]).length).toBe(3001);
  });
});
