/**
 * Turning HSTS and forwarding off (a review's findings): the flag alone decides for `false` when
 * the details do not read, the unknown line names the keys that do not read, export warns of
 * such a setting, forwarding turned off names the URL the panel keeps, the keys the rows own
 * go back in the fixture's types, and a URL with white space or a control character is refused.
 */
import { describe, expect, it } from 'vitest';
import {
  type DomainSetting,
  type DomainSettings,
  domainRequest,
  exportedSettings,
  isHttpUrl,
  itemSettings,
  readSettings,
  settingRow,
  settingUnknownLine,
  type UpdateDomain,
  updateDomain,
} from '../../src/kinds/domain.js';
import { planFingerprint } from '../../src/plan/fingerprint.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';

const HSTS = { max_age: 31536000, include_subdomains: true, preload: false };
/** HSTS on, without hsts_preload. */
const HSTS_ON_PARTLY = { id_certificate: 4, is_hsts: true, hsts_max_age: 300, hsts_include: false };
/** Forwarding on, without forwarding_type. */
const FORWARDING_PARTLY = { target: 'https://x.example/', is_forwarding: true };

function planFor(settings: DomainSettings, record: Record<string, unknown>): Plan {
  const d = desired({ alice: { domains: [{ name: 'shop.example', settings }] } });
  return diff(d, live([[7, 'alice']], [[70, 'shop.example', 7, false, record]]));
}

function onlyUpdate(plan: Plan): UpdateDomain {
  expect(plan.changes).toHaveLength(1);
  const change = plan.changes[0];
  if (change?.action !== 'update' || change.type !== 'domain') throw new Error('expected a domain update');
  return change;
}

/** updateDomain on its own, with the unknowns and the keys it names. */
function update(settings: DomainSettings, record: Record<string, unknown>) {
  const unknowns: [DomainSetting, readonly string[]][] = [];
  const settingsRead = readSettings(record);
  const change = updateDomain(
    settings,
    { id: 70, name: 'shop.example', idUser: 7, isSystem: false, ...(settingsRead ? { settings: settingsRead } : {}) },
    { id: 7, username: 'alice' },
    (field, keys) => unknowns.push([field, keys]),
  );
  return { change, unknowns };
}

describe('HSTS or forwarding on, with details that do not read', () => {
  it('is turned off by `false`: the flag alone decides', () => {
    const hsts = onlyUpdate(planFor({ 'https.hsts': false }, { security: HSTS_ON_PARTLY }));
    expect(hsts.fields).toEqual([{ field: 'https.hsts', before: true, after: false }]);
    expect(hsts.body).toEqual({ security: { ...HSTS_ON_PARTLY, is_hsts: false } });
    const redirect = onlyUpdate(planFor({ redirect: false }, { target: FORWARDING_PARTLY }));
    expect(redirect.fields).toEqual([{ field: 'redirect', before: true, after: false }]);
    expect(redirect.body).toEqual({ target: { ...FORWARDING_PARTLY, is_forwarding: false } });
    // The saved plan's fact of the value before reads it the same way: not stale at once.
    const panel = live([[7, 'alice']], [[70, 'shop.example', 7, false, { security: HSTS_ON_PARTLY }]]);
    const plan = planFor({ 'https.hsts': false }, { security: HSTS_ON_PARTLY });
    expect(planFingerprint(plan, panel)).toBe(planFingerprint(plan, panel));
  });

  it('is the same as `false` when the flag reads off, whatever the details', () => {
    for (const record of [
      { security: { is_hsts: 0, hsts_max_age: 'x' } },
      { security: { is_hsts: 'false' } },
      { target: { target: '/home/www/', is_forwarding: '0' } },
    ]) {
      const plan = planFor({ 'https.hsts': false, redirect: false }, record);
      expect(plan.changes, JSON.stringify(record)).toEqual([]);
    }
  });

  it('is unknown against an object, naming the keys that do not read', () => {
    const hsts = update({ 'https.hsts': HSTS }, { security: HSTS_ON_PARTLY });
    expect(hsts.change).toBeUndefined();
    expect(hsts.unknowns).toEqual([['https.hsts', ['security.hsts_preload']]]);
    const redirect = update({ redirect: { to: 'https://y.example/', status: 301 } }, { target: FORWARDING_PARTLY });
    expect(redirect.change).toBeUndefined();
    expect(redirect.unknowns).toEqual([['redirect', ['target.forwarding_type']]]);
    // Through the planner: a note, no change.
    const plan = planFor({ 'https.hsts': HSTS }, { security: HSTS_ON_PARTLY });
    expect(plan.changes).toEqual([]);
    expect(plan.unknowns.map((u) => u.field)).toEqual(['https.hsts']);
  });

  it('names in the unknown line the keys that do not read, or the object the record lacks', () => {
    expect(
      settingUnknownLine({
        client: 'alice',
        domain: 'shop.example',
        field: 'redirect',
        keys: ['target.forwarding_type'],
      }),
    ).toBe(
      'domain "shop.example" of client "alice": the panel\'s record (GET /domains) shows no readable ' +
        'target.forwarding_type: redirect not compared, not changed',
    );
    expect(update({ 'https.force': true, redirect: false }, { php_version: '8.1' }).unknowns).toEqual([
      ['https.force', ['security']],
      ['redirect', ['target']],
    ]);
    expect(update({ 'https.hsts': false }, { security: { is_hsts: 'yes' } }).unknowns).toEqual([
      ['https.hsts', ['security.is_hsts']],
    ]);
    expect(update({ 'https.force': true }, { security: { force_https: 'on' } }).unknowns).toEqual([
      ['https.force', ['security.force_https']],
    ]);
  });

  it('is left out of an export with a warning, not silently', () => {
    const hsts = exportedSettings(readSettings({ security: HSTS_ON_PARTLY }));
    expect(hsts.settings).toEqual({});
    expect(hsts.unknown).not.toContain('https.hsts');
    expect(hsts.unwritable).toEqual([
      { field: 'https.hsts', value: true, reason: 'turned on, but security.hsts_preload does not read' },
    ]);
    const redirect = exportedSettings(readSettings({ target: { is_forwarding: 1 } }));
    expect(redirect.unwritable).toEqual([
      { field: 'redirect', value: true, reason: 'turned on, but target.target, target.forwarding_type do not read' },
    ]);
  });
});

