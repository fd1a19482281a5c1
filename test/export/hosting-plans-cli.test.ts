/**
 * Hosting plans through the CLI, over real HTTP against the simulator (its plans are whole
 * records): export --with hosting-plans writes each plan whole, validate takes it, plan of it
 * shows no changes; a value the manifest refuses is warned of and left out (exit 0); without
 * --with hosting-plans nothing changes; export --into after a plan was changed in the panel
 * (PUT /hosting-plans/{id}) brings the manifest back to a plan with no changes.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';
import { call } from '../helpers/sim-http.js';

const SEED: SimulatorSeed = {
  hostingPlans: ['Basic', { name: 'Gold: "#1" plan', php: { memory_limit: '2G' } }, 'Premium Plus'],
  clients: [{ username: 'alice', plan: 'Gold: "#1" plan', domains: ['alice.example'] }],
};

describe('provision export --with hosting-plans', () => {
  it('writes every plan whole before the clients; validate passes; plan shows no changes', async () => {
    const w = await workspace('', { seed: SEED });
    const exported = await run(['export', '--with', 'hosting-plans', '--out', w.file], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    const text = await readFile(w.file, 'utf8');
    // Sorted by name; the name with quotes, `#` and `: ` is quoted by the writer.
    expect(text.match(/^ {2}- name: .*$/gm)).toEqual([
      '  - name: Basic',
      `  - name: 'Gold: "#1" plan'`,
      '  - name: Premium Plus',
    ]);
    expect(text.indexOf('hosting_plans:')).toBeLessThan(text.indexOf('clients:'));
    expect(text).not.toMatch(/^prune:/m);
    const gold = text.slice(text.indexOf('Gold'), text.indexOf('Premium Plus'));
    expect(gold).toContain('\n    php:\n      memory_limit: "2G"\n      max_execution_time: 60\n');
    expect(gold).toContain('\n      max_spare_servers: null\n      status: null\n      status_ip_restriction: null\n');
    expect(gold).toContain('\n    permissions:\n      ftp: true\n');
    // Premium Plus has a PHP-FPM status page (true): a flag the manifest holds as read.
    expect(exported.stderr).not.toContain('warning');
    expect(text.slice(text.indexOf('Premium Plus'))).toMatch(/^ {6}status: true$/m);
    expect(exported.stderr).toContain('exported 3 hosting plans, 1 client and 1 domain of ');
    const validate = await run(['validate', w.file], w.env);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).not.toContain('warning');
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('without --with hosting-plans: no hosting_plans section', async () => {
    const w = await workspace('', { seed: SEED });
    const r = await run(['export'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('hosting_plans');
    expect(r.stderr).toContain('exported 1 client and 1 domain of ');
    const both = await run(['export', '--with', 'dns,hosting-plans'], w.env);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toContain('hosting_plans:');
    // The header says what each --with wrote, in the order of the kinds (dns, then hosting_plans).
    const header = both.stdout.split('\n').filter((line) => line.startsWith('# '));
    expect(header.slice(-2)).toEqual([
      '# dns: the records of the zones the panel marks custom; without prune, so plan removes no record.',
      '# hosting_plans: each plan whole, as the panel holds it; without prune, so plan deletes no plan.',
    ]);
    expect(r.stdout).not.toContain('# dns:');
  });

  it('export --into after a PUT in the panel brings the listed keys back; plan then shows no changes', async () => {
    const manifest = `version: 1
hosting_plans:
  # the shop's plans
  - name: 'Gold: "#1" plan'
    resources: {disk_space: 21474836480, domains: 10}   # 20 GiB
    permissions:
      ssh: true
    php:
      memory_limit: "2G"
  - name: Old
    state: absent
clients:
  - username: alice
    plan: 'Gold: "#1" plan'
    domains: [alice.example]
`;
    const w = await workspace(manifest, { seed: SEED });
    const before = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(before.code, before.stdout + before.stderr).toBe(0);
    const plans = await call(w.sim, 'GET', '/hosting-plans');
    const gold = (plans.json as { id: number; name: string; php: Record<string, unknown> }[]).find((p) =>
      p.name.startsWith('Gold'),
    );
    if (gold === undefined) throw new Error('no Gold plan in the simulator');
    const put = await call(w.sim, 'PUT', `/hosting-plans/${gold.id}`, {
      body: {
        resources: { disk_space: 32212254720, domains: 12, databases: 9 },
        permissions: { ssh: false },
        php: { ...gold.php, memory_limit: '3G', max_execution_time: 120 },
      },
    });
    expect(put.status, put.text).toBe(200);
    const drift = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(drift.code, drift.stdout).toBe(2);

    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(w.file, 'utf8')).toBe(
      manifest
        .replace('{disk_space: 21474836480, domains: 10}', '{disk_space: 32212254720, domains: 12}')
        .replace('ssh: true', 'ssh: false')
        .replace('"2G"', '"3G"'),
    );
    const after = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(after.stdout).toContain('No changes');
    expect(after.code, after.stdout + after.stderr).toBe(0);

    // --with hosting-plans adds the panel's other plans, whole, at the end of the list.
    const added = await run(['export', '--into', w.file, '--with', 'hosting-plans'], w.env);
    expect(added.code, added.stderr).toBe(0);
    const text = await readFile(w.file, 'utf8');
    expect(text.match(/^ {2}- name: .*$/gm)).toEqual([
      `  - name: 'Gold: "#1" plan'`,
      '  - name: Old',
      '  - name: Basic',
      '  - name: Premium Plus',
    ]);
    const validate = await run(['validate', w.file], w.env);
    expect(validate.code, validate.stderr).toBe(0);
    const last = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(last.code, last.stdout + last.stderr).toBe(0);
  });
});
