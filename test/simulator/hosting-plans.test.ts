/** Hosting plans over real HTTP: whole records, POST, PUT (nested objects whole), DELETE while used, seed (hosting-plans-state.test.ts: the state file). */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseSeed, type SimPlan } from '../../src/simulator/index.js';
import { NEW_PLAN } from '../../src/simulator/hosting-plans.js';
import { API_KEY, run } from '../helpers/cli.js';
import { call, createClient, tempDir } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';

const GIB = 1024 ** 3;
const KEYS = {
  resources: [
    'disk_space',
    'traffic',
    'domains',
    'subdomains',
    'email_accounts',
    'email_addresses',
    'email_forwardings',
    'databases',
    'ftp_users',
    'scheduled_tasks',
  ],
  permissions: [
    'ftp',
    'php',
    'perl',
    'ssh',
    'backup',
    'panel_access',
    'domain_security',
    'certificate_management',
    'file_manager',
    'dns_editor',
    'database_remote_access',
    'email_catchall',
    'applications',
    'ssh_jail',
    'delete_main_domain',
    'change_personal_data',
  ],
  php: [
    'memory_limit',
    'max_execution_time',
    'post_max_size',
    'upload_max_filesize',
    'open_basedir',
    'disable_functions',
    'additional_settings',
  ],
  php_fpm: [
    'pm',
    'max_children',
    'max_requests',
    'min_spare_servers',
    'max_spare_servers',
    'status',
    'status_ip_restriction',
  ],
} as const;

const plansOf = async (s: Awaited<ReturnType<typeof sim>>): Promise<SimPlan[]> =>
  (await call(s, 'GET', '/hosting-plans')).json as SimPlan[];

/** A plan as GET /hosting-plans/name/{name} answers it. */
async function planNamed(s: Awaited<ReturnType<typeof sim>>, name: string): Promise<SimPlan> {
  const answer = await call(s, 'GET', `/hosting-plans/name/${encodeURIComponent(name)}`);
  expect(answer.status).toBe(200);
  return answer.json as SimPlan;
}

describe('the record', () => {
  test('every plan is whole: the panel-api.md keys, sizes in bytes, -1 unlimited, PHP sizes as strings', async () => {
    const s = await sim();
    const plans = await plansOf(s);
    expect(plans.map((p) => [p.id, p.name])).toEqual([
      [1, 'Basic'],
      [2, 'Standard'],
      [3, 'Premium Plus'],
    ]);
    for (const plan of plans) {
      expect(Object.keys(plan)).toEqual(['id', 'name', 'resources', 'permissions', 'php', 'php_fpm']);
      for (const [section, keys] of Object.entries(KEYS))
        expect(Object.keys(plan[section as keyof typeof KEYS]).sort(), `${plan.name} ${section}`).toEqual(
          [...keys].sort(),
        );
      expect(Object.values(plan.resources).every((v) => Number.isInteger(v) && v >= -1)).toBe(true);
      expect(Object.values(plan.permissions).every((v) => typeof v === 'boolean')).toBe(true);
      expect(plan.php.memory_limit).toMatch(/^\d+[KMG]$/);
      expect((await call(s, 'GET', `/hosting-plans/${plan.id}`)).json).toEqual(plan);
      expect(await planNamed(s, plan.name)).toEqual(plan);
    }
    const [basic, standard, premium] = plans;
    // The values the resources had before plans were whole stay as they were.
    expect(basic?.resources).toMatchObject({ disk_space: 10 * GIB, traffic: 100 * GIB, domains: 5, subdomains: -1 });
    expect(standard?.resources).toMatchObject({ disk_space: 20 * GIB, databases: 4, ftp_users: 4 });
    expect(Object.values(premium?.resources ?? {}).every((v) => v === -1)).toBe(true);
    expect(basic?.php_fpm).toMatchObject({ max_spare_servers: null, status: null, status_ip_restriction: null });
    expect(premium?.php_fpm).toMatchObject({ pm: 'dynamic', status: true, status_ip_restriction: '127.0.0.1' });
  });
});

