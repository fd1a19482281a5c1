/**
 * A hosting plan's changes before the manifest gives plans: the requests, the plan document both
 * ways (an edited body refused), the fingerprint (an unmanaged key changed on the panel makes a
 * saved update stale), and the panel adapter carrying each out against the simulator.
 */
import { describe, expect, test } from 'vitest';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import {
  createHostingPlan,
  deleteHostingPlan,
  hostingPlanDetails,
  updateHostingPlan,
} from '../../src/kinds/hosting-plan.js';
import { readLive } from '../../src/panel/read.js';
import { staleReasons } from '../../src/plan/fingerprint.js';
import { requestFor } from '../../src/plan/requests.js';
import { type ChangeJson, changeToJson, readChanges } from '../../src/plan/saved-changes.js';
import type { Plan } from '../../src/plan/types.js';
import { client } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

const plan = (changes: Plan['changes']): Plan => ({
  changes,
  conflicts: [],
  unknowns: [],
  unmanaged: { clients: [], domains: [] },
});

describe('a hosting plan against the simulator', () => {
  test('created, updated with its objects sent whole, deleted; each read back', async () => {
    const simulator = await sim();
    const panel = client(simulator);
    const adapter = panelAdapter(panel, { settleTimeoutMs: 0, secrets: undefined, panelUrl: panel.baseUrl });

    const created = await adapter.apply(
      createHostingPlan('Pro', { resources: { domains: 20 }, permissions: { ssh: true } }),
    );
    let live = await readLive(panel, { domainNames: [] });
    const pro = live.hosting_plan.find((p) => p.name === 'Pro');
    expect(pro?.id).toBe(created.id);
    expect(pro?.objects?.resources).toMatchObject({ domains: 20 });

    const lacking: string[] = [];
    const update = updateHostingPlan(
      { resources: { domains: 30 }, php: { memory_limit: '512M' } },
      pro ?? { id: 0, name: '' },
      0,
      (keys) => lacking.push(...keys),
    );
    expect(lacking).toEqual([]);
    expect(update?.fields.map((f) => f.field)).toEqual(['resources.domains', 'php.memory_limit']);
    // Each object whole: every key as read, the managed ones changed.
    expect(Object.keys(update?.body.resources ?? {})).toEqual(Object.keys(pro?.objects?.resources ?? {}));
    expect(hostingPlanDetails(update ?? createHostingPlan('x', {})).after).toBe('; no client is on it');

    // A saved update goes stale when a key it sends back as read changed on the panel.
    const saved = plan(update === undefined ? [] : [update]);
    expect(staleReasons(saved, live)).toEqual([]);
    await panel.send('PUT', `/hosting-plans/${pro?.id}`, { resources: { ...pro?.objects?.resources, traffic: 1 } });
    live = await readLive(panel, { domainNames: [] });
    expect(staleReasons(saved, live)).toEqual([
      expect.stringContaining(`hosting plan "Pro"'s resources changed on the panel`) as unknown,
    ]);

    if (update !== undefined) await adapter.apply(update);
    live = await readLive(panel, { domainNames: [] });
    const after = live.hosting_plan.find((p) => p.name === 'Pro');
    expect(after?.objects?.resources).toMatchObject({ domains: 30 });
    expect(after?.objects?.php).toMatchObject({ memory_limit: '512M' });

    await adapter.apply(deleteHostingPlan(after ?? { id: 0, name: '' }, 'test'));
    live = await readLive(panel, { domainNames: [] });
    expect(live.hosting_plan.some((p) => p.name === 'Pro')).toBe(false);
  });
});

describe('the plan document', () => {
  const live = { id: 3, name: 'Business', objects: { resources: { domains: 5, traffic: -1 } } };
  const update = updateHostingPlan({ resources: { domains: 10 } }, live, 2, () => undefined);
  const changes = [
    createHostingPlan('Pro', { permissions: { ssh: true } }),
    ...(update ? [update] : []),
    deleteHostingPlan({ id: 4, name: 'Legacy' }, 'gone'),
  ];

  test('each change read back as it was written', () => {
    const problems: string[] = [];
    const json = JSON.parse(JSON.stringify(changes.map(changeToJson))) as ChangeJson[];
    expect(readChanges(json, problems)).toEqual(changes);
    expect(problems).toEqual([]);
    expect(requestFor(changes[0] ?? changes[1]!)).toEqual({
      method: 'POST',
      path: '/hosting-plans',
      body: { name: 'Pro', permissions: { ssh: true } },
    });
  });

  test('an update whose body was edited is refused', () => {
    const problems: string[] = [];
    const json = JSON.parse(JSON.stringify(changes.map(changeToJson))) as {
      request: { body: Record<string, Record<string, unknown>> };
    }[];
    json[1]!.request.body.resources!.domains = 99;
    readChanges(json as unknown as ChangeJson[], problems);
    expect(problems).toEqual([
      'changes[1].request.body: does not send resources.domains as the change says: the file was edited',
    ]);
  });
});
