/**
 * The whole life of an account through the CLI, against the simulator on loopback: update
 * (plan, email, suspension), delete (state: absent), prune with keep, the order of deletes,
 * the mass-delete rail, stale saved plans with updates and deletes, and convergence (apply,
 * then plan shows no changes).
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { API_KEY, run, workspace } from '../helpers/cli.js';

const SEED = {
  clients: [
    {
      username: 'alice',
      plan: 'Basic',
      email: 'old@example.com',
      domains: ['alice.example', 'shop.alice.example', 'old.alice.example'],
    },
    {
      username: 'bob',
      plan: 'Basic',
      domains: ['bob.example', 'a.bob.example', 'b.a.bob.example'],
    },
    { username: 'legacy-1', domains: ['legacy.example'] },
    { username: 'carol', suspended: true, domains: ['carol.example'] },
  ],
};

const MANIFEST = `version: 1
clients:
  - username: alice
    plan: Standard
    email: alice@example.com
    suspended: true
    domains:
      - alice.example
      - shop.alice.example
      - name: old.alice.example
        state: absent
  - username: bob
    state: absent
  - username: carol
    suspended: false
    domains: [carol.example]
`;

/** The mutating requests the simulator answered, as `METHOD path status`. */
function writes(sim: { requests: readonly { method: string; path: string; status: number }[] }): string[] {
  return sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);
}

