/** The hosting plan's room, before it is wired into the plan: the values a manifest may give, the diff rule, who is on a plan. */
import { describe, expect, it } from 'vitest';
import { checkPlanValue, readPlanObjects, samePlanValue } from '../../src/kinds/hosting-plan/fields.js';
import { clientsOnPlan, newPlanBody, planDiff } from '../../src/kinds/hosting-plan/diff.js';

const live = readPlanObjects({
  id: 3,
  name: 'Business',
  resources: { disk_space: 1024, traffic: -1, domains: 5 },
  permissions: { ssh: 0, backup: true },
  php: { memory_limit: '256M', max_execution_time: '30' },
});

describe('values', () => {
  it.each([
    ['resources', 'disk_space', 10737418240, undefined],
    ['resources', 'traffic', -1, undefined],
    ['resources', 'domains', -2, 'error'],
    ['resources', 'domains', 1.5, 'error'],
    ['permissions', 'ssh', true, undefined],
    ['permissions', 'ssh', 1, 'error'],
    ['php', 'memory_limit', '512M', undefined],
    ['php', 'memory_limit', 512, 'error'],
    ['php', 'memory_limit', '512 MB', 'error'],
    ['php', 'max_execution_time', 60, undefined],
    ['php_fpm', 'status', null, undefined],
    ['php_fpm', 'status', true, undefined],
    ['php_fpm', 'pm', true, 'error'],
    ['php_fpm', 'max_children', [1], 'error'],
    ['resources', 'disk_spce', 1, 'warning'],
  ] as const)('%s.%s = %j: %s', (object, key, value, severity) => {
    expect(checkPlanValue(object, key, value, `"${object}.${key}"`)?.severity).toBe(severity);
  });

  it('says the closest known key of a typo', () => {
    expect(checkPlanValue('resources', 'disk_spce', 1, '"resources.disk_spce"')?.message).toContain('"disk_space"');
  });

  it("compares the panel's spellings of a value", () => {
    expect(samePlanValue(0, false)).toBe(true);
    expect(samePlanValue('1', true)).toBe(true);
    // Every spelling the engine reads a flag in (kinds/common.ts readFlag), as domain settings do.
    expect(samePlanValue('true', true)).toBe(true);
    expect(samePlanValue(' FALSE ', false)).toBe(true);
    expect(samePlanValue('false', true)).toBe(false);
    expect(samePlanValue('yes', true)).toBe(false);
    expect(samePlanValue('30', 30)).toBe(true);
    expect(samePlanValue('', 0)).toBe(false);
    expect(samePlanValue('256M', '256m')).toBe(false);
  });
});

describe('the diff rule', () => {
  it('sends only the objects that differ, each whole as read with the managed keys changed', () => {
    const d = planDiff({ resources: { disk_space: 2048, domains: 5 }, permissions: { ssh: false } }, live);
    expect(d.fields).toEqual([{ field: 'resources.disk_space', before: 1024, after: 2048 }]);
    expect(d.body).toEqual({ resources: { disk_space: 2048, traffic: -1, domains: 5 } });
    expect(d.lacking).toEqual([]);
  });

  it("names the managed keys and objects the panel's record lacks, and sends none of them", () => {
    const d = planDiff({ php: { sendmail_from: 'x@example.com' }, php_fpm: { pm: 'ondemand' } }, live);
    expect(d.lacking).toEqual(['php.sendmail_from', 'php_fpm']);
    expect(d.body).toEqual({});
  });

  it("makes a new plan's body of its name and the objects given", () => {
    expect(newPlanBody('Pro', { permissions: { ssh: true } })).toEqual({ name: 'Pro', permissions: { ssh: true } });
  });
});

describe('who is on a plan', () => {
  it('lists the clients on it, or null when a client does not say', () => {
    const clients = [
      { username: 'bob', idHostingPlan: 3 },
      { username: 'alice', idHostingPlan: 3 },
      { username: 'carol', idHostingPlan: null },
    ];
    expect(clientsOnPlan(3, clients)).toEqual(['alice', 'bob']);
    expect(clientsOnPlan(3, [...clients, { username: 'dan' }])).toBeNull();
  });
});