describe('POST /hosting-plans', () => {
  test('201 {"id"}; what the body leaves out is a new plan\'s default, a section given merges over it', async () => {
    const s = await sim();
    const answer = await call(s, 'POST', '/hosting-plans', {
      body: { name: 'Business', resources: { disk_space: 5 * GIB, traffic: -1 }, php: { memory_limit: '512M' } },
    });
    expect(answer).toMatchObject({ status: 201, json: { id: 4 } });
    expect(await planNamed(s, 'Business')).toEqual({
      id: 4,
      name: 'Business',
      resources: { ...NEW_PLAN.resources, disk_space: 5 * GIB, traffic: -1 },
      permissions: NEW_PLAN.permissions,
      php: { ...NEW_PLAN.php, memory_limit: '512M' },
      php_fpm: NEW_PLAN.php_fpm,
    });
    expect((await call(s, 'POST', '/hosting-plans', { body: { name: 'With Space' } })).json).toEqual({ id: 5 });
  });

  test.each([
    [{ name: 'Basic' }, "A hosting plan named 'Basic' already exists."],
    [{}, "The field 'name' is required and must be a non-empty string."],
    [{ name: '' }, "The field 'name' is required and must be a non-empty string."],
    [{ name: 'X', resources: { disk_space: '10G' } }, "The field 'resources.disk_space' must be an integer of -1"],
    [{ name: 'X', resources: { domains: -2 } }, "The field 'resources.domains' must be an integer of -1"],
    [{ name: 'X', permissions: { ssh: 'yes' } }, "The field 'permissions.ssh' must be a boolean."],
    [{ name: 'X', permissions: { cronjobs: true } }, 'The field \'permissions\' has no key "cronjobs"'],
    [{ name: 'X', php: { memory_limit: 512 } }, 'The field \'php.memory_limit\' must be a size like "512M"'],
    [{ name: 'X', php_fpm: { pm: 'fast' } }, 'The field \'php_fpm.pm\' must be "ondemand"'],
    [{ name: 'X', php_fpm: { max_children: null } }, "The field 'php_fpm.max_children' must be an integer"],
    [{ name: 'X', php: [] }, "The field 'php' must be an object."],
    [{ id: 9, name: 'X' }, "The field 'id' cannot be given"],
  ])('%j: 400 in the panel shape, nothing created', async (body, message) => {
    const s = await sim();
    const answer = await call(s, 'POST', '/hosting-plans', { body });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: '400 Bad Request', message: expect.stringContaining(message) as unknown });
    expect(await plansOf(s)).toHaveLength(3);
  });

  test('null is taken where the panel shows null', async () => {
    const s = await sim();
    const php_fpm = { ...NEW_PLAN.php_fpm, pm: 'dynamic', max_spare_servers: 4, status: false };
    expect((await call(s, 'POST', '/hosting-plans', { body: { name: 'N', php_fpm } })).status).toBe(201);
    expect((await planNamed(s, 'N')).php_fpm).toEqual(php_fpm);
  });
});

describe('PUT /hosting-plans/{id}', () => {
  test('partial at the top level; a nested object given replaces the stored one whole', async () => {
    const s = await sim();
    const before = await planNamed(s, 'Standard');
    const php = { ...before.php, memory_limit: '1024M' };
    expect(await call(s, 'PUT', '/hosting-plans/2', { body: { php } })).toMatchObject({ status: 200, json: { id: 2 } });
    expect(await planNamed(s, 'Standard')).toEqual({ ...before, php });
    // Only the key sent: the others of php_fpm are gone.
    expect((await call(s, 'PUT', '/hosting-plans/2', { body: { php_fpm: { pm: 'static' } } })).status).toBe(200);
    const after = await planNamed(s, 'Standard');
    expect(after.php_fpm).toEqual({ pm: 'static' });
    expect(after.resources).toEqual(before.resources);
    expect(after.permissions).toEqual(before.permissions);
    expect(after.php).toEqual(php);
  });

  test('a rename frees the old name; a taken name, a bad type, another id: 400 and nothing changes; 404 unknown', async () => {
    const s = await sim();
    expect((await call(s, 'PUT', '/hosting-plans/1', { body: { id: 1, name: 'Starter' } })).status).toBe(200);
    expect((await call(s, 'GET', '/hosting-plans/name/Basic')).status).toBe(404);
    expect((await planNamed(s, 'Starter')).id).toBe(1);
    const before = await plansOf(s);
    for (const [body, message] of [
      [{ name: 'Standard' }, "A hosting plan named 'Standard' already exists."],
      [{ resources: { traffic: 1.5 } }, "The field 'resources.traffic' must be an integer of -1 (unlimited) or more."],
      [{ php: { memory_limit: '1G' }, resources: { nope: 1 } }, 'The field \'resources\' has no key "nope"'],
      [{ id: 2, name: 'Other' }, "The field 'id' must be 1"],
      [[], 'The request body must be a JSON object.'],
    ] as const) {
      const answer = await call(s, 'PUT', '/hosting-plans/1', { body });
      expect(answer.status).toBe(400);
      expect((answer.json as { message: string }).message).toContain(message);
    }
    expect((await call(s, 'PUT', '/hosting-plans/1', { raw: '{' })).status).toBe(400);
    expect(await plansOf(s)).toEqual(before);
    expect((await call(s, 'PUT', '/hosting-plans/99', { body: { name: 'Z' } })).status).toBe(404);
  });

  test('the clients on a plan keep their records: the panel copied the plan at assignment', async () => {
    const s = await sim();
    const id = await createClient(s, { username: 'alice', id_hosting_plan: 2 });
    const client = (await call(s, 'GET', `/clients/${id}`)).json;
    const resources = { ...(await planNamed(s, 'Standard')).resources, disk_space: -1 };
    expect((await call(s, 'PUT', '/hosting-plans/2', { body: { resources } })).status).toBe(200);
    expect((await call(s, 'GET', `/clients/${id}`)).json).toEqual(client);
  });
});

