/**
 * Hosting plans through the whole CLI, in-process against the simulator on loopback (issue 25,
 * "How it is checked"): a new plan and a client on it created in one apply, the plan first and
 * the client's POST carrying its new id; a nested update sending each object whole, the keys no
 * manifest manages as read; `state: absent` of an unused plan deleted, of a used one refused
 * with the clients named and nothing sent; prune deleting only unused unlisted plans and keeping
 * the used ones without failing; every apply converging (exit 0 with --detailed-exitcode); and
 * the plan in text, JSON (valid against schemas/plan.schema.json) and Markdown.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest } from '../../src/simulator/index.js';
import { expectNoSecrets, run, workspace, type Workspace } from '../helpers/cli.js';

/** What the simulator was sent that changes the panel, with bodies, in order (answered or not). */
function recorder(): { intercept: (req: InterceptRequest) => undefined; writes: InterceptRequest[] } {
  const writes: InterceptRequest[] = [];
  return {
    intercept: (req) => {
      if (req.method !== 'GET') writes.push(req);
      return undefined;
    },
    writes,
  };
}

/** The writes as `<METHOD> <path> <status>`, from the simulator's own log. */
function sent(w: Workspace): string[] {
  return w.sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);
}

function planId(w: Workspace, name: string): number {
  const id = w.sim.state.planNamed(name)?.id;
  expect(id, name).toEqual(expect.any(Number));
  return id ?? 0;
}

/** A plan of the panel's whole, as GET /hosting-plans shows it. */
function planRecord(w: Workspace, name: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(w.sim.state.planNamed(name) ?? null)) as Record<string, unknown>;
}

/** `plan --detailed-exitcode` after an apply: exit 0, no changes. */
async function converges(w: Workspace): Promise<void> {
  const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toContain('No changes: the panel matches the manifest.');
}

const planValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object,
);

describe('hosting plans through the CLI', () => {
  it('creates a new plan and a client on it in one apply: the plan first, the POST with its new id', async () => {
    const rec = recorder();
    const w = await workspace(
      `version: 1
hosting_plans:
  - name: Pro
    resources: {domains: 20, databases: 10}
    permissions: {ssh: true}
    php: {memory_limit: 1G}
clients:
  - username: dave
    plan: Pro
`,
      { seed: { hostingPlans: ['Basic'] }, intercept: rec.intercept },
    );
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const pro = planId(w, 'Pro');
    expect(sent(w)).toEqual(['POST /hosting-plans 201', 'POST /clients 201']);
    expect(rec.writes.map((q) => q.body)).toEqual([
      {
        name: 'Pro',
        resources: { domains: 20, databases: 10 },
        permissions: { ssh: true },
        php: { memory_limit: '1G' },
      },
      expect.objectContaining({ username: 'dave', id_hosting_plan: pro }),
    ]);
    expect(w.sim.state.clientNamed('dave')?.id_hosting_plan).toBe(pro);
    expect(planRecord(w, 'Pro')).toMatchObject({
      resources: { domains: 20, databases: 10 },
      permissions: { ssh: true },
      php: { memory_limit: '1G' },
    });
    await converges(w);
    await expectNoSecrets([r], w.secrets);
  });

  it('updates nested objects whole: the keys no manifest manages sent back as read, the objects not changed not sent', async () => {
    const rec = recorder();
    const w = await workspace(
      `version: 1
hosting_plans:
  - name: Gold
    php: {memory_limit: 1G}
    permissions: {ssh: false}
    resources: {domains: 5}
clients: []
`,
      {
        seed: {
          hostingPlans: [
            'Basic',
            {
              name: 'Gold',
              resources: { domains: 3 },
              permissions: { ssh: true },
              php: { open_basedir: '/srv/custom', memory_limit: '256M' },
            },
          ],
          clients: [{ username: 'alice', plan: 'Gold' }],
        },
        intercept: rec.intercept,
      },
    );
    const before = planRecord(w, 'Gold');
    const { resources, php, permissions } = before as Record<string, Record<string, unknown>>;
    expect(php).toMatchObject({ open_basedir: '/srv/custom', memory_limit: '256M' });
    const planned = await run(['plan', w.file], w.env);
    expect(planned.stdout).toContain(
      '# hosting plan "Gold" will be updated: differs from the manifest; the 1 client on it keeps its copied values',
    );
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const gold = planId(w, 'Gold');
    expect(sent(w)).toEqual([`PUT /hosting-plans/${gold} 200`]);
    // Each object whole as read, the managed keys changed; php_fpm, which the manifest leaves out, not sent.
    const changed = {
      resources: { ...resources, domains: 5 },
      permissions: { ...permissions, ssh: false },
      php: { ...php, memory_limit: '1G' },
    };
    expect(rec.writes.map((q) => q.body)).toEqual([changed]);
    expect(planRecord(w, 'Gold')).toEqual({ ...before, ...changed });
    await converges(w);
  });

  it('deletes an unused plan marked absent', async () => {
    const w = await workspace(
      `version: 1
hosting_plans:
  - name: Legacy
    state: absent
clients: []
`,
      { seed: { hostingPlans: ['Basic', 'Legacy'], clients: [{ username: 'alice', plan: 'Basic' }] } },
    );
    const legacy = planId(w, 'Legacy');
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(sent(w)).toEqual([`DELETE /hosting-plans/${legacy} 200`]);
    expect(w.sim.state.planNamed('Legacy')).toBeUndefined();
    await converges(w);
  });

  it('refuses a used plan marked absent, naming its clients, and sends nothing (exit 1)', async () => {
    const w = await workspace(
      `version: 1
hosting_plans:
  - name: Legacy
    state: absent
clients: []
`,
      {
        seed: {
          hostingPlans: ['Basic', 'Legacy'],
          clients: [
            { username: 'alice', plan: 'Legacy' },
            { username: 'bob', plan: 'Legacy' },
            { username: 'carol', plan: 'Basic' },
          ],
        },
      },
    );
    const planned = await run(['plan', w.file], w.env);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      '✗ hosting plan "Legacy" is to be deleted, but "alice", "bob" are on it: move them to another plan first',
    );
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('hosting plan "Legacy" is to be deleted');
    expect(sent(w)).toEqual([]);
    expect(w.sim.state.planNamed('Legacy')).toBeDefined();
  });

  it('prunes only the unused plans the manifest does not list; the used ones stay, counted, without failing', async () => {
    const w = await workspace(
      `version: 1
hosting_plans:
  - name: Basic
    resources: {domains: 7}
clients: []
prune:
  hosting_plans: true
`,
      {
        seed: {
          hostingPlans: ['Basic', 'Standard', 'Premium Plus', 'Spare'],
          clients: [
            { username: 'alice', plan: 'Basic' },
            { username: 'bob', plan: 'Standard' },
          ],
        },
      },
    );
    const ids = ['Basic', 'Premium Plus', 'Spare'].map((n) => planId(w, n));
    const planned = await run(['plan', w.file], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Not in the manifest, left alone: 2 clients, 0 domains, 1 hosting plan.');
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Not in the manifest, left alone: 2 clients, 0 domains, 1 hosting plan.');
    expect(sent(w).sort()).toEqual(
      [
        `PUT /hosting-plans/${ids[0]} 200`,
        `DELETE /hosting-plans/${ids[1]} 200`,
        `DELETE /hosting-plans/${ids[2]} 200`,
      ].sort(),
    );
    expect(w.sim.state.planNamed('Standard')).toBeDefined();
    expect(w.sim.state.planNamed('Spare')).toBeUndefined();
    await converges(w);
  });
});

