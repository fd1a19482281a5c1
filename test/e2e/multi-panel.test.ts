/**
 * The multi-panel example as its README runs it: the built CLI, working in
 * examples/multi-panel, on each panel's directory of parts (its clients.yaml, and
 * hosting-plans.yaml, a relative link to the one shared catalogue). Each directory validates;
 * against a simulator, plan then apply creates the shared plans and the panel's clients on them,
 * and a second plan finds nothing to do; the link resolves to the shared file; two panels applied
 * side by side hold the same plans (GET /hosting-plans); and a change to the shared part is
 * planned on every panel.
 */
import { cp, lstat, mkdir, readFile, readdir, readlink, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { API_KEY } from '../helpers/key.js';
import { runBin, type Run } from '../helpers/process.js';
import { sim } from '../helpers/sim.js';
import { call, tempDir } from '../helpers/sim-http.js';

const DIR = join(import.meta.dirname, '..', '..', 'examples', 'multi-panel');
const SHARED = join(DIR, 'shared', 'hosting-plans.yaml');
const panels = (await readdir(join(DIR, 'panels'))).sort();

interface SharedPlan {
  name: string;
  [section: string]: unknown;
}
const catalogue = (parse(await readFile(SHARED, 'utf8')) as { hosting_plans: SharedPlan[] }).hosting_plans;

/** The panel's clients.yaml: each client's username and plan. */
async function clientsOf(panel: string): Promise<{ username: string; plan?: string }[]> {
  const part = parse(await readFile(join(DIR, 'panels', panel, 'clients.yaml'), 'utf8')) as {
    clients: { username: string; plan?: string }[];
  };
  return part.clients;
}

/** `provision <args>` as a process, in `cwd` (the example's directory unless given), against `simulator`. */
function provision(args: string[], simulator?: Simulator, cwd = DIR): Promise<Run> {
  const env: Record<string, string> =
    simulator === undefined ? {} : { PROVISION_URL: simulator.url, PROVISION_API_KEY: API_KEY };
  return runBin(args, env, { cwd });
}

/** GET /hosting-plans: the panel's plans by name. */
async function plansOn(simulator: Simulator): Promise<Map<string, Record<string, unknown>>> {
  const answer = await call(simulator, 'GET', '/hosting-plans');
  expect(answer.status).toBe(200);
  return new Map((answer.json as Record<string, unknown>[]).map((plan) => [String(plan.name), plan]));
}

/** Plan, apply and plan again one panel's directory on `simulator`: the plans and clients are there after. */
async function planApplyConverge(panel: string, simulator: Simulator, cwd = DIR): Promise<void> {
  const manifest = `panels/${panel}`;
  const planned = await provision(['plan', manifest, '--detailed-exitcode'], simulator, cwd);
  expect(planned.code, planned.stderr).toBe(2);
  for (const plan of catalogue) expect(planned.stdout).toContain(`hosting plan "${plan.name}"`);
  const secrets = join(await tempDir(), 'secrets.jsonl');
  const applied = await provision(['apply', manifest, '--auto-approve', '--secrets-file', secrets], simulator, cwd);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  expect(applied.stdout).toContain('0 failed, 0 skipped');
  const again = await provision(['plan', manifest, '--detailed-exitcode'], simulator, cwd);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toContain('No changes: the panel matches the manifest.');
}

describe('the multi-panel example, each panel a directory of parts', () => {
  it('has at least two panels, each with its clients part and the shared plans part', async () => {
    expect(panels.length).toBeGreaterThanOrEqual(2);
    expect(catalogue.length).toBeGreaterThanOrEqual(2);
    for (const panel of panels)
      expect((await readdir(join(DIR, 'panels', panel))).sort(), panel).toEqual(['clients.yaml', 'hosting-plans.yaml']);
  });

  it.each(panels)(
    'panels/%s: hosting-plans.yaml is a relative link that resolves to the shared part',
    async (panel) => {
      const link = join(DIR, 'panels', panel, 'hosting-plans.yaml');
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      // Relative, so it holds in every checkout wherever the repository lies.
      expect(await readlink(link)).toBe('../../shared/hosting-plans.yaml');
      expect(await realpath(link)).toBe(await realpath(SHARED));
    },
  );

  it.each(panels)('panels/%s: every plan its clients name is one the shared part defines', async (panel) => {
    const names = catalogue.map((plan) => plan.name);
    const named = (await clientsOf(panel)).flatMap((client) => (client.plan === undefined ? [] : [client.plan]));
    expect(named.length, panel).toBeGreaterThan(0);
    for (const plan of named) expect(names, `${panel}: ${plan}`).toContain(plan);
  });

  it.each(panels)('provision validate panels/%s: valid, both parts read', async (panel) => {
    const r = await provision(['validate', `panels/${panel}`]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`panels/${panel}: valid (2 parts, `);
  });

  it.each(panels)(
    'panels/%s against a simulator: plan, apply creates the shared plans and its clients on them, a second plan has no changes',
    async (panel) => {
      const simulator = await sim();
      await planApplyConverge(panel, simulator);
      const plans = await plansOn(simulator);
      for (const plan of catalogue) expect(plans.get(plan.name), plan.name).toMatchObject(withoutName(plan));
      const clients = (await call(simulator, 'GET', '/clients')).json as {
        username: string;
        id_hosting_plan?: number;
      }[];
      for (const wanted of await clientsOf(panel)) {
        const client = clients.find((c) => c.username === wanted.username);
        expect(client, wanted.username).toBeDefined();
        if (wanted.plan !== undefined) expect(client?.id_hosting_plan).toBe(plans.get(wanted.plan)?.id);
      }
    },
  );

  it('two panels applied side by side hold the same plans, as the shared part lists them', async () => {
    const simulators = await Promise.all(panels.map(() => sim()));
    await Promise.all(panels.map((panel, i) => planApplyConverge(panel, simulators[i]!)));
    const seen = await Promise.all(simulators.map(plansOn));
    for (const plan of catalogue) {
      const [first, ...others] = seen.map((plans) => without(plans.get(plan.name) ?? {}, 'id'));
      expect(first, plan.name).toMatchObject(withoutName(plan));
      for (const other of others) expect(other, plan.name).toEqual(first);
    }
  });

  it('a change to the shared part is planned on every panel', async () => {
    // A copy of the example (links kept links) as a checkout: its .git marks the repository a
    // part may link within. Its shared part changed once.
    const copy = await tempDir();
    await mkdir(join(copy, '.git'));
    for (const folder of ['panels', 'shared'])
      await cp(join(DIR, folder), join(copy, folder), { recursive: true, verbatimSymlinks: true });
    const simulators = await Promise.all(panels.map(() => sim()));
    await Promise.all(panels.map((panel, i) => planApplyConverge(panel, simulators[i]!, copy)));
    const [changed] = catalogue;
    const edited = { ...changed!, php: { ...(changed!.php as object), max_execution_time: 99 } };
    // Written through one panel's link: the file every panel reads.
    await writeFile(
      join(copy, 'panels', panels[0]!, 'hosting-plans.yaml'),
      stringify({ version: 1, hosting_plans: [edited, ...catalogue.slice(1)] }),
    );
    expect((await lstat(join(copy, 'panels', panels[0]!, 'hosting-plans.yaml'))).isSymbolicLink()).toBe(true);
    for (const [i, panel] of panels.entries()) {
      const r = await provision(['plan', `panels/${panel}`, '--detailed-exitcode'], simulators[i], copy);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stdout, panel).toContain(`~ hosting plan "${changed!.name}": php.max_execution_time:`);
      expect(r.stdout, panel).toContain('Plan: 1 to update (1 hosting plan).');
      // The clients already on it keep what the panel copied into them; the plan says how many.
      const on = (await clientsOf(panel)).filter((client) => client.plan === changed!.name).length;
      expect(r.stdout, panel).toContain(on === 0 ? 'no client is on it' : `the ${on} client`);
    }
  });
});

/** `record` without the key `key`. */
function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
}

/** A shared plan's sections, without its name (GET /hosting-plans has the name too, and an id). */
function withoutName(plan: SharedPlan): Record<string, unknown> {
  return without(plan, 'name');
}
