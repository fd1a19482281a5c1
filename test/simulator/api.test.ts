import { describe, expect, test } from 'vitest';
import { call, createClient } from '../helpers/sim-http.js';
import { sim as start, startSim } from '../helpers/sim.js';
import { API_KEY } from '../helpers/key.js';
import { DEFAULT_HOSTING_PLANS, type Simulator } from '../../src/simulator/index.js';

describe('basics', () => {
  test('url, ping, JSON content type, request log', async () => {
    const sim = await start();
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    const answer = await call(sim, 'GET', '/ping');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ response: 'pong' });
    expect(answer.headers['content-type']).toBe('application/json');
    expect(sim.requests).toEqual([{ method: 'GET', path: '/ping', status: 200 }]);
  });

  test('default plans include a name with a space; lists are bare arrays of full records', async () => {
    const sim = await start();
    const plans = await call(sim, 'GET', '/hosting-plans');
    expect(Array.isArray(plans.json)).toBe(true);
    const list = plans.json as { id: number; name: string; resources: Record<string, number> }[];
    expect(list.map((p) => p.name)).toEqual([...DEFAULT_HOSTING_PLANS]);
    expect(DEFAULT_HOSTING_PLANS).toContain('Premium Plus');
    expect(list[0]).toMatchObject({
      id: 1,
      name: 'Basic',
      permissions: expect.any(Object) as unknown,
      php: expect.any(Object) as unknown,
      php_fpm: expect.any(Object) as unknown,
    });
    expect(list[2]?.resources.disk_space).toBe(-1);
    expect((await call(sim, 'GET', '/clients')).json).toEqual([]);
    expect((await call(sim, 'GET', '/domains')).json).toEqual([]);
  });

  test('trailing slashes are accepted on every path', async () => {
    const sim = await start();
    expect((await call(sim, 'GET', '/ping/')).status).toBe(200);
    expect((await call(sim, 'GET', '/clients/')).status).toBe(200);
    expect((await call(sim, 'GET', '/hosting-plans/name/Basic/')).status).toBe(200);
    expect((await call(sim, 'POST', '/clients/', { body: { username: 'alice' } })).status).toBe(201);
    expect(sim.state.clientNamed('alice')).toBeDefined();
  });

  test('unknown paths 404, wrong methods 405 with Allow, errors in the panel shape', async () => {
    const sim = await start();
    const unknown = await call(sim, 'GET', '/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({
      code: '404 Not Found',
      message: expect.any(String) as unknown,
    });
    expect((await call(sim, 'GET', '/clients/name/a/b')).status).toBe(404);
    expect((await call(sim, 'GET', '/clients/abc')).status).toBe(404);
    const outside = await request404(sim);
    expect(outside).toBe(404);
    const wrong = await call(sim, 'DELETE', '/clients');
    expect(wrong.status).toBe(405);
    expect(wrong.json).toMatchObject({ code: '405 Method Not Allowed' });
    expect(wrong.headers.allow).toBe('GET, POST');
    expect((await call(sim, 'DELETE', '/hosting-plans')).headers.allow).toBe('GET, POST');
    expect((await call(sim, 'PUT', '/hosting-plans/name/Basic', { body: {} })).headers.allow).toBe('GET');
    expect((await call(sim, 'POST', '/ping')).status).toBe(405);
  });

  test('bad JSON and missing bodies are 400', async () => {
    const sim = await start();
    const bad = await call(sim, 'POST', '/clients', {
      raw: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: '400 Bad Request' });
    expect((await call(sim, 'POST', '/clients')).status).toBe(400);
    expect((await call(sim, 'POST', '/clients', { body: ['alice'] })).status).toBe(400);
    expect(sim.state.clients.size).toBe(0);
  });
});

/** A path outside /api/v2, with a valid key. */
async function request404(sim: Simulator): Promise<number> {
  const { request } = await import('undici');
  const response = await request(sim.url.replace('/api/v2', '/other'), {
    headers: { 'x-api-key': API_KEY },
  });
  await response.body.text();
  return response.statusCode;
}

