/**
 * Hosting plans, from the review of issue 25: a saved plan that renames a plan (moves its clients,
 * deletes the old one) is not refused as edited; a client created on a plan the same run updates
 * waits for that update; a plan still in use when its delete comes is not deleted (nothing sent);
 * a create answered without an id is settled by the plan's name.
 */
import { describe, expect, test } from 'vitest';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import { deleteHostingPlan, createHostingPlan } from '../../src/kinds/hosting-plan.js';
import type { Desired, DesiredHostingPlan } from '../../src/manifest/types.js';
import { readLive } from '../../src/panel/read.js';
import { diff } from '../../src/plan/diff.js';
import { expectedFacts, fingerprintOf, planFingerprint, staleReasons } from '../../src/plan/fingerprint.js';
import type { Live } from '../../src/panel/types.js';
import { desired, live } from '../helpers/builders.js';
import { client } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

const withPlans = (d: Desired, plans: DesiredHostingPlan[]): Desired => ({ ...d, hostingPlans: plans });
const OBJECTS = { resources: { domains: 5, traffic: -1 } };
const panel = (clients: Parameters<typeof live>[0]): Live => ({
  ...live(clients),
  hosting_plan: [
    { id: 1, name: 'Basic', objects: OBJECTS },
    { id: 2, name: 'Old Plan', objects: OBJECTS },
  ],
});
const noSecrets = {
  intend: () => Promise.resolve(),
  record: () => Promise.resolve(),
  refused: () => Promise.resolve(),
};

describe('a saved plan that moves clients off a plan it deletes', () => {
  test('has the fingerprint of the panel it was made on, and goes stale when another client joins the plan', () => {
    const before = panel([[7, 'alice', 2]]);
    const plan = diff(
      withPlans(desired({ alice: { plan: 'New Plan' } }), [
        { name: 'New Plan', state: 'present', wants: {} },
        { name: 'Old Plan', state: 'absent', wants: {} },
      ]),
      before,
    );
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.map((c) => c.id)).toEqual(['hosting_plan:New Plan', 'client:alice', 'hosting_plan:Old Plan']);
    // What the saved file expects is what the panel was: the file is not "edited".
    expect(fingerprintOf(expectedFacts(plan))).toBe(planFingerprint(plan, before));
    expect(staleReasons(plan, before)).toEqual([]);
    const joined = panel([
      [7, 'alice', 2],
      [8, 'bob', 2],
    ]);
    expect(staleReasons(plan, joined)).toEqual([expect.stringContaining('now also "bob"') as unknown]);
  });
});

test('a client created on a plan the same run updates waits for the update', () => {
  const plan = diff(
    withPlans(desired({ dave: { plan: 'Basic' } }), [
      { name: 'Basic', state: 'present', wants: { resources: { domains: 10 } } },
    ]),
    panel([]),
  );
  expect(plan.changes.map((c) => [c.id, c.dependsOn])).toEqual([
    ['hosting_plan:Basic', []],
    ['client:dave', ['hosting_plan:Basic']],
  ]);
});

test('a plan a client is still on when its delete comes is not deleted: nothing sent', async () => {
  const simulator = await sim({
    seed: { hostingPlans: ['Basic', 'Old Plan'], clients: [{ username: 'alice', plan: 'Old Plan' }] },
  });
  const p = client(simulator);
  const now = await readLive(p, { domainNames: [] });
  const old = now.hosting_plan.find((x) => x.name === 'Old Plan');
  const adapter = panelAdapter(p, { settleTimeoutMs: 0, secrets: noSecrets, panelUrl: p.baseUrl });
  // As when the move off it failed earlier in the run.
  await expect(adapter.apply(deleteHostingPlan(old ?? { id: 0, name: '' }, 'test', ['alice']))).rejects.toThrow(
    /hosting plan "Old Plan" still has 1 client on it \("alice"\): nothing was sent to delete it/,
  );
  expect(simulator.requests.some((r) => r.method === 'DELETE')).toBe(false);
});

test('a create answered without an id is settled by the plan name', async () => {
  const simulator = await sim({
    seed: { hostingPlans: ['Basic', 'NP'] },
    // A panel that made the plan but answered without its id (here: it was there already).
    intercept: (req) =>
      req.method === 'POST' && req.path === '/hosting-plans' ? { status: 201, json: {} } : undefined,
  });
  const p = client(simulator);
  const adapter = panelAdapter(p, { settleTimeoutMs: 0, secrets: noSecrets, panelUrl: p.baseUrl });
  const applied = await adapter.apply(createHostingPlan('NP', {}));
  const np = (await readLive(p, { domainNames: [] })).hosting_plan.find((x) => x.name === 'NP');
  expect(applied).toEqual({ id: np?.id, note: 'the answer had no id: looked the plan up by name' });
});

test('a look-up by name that answers another plan is a contract error, never taken for it', async () => {
  const simulator = await sim({
    seed: { hostingPlans: ['Basic', 'NP'] },
    intercept: (req) =>
      req.method === 'POST' && req.path === '/hosting-plans'
        ? { status: 201, json: {} }
        : req.path.startsWith('/hosting-plans/name/')
          ? { status: 200, json: { id: 1, name: 'Basic' } }
          : undefined,
  });
  const p = client(simulator);
  const adapter = panelAdapter(p, { settleTimeoutMs: 0, secrets: noSecrets, panelUrl: p.baseUrl });
  await expect(adapter.apply(createHostingPlan('NP', {}))).rejects.toThrow(
    /hosting-plans\/name\/NP answered the record of hosting plan "Basic" \(id 1\), not the one asked for/,
  );
});
