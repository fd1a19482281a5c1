/**
 * Hosting plans in the planner, through diff(): created before the clients on them (their id
 * known after apply), updated with each object whole, deleted only when no client is on them
 * (state: absent on a used plan is a conflict naming the clients; prune passes over it), and a
 * new plan and a client on it created in one apply against the simulator.
 */
import { describe, expect, it, test } from 'vitest';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import type { DesiredHostingPlan } from '../../src/manifest/types.js';
import { readLive } from '../../src/panel/read.js';
import { diff } from '../../src/plan/diff.js';
import { requestFor } from '../../src/plan/requests.js';
import { type ChangeJson, changeToJson, readChanges } from '../../src/plan/saved-changes.js';
import type { Desired } from '../../src/manifest/types.js';
import type { Live } from '../../src/panel/types.js';
import { desired, live } from '../helpers/builders.js';
import { client } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

const RESOURCES = { disk_space: 1024, traffic: -1, domains: 5 };

function withPlans(d: Desired, plans: DesiredHostingPlan[], prune: Partial<Desired['prune']> = {}): Desired {
  return { ...d, hostingPlans: plans, prune: { ...d.prune, ...prune } };
}

function panelWith(base: Live, plans: Live['hosting_plan']): Live {
  return { ...base, hosting_plan: plans };
}

const PLANS: Live['hosting_plan'] = [
  { id: 1, name: 'Basic', objects: { resources: RESOURCES, permissions: { ssh: false } } },
  { id: 2, name: 'Legacy', objects: { resources: RESOURCES } },
  { id: 3, name: 'Old Gold', objects: { resources: RESOURCES } },
];

