/**
 * The real panel's shapes (issue 30, item 5), end to end through the CLI against the simulator
 * over real HTTP: a subdomain's POST names its parent (`id_parent_domain`), on a panel that
 * honours the field and guesses nothing (`parentDomains: 'given'`), with and without a saved
 * plan; every POST /clients carries `send_login_credentials` (false unless the manifest asks),
 * and never `create_system_domain`.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { request } from 'undici';
import { API_KEY, run, workspace } from '../helpers/cli.js';

/** A change made on the panel behind the plan's back, through the API like any other client: its status. */
async function behind(url: string, method: 'POST' | 'DELETE', path: string, body?: object): Promise<number> {
  const answer = await request(`${url}${path}`, {
    method,
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await answer.body.dump();
  return answer.statusCode;
}

/** A workspace whose simulator keeps the body of every POST it receives, by path. */
async function watched(manifest: string, options: Partial<SimulatorOptions> = {}) {
  const bodies: { path: string; body: Record<string, unknown> }[] = [];
  const w = await workspace(manifest, {
    ...options,
    intercept: (request: InterceptRequest) => {
      if (request.method === 'POST') bodies.push({ path: request.path, body: request.body as Record<string, unknown> });
      return undefined;
    },
  });
  const posted = (path: string): Record<string, unknown>[] => bodies.filter((b) => b.path === path).map((b) => b.body);
  return { ...w, posted };
}

/** Each domain on the simulator as `name <- parent name` ('' for top level). */
function parents(w: Awaited<ReturnType<typeof watched>>): Record<string, string> {
  const domains = [...w.sim.state.domains.values()];
  const names = new Map(domains.map((d) => [d.id, d.domain]));
  return Object.fromEntries(
    domains.filter((d) => !d.is_system_domain).map((d) => [d.domain, names.get(d.id_parent_domain) ?? '']),
  );
}

/** A domain's id on the simulator (0 when it has none of that name). */
function idOf(w: Awaited<ReturnType<typeof watched>>, name: string): number {
  return [...w.sim.state.domains.values()].find((d) => d.domain === name)?.id ?? 0;
}

const FAMILY = `version: 1
clients:
  - username: alice
    domains:
      - shop.alice.example
      - alice.example
      - a.b.alice.example
  - username: bob
    domains: [bob.alice.example]
`;

describe('a subdomain names its parent in its POST', () => {
  it('created with its parent in one apply, it hangs under it on a panel that guesses nothing', async () => {
    const w = await watched(FAMILY, { parentDomains: 'given' });
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.stderr).not.toMatch(/error|warning/);
    expect(applied.code).toBe(0);
    expect(parents(w)).toEqual({
      'alice.example': '',
      'shop.alice.example': 'alice.example',
      'a.b.alice.example': 'alice.example',
      // Another client's domain under alice.example: no parent of alice's is named for it.
      'bob.alice.example': '',
    });
    const parentId = idOf(w, 'alice.example');
    expect(w.posted('/domains').find((b) => b.domain === 'shop.alice.example')).toMatchObject({
      id_parent_domain: parentId,
    });
    expect(w.posted('/domains').find((b) => b.domain === 'alice.example')).not.toHaveProperty('id_parent_domain');
    expect(w.posted('/domains').find((b) => b.domain === 'bob.alice.example')).not.toHaveProperty('id_parent_domain');
    // Its records live in its parent's zone: it has none of its own.
    expect(w.sim.state.zones.has(idOf(w, 'shop.alice.example'))).toBe(false);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code).toBe(0);
  });

  it('takes the id from the answer in a saved plan too, where it is null at plan time', async () => {
    const w = await watched(FAMILY, { parentDomains: 'given' });
    expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
    const saved = JSON.parse(await readFile(w.planFile, 'utf8')) as { changes: Record<string, unknown>[] };
    const shop = saved.changes.find((c) => c.name === 'shop.alice.example');
    expect(shop).toMatchObject({
      parent_domain: { name: 'alice.example', id: null },
      depends_on: ['client:alice', 'domain:alice.example'],
      request: { body: { domain: 'shop.alice.example', id_user: null, id_parent_domain: null } },
    });
    const applied = await run(['apply', w.planFile], w.envWithSecrets);
    expect(applied.code).toBe(0);
    expect(parents(w)['shop.alice.example']).toBe('alice.example');
  });

  it('names a parent the panel has by its id, and a saved plan is stale once that parent is another', async () => {
    const manifest = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, shop.alice.example]\n';
    const w = await watched(manifest, {
      parentDomains: 'given',
      seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] },
    });
    const parentId = idOf(w, 'alice.example');
    const planned = await run(['plan', w.file], w.env);
    expect(planned.stdout).toContain(
      `+ POST /domains {"domain":"shop.alice.example","id_user":2,"id_parent_domain":${parentId}}`,
    );
    expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
    // The parent deleted and made again behind the plan's back: another id.
    expect(await behind(w.sim.url, 'DELETE', `/domains/${parentId}`)).toBe(200);
    expect(await behind(w.sim.url, 'POST', '/domains', { domain: 'alice.example', id_user: 2 })).toBe(201);
    const stale = await run(['apply', w.planFile], w.envWithSecrets);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain('the parent the plan creates "shop.alice.example" under, is now id:');
    expect(w.posted('/domains').filter((b) => b.domain === 'shop.alice.example')).toEqual([]);
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code).toBe(0);
    expect(parents(w)['shop.alice.example']).toBe('alice.example');
  });
});

