/** Hosting plans in the simulator's state file: kept whole, and older files' plans filled in. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SimPlan } from '../../src/simulator/index.js';
import { NEW_PLAN } from '../../src/simulator/hosting-plans.js';
import { call, tempDir } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';
import { onDisk } from './on-disk.js';

const GIB = 1024 ** 3;

const plansOf = async (s: Awaited<ReturnType<typeof sim>>): Promise<SimPlan[]> =>
  (await call(s, 'GET', '/hosting-plans')).json as SimPlan[];

async function planNamed(s: Awaited<ReturnType<typeof sim>>, name: string): Promise<SimPlan> {
  const answer = await call(s, 'GET', `/hosting-plans/name/${encodeURIComponent(name)}`);
  expect(answer.status).toBe(200);
  return answer.json as SimPlan;
}

describe('state file', () => {
  test('plans persist whole: created, a section left partial, renamed, deleted; the id sequence goes on', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const first = await sim({ statePath });
    expect((await call(first, 'POST', '/hosting-plans', { body: { name: 'New' } })).status).toBe(201);
    expect((await call(first, 'PUT', '/hosting-plans/4', { body: { php: { memory_limit: '1G' } } })).status).toBe(200);
    expect((await call(first, 'PUT', '/hosting-plans/1', { body: { name: 'Starter' } })).status).toBe(200);
    expect((await call(first, 'DELETE', '/hosting-plans/2')).status).toBe(200);
    const live = await plansOf(first);
    // As a kill now would leave it (snapshot and log lines), and as a stop leaves it (compacted).
    expect((await onDisk(statePath)).plans).toEqual(live);
    await first.close();
    expect((await readFile(statePath, 'utf8')).trim().split('\n')).toHaveLength(1);
    const second = await sim({ statePath });
    expect(await plansOf(second)).toEqual(live);
    expect((await planNamed(second, 'New')).php).toEqual({ memory_limit: '1G' });
    expect((await call(second, 'GET', '/hosting-plans/name/Basic')).status).toBe(404);
    expect((await call(second, 'POST', '/hosting-plans', { body: { name: 'Next' } })).json).toEqual({ id: 5 });
  });

  test('an older file (plans with some resources, a log line of one) loads with the missing keys filled in', async () => {
    const statePath = join(await tempDir(), 'state.json');
    const old = (id: number, name: string, diskSpace: number): Record<string, unknown> => ({
      id,
      name,
      resources: { disk_space: diskSpace, traffic: -1, domains: 7, subdomains: -1 },
      permissions: { ssh: true, cronjobs: true, php: true },
      php: { memory_limit: '128M', max_execution_time: 60 },
      php_fpm: { max_children: 3 },
    });
    const snapshot = {
      format: 'panel-provision-simulator-state',
      version: 1,
      nextPlanId: 2,
      nextUserId: 2,
      nextDomainId: 1,
      admins: [{ id: 1, username: 'admin' }],
      plans: [old(1, 'Old', GIB)],
      clients: [],
      domains: [],
    };
    const line = { set: 'plans', record: old(2, 'Logged', 2 * GIB) };
    await writeFile(statePath, `${JSON.stringify(snapshot)}\n${JSON.stringify(line)}\n`);
    const s = await sim({ statePath });
    const plans = await plansOf(s);
    expect(plans.map((p) => p.name)).toEqual(['Old', 'Logged']);
    for (const plan of plans) {
      expect(plan.resources).toEqual({ ...NEW_PLAN.resources, disk_space: plan.id * GIB, traffic: -1, domains: 7 });
      // `cronjobs` is no key of the record: dropped.
      expect(plan.permissions).toEqual({ ...NEW_PLAN.permissions, ssh: true });
      expect(plan.php).toEqual({ ...NEW_PLAN.php, memory_limit: '128M', max_execution_time: 60 });
      expect(plan.php_fpm).toEqual({ ...NEW_PLAN.php_fpm, max_children: 3 });
    }
    // Written back whole, marked so: a partial section a PUT leaves stays partial after a restart.
    expect((await call(s, 'PUT', '/hosting-plans/1', { body: { php_fpm: { pm: 'static' } } })).status).toBe(200);
    await s.close();
    expect(JSON.parse(await readFile(statePath, 'utf8'))).toMatchObject({ plansWhole: true });
    expect((await onDisk(statePath)).plans[0]?.php_fpm).toEqual({ pm: 'static' });
  });
});