describe('DELETE /hosting-plans/{id}', () => {
  test('refused while a client is on the plan, naming how many; allowed once none is; then 404', async () => {
    const s = await sim({ systemDomains: false });
    const alice = await createClient(s, { username: 'alice', id_hosting_plan: 2 });
    await createClient(s, { username: 'bob', id_hosting_plan: 2 });
    const refused = await call(s, 'DELETE', '/hosting-plans/2');
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      code: '400 Bad Request',
      message: "The hosting plan 'Standard' is assigned to 2 clients: assign them another plan before deleting it.",
    });
    expect((await call(s, 'PUT', `/clients/${alice}`, { body: { id_hosting_plan: 3 } })).status).toBe(200);
    expect(((await call(s, 'DELETE', '/hosting-plans/2')).json as { message: string }).message).toContain(
      'assigned to 1 client:',
    );
    expect((await call(s, 'DELETE', `/clients/${alice}`)).status).toBe(200);
    // Unused: bob leaves it, then it goes.
    expect((await call(s, 'PUT', '/clients/3', { body: { id_hosting_plan: null } })).status).toBe(200);
    expect(await call(s, 'DELETE', '/hosting-plans/2')).toMatchObject({ status: 200, json: { id: 2 } });
    expect((await call(s, 'GET', '/hosting-plans/2')).status).toBe(404);
    expect((await call(s, 'GET', '/hosting-plans/name/Standard')).status).toBe(404);
    expect((await call(s, 'DELETE', '/hosting-plans/2')).status).toBe(404);
    expect((await plansOf(s)).map((p) => p.name)).toEqual(['Basic', 'Premium Plus']);
    // The name is free again, the id is not reused.
    expect((await call(s, 'POST', '/hosting-plans', { body: { name: 'Standard' } })).json).toEqual({ id: 4 });
  });

  test('204 with deleteStatus 204; POST /clients without a plan then takes the first plan left', async () => {
    const s = await sim({ deleteStatus: 204 });
    const answer = await call(s, 'DELETE', '/hosting-plans/1');
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const id = await createClient(s, { username: 'carol' });
    expect((await call(s, 'GET', `/clients/${id}`)).json).toMatchObject({ id_hosting_plan: 2 });
  });
});