describe('hosting plans in the plan', () => {
  it('creates a new plan before the client on it, whose id is known after apply', () => {
    const plan = diff(
      withPlans(desired({ alice: { plan: 'Pro' } }), [
        { name: 'Pro', state: 'present', wants: { resources: { domains: 20 } } },
      ]),
      panelWith(live(), PLANS),
    );
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.map((c) => c.id)).toEqual(['hosting_plan:Pro', 'client:alice']);
    const [create, alice] = plan.changes;
    expect(alice?.dependsOn).toEqual(['hosting_plan:Pro']);
    expect(create === undefined ? undefined : requestFor(create)).toEqual({
      method: 'POST',
      path: '/hosting-plans',
      body: { name: 'Pro', resources: { domains: 20 } },
    });
    expect(alice === undefined ? undefined : requestFor(alice).body).toEqual({
      username: 'alice',
      id_hosting_plan: null,
      send_login_credentials: false,
    });
    expect(alice === undefined ? undefined : requestFor(alice, new Map([['hosting_plan:Pro', 9]])).body).toEqual({
      username: 'alice',
      id_hosting_plan: 9,
      send_login_credentials: false,
    });
    // The plan document reads it back, the client still waiting for the plan.
    const problems: string[] = [];
    const json = JSON.parse(JSON.stringify(plan.changes.map(changeToJson))) as ChangeJson[];
    expect(readChanges(json, problems)).toEqual(plan.changes);
    expect(problems).toEqual([]);
  });

  it('updates only the objects that differ, each whole, saying how many clients are on the plan', () => {
    const plan = diff(
      withPlans(desired({}), [
        { name: 'Basic', state: 'present', wants: { resources: { domains: 10 }, permissions: { ssh: false } } },
      ]),
      panelWith(live([[7, 'alice', 1]]), PLANS),
    );
    expect(plan.changes).toMatchObject([
      {
        id: 'hosting_plan:Basic',
        action: 'update',
        fields: [{ field: 'resources.domains', before: 5, after: 10 }],
        body: { resources: { ...RESOURCES, domains: 10 } },
        clients: 1,
      },
    ]);
  });

  it('deletes an unused plan marked absent; refuses one clients are on, naming them; waits for a client deleted with it', () => {
    const absent = (name: string): DesiredHostingPlan => ({ name, state: 'absent', wants: {} });
    const panel = panelWith(
      live([
        [7, 'alice', 2],
        [8, 'bob', 2],
        [9, 'carol', null],
      ]),
      PLANS,
    );
    const unused = diff(withPlans(desired({}), [absent('Old Gold')]), panel);
    expect(unused.changes.map((c) => `${c.action} ${c.id}`)).toEqual(['delete hosting_plan:Old Gold']);
    expect(unused.conflicts).toEqual([]);

    const used = diff(withPlans(desired({}), [absent('Legacy')]), panel);
    expect(used.changes).toEqual([]);
    expect(used.conflicts).toEqual([{ hosting_plan: 'Legacy', clients: ['alice', 'bob'] }]);

    const leaving = diff(
      withPlans(desired({ alice: { state: 'absent' }, bob: { plan: 'Basic' } }), [absent('Legacy')]),
      panel,
    );
    expect(leaving.conflicts).toEqual([]);
    expect(leaving.changes.map((c) => [c.id, c.dependsOn])).toEqual([
      ['client:bob', []],
      ['client:alice', []],
      ['hosting_plan:Legacy', ['client:alice']],
    ]);
  });

  it('refuses to delete a plan when a client record does not say which plan it is on, pruned or absent', () => {
    const panel = panelWith(live([[7, 'alice', undefined]]), PLANS);
    const plan = diff(withPlans(desired({}), [{ name: 'Old Gold', state: 'absent', wants: {} }]), panel);
    expect(plan.conflicts).toEqual([{ hosting_plan: 'Old Gold', use_unknown: true }]);
    expect(plan.changes).toEqual([]);
    // Prune says so too, rather than deleting nothing in silence.
    const pruned = diff(
      withPlans(desired({}), [{ name: 'Basic', state: 'present', wants: {} }], { hostingPlans: true }),
      panel,
    );
    expect(pruned.conflicts).toEqual([
      { hosting_plan: 'Legacy', use_unknown: true },
      { hosting_plan: 'Old Gold', use_unknown: true },
    ]);
    expect(pruned.changes).toEqual([]);
  });

  it('prunes only unused, unlisted plans no client names and no keep entry matches; the rest stay, counted', () => {
    const panel = panelWith(live([[7, 'alice', 2]]), PLANS);
    const plan = diff(
      withPlans(desired({}), [{ name: 'Basic', state: 'present', wants: {} }], {
        hostingPlans: true,
        keepHostingPlans: [],
      }),
      panel,
    );
    expect(plan.changes.map((c) => `${c.action} ${c.id}`)).toEqual(['delete hosting_plan:Old Gold']);
    expect(plan.unmanaged.hostingPlans).toEqual(['Legacy']);
    const kept = diff(withPlans(desired({}), [], { hostingPlans: true, keepHostingPlans: ['Old *'] }), panel);
    expect(kept.changes.map((c) => c.id)).toEqual(['hosting_plan:Basic']);
  });

  it('refuses to manage a key the panel record lacks, and sends nothing for it', () => {
    const plan = diff(
      withPlans(desired({}), [{ name: 'Basic', state: 'present', wants: { php: { memory_limit: '512M' } } }]),
      panelWith(live(), PLANS),
    );
    expect(plan.conflicts).toEqual([{ hosting_plan: 'Basic', lacking: ['php'] }]);
    expect(plan.changes).toEqual([]);
  });
});

test('a new plan and a client on it, created in one apply against the simulator', async () => {
  const simulator = await sim();
  const panel = client(simulator);
  const before = await readLive(panel, { domainNames: [] });
  const plan = diff(
    withPlans(desired({ alice: { plan: 'Pro' } }), [
      { name: 'Pro', state: 'present', wants: { resources: { domains: 20 }, permissions: { ssh: true } } },
    ]),
    before,
  );
  const adapter = panelAdapter(panel, {
    settleTimeoutMs: 0,
    secrets: { intend: () => Promise.resolve(), record: () => Promise.resolve(), refused: () => Promise.resolve() },
    panelUrl: panel.baseUrl,
  });
  const ids: number[] = [];
  for (const change of plan.changes) ids.push((await adapter.apply(change)).id);
  const after = await readLive(panel, { domainNames: [] });
  const pro = after.hosting_plan.find((p) => p.name === 'Pro');
  expect(pro?.id).toBe(ids[0]);
  expect(after.client.find((c) => c.username === 'alice')?.idHostingPlan).toBe(pro?.id);
  // Planned again: nothing to do.
  expect(
    diff(
      withPlans(desired({ alice: { plan: 'Pro' } }), [
        { name: 'Pro', state: 'present', wants: { resources: { domains: 20 }, permissions: { ssh: true } } },
      ]),
      after,
    ).changes,
  ).toEqual([]);
});
