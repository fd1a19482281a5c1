/**
 * Domains carry their settings in the panel's shapes (src/simulator/domain-settings.ts):
 * defaults on every read, POST merging nested objects over them, PUT taking a nested object
 * whole, 400 for a wrong type, per-domain settings in the seed, and the state file keeping
 * them (an older file without them loads with the defaults).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { parseSeed, type SimDomain, type Simulator } from '../../src/simulator/index.js';
import { call, createClient, tempDir } from '../helpers/sim-http.js';
import { sim, startSim } from '../helpers/sim.js';
import { onDisk } from './on-disk.js';

const SECURITY_OFF = {
  id_certificate: 0,
  lets_encrypt: false,
  is_prefer_https: false,
  is_hsts: false,
  hsts_max_age: 0,
  hsts_include: false,
  hsts_preload: false,
};

const defaultTarget = (username: string, domain: string): SimDomain['target'] => ({
  target: `/home/users/${username}/www/${domain}/`,
  is_forwarding: false,
  forwarding_type: 301,
});

/** A simulator with client alice (no system domain) and her id. */
async function withAlice(): Promise<{ simulator: Simulator; alice: number }> {
  const simulator = await sim({ systemDomains: false });
  return { simulator, alice: await createClient(simulator, { username: 'alice' }) };
}

async function postDomain(simulator: Simulator, body: Record<string, unknown>): Promise<number> {
  const answer = await call(simulator, 'POST', '/domains', { body });
  expect(answer.status, answer.text).toBe(201);
  return (answer.json as { id: number }).id;
}

async function getDomain(simulator: Simulator, id: number): Promise<Record<string, unknown>> {
  const answer = await call(simulator, 'GET', `/domains/${id}`);
  expect(answer.status).toBe(200);
  return answer.json as Record<string, unknown>;
}

describe('defaults', () => {
  test('every read of a new domain carries php_version, security, target and the fixed fields', async () => {
    const simulator = await sim();
    const alice = await createClient(simulator, { username: 'alice' });
    const id = await postDomain(simulator, { domain: 'bücher.example', id_user: alice });
    const expected = {
      id,
      id_user: alice,
      id_parent_domain: 0,
      status: 1,
      domain: 'xn--bcher-kva.example',
      domain_utf8: 'bücher.example',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) as unknown,
      php_version: '',
      is_disabled: false,
      is_custom_dns: false,
      is_dns_disabled: false,
      is_subdomain: false,
      is_system_domain: false,
      target: defaultTarget('alice', 'xn--bcher-kva.example'),
      security: SECURITY_OFF,
      apache: { http_directives: '', https_directives: '' },
    };
    expect(await getDomain(simulator, id)).toEqual(expected);
    expect((await call(simulator, 'GET', '/domains/name/b%C3%BCcher.example')).json).toEqual(expected);
    const list = (await call(simulator, 'GET', '/domains')).json as Record<string, unknown>[];
    expect(list.find((d) => d.id === id)).toEqual(expected);
    // The system domain the panel made gets them too.
    expect(list.find((d) => d.is_system_domain === true)).toMatchObject({
      php_version: '',
      security: SECURITY_OFF,
      target: defaultTarget('alice', 'alice.sim.keyhelp.test'),
    });
  });
});

describe('POST /domains with settings', () => {
  test('keys given override the defaults; a nested object is merged over them', async () => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, {
      domain: 'shop.example',
      id_user: alice,
      php_version: '8.3',
      security: { lets_encrypt: true, is_hsts: true, hsts_max_age: 31536000 },
      target: { target: 'https://alice.example/', is_forwarding: true, forwarding_type: 302 },
    });
    expect(await getDomain(simulator, id)).toMatchObject({
      php_version: '8.3',
      security: { ...SECURITY_OFF, lets_encrypt: true, is_hsts: true, hsts_max_age: 31536000 },
      target: { target: 'https://alice.example/', is_forwarding: true, forwarding_type: 302 },
    });
    const other = await postDomain(simulator, {
      domain: 'blog.example',
      id_user: alice,
      target: { is_forwarding: true },
    });
    expect(await getDomain(simulator, other)).toMatchObject({
      php_version: '',
      security: SECURITY_OFF,
      target: { ...defaultTarget('alice', 'blog.example'), is_forwarding: true },
    });
  });
});