async function send(url: string, method: 'PUT' | 'DELETE', path: string, body?: object): Promise<number> {
  const answer = await request(`${url}${path}`, {
    method,
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await answer.body.dump();
  return answer.statusCode;
}

describe('updates and deletes', () => {
  it('plans updates and deletes in text, applies them in order, and plans no changes after', async () => {
    const { file, env, sim } = await workspace(MANIFEST, { seed: SEED });
    const alice = sim.state.clientNamed('alice');
    const bob = sim.state.clientNamed('bob');
    expect(alice?.id).toBeGreaterThan(1);
    expect(bob?.id).toBeGreaterThan(1);

    const planned = await run(['plan', file, '--detailed-exitcode'], env);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain(
      '  ~ client "alice": plan: "Basic" -> "Standard", email: "old@example.com" -> "alice@example.com", suspended: false -> true\n',
    );
    expect(planned.stdout).toContain(
      `  ~ PUT /clients/${alice?.id} {"id_hosting_plan":2,"email":"alice@example.com","is_suspended":true}\n`,
    );
    expect(planned.stdout).toContain('  ~ client "carol": suspended: true -> false\n');
    expect(planned.stdout).toContain(
      '# client "bob" will be deleted with its 3 domains, mail, databases and files: state: absent in the manifest',
    );
    expect(planned.stdout).toContain(`  - DELETE /clients/${bob?.id}\n`);
    // Deletes counted once, as --max-deletes counts them: bob's 3 domains go with him.
    expect(planned.stdout).toContain(
      'Plan: 2 to update (2 clients), 5 to delete (1 client, 1 domain, and 3 resources that go with them).',
    );
    const guarded = await run(['plan', file, '--max-deletes', '4'], env);
    expect(guarded.stdout).toContain('5 to delete (');
    expect(guarded.stdout + guarded.stderr).toContain('this plan deletes 5 resources');
    expect(writes(sim)).toEqual([]);

    const oldDomain = sim.state.domainNamed('old.alice.example')?.id;
    const applied = await run(['apply', file, '--auto-approve'], env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply: 4 succeeded, 0 failed, 0 skipped.');
    // Creates and updates first, deletes last; bob's domains go with bob, without DELETEs of their own.
    const sent = writes(sim);
    expect(sent.slice(0, 2).sort()).toEqual(
      [`PUT /clients/${alice?.id} 200`, `PUT /clients/${sim.state.clientNamed('carol')?.id} 200`].sort(),
    );
    expect(sent.slice(2).sort()).toEqual([`DELETE /clients/${bob?.id} 200`, `DELETE /domains/${oldDomain} 200`]);
    expect(sim.state.clientNamed('bob')).toBeUndefined();
    expect(sim.state.domainNamed('b.a.bob.example')).toBeUndefined();
    expect(sim.state.domainNamed('old.alice.example')).toBeUndefined();
    expect(sim.state.clientNamed('alice')).toMatchObject({
      id_hosting_plan: 2,
      email: 'alice@example.com',
      is_suspended: true,
    });
    expect(sim.state.clientNamed('carol')).toMatchObject({ is_suspended: false });

    const again = await run(['plan', file, '--detailed-exitcode'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes: the panel matches the manifest.');
  });

  it("describes updates and deletes in the plan JSON, with the manifest's field names", async () => {
    const { file, env, sim } = await workspace(MANIFEST, { seed: SEED });
    const r = await run(['plan', file, '--format', 'json'], env);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { changes: Record<string, unknown>[]; summary: unknown };
    expect(plan.summary).toEqual({ create: 0, update: 2, delete: 2, conflicts: 0, unknowns: 0 });
    const alice = sim.state.clientNamed('alice')?.id;
    expect(plan.changes[0]).toEqual({
      id: 'client:alice',
      action: 'update',
      type: 'client',
      name: 'alice',
      client_id: alice,
      fields: [
        { field: 'plan', before: 'Basic', after: 'Standard' },
        { field: 'email', before: 'old@example.com', after: 'alice@example.com' },
        { field: 'suspended', before: false, after: true },
      ],
      hosting_plan: { name: 'Standard', id: 2 },
      reason: 'differs from the manifest',
      depends_on: [],
      request: {
        method: 'PUT',
        path: `/clients/${alice}`,
        body: { id_hosting_plan: 2, email: 'alice@example.com', is_suspended: true },
      },
    });
    const bobDelete = plan.changes.find((c) => c.id === 'client:bob');
    expect(bobDelete).toMatchObject({
      action: 'delete',
      type: 'client',
      domains: 3,
      request: { method: 'DELETE', body: null },
    });
    expect(plan.changes.at(-1)).toBe(bobDelete);
  });

  it('shows deletes first and loudest in the pull-request comment', async () => {
    const { file, env } = await workspace(MANIFEST, { seed: SEED });
    const r = await run(['plan', file, '--format', 'markdown'], env);
    expect(r.code).toBe(0);
    const table = r.stdout.indexOf('| :warning: **resources to delete** | **5** |');
    expect(table).toBeGreaterThan(0);
    expect(table).toBeLessThan(r.stdout.indexOf('| clients to create |'));
    expect(r.stdout).toContain(
      '- :x: client "bob" with its 3 domains, mail, databases and files: state: absent in the manifest\n',
    );
    expect(r.stdout).toContain('~ client "alice": plan: "Basic" -> "Standard"');
  });
});

describe('prune', () => {
  const PRUNE = `version: 1
prune:
  domains: true
  clients: true
  keep: ["legacy-*", "keep.*.example"]
clients:
  - username: alice
    domains: [alice.example]
`;

  it('deletes unlisted domains and clients, never a keep match or a system domain, subdomains before parents', async () => {
    const { file, env, sim } = await workspace(PRUNE, {
      seed: {
        clients: [
          {
            username: 'alice',
            domains: ['alice.example', 'x.example', 'a.x.example', 'b.a.x.example', 'keep.me.example'],
          },
          { username: 'dave', domains: ['dave.example'] },
          { username: 'legacy-1', domains: ['legacy.example'] },
        ],
      },
    });
    const r = await run(['plan', file, '--format', 'json', '--allow-mass-delete'], env);
    expect(r.code).toBe(0);
    const ids = (JSON.parse(r.stdout) as { changes: { id: string; depends_on: string[] }[] }).changes.map(
      (c) => `${c.id} <- ${c.depends_on.join(',')}`,
    );
    expect(ids).toEqual([
      'domain:b.a.x.example <- ',
      'domain:a.x.example <- domain:b.a.x.example',
      'domain:x.example <- domain:a.x.example',
      'client:dave <- ',
    ]);

    const guarded = await run(['apply', file, '--auto-approve', '--max-deletes', '3'], env);
    expect(guarded.code).toBe(4);
    expect(guarded.stderr).toContain(
      'this plan deletes 5 resources (a client counts with each of its domains, a zone each record it removes), more than the limit of 3 (--max-deletes)',
    );
    expect(writes(sim)).toEqual([]);

    const panelIds = new Map([
      ...['b.a.x.example', 'a.x.example', 'x.example'].map((n) => [n, sim.state.domainNamed(n)?.id] as const),
      ['dave', sim.state.clientNamed('dave')?.id] as const,
    ]);
    const applied = await run(['apply', file, '--auto-approve', '--max-deletes', '5'], env);
    expect(applied.code).toBe(0);
    // Deletes share a phase; a parent's waits for its subdomain's.
    const deleted = (name: string): string => `DELETE /domains/${panelIds.get(name)} 200`;
    expect(writes(sim).filter((w) => w.startsWith('DELETE /domains/'))).toEqual([
      deleted('b.a.x.example'),
      deleted('a.x.example'),
      deleted('x.example'),
    ]);
    expect(writes(sim)).toContain(`DELETE /clients/${panelIds.get('dave')} 200`);
    expect(sim.state.domainNamed('keep.me.example')).toBeDefined();
    expect(sim.state.domainNamed('alice.sim.keyhelp.test')).toMatchObject({
      is_system_domain: true,
    });
    expect(sim.state.clientNamed('legacy-1')).toMatchObject({ username: 'legacy-1' });
    expect((await run(['plan', file, '--detailed-exitcode'], env)).code).toBe(0);
  });

  it('deletes nothing for being unlisted without prune', async () => {
    const { file, env } = await workspace('version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n', {
      seed: {
        clients: [{ username: 'alice', domains: ['alice.example', 'x.example'] }, { username: 'dave' }],
      },
    });
    const r = await run(['plan', file, '--detailed-exitcode'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Not in the manifest, left alone: 1 client, 1 domain.');
  });

  it('warns that a delete plus a create looks like a rename', async () => {
    const { file, env } = await workspace(
      'version: 1\nclients:\n  - username: bob\n    state: absent\n  - username: robert\n',
      { seed: { clients: [{ username: 'bob' }] } },
    );
    const r = await run(['plan', file], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'this plan deletes 1 client ("bob") and creates 1 client ("robert"): if this is meant as a rename, the panel cannot rename',
    );
  });
});

describe('saved plans with updates and deletes', () => {
  it('refuses a plan whose update or delete the panel moved under (exit 3), naming what changed', async () => {
    const { file, env, sim, planFile } = await workspace(MANIFEST, { seed: SEED });
    expect((await run(['plan', file, '--out', planFile], env)).code).toBe(0);
    const alice = sim.state.clientNamed('alice')?.id;
    expect(await send(sim.url, 'PUT', `/clients/${alice}`, { email: 'other@example.com' })).toBe(200);
    const bobDomain = sim.state.domainNamed('bob.example')?.id;
    expect(await send(sim.url, 'DELETE', `/domains/${sim.state.domainNamed('b.a.bob.example')?.id}`)).toBe(200);
    const stale = await run(['apply', planFile], env);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain(
      'client "alice"\'s email is now "other@example.com"; the plan was made when it was "old@example.com"',
    );
    expect(stale.stderr).toContain('the domains that go with client "bob" changed: no longer "b.a.bob.example"');
    expect(bobDomain).toBeGreaterThan(0);
    expect(writes(sim)).toHaveLength(2);
  });

  it('applies a fresh saved plan with updates and deletes, then refuses it as stale', async () => {
    const { file, env, sim, planFile } = await workspace(MANIFEST, { seed: SEED });
    expect((await run(['plan', file, '--out', planFile], env)).code).toBe(0);
    expect(JSON.parse(await readFile(planFile, 'utf8'))).toMatchObject({
      summary: { update: 2, delete: 2 },
    });
    const applied = await run(['apply', planFile], env);
    expect(applied.code).toBe(0);
    expect(writes(sim)).toHaveLength(4);
    expect((await run(['apply', planFile], env)).code).toBe(3);
  });
});

describe('what the panel does not show', () => {
  it('reads GET /clients/{id} when the list leaves fields out, and says so', async () => {
    const { file, env, sim } = await workspace(MANIFEST, { seed: SEED, clientListFields: false });
    const r = await run(['plan', file], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('~ client "alice": plan: "Basic" -> "Standard"');
    expect(r.stdout).toMatch(/note: GET \/api\/v2\/clients does not carry/);
    expect(sim.requests.filter((q) => /^\/clients\/\d+$/.test(q.path))).toHaveLength(2);
  });
});

describe('what a reviewer did not see is never deleted (review findings)', () => {
  it('a panel that cannot list domains: deleting a client needs --allow-mass-delete, however few', async () => {
    const { file, env, sim } = await workspace('version: 1\nprune: {clients: true}\nclients:\n  - username: alice\n', {
      listDomains: false,
      seed: {
        clients: [
          { username: 'alice' },
          { username: 'big', domains: Array.from({ length: 20 }, (_, i) => `d${i}.example`) },
        ],
      },
    });
    const planned = await run(['plan', file], env);
    expect(planned.stdout).toContain(
      '# client "big" will be deleted with all its domains (how many, the panel cannot list), mail, databases and files',
    );
    expect(planned.stdout).toContain('this plan deletes 1 client whose domains the panel cannot list');
    const refused = await run(['apply', file, '--auto-approve'], env);
    expect(refused.code).toBe(4);
    expect(writes(sim)).toEqual([]);
    expect((await run(['apply', file, '--auto-approve', '--allow-mass-delete'], env)).code).toBe(0);
    expect(sim.state.clientNamed('big')).toBeUndefined();
  });

  it('a saved plan deleting a client is stale once its domains differ, even in the same number', async () => {
    const { file, env, sim, planFile } = await workspace(
      'version: 1\nclients:\n  - username: bob\n    state: absent\n',
      { seed: { clients: [{ username: 'bob', domains: ['b1.example', 'b2.example'] }] } },
    );
    expect((await run(['plan', file, '--out', planFile], env)).code).toBe(0);
    const bob = sim.state.clientNamed('bob')?.id ?? 0;
    expect(await send(sim.url, 'DELETE', `/domains/${sim.state.domainNamed('b2.example')?.id}`)).toBe(200);
    const created = await request(`${sim.url}/domains`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'precious.example', id_user: bob }),
    });
    await created.body.dump();
    expect(created.statusCode).toBe(201);
    const stale = await run(['apply', planFile], env);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain(
      'the domains that go with client "bob" changed: now also "precious.example"; no longer "b2.example"',
    );
    expect(sim.state.clientNamed('bob')).toMatchObject({ id: bob });
  });

  it('a saved plan deleting a domain is stale once a subdomain stands under it', async () => {
    const { file, env, sim, planFile } = await workspace(
      'version: 1\nclients:\n  - username: bob\n    domains: [b1.example, {name: b2.example, state: absent}]\n',
      {
        seed: { clients: [{ username: 'bob', domains: ['b1.example', 'b2.example'] }] },
      },
    );
    expect((await run(['plan', file, '--out', planFile], env)).code).toBe(0);
    const created = await request(`${sim.url}/domains`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        domain: 'shop.b2.example',
        id_user: sim.state.clientNamed('bob')?.id,
      }),
    });
    await created.body.dump();
    expect(created.statusCode).toBe(201);
    const stale = await run(['apply', planFile], env);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain(
      'the subdomains of "b2.example", which the plan deletes, changed: now also "shop.b2.example"',
    );
    expect(writes(sim).filter((w) => w.startsWith('DELETE'))).toEqual([]);
  });
});