describe('a saved plan naming a parent the panel has', () => {
  it('applies on a panel without a domain list: the parent is looked up by name too', async () => {
    const manifest = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, shop.alice.example]\n';
    const w = await watched(manifest, {
      listDomains: false,
      parentDomains: 'given',
      seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] },
    });
    expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
    const applied = await run(['apply', w.planFile], w.envWithSecrets);
    expect(applied.stderr).not.toContain('stale plan');
    expect(applied.code).toBe(0);
    expect(parents(w)['shop.alice.example']).toBe('alice.example');
  });
});

describe('send_login_credentials', () => {
  const MANIFEST = `version: 1
clients:
  - username: alice
    domains: [alice.example]
  - username: bob
    send_login_credentials: true
  - username: carol
    send_login_credentials: false
`;

  it('is false in every POST /clients unless the manifest asks; create_system_domain is never sent', async () => {
    const w = await watched(MANIFEST);
    const planned = await run(['plan', w.file, '--format', 'json'], w.env);
    const document = JSON.parse(planned.stdout) as { changes: Record<string, unknown>[] };
    expect(document.changes.filter((c) => c.type === 'client').map((c) => c.send_login_credentials)).toEqual([
      false,
      true,
      false,
    ]);
    const text = await run(['plan', w.file], w.env);
    expect(text.stdout).toContain(
      '# client "bob" will be created: not on the panel, and the panel mails it its login (send_login_credentials)',
    );
    expect(text.stdout).toContain('# client "alice" will be created: not on the panel\n');

    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code).toBe(0);
    const bodies = w.posted('/clients');
    expect(bodies.map((b) => [b.username, b.send_login_credentials])).toEqual([
      ['alice', false],
      ['bob', true],
      ['carol', false],
    ]);
    for (const body of bodies) expect(body).not.toHaveProperty('create_system_domain');
  });

  it('is never compared: a client that exists plans to no change, whatever the key says', async () => {
    const w = await watched(MANIFEST, {
      seed: { clients: [{ username: 'alice' }, { username: 'bob' }, { username: 'carol' }] },
    });
    const planned = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(planned.stdout).not.toContain('send_login_credentials');
    expect(planned.code).toBe(2); // alice.example only
    expect(planned.stdout).toContain('Plan: 1 to create (1 domain).');
  });

  it('is refused on a client marked absent, and must be a boolean, at its line', async () => {
    const w = await watched(
      'version: 1\nclients:\n  - username: alice\n    state: absent\n    send_login_credentials: true\n' +
        '  - username: bob\n    send_login_credentials: "yes"\n',
    );
    const checked = await run(['validate', w.file], w.env);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/manifest\.yaml:5:5: .*remove "send_login_credentials"/);
    expect(checked.stderr).toMatch(/manifest\.yaml:7:29: .*send_login_credentials.*boolean/);
  });
});

describe("the simulator's id_parent_domain", () => {
  it('is checked, and honoured in either mode; without it the default mode guesses', async () => {
    const w = await watched('version: 1\nclients: []\n', {
      seed: {
        clients: [
          { username: 'alice', domains: ['alice.example'] },
          { username: 'bob', domains: ['bob.example'] },
        ],
      },
    });
    const alice = idOf(w, 'alice.example');
    const post = (body: object): Promise<number> => behind(w.sim.url, 'POST', '/domains', body);
    expect(await post({ domain: 'x.alice.example', id_user: 2, id_parent_domain: 999 })).toBe(404);
    expect(await post({ domain: 'x.alice.example', id_user: 2, id_parent_domain: idOf(w, 'bob.example') })).toBe(400);
    expect(await post({ domain: 'x.other.example', id_user: 2, id_parent_domain: alice })).toBe(400);
    expect(await post({ domain: 'x.alice.example', id_user: 2, id_parent_domain: 'one' })).toBe(400);
    expect(await post({ domain: 'top.alice.example', id_user: 2, id_parent_domain: 0 })).toBe(201);
    expect(await post({ domain: 'guessed.alice.example', id_user: 2 })).toBe(201);
    expect(await post({ domain: 'named.alice.example', id_user: 2, id_parent_domain: alice })).toBe(201);
    expect(parents(w)).toMatchObject({
      'top.alice.example': '',
      'guessed.alice.example': 'alice.example',
      'named.alice.example': 'alice.example',
    });
  });
});

describe('hosting plan values in a saved plan', () => {
  it('a PHP setting that is not a whole number goes through a saved plan', async () => {
    const w = await watched(
      'version: 1\nhosting_plans:\n  - name: Basic\n    php: {max_execution_time: 2.5}\n    php_fpm: {status: true}\n',
    );
    expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
    // Read back and sent (before, the plan schema took whole numbers only: the file was refused).
    const applied = await run(['apply', w.planFile], w.env);
    expect(applied.stderr).toContain('applying exactly it');
    expect(w.sim.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual(['/hosting-plans/1']);
  });
});