describe('hosting plans in the plan output', () => {
  const MANIFEST = `version: 1
hosting_plans:
  - name: Pro
    resources: {domains: 20}
  - name: Basic
    resources: {domains: 10}
  - name: Spare
    state: absent
clients:
  - username: dave
    plan: Pro
`;
  const SEED = {
    seed: {
      hostingPlans: ['Basic', 'Spare', 'Other'],
      clients: [
        { username: 'alice', plan: 'Basic' },
        { username: 'bob', plan: 'Basic' },
      ],
    },
  };

  it('text: create, update with its clients, delete; the unmanaged plan counted', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain(
      '  # hosting plan "Pro" will be created: not on the panel\n' +
        '  + hosting plan "Pro": resources.domains: 20\n' +
        '  + POST /hosting-plans {"name":"Pro","resources":{"domains":20}}\n' +
        '  # hosting plan "Basic" will be updated: differs from the manifest; the 2 clients on it keep their copied ' +
        'values (the panel copies a plan when it is assigned)\n' +
        '  ~ hosting plan "Basic": resources.domains: 5 -> 10\n',
    );
    expect(r.stdout).toContain(`  - DELETE /hosting-plans/${planId(w, 'Spare')}\n`);
    expect(r.stdout).toContain('Not in the manifest, left alone: 2 clients, 0 domains, 1 hosting plan.');
    expect(sent(w)).toEqual([]);
  });

  it('JSON: type "hosting_plan", valid against the schema', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(r.code, r.stderr).toBe(0);
    const document = JSON.parse(r.stdout) as { changes: Record<string, unknown>[]; unmanaged: object };
    expect(planValid(document), JSON.stringify(planValid.errors)).toBe(true);
    expect(document.changes.map((c) => `${String(c.action)} ${String(c.type)} ${String(c.name)}`)).toEqual([
      'create hosting_plan Pro',
      'update hosting_plan Basic',
      'create client dave',
      'delete hosting_plan Spare',
    ]);
    expect(document.changes[1]).toMatchObject({
      clients: 2,
      fields: [{ field: 'resources.domains', before: 5, after: 10 }],
    });
    expect(document.changes[2]).toMatchObject({ depends_on: ['hosting_plan:Pro'] });
    expect(document.unmanaged).toMatchObject({ hosting_plans: 1 });
  });

  it('Markdown: the plans in a section of their own, each change named, the delete counted', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('<details><summary>hosting plans: 1 to create (1 hosting plan), 1 to update');
    expect(r.stdout).not.toContain('<code>(hosting plans)</code>');
    expect(r.stdout).toContain('# hosting plan "Basic": the 2 clients on it keep their copied values');
    expect(r.stdout).toContain(`- hosting plan "Spare"\n- DELETE /hosting-plans/${planId(w, 'Spare')}\n`);
    expect(r.stdout).toContain('| :warning: **resources to delete** | **1** |');
    expect(r.stdout).toContain('(a hosting plan alone (no client is on it))');
    expect(r.stdout).toContain('Not in the manifest, left alone: 2 clients, 0 domains, 1 hosting plan.');
  });
});
