/**
 * A saved plan whose hosting plan was deleted on the panel and created again under the same
 * name (so a new id): `apply plan.json` refuses it as stale (exit 3) and sends nothing, whether
 * the plan creates a client on that hosting plan or moves a client to it. Through the CLI,
 * against the simulator; the panel's API has no call that deletes a hosting plan, so the
 * simulator is stopped, its state file changed as an administrator's delete and re-create
 * would change the panel (the plan gets the next id), and started again on the same port.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URL } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { cliEnv, run } from '../helpers/cli.js';
import { startSim } from '../helpers/sim.js';

const SEED = {
  hostingPlans: ['Basic', 'Standard', 'Premium Plus'],
  clients: [{ username: 'bob', plan: 'Basic', email: 'bob@example.com', domains: ['bob.example'] }],
};

const CASES = [
  {
    what: 'a client it creates on the plan',
    manifest: `version: 1
clients:
  - username: alice
    plan: Standard
    domains: [alice.example]
  - username: bob
    plan: Basic
    email: bob@example.com
    domains: [bob.example]
`,
  },
  {
    what: 'a client it moves to the plan',
    manifest: `version: 1
clients:
  - username: bob
    plan: Standard
    email: bob@example.com
    domains: [bob.example]
`,
  },
] as const;

/** Deletes hosting plan `name` from a stopped simulator's state file and creates it again, last, with the next id. */
async function recreatePlan(statePath: string, name: string): Promise<void> {
  const state = JSON.parse(await readFile(statePath, 'utf8')) as {
    nextPlanId: number;
    plans: { id: number; name: string }[];
  };
  const plan = state.plans.find((p) => p.name === name);
  if (plan === undefined) throw new Error(`no hosting plan ${name} in ${statePath}`);
  state.plans = [...state.plans.filter((p) => p !== plan), { ...plan, id: state.nextPlanId }];
  state.nextPlanId += 1;
  await writeFile(statePath, `${JSON.stringify(state)}\n`);
}

it.each(CASES)(
  'a saved plan with $what is stale once that hosting plan is deleted and created again (new id): exit 3, nothing sent',
  async ({ manifest }) => {
    const dir = await mkdtemp(join(tmpdir(), 'provision-stale-plan-'));
    const statePath = join(dir, 'panel-state.json');
    const file = join(dir, 'manifest.yaml');
    const planFile = join(dir, 'plan.json');
    const secrets = join(dir, 'secrets.jsonl');
    let running: Simulator | undefined;
    onTestFinished(async () => {
      await running?.close();
      await rm(dir, { recursive: true, force: true });
    });
    await writeFile(file, manifest);

    running = await startSim({ statePath, seed: SEED });
    const first = running;
    const env = { ...cliEnv(first), PROVISION_SECRETS_FILE: secrets };
    const before = first.state.planNamed('Standard')?.id;
    const planned = await run(['plan', file, '--out', planFile, '--detailed-exitcode'], env);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain('Standard');
    await first.close();
    running = undefined;

    await recreatePlan(statePath, 'Standard');
    running = await startSim({ statePath, port: Number(new URL(first.url).port) });
    const second = running;
    expect(second.url).toBe(first.url);
    const after = second.state.planNamed('Standard')?.id;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);

    const applied = await run(['apply', planFile], env);
    expect(applied.code, applied.stderr).toBe(3);
    expect(applied.stderr).toMatch(/^error: stale plan: .*: nothing was sent$/m);
    expect(applied.stderr).toContain(`hosting plan "Standard" now has id ${after}; the plan says ${before}`);
    expect(second.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(second.state.clientNamed('bob')?.id_hosting_plan).toBe(second.state.planNamed('Basic')?.id);
    expect(second.state.clientNamed('alice')).toBeUndefined();
  },
);
