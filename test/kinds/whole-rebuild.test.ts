/**
 * The rooms' rebuilds of a whole-object write from a fresh read (kinds/domain/rebuild.ts,
 * kinds/hosting-plan/rebuild.ts), pure: only the change's keys are written, every other key is
 * carried as now read (own keys only: `__proto__` is a key like another), a key of the change
 * that moved to a third value is stale, and "landed" means every key of the change as written.
 */
import { describe, expect, test } from 'vitest';
import { rebuildSettings, settingsLanded } from '../../src/kinds/domain/rebuild.js';
import type { SettingChange } from '../../src/kinds/domain.js';
import { planLanded, rebuildPlanBody } from '../../src/kinds/hosting-plan/rebuild.js';
import type { PlanFieldChange } from '../../src/kinds/hosting-plan.js';

describe("a domain's settings rebuilt from a fresh read", () => {
  const force: SettingChange[] = [{ field: 'https.force', before: false, after: true }];

  test('only the written key changes; a key changed since the plan is carried', () => {
    const fresh = { security: { id_certificate: 7, lets_encrypt: true, is_prefer_https: false } };
    expect(rebuildSettings(force, fresh)).toEqual({
      body: { security: { id_certificate: 7, lets_encrypt: true, is_prefer_https: true } },
    });
    expect(settingsLanded(force, fresh)).toBe(false);
    expect(settingsLanded(force, { security: { is_prefer_https: true } })).toBe(true);
  });

  test('the written key moved to a third value, or unreadable now: stale', () => {
    const hsts: SettingChange[] = [
      { field: 'https.hsts', before: false, after: { max_age: 100, include_subdomains: false, preload: false } },
    ];
    const moved = { security: { is_hsts: true, hsts_max_age: 5, hsts_include: false, hsts_preload: false } };
    expect(rebuildSettings(hsts, moved)).toEqual({
      moved: [{ field: 'https.hsts', before: false, now: { max_age: 5, include_subdomains: false, preload: false } }],
    });
    expect(rebuildSettings(force, undefined)).toEqual({
      moved: [{ field: 'https.force', before: false, now: undefined }],
    });
    // Already as the manifest says (someone did it): written again, not stale.
    expect(rebuildSettings(force, { security: { is_prefer_https: true } })).toEqual({
      body: { security: { is_prefer_https: true } },
    });
  });
});

describe("a hosting plan's objects rebuilt from a fresh read", () => {
  const fields: PlanFieldChange[] = [{ field: 'resources.disk_space', before: 1024, after: 2048 }];

  test('only the written key changes; the rest as read now, `__proto__` a plain key', () => {
    const resources = JSON.parse('{"disk_space": 1024, "traffic": 9, "__proto__": {"polluted": 1}}') as Record<
      string,
      never
    >;
    const rebuilt = rebuildPlanBody(fields, { resources, php: { memory_limit: '1G' } });
    expect('body' in rebuilt).toBe(true);
    const body = 'body' in rebuilt ? rebuilt.body : {};
    expect(Object.keys(body)).toEqual(['resources']);
    expect(body.resources?.disk_space).toBe(2048);
    expect(body.resources?.traffic).toBe(9);
    expect(Object.hasOwn(body.resources ?? {}, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(planLanded(fields, { resources: { disk_space: '2048' } })).toBe(true);
    expect(planLanded(fields, { resources: { disk_space: 1024 } })).toBe(false);
  });

  test('the written key moved, or missing now: stale, with its value then and now', () => {
    expect(rebuildPlanBody(fields, { resources: { disk_space: 4096 } })).toEqual({
      moved: [{ field: 'resources.disk_space', before: 1024, now: 4096 }],
    });
    expect(rebuildPlanBody(fields, { php: {} })).toEqual({
      moved: [{ field: 'resources.disk_space', before: 1024, now: undefined }],
    });
    const proto: PlanFieldChange[] = [{ field: 'php.constructor', before: 'a', after: 'b' }];
    expect(rebuildPlanBody(proto, { php: {} })).toEqual({
      moved: [{ field: 'php.constructor', before: 'a', now: undefined }],
    });
  });
});