describe('forwarding turned off', () => {
  const FORWARDING = { target: 'https://old.example/a"b', is_forwarding: true, forwarding_type: '302' };

  it("says in the change's reason that the panel keeps the URL as its target", () => {
    const change = onlyUpdate(planFor({ redirect: false }, { target: FORWARDING }));
    expect(change.reason).toBe(
      'differs from the manifest; forwarding is turned off, but the panel keeps "https://old.example/a\\"b" ' +
        'as its target.target (the document root it had is not restored)',
    );
    // Not when the target is a path, nor when forwarding is turned on or changed.
    const path = { ...FORWARDING, target: '/home/users/alice/www/', is_forwarding: true };
    expect(onlyUpdate(planFor({ redirect: false }, { target: path })).reason).toBe('differs from the manifest');
    const moved = planFor({ redirect: { to: 'https://new.example/', status: 301 } }, { target: FORWARDING });
    expect(onlyUpdate(moved).reason).toBe('differs from the manifest');
  });

  it('sends forwarding_type back as an integer when it reads as one, and HSTS details in their types', () => {
    expect(onlyUpdate(planFor({ redirect: false }, { target: FORWARDING })).body).toEqual({
      target: { target: 'https://old.example/a"b', is_forwarding: false, forwarding_type: 302 },
    });
    const security = { is_hsts: '1', hsts_max_age: ' 600 ', hsts_include: 'TRUE', hsts_preload: 'maybe' };
    expect(onlyUpdate(planFor({ 'https.hsts': false }, { security })).body).toEqual({
      security: { is_hsts: false, hsts_max_age: 600, hsts_include: true, hsts_preload: 'maybe' },
    });
    // A value that does not read stays as read.
    const odd = { ...FORWARDING, forwarding_type: 'permanent', is_forwarding: true, target: 'https://o.example/' };
    expect(onlyUpdate(planFor({ redirect: false }, { target: odd })).body).toEqual({
      target: { ...odd, is_forwarding: false },
    });
  });
});

describe('a redirect URL', () => {
  const BAD = [
    'https://a.example/\n',
    'https://a.example/\tx',
    'https://a .example/',
    'https://a.example/ ',
    'https://a.example/\u0000',
    'https://a.example/\u007f',
    'https://a.example/\u0085',
    'https://a.example/\u00a0',
    ' https://a.example/',
  ];

  it('holds no white space or control character', () => {
    for (const url of BAD) expect(isHttpUrl(url), JSON.stringify(url)).toBe(false);
    expect(isHttpUrl('https://a.example/path?q=1#f')).toBe(true);
    expect(isHttpUrl('HTTP://A.EXAMPLE')).toBe(true);
  });

  it('so a manifest refuses one, and export leaves a panel value out with its reason', () => {
    for (const to of BAD) {
      const { problems } = itemSettings(
        { name: 'shop.example', redirect: { to } },
        'domain "shop.example"',
        'shop.example',
      );
      expect(
        problems.some((p) => p.severity === 'error' && p.path.join('.') === 'redirect.to'),
        JSON.stringify(to),
      ).toBe(true);
      const exported = exportedSettings(
        readSettings({ target: { target: to, is_forwarding: true, forwarding_type: 301 } }),
      );
      expect(exported.settings).toEqual({});
      expect(exported.unwritable.map((u) => u.reason)).toEqual(['a target that is not an absolute http(s) URL']);
    }
  });
});

describe('the rows read their keys with the one flag reader', () => {
  it('reads flags as common.ts readFlag does', () => {
    const force = settingRow('https.force');
    for (const [value, expected] of [
      [' TRUE ', true],
      ['0', false],
      [1, true],
      ['yes', undefined],
      [2, undefined],
    ] as const)
      expect(force.read({ security: { is_prefer_https: value } }), String(value)).toBe(expected);
  });
});

it('sends a create with nothing else than the settings', () => {
  const plan = diff(
    desired({ alice: { domains: [{ name: 'new.example', settings: { redirect: false } }] } }),
    live([[7, 'alice']]),
  );
  const [create] = plan.changes;
  if (create?.type !== 'domain') throw new Error('expected a domain change');
  expect(domainRequest(create).body).toEqual({ domain: 'new.example', id_user: 7, target: { is_forwarding: false } });
});