describe('authentication', () => {
  test('missing or wrong key: 401 with the panel body, on any path', async () => {
    const sim = await start();
    const expected = { code: '401 Unauthorized', message: 'API key is missing or invalid.' };
    const missing = await call(sim, 'GET', '/ping', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual(expected);
    expect(missing.headers['content-type']).toBe('application/json');
    expect((await call(sim, 'GET', '/clients', { key: `${API_KEY}x` })).json).toEqual(expected);
    expect((await call(sim, 'GET', '/clients', { key: API_KEY.slice(0, -1) })).status).toBe(401);
    expect((await call(sim, 'GET', '/no-such-path', { key: 'nope' })).status).toBe(401);
    expect((await call(sim, 'POST', '/clients', { key: 'nope', body: { username: 'alice' } })).status).toBe(401);
    expect(sim.state.clients.size).toBe(0);
  });

  test.each(['X-API-Key', 'X-API-KEY', 'x-api-key', 'X-Api-Key'])('header name %s is accepted', async (name) => {
    const sim = await start();
    const answer = await call(sim, 'GET', '/ping', { key: null, headers: { [name]: API_KEY } });
    expect(answer.status).toBe(200);
  });

  test('an empty key cannot start a simulator', async () => {
    await expect(startSim({ apiKey: '' })).rejects.toMatchObject({ code: 'usage' });
  });
});

describe('POST /clients', () => {
  test('creates a client: 201 with id and a random password; record and system domain', async () => {
    const sim = await start();
    const first = await call(sim, 'POST', '/clients', {
      body: { username: 'alice', email: 'alice@example.com', id_hosting_plan: 3 },
    });
    const second = await call(sim, 'POST', '/clients', { body: { username: 'bob' } });
    expect(first.status).toBe(201);
    const { id, password } = first.json as { id: number; password: string };
    // admin is user 1: clients share the administrators' id sequence.
    expect(id).toBe(2);
    expect(password).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect((second.json as { password: string }).password).not.toBe(password);
    const record = (await call(sim, 'GET', `/clients/${id}`)).json;
    expect(record).toEqual({
      id: 2,
      username: 'alice',
      email: 'alice@example.com',
      id_hosting_plan: 3,
      is_suspended: false,
      language: 'en',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) as unknown,
    });
    expect(record).not.toHaveProperty('password');
    // No plan given: the default plan, the first one.
    expect(sim.state.clientNamed('bob')?.id_hosting_plan).toBe(1);
    const system = sim.state.domainNamed('alice.sim.keyhelp.test');
    expect(system).toMatchObject({ id_user: 2, is_system_domain: true, is_subdomain: false });
  });

  test.each([
    ['missing username', {}],
    ['username not a string', { username: 42 }],
    ['uppercase', { username: 'Alice' }],
    ['digit first', { username: '1alice' }],
    ['too long', { username: `a${'b'.repeat(32)}` }],
    ['dot', { username: 'al.ice' }],
    ['bad email', { username: 'alice', email: 'not-an-email' }],
    ['plan id not an integer', { username: 'alice', id_hosting_plan: '1' }],
    ['unknown plan id', { username: 'alice', id_hosting_plan: 99 }],
  ])('400 on %s', async (_label, body) => {
    const sim = await start();
    const answer = await call(sim, 'POST', '/clients', { body });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      code: '400 Bad Request',
      message: expect.any(String) as unknown,
    });
    expect(sim.state.clients.size).toBe(0);
  });

  test('400 on a duplicate username', async () => {
    const sim = await start();
    await createClient(sim, { username: 'alice' });
    const again = await call(sim, 'POST', '/clients', { body: { username: 'alice' } });
    expect(again.status).toBe(400);
    expect((again.json as { message: string }).message).toMatch(/already in use/);
    expect(sim.state.clients.size).toBe(1);
  });

  test('trap 1: the admin is invisible to GET /clients/name/ but its name is taken', async () => {
    const sim = await start();
    expect((await call(sim, 'GET', '/clients/name/admin')).status).toBe(404);
    const answer = await call(sim, 'POST', '/clients', { body: { username: 'admin' } });
    expect(answer.status).toBe(400);
    expect((await call(sim, 'GET', '/clients/1')).status).toBe(404);
    expect(sim.state.admins.get('admin')).toBe(1);
  });

  test('systemDomains false: no system domain', async () => {
    const sim = await start({ systemDomains: false });
    await createClient(sim, { username: 'alice' });
    expect(sim.state.domains.size).toBe(0);
  });

  test('a panel with no plans at all: the record has no id_hosting_plan', async () => {
    const sim = await start({ seed: { hostingPlans: [] } });
    const id = await createClient(sim, { username: 'alice' });
    expect((await call(sim, 'GET', `/clients/${id}`)).json).not.toHaveProperty('id_hosting_plan');
  });
});