describe('client answers without plan ids (clientPlanIds)', () => {
  test("'records': GET /clients leaves id_hosting_plan out, one client's record has it; 'nowhere': none has it", async () => {
    const seed = { clients: [{ username: 'alice', plan: 'Standard' }] };
    const records = await sim({ seed, clientPlanIds: 'records' });
    const [listed] = (await call(records, 'GET', '/clients')).json as Record<string, unknown>[];
    expect(listed).toMatchObject({ username: 'alice', email: '', is_suspended: false });
    expect(listed).not.toHaveProperty('id_hosting_plan');
    expect((await call(records, 'GET', '/clients/2')).json).toMatchObject({ id_hosting_plan: 2 });
    expect((await call(records, 'GET', '/clients/name/alice')).json).toMatchObject({ id_hosting_plan: 2 });
    const nowhere = await sim({ seed, clientPlanIds: 'nowhere' });
    for (const path of ['/clients', '/clients/2', '/clients/name/alice'])
      expect((await call(nowhere, 'GET', path)).text).not.toContain('id_hosting_plan');
    // The store still knows: the plan in use cannot go.
    expect((await call(nowhere, 'DELETE', '/hosting-plans/2')).status).toBe(400);
  });

  test('provision simulator --clients-without-plan-ids; a seed file with plan objects', async () => {
    const dir = await tempDir();
    const seedFile = join(dir, 'seed.json');
    await writeFile(
      seedFile,
      JSON.stringify({
        hostingPlans: ['Basic', { name: 'Gold', php: { memory_limit: '2G' } }],
        clients: [{ username: 'alice', plan: 'Gold' }],
      }),
    );
    const port = await freePort();
    let stop = (): void => undefined;
    const running = run(
      ['simulator', '--api-key', API_KEY, '--port', String(port), '--seed', seedFile, '--clients-without-plan-ids'],
      {},
      { stop: new Promise<void>((resolve) => (stop = resolve)) },
    );
    const url = `http://127.0.0.1:${port}/api/v2`;
    const get = async (path: string): Promise<unknown> => {
      for (let i = 0; ; i++) {
        try {
          return await (await fetch(url + path, { headers: { 'X-API-Key': API_KEY } })).json();
        } catch (err) {
          if (i > 100) throw err;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    try {
      expect(await get('/clients')).toEqual([expect.not.objectContaining({ id_hosting_plan: 2 }) as unknown]);
      expect(JSON.stringify(await get('/clients'))).not.toContain('id_hosting_plan');
      expect(await get('/clients/2')).toMatchObject({ id_hosting_plan: 2 });
      expect(await get('/hosting-plans/2')).toMatchObject({ name: 'Gold', php: { memory_limit: '2G' } });
    } finally {
      stop();
    }
    expect((await running).code).toBe(0);
  });
});

describe('seed', () => {
  test('plans may be objects merged over what a name at that position gets; strings still work', async () => {
    const s = await sim({
      seed: {
        hostingPlans: [
          'Small',
          { name: 'Big', resources: { disk_space: 50 * GIB }, permissions: { perl: true } },
          { name: 'Huge', php_fpm: { pm: 'static', max_children: 40 } },
        ],
        clients: [{ username: 'alice', plan: 'Big' }],
      },
    });
    const [small, big, huge] = await plansOf(s);
    const standard = await (async () => {
      const plain = await sim({ seed: { hostingPlans: ['A', 'B', 'C'] } });
      return plansOf(plain);
    })();
    expect(small).toEqual({ ...standard[0], id: 1, name: 'Small' });
    expect(big).toEqual({
      ...standard[1],
      id: 2,
      name: 'Big',
      resources: { ...standard[1]?.resources, disk_space: 50 * GIB },
      permissions: { ...standard[1]?.permissions, perl: true },
    });
    expect(huge?.php_fpm).toEqual({ ...standard[2]?.php_fpm, pm: 'static', max_children: 40 });
    expect(s.state.clientNamed('alice')?.id_hosting_plan).toBe(2);
  });

  test.each([
    [
      { hostingPlans: [{ name: 'A', php: { memory_limit: 1 } }] },
      /hostingPlans\[0\]\.php\.memory_limit must be a size/,
    ],
    [{ hostingPlans: ['A', { name: 'B', extra: {} }] }, /hostingPlans\[1\]: unknown key "extra"/],
    [{ hostingPlans: [{ resources: {} }] }, /hostingPlans\[0\]\.name must be a string/],
    [{ hostingPlans: [7] }, /hostingPlans\[0\] must be a name or an object/],
    [{ hostingPlans: ['A', { name: 'A' }] }, /hosting plan 'A' is listed twice/],
  ])('%j is refused naming the place', (seed, message) => {
    expect(() => parseSeed(seed, 'seed.json')).toThrow(message);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => {
        resolve(port);
      });
    });
  });
}
