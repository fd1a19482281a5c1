import { describe, expect, test } from 'vitest';
import { readLive } from '../../src/panel/index.js';
import { client, notesTo, rejection } from '../helpers/panel.js';
import { inFlight, sim, startSim } from '../helpers/sim.js';

const SEED = {
  hostingPlans: ['Basic', 'Premium Plus'],
  clients: [
    { username: 'alice', plan: 'Premium Plus', domains: ['alice.example', 'bücher.example'] },
    { username: 'bob', domains: ['bob.example'] },
  ],
} as const;

describe('readLive', () => {
  test('four requests whatever the manifest size; normalised Live', async () => {
    const simulator = await sim({ seed: SEED });
    const live = await readLive(client(simulator), {
      domainNames: Array.from({ length: 500 }, (_, i) => `d${i}.example`),
    });
    expect(simulator.requests).toEqual([
      { method: 'GET', path: '/ping', status: 200 },
      ...['/hosting-plans', '/clients', '/domains'].map(
        (path) => expect.objectContaining({ method: 'GET', path, status: 200 }) as unknown,
      ),
    ]);
    expect(simulator.requests).toHaveLength(4);
    expect(live.hosting_plan.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: 1, name: 'Basic' },
      { id: 2, name: 'Premium Plus' },
    ]);
    // Each plan's nested objects as read, kept to send back whole.
    expect(Object.keys(live.hosting_plan[0]?.objects ?? {})).toEqual(['resources', 'permissions', 'php', 'php_fpm']);
    expect(live.client).toEqual([
      { id: 2, username: 'alice', idHostingPlan: 2, email: null, suspended: false, language: 'en' },
      { id: 3, username: 'bob', idHostingPlan: 1, email: null, suspended: false, language: 'en' },
    ]);
    expect(live.domain.complete).toBe(true);
    expect(live.domain.records).toContainEqual({
      id: expect.any(Number) as unknown,
      name: 'xn--bcher-kva.example',
      idUser: 2,
      isSystem: false,
      isSubdomain: false,
      settings: expect.objectContaining({ php_version: '' }) as unknown,
    });
    expect(live.domain.records).toContainEqual(
      expect.objectContaining({ name: 'alice.sim.keyhelp.test', isSystem: true }) as unknown,
    );
    expect(live.domain.records).toHaveLength(5);
  });

  test('normalises records: uppercase usernames and domains, absent and null fields, unusual live names kept', async () => {
    const simulator = await sim({
      intercept: (req) => {
        if (req.path === '/clients')
          return {
            status: 200,
            json: [
              { id: 5, username: 'Carol' },
              { id: 6, username: 'dave', id_hosting_plan: null },
            ],
          };
        if (req.path === '/domains') {
          return {
            status: 200,
            json: [
              { id: 1, id_user: 5, domain: 'Shop.BÜCHER.example' },
              { id: 2, id_user: 5, domain: 'Under_Score.example', is_system_domain: true },
            ],
          };
        }
        return undefined;
      },
    });
    const live = await readLive(client(simulator), { domainNames: [] });
    expect(live.client).toEqual([
      {
        id: 5,
        username: 'carol',
        idHostingPlan: undefined,
        email: undefined,
        suspended: undefined,
      },
      { id: 6, username: 'dave', idHostingPlan: null, email: undefined, suspended: undefined },
    ]);
    expect(live.domain.records).toEqual([
      { id: 1, name: 'shop.xn--bcher-kva.example', idUser: 5, isSystem: undefined },
      { id: 2, name: 'under_score.example', idUser: 5, isSystem: true },
    ]);
  });

  test('a list wrapped in an object with exactly one array is accepted', async () => {
    const simulator = await sim({
      seed: SEED,
      intercept: (req) =>
        req.path === '/clients'
          ? { status: 200, json: { data: [{ id: 9, username: 'zed' }], success: true, total: 1 } }
          : req.path === '/domains'
            ? { status: 200, json: { data: [{ id: 4, domain: 'zed.example', id_user: 9 }] } }
            : undefined,
    });
    const live = await readLive(client(simulator), { domainNames: [] });
    expect(live.client).toEqual([
      { id: 9, username: 'zed', idHostingPlan: undefined, email: undefined, suspended: undefined },
    ]);
  });

  test("a domain's owner must be a client or an administrator; /admins is read only when one is not a client", async () => {
    const domains = (owner: number) => [
      { id: 4, domain: 'alice.example', id_user: 2, is_system_domain: false },
      { id: 5, domain: 'panel.example', id_user: owner, is_system_domain: false },
    ];
    // Owner 1 is the default administrator: accepted, after one GET /admins.
    const admin = await sim({
      seed: SEED,
      intercept: (req) => (req.path === '/domains' ? { status: 200, json: domains(1) } : undefined),
    });
    expect((await readLive(client(admin), { domainNames: [] })).domain.records).toHaveLength(2);
    expect(admin.requests.filter((r) => r.path === '/admins')).toHaveLength(1);
    // Owner 77 is nobody.
    const nobody = await sim({
      seed: SEED,
      intercept: (req) => (req.path === '/domains' ? { status: 200, json: domains(77) } : undefined),
    });
    const error = await rejection(readLive(client(nobody), { domainNames: [] }));
    expect(error).toMatchObject({
      code: 'panel_contract',
      message:
        'GET /api/v2/domains: domains whose owner is neither a client nor an administrator: "panel.example" (id 5, id_user 77)',
    });
    // A key that may not list administrators: a note, not a refusal.
    const notes: string[] = [];
    const hidden = await sim({
      seed: SEED,
      intercept: (req) =>
        req.path === '/domains'
          ? { status: 200, json: domains(77) }
          : req.path === '/admins'
            ? { status: 403, json: { code: 403, message: 'no' } }
            : undefined,
    });
    await readLive(client(hidden), { domainNames: [], onEvent: notesTo(notes) });
    expect(notes).toEqual([
      'The owners of 1 domain are not clients, and GET /api/v2/admins answered 403: those owners are not checked.',
    ]);
    // The usual case costs no request.
    const usual = await sim({ seed: SEED });
    await readLive(client(usual), { domainNames: [] });
    expect(usual.requests.filter((r) => r.path === '/admins')).toEqual([]);
  });

  test.each([
    [{ data: [], next: 'https://panel.example/api/v2/clients?page=2' }, /looks paged \(it has "next"\)/],
    [{ data: [], links: { next: '?page=2', prev: null } }, /looks paged \(it has "links\.next"\)/],
    [{ data: [{ id: 1, username: 'a' }], total: 2 }, /"total" is 2, the answer has 1 records/],
    [{ data: [], meta: { count: 50 } }, /"meta\.count" is 50/],
    [
      { data: [{ id: 1, username: 'a' }], meta: { current_page: 1, last_page: 3 } },
      /looks paged \(it has "meta\.current_page"\)/,
    ],
    [
      { data: [{ id: 1, username: 'a' }], pagination: { next: '?page=2' } },
      /looks paged \(it has "pagination\.next"\)/,
    ],
    [{ data: [{ id: 1, username: 'a' }], meta: { next_cursor: 'abc' } }, /looks paged \(it has "meta\.next_cursor"\)/],
    [{ data: [{ id: 1, username: 'a' }], page: 1, per_page: 1 }, /looks paged \(it has "page"\)/],
    [{ data: [], more: [] }, /exactly one array, got an object with 2 arrays \(data, more\)/],
    [{ clients: 'none' }, /got an object with 0 arrays/],
    ['clients', /expected a JSON array \(or an object wrapping one\), got a string/],
    [null, /got null/],
  ])('refuses the list %j', async (json, message) => {
    const simulator = await sim({
      intercept: (req) => (req.path === '/clients' ? { status: 200, json } : undefined),
    });
    const error = await rejection(readLive(client(simulator), { domainNames: [] }));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toMatch(/^GET \/api\/v2\/clients: /);
    expect(error.message).toMatch(message);
  });

  test.each([
    [
      '/clients',
      [
        { id: 1, username: 'a' },
        { id: '2', username: 'b' },
      ],
      /^GET \/api\/v2\/clients\[1\]: "id" must be a positive integer, got a string/,
    ],
    ['/clients', [{ id: 1.5, username: 'a' }], /clients\[0\]: "id" must be a positive integer, got a number/],
    ['/clients', [{ id: 1 }], /clients\[0\]: "username" must be a non-empty string, got nothing/],
    [
      '/clients',
      [{ id: 1, username: 'a', id_hosting_plan: '3' }],
      /clients\[0\]: "id_hosting_plan" must be an integer/,
    ],
    ['/hosting-plans', [{ id: 1, name: 7 }], /^GET \/api\/v2\/hosting-plans\[0\]: "name"/],
    [
      '/domains',
      [{ id: 1, domain: 'a.example' }],
      /^GET \/api\/v2\/domains\[0\]: "id_user" must be a positive integer/,
    ],
    // Ids count from 1; names and ids are what a plan resolves by, so each must be unique.
    ['/clients', [{ id: 0, username: 'a' }], /clients\[0\]: "id" must be a positive integer, got 0$/],
    [
      '/domains',
      [{ id: 4, id_user: -1, domain: 'a.example' }],
      /domains\[0\]: "id_user" must be a positive integer, got -1$/,
    ],
    [
      '/clients',
      [
        { id: 3, username: 'a' },
        { id: 3, username: 'b' },
      ],
      /^GET \/api\/v2\/clients: records share one "id": \[0\] and \[1\] \(3\)$/,
    ],
    [
      '/clients',
      [
        { id: 3, username: 'a' },
        { id: 4, username: 'A' },
      ],
      /^GET \/api\/v2\/clients: records share one "username": \[0\] and \[1\] \("a"\)$/,
    ],
    [
      '/hosting-plans',
      [
        { id: 1, name: 'Basic' },
        { id: 2, name: 'Basic' },
      ],
      /hosting-plans: records share one "name": \[0\] and \[1\] \("Basic"\)/,
    ],
    [
      '/domains',
      [
        { id: 5, id_user: 1, domain: 'a.example' },
        { id: 6, id_user: 1, domain: 'A.example' },
      ],
      /domains: records share one "domain": \[0\] and \[1\] \("a\.example"\)/,
    ],
    [
      '/domains',
      [{ id: 1, id_user: 2, domain: 'a.example', is_system_domain: 'yes' }],
      /domains\[0\]: "is_system_domain" must be a boolean/,
    ],
    ['/domains', ['a.example'], /domains\[0\]: expected an object, got a string/],
  ])('refuses a bad record in %s', async (path, json, message) => {
    const simulator = await sim({
      intercept: (req) => (req.path === path ? { status: 200, json } : undefined),
    });
    const error = await rejection(readLive(client(simulator), { domainNames: [] }));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toMatch(message);
  });

  test('ping must answer pong', async () => {
    const simulator = await sim({
      intercept: (req) => (req.path === '/ping' ? { status: 200, json: { response: 'ok' } } : undefined),
    });
    const error = await rejection(readLive(client(simulator), { domainNames: [] }));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toBe('GET /api/v2/ping: expected {"response":"pong"}, got an object');
    expect(simulator.requests).toHaveLength(1);
  });

  test('an API switched off (HTML): panel_contract with a hint about the REST API setting', async () => {
    const simulator = await sim({ apiEnabled: false });
    const error = await rejection(readLive(client(simulator), { domainNames: [] }));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toBe('GET /api/v2/ping: 200 answered HTML, not JSON');
    expect(error.hint).toMatch(/REST API enabled/);
  });

  test('unreachable: a closed port names the URL and the code', async () => {
    const simulator = await startSim();
    const url = simulator.url;
    await simulator.close();
    const error = await rejection(readLive(client({ url }), { domainNames: [] }));
    expect(error.code).toBe('panel_unreachable');
    expect(error.message).toBe(`GET ${url}/ping: cannot connect (ECONNREFUSED)`);
    expect(error.hint).toMatch(/--url/);
    expect(error.hint).toMatch(/PROVISION_URL/);
  });

  test('no GET /domains: names looked up one by one, bounded, a note, domainsComplete false', async () => {
    const held = inFlight((path) => path.startsWith('/domains/name/'));
    const simulator = await sim({
      seed: SEED,
      listDomains: false,
      intercept: held.intercept,
    });
    const notes: string[] = [];
    const domainNames = [
      'alice.example',
      'xn--bcher-kva.example',
      'bob.example',
      'missing.example',
      ...Array.from({ length: 8 }, (_, i) => `n${i}.example`),
      'bob.example',
    ];
    const live = await readLive(client(simulator), {
      domainNames,
      concurrency: 3,
      onEvent: notesTo(notes),
    });
    expect(live.domain.complete).toBe(false);
    expect(live.domain.records.map((d) => d.name).sort()).toEqual([
      'alice.example',
      'bob.example',
      'xn--bcher-kva.example',
    ]);
    expect(live.client).toHaveLength(2);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/no domain list.*12 domains one by one/);
    const lookups = simulator.requests.filter((r) => r.path.startsWith('/domains/name/'));
    expect(lookups).toHaveLength(12);
    expect(simulator.requests.find((r) => r.path === '/domains')).toMatchObject({ status: 404 });
    expect(held.max()).toBeGreaterThan(1);
    expect(held.max()).toBeLessThanOrEqual(3);
  });

  test('GET /domains with another error is not a fallback', async () => {
    const simulator = await sim({
      intercept: (req) =>
        req.path === '/domains'
          ? { status: 500, json: { code: '500 Internal Server Error', message: 'boom' } }
          : undefined,
    });
    const error = await rejection(readLive(client(simulator), { domainNames: ['a.example'] }));
    expect(error).toMatchObject({ code: 'panel_http', status: 500 });
    expect(simulator.requests.some((r) => r.path.startsWith('/domains/name/'))).toBe(false);
  });
});