describe('POST /domains', () => {
  test('creates domains; IDN stored as ASCII and UTF-8; subdomain gets its parent', async () => {
    const sim = await start({ systemDomains: false });
    const alice = await createClient(sim, { username: 'alice' });
    const parent = await call(sim, 'POST', '/domains', {
      body: { domain: 'Bücher.Example', id_user: alice },
    });
    expect(parent.status).toBe(201);
    const parentId = (parent.json as { id: number }).id;
    const child = await call(sim, 'POST', '/domains', {
      body: { domain: 'shop.xn--bcher-kva.example', id_user: alice },
    });
    expect(child.status).toBe(201);
    const records = (await call(sim, 'GET', '/domains')).json as Record<string, unknown>[];
    // The settings every record also carries are checked in domain-settings.test.ts.
    expect(records).toEqual([
      expect.objectContaining({
        id: parentId,
        id_user: alice,
        id_parent_domain: 0,
        domain: 'xn--bcher-kva.example',
        domain_utf8: 'bücher.example',
        is_subdomain: false,
        is_system_domain: false,
        is_disabled: false,
        created_at: expect.stringMatching(/\+00:00$/) as unknown,
      }) as unknown,
      expect.objectContaining({
        domain: 'shop.xn--bcher-kva.example',
        id_parent_domain: parentId,
        is_subdomain: true,
      }) as unknown,
    ]);
  });

  test("a subdomain of another client's domain stays top-level", async () => {
    const sim = await start({ systemDomains: false });
    const alice = await createClient(sim, { username: 'alice' });
    const bob = await createClient(sim, { username: 'bob' });
    await call(sim, 'POST', '/domains', { body: { domain: 'alice.example', id_user: alice } });
    await call(sim, 'POST', '/domains', { body: { domain: 'x.alice.example', id_user: bob } });
    expect(sim.state.domainNamed('x.alice.example')).toMatchObject({
      id_parent_domain: 0,
      is_subdomain: false,
    });
  });

  test.each([
    ['missing domain', { id_user: 2 }],
    ['invalid name', { domain: 'not a domain', id_user: 2 }],
    ['one label', { domain: 'localhost', id_user: 2 }],
    ['id_user not an integer', { domain: 'a.example', id_user: '2' }],
    ['missing id_user', { domain: 'a.example' }],
  ])('400 on %s', async (_label, body) => {
    const sim = await start({ systemDomains: false });
    await createClient(sim, { username: 'alice' });
    const answer = await call(sim, 'POST', '/domains', { body });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: '400 Bad Request' });
    expect(sim.state.domains.size).toBe(0);
  });

  test('400 on a duplicate, case-insensitive and IDN-aware', async () => {
    const sim = await start({ systemDomains: false });
    const alice = await createClient(sim, { username: 'alice' });
    expect((await call(sim, 'POST', '/domains', { body: { domain: 'bücher.example', id_user: alice } })).status).toBe(
      201,
    );
    for (const spelling of ['bücher.example', 'BÜCHER.example', 'xn--bcher-kva.example', 'XN--BCHER-KVA.EXAMPLE']) {
      const answer = await call(sim, 'POST', '/domains', {
        body: { domain: spelling, id_user: alice },
      });
      expect(answer.status, spelling).toBe(400);
    }
    expect(sim.state.domains.size).toBe(1);
  });

  test('404 on an unknown id_user, saying so', async () => {
    const sim = await start();
    const answer = await call(sim, 'POST', '/domains', {
      body: { domain: 'a.example', id_user: 77 },
    });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({
      code: '404 Not Found',
      message: expect.stringContaining('id_user 77') as unknown,
    });
    // The admin's id is not a client's either.
    expect((await call(sim, 'POST', '/domains', { body: { domain: 'a.example', id_user: 1 } })).status).toBe(404);
  });
});

describe('look-ups by name and id', () => {
  test('plan name with a space: %20 finds it, + does not', async () => {
    const sim = await start();
    const found = await call(sim, 'GET', '/hosting-plans/name/Premium%20Plus');
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({ id: 3, name: 'Premium Plus' });
    expect((await call(sim, 'GET', '/hosting-plans/name/Premium+Plus')).status).toBe(404);
    expect((await call(sim, 'GET', '/hosting-plans/name/premium%20plus')).status).toBe(404);
    expect((await call(sim, 'GET', '/hosting-plans/3')).json).toMatchObject({
      name: 'Premium Plus',
    });
    expect((await call(sim, 'GET', '/hosting-plans/99')).status).toBe(404);
  });

  test('clients by name (case-insensitive) and id; 404 with the panel shape', async () => {
    const sim = await start();
    const id = await createClient(sim, { username: 'alice' });
    expect((await call(sim, 'GET', '/clients/name/alice')).json).toMatchObject({
      id,
      username: 'alice',
    });
    expect((await call(sim, 'GET', '/clients/name/ALICE')).status).toBe(200);
    const missing = await call(sim, 'GET', '/clients/name/carol');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: '404 Not Found' });
    expect((await call(sim, 'GET', `/clients/${id}`)).status).toBe(200);
  });

  test('domains by name: UTF-8 percent-encoded, punycode, any case', async () => {
    const sim = await start({ systemDomains: false });
    const alice = await createClient(sim, { username: 'alice' });
    await call(sim, 'POST', '/domains', { body: { domain: 'bücher.example', id_user: alice } });
    for (const spelling of [
      encodeURIComponent('bücher.example'),
      encodeURIComponent('BÜCHER.Example'),
      'xn--bcher-kva.example',
      'XN--BCHER-KVA.example',
    ]) {
      const answer = await call(sim, 'GET', `/domains/name/${spelling}`);
      expect(answer.status, spelling).toBe(200);
      expect(answer.json).toMatchObject({ domain: 'xn--bcher-kva.example' });
    }
    expect((await call(sim, 'GET', '/domains/name/other.example')).status).toBe(404);
    expect((await call(sim, 'GET', '/domains/name/%E0%A4%A')).status).toBe(400);
  });
});