describe('PUT /domains/{id}', () => {
  test('a nested object given replaces the stored one whole; other top-level keys stay', async () => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, { domain: 'shop.example', id_user: alice, php_version: '8.2' });
    const before = await getDomain(simulator, id);

    const put = await call(simulator, 'PUT', `/domains/${id}`, { body: { security: { lets_encrypt: true } } });
    expect(put).toMatchObject({ status: 200, json: { id } });
    const after = await getDomain(simulator, id);
    // The keys the client left out are gone: it had to send the whole object it read.
    expect(after.security).toEqual({ lets_encrypt: true });
    expect({ ...after, security: before.security }).toEqual(before);

    await call(simulator, 'PUT', `/domains/${id}`, { body: { php_version: '', is_disabled: true } });
    expect(await getDomain(simulator, id)).toEqual({ ...after, php_version: '', is_disabled: true });

    const target = { target: 'https://alice.example/', is_forwarding: true, forwarding_type: 301 };
    await call(simulator, 'PUT', `/domains/${id}`, { body: { target } });
    expect(await getDomain(simulator, id)).toMatchObject({ target, security: { lets_encrypt: true } });
  });

  test('unknown and read-only top-level keys are ignored, like PUT /clients/{id}', async () => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, { domain: 'shop.example', id_user: alice });
    const before = await getDomain(simulator, id);
    const put = await call(simulator, 'PUT', `/domains/${id}`, {
      body: { status: 0, apache: { http_directives: 'x' }, is_custom_dns: true, no_such_key: 1 },
    });
    expect(put).toMatchObject({ status: 200, json: { id } });
    expect(await getDomain(simulator, id)).toEqual(before);
  });
});

describe('wrong types are refused with 400 in the panel shape, and nothing changes', () => {
  const bad: readonly [Record<string, unknown>, RegExp][] = [
    [{ php_version: 8.3 }, /'php_version' must be "" \(the default\) or a version like "8\.3"/],
    [{ php_version: '8' }, /'php_version' must be/],
    [{ php_version: 'default' }, /'php_version' must be/],
    [{ php_version: null }, /'php_version' must be/],
    [{ security: true }, /'security' must be an object/],
    [{ security: [] }, /'security' must be an object/],
    [{ security: { lets_encrypt: 'yes' } }, /'security\.lets_encrypt' must be a boolean/],
    [{ security: { hsts_max_age: -1 } }, /'security\.hsts_max_age' must be an integer of 0 or more/],
    [{ security: { id_certificate: 1.5 } }, /'security\.id_certificate' must be an integer/],
    [{ security: { force_https: true } }, /'security' has no key "force_https" \(its keys: id_certificate, /],
    [{ target: { target: 5 } }, /'target\.target' must be a string/],
    [{ target: { is_forwarding: 1 } }, /'target\.is_forwarding' must be a boolean/],
    [{ target: { forwarding_type: '301' } }, /'target\.forwarding_type' must be the integer 301 or 302/],
    [{ target: { forwarding_type: 307 } }, /'target\.forwarding_type' must be/],
  ];

  test.each(bad)('POST %j', async (settings, message) => {
    const { simulator, alice } = await withAlice();
    const answer = await call(simulator, 'POST', '/domains', {
      body: { domain: 'shop.example', id_user: alice, ...settings },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: '400 Bad Request', message: expect.stringMatching(message) as unknown });
    expect(simulator.state.domains.size).toBe(0);
  });

  test.each(bad)('PUT %j', async (settings, message) => {
    const { simulator, alice } = await withAlice();
    const id = await postDomain(simulator, { domain: 'shop.example', id_user: alice });
    const before = await getDomain(simulator, id);
    const answer = await call(simulator, 'PUT', `/domains/${id}`, { body: { is_disabled: true, ...settings } });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: '400 Bad Request', message: expect.stringMatching(message) as unknown });
    expect(await getDomain(simulator, id)).toEqual(before);
  });
});

describe('the seed', () => {
  test('a domain is a name or an object with settings, merged over the defaults', async () => {
    const seed = parseSeed(
      {
        clients: [
          {
            username: 'alice',
            domains: [
              'alice.example',
              { name: 'shop.alice.example', php_version: '8.3', security: { lets_encrypt: true } },
              { name: 'go.example', target: { target: 'https://alice.example/', is_forwarding: true } },
            ],
          },
        ],
      },
      'seed.json',
    );
    const simulator = await sim({ seed, systemDomains: false });
    expect(simulator.state.domainNamed('alice.example')).toMatchObject({
      php_version: '',
      security: SECURITY_OFF,
      target: defaultTarget('alice', 'alice.example'),
    });
    expect(simulator.state.domainNamed('shop.alice.example')).toMatchObject({
      is_subdomain: true,
      php_version: '8.3',
      security: { ...SECURITY_OFF, lets_encrypt: true },
      target: defaultTarget('alice', 'shop.alice.example'),
    });
    const go = simulator.state.domainNamed('go.example')?.id ?? 0;
    expect(await getDomain(simulator, go)).toMatchObject({
      target: { target: 'https://alice.example/', is_forwarding: true, forwarding_type: 301 },
    });
  });

  test.each([
    [[7], /clients\[0\]\.domains\[0\] must be a name or an object/],
    [[{ domain: 'a.example' }], /clients\[0\]\.domains\[0\]: unknown key "domain" \(allowed: name, php_version, /],
    [[{ name: 'a.example', php_version: 8.3 }], /clients\[0\]\.domains\[0\]\.php_version must be "" \(the default\)/],
    [
      ['a.example', { name: 'b.example', security: { lets_encrypt: 'yes' } }],
      /clients\[0\]\.domains\[1\]\.security\.lets_encrypt must be a boolean/,
    ],
    [[{ name: 'a.example', target: { x: 1 } }], /clients\[0\]\.domains\[0\]\.target has no key "x"/],
    ['a.example', /clients\[0\]\.domains must be an array/],
  ])('parseSeed refuses domains %j', (domains, message) => {
    let caught: unknown;
    try {
      parseSeed({ clients: [{ username: 'alice', domains }] }, 'seed.json');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProvisionError);
    expect((caught as ProvisionError).message).toMatch(/^seed\.json: invalid simulator seed: /);
    expect((caught as ProvisionError).message).toMatch(message);
  });

  test('a seed given in code is checked too', async () => {
    await expect(
      startSim({
        seed: { clients: [{ username: 'alice', domains: [{ name: 'a.example', php_version: 'eight' }] }] },
      }),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/^simulator seed: clients\[0\]\.domains\[0\]\.php_version must be ""/) as unknown,
    });
  });
});

describe('the state file', () => {
  test('keeps the settings, through the log and through a compacted snapshot', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await startSim({ statePath, systemDomains: false });
    const alice = await createClient(first, { username: 'alice' });
    const shop = await postDomain(first, {
      domain: 'shop.example',
      id_user: alice,
      php_version: '8.3',
      security: { lets_encrypt: true },
    });
    await call(first, 'PUT', `/domains/${shop}`, { body: { target: { target: 'https://a.example/' } } });
    const live = [...first.state.domains.values()];
    expect(live[0]?.target).toEqual({ target: 'https://a.example/' });
    // As a kill would leave it: the snapshot and the log of changes.
    expect((await onDisk(statePath)).domains).toEqual(live);
    await first.close();
    expect((await readFile(statePath, 'utf8')).split('\n')).toHaveLength(2);
    const again = await sim({ statePath });
    expect([...again.state.domains.values()]).toEqual(live);
    expect(await getDomain(again, shop)).toEqual(JSON.parse(JSON.stringify(live[0])));
  });

  test('a file written before domains had settings loads, each domain with the defaults', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const old = (id: number, domain: string): Record<string, unknown> => ({
      id,
      id_user: 2,
      id_parent_domain: 0,
      domain,
      domain_utf8: domain,
      is_subdomain: false,
      is_system_domain: false,
      is_disabled: id === 2,
      created_at: '2024-01-02T03:04:05+00:00',
    });
    const snapshot = {
      format: 'panel-provision-simulator-state',
      version: 1,
      nextPlanId: 2,
      nextUserId: 3,
      nextDomainId: 2,
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
      domains: [old(1, 'alice.example')],
    };
    // The snapshot line, then a change logged by that older simulator.
    await writeFile(
      statePath,
      `${JSON.stringify(snapshot)}\n${JSON.stringify({ set: 'domains', record: old(2, 'b.example') })}\n`,
    );
    const simulator = await sim({ statePath });
    for (const [id, name] of [
      [1, 'alice.example'],
      [2, 'b.example'],
    ] as const) {
      expect(await getDomain(simulator, id)).toEqual({
        ...old(id, name),
        status: 1,
        php_version: '',
        is_custom_dns: false,
        is_dns_disabled: false,
        target: defaultTarget('alice', name),
        security: SECURITY_OFF,
        apache: { http_directives: '', https_directives: '' },
      });
    }
    // And settings can be set on it as on any other.
    await call(simulator, 'PUT', `/domains/1`, { body: { php_version: '8.1' } });
    expect(await getDomain(simulator, 1)).toMatchObject({ php_version: '8.1', security: SECURITY_OFF });
  });
});
