/**
 * A domain's settings through the planner (diff): what a create's POST and an update's PUT carry
 * for each setting, what is never compared, the panel's odd spellings, the unknowns; and a
 * saved plan's round trip of them (changeToJson / readChanges).
 */
import { describe, expect, it } from 'vitest';
import {
  type DomainSettings,
  domainRequest,
  MAX_OBJECT_DEPTH,
  settingUnknownLine,
  type UpdateDomain,
} from '../../src/kinds/domain.js';
import { diff } from '../../src/plan/diff.js';
import { planFingerprint } from '../../src/plan/fingerprint.js';
import { type ChangeJson, changeToJson, readChanges } from '../../src/plan/saved-changes.js';
import type { Plan } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';

/** The panel's security and target of a domain, as the fixture shows them (HSTS on, forwarding off). */
const SECURITY = {
  id_certificate: 4,
  lets_encrypt: true,
  is_prefer_https: false,
  is_hsts: true,
  hsts_max_age: 600,
  hsts_include: false,
  hsts_preload: false,
};
const TARGET = { target: '/home/users/alice/www/shop.example/', is_forwarding: false, forwarding_type: 301 };
const RECORD = { php_version: '8.1', security: SECURITY, target: TARGET };

const HSTS = { max_age: 31536000, include_subdomains: true, preload: false };
const REDIRECT = { to: 'https://a.example/', status: 302 };

/** The plan for alice's shop.example with `settings`, against a panel holding `record` for it (or not holding it). */
function planFor(settings: DomainSettings | undefined, record?: Record<string, unknown> | null): Plan {
  const d = desired({
    alice: { domains: [{ name: 'shop.example', ...(settings === undefined ? {} : { settings }) }] },
  });
  return diff(d, live([[7, 'alice']], record === null ? [] : [[70, 'shop.example', 7, false, record ?? RECORD]]));
}

function onlyUpdate(plan: Plan): UpdateDomain {
  expect(plan.changes).toHaveLength(1);
  const change = plan.changes[0];
  if (change?.action !== 'update' || change.type !== 'domain') throw new Error('expected a domain update');
  return change;
}

describe('a new domain', () => {
  it('carries every setting the manifest gives in its POST', () => {
    const plan = planFor(
      { php_version: '8.3', 'https.lets_encrypt': true, 'https.force': true, 'https.hsts': HSTS, redirect: REDIRECT },
      null,
    );
    const [create] = plan.changes;
    if (create?.action !== 'create' || create.type !== 'domain') throw new Error('expected a domain create');
    expect(domainRequest(create).body).toEqual({
      domain: 'shop.example',
      id_user: 7,
      php_version: '8.3',
      security: {
        lets_encrypt: true,
        is_prefer_https: true,
        is_hsts: true,
        hsts_max_age: 31536000,
        hsts_include: true,
        hsts_preload: false,
      },
      target: { is_forwarding: true, target: 'https://a.example/', forwarding_type: 302 },
    });
    const off = planFor({ php_version: 'default', 'https.hsts': false, redirect: false }, null).changes[0];
    if (off?.action !== 'create' || off.type !== 'domain') throw new Error('expected a domain create');
    expect(domainRequest(off).body).toEqual({
      domain: 'shop.example',
      id_user: 7,
      php_version: '',
      security: { is_hsts: false },
      target: { is_forwarding: false },
    });
  });

  it('carries no settings key when the manifest gives none', () => {
    for (const settings of [undefined, {}]) {
      const [create] = planFor(settings, null).changes;
      if (create?.action !== 'create' || create.type !== 'domain') throw new Error('expected a domain create');
      expect(create.settings).toBeUndefined();
      expect(domainRequest(create).body).toEqual({ domain: 'shop.example', id_user: 7 });
    }
  });
});

describe('an existing domain', () => {
  it('sends php_version alone when only it differs', () => {
    const update = onlyUpdate(planFor({ php_version: '8.3', 'https.lets_encrypt': true }));
    expect(update.fields).toEqual([{ field: 'php_version', before: '8.1', after: '8.3' }]);
    expect(domainRequest(update)).toEqual({ method: 'PUT', path: '/domains/70', body: { php_version: '8.3' } });
  });

  it('sends security whole as read with only the managed key changed', () => {
    const update = onlyUpdate(planFor({ 'https.force': true }));
    expect(update.fields).toEqual([{ field: 'https.force', before: false, after: true }]);
    expect(update.body).toEqual({ security: { ...SECURITY, is_prefer_https: true } });
    expect(onlyUpdate(planFor({ 'https.lets_encrypt': false })).body).toEqual({
      security: { ...SECURITY, lets_encrypt: false },
    });
  });

  it('turns HSTS on with its age and flags, and off with the flag alone (the age as read)', () => {
    expect(onlyUpdate(planFor({ 'https.hsts': HSTS })).body).toEqual({
      security: { ...SECURITY, hsts_max_age: 31536000, hsts_include: true },
    });
    const off = onlyUpdate(planFor({ 'https.hsts': false }));
    expect(off.fields).toEqual([
      { field: 'https.hsts', before: { max_age: 600, include_subdomains: false, preload: false }, after: false },
    ]);
    expect(off.body).toEqual({ security: { ...SECURITY, is_hsts: false } });
  });

  it('forwards with target whole, and turns forwarding off keeping target and its type as read', () => {
    const on = onlyUpdate(planFor({ redirect: REDIRECT }));
    expect(on.body).toEqual({ target: { target: 'https://a.example/', is_forwarding: true, forwarding_type: 302 } });
    const forwarding = { target: 'https://old.example/', is_forwarding: true, forwarding_type: 302 };
    const off = onlyUpdate(planFor({ redirect: false }, { ...RECORD, target: forwarding }));
    expect(off.fields).toEqual([
      { field: 'redirect', before: { to: 'https://old.example/', status: 302 }, after: false },
    ]);
    expect(off.body).toEqual({ target: { ...forwarding, is_forwarding: false } });
  });

  it('sends each object the fields touch, once, in one PUT', () => {
    const update = onlyUpdate(
      planFor({ php_version: '7.4', 'https.force': true, 'https.hsts': false, redirect: REDIRECT }),
    );
    expect(update.fields.map((f) => f.field)).toEqual(['php_version', 'https.force', 'https.hsts', 'redirect']);
    expect(update.body).toEqual({
      php_version: '7.4',
      security: { ...SECURITY, is_prefer_https: true, is_hsts: false },
      target: { ...TARGET, target: 'https://a.example/', is_forwarding: true, forwarding_type: 302 },
    });
  });

  it('changes nothing when every managed setting is as the panel has it', () => {
    const same = planFor({
      php_version: '8.1',
      'https.lets_encrypt': true,
      'https.force': false,
      'https.hsts': { max_age: 600, include_subdomains: false, preload: false },
      redirect: false,
    });
    expect(same.changes).toEqual([]);
    expect(same.unknowns).toEqual([]);
  });

  it('never updates a domain that manages no setting, nor compares a key left out', () => {
    const odd = { php_version: '5.6', security: { ...SECURITY, is_prefer_https: true }, target: { foo: 1 } };
    expect(planFor(undefined, odd).changes).toEqual([]);
    expect(planFor({}, odd).changes).toEqual([]);
    expect(planFor(undefined, {}).unknowns).toEqual([]);
    // Only php_version is managed: the odd target is not even read.
    expect(onlyUpdate(planFor({ php_version: '8.3' }, odd)).body).toEqual({ php_version: '8.3' });
    expect(planFor({ php_version: '8.3' }, odd).unknowns).toEqual([]);
  });
});

describe('what the panel shows in its own spellings', () => {
  it('reads force_https for is_prefer_https, and sends both back in step', () => {
    const v1 = { id_certificate: 0, lets_encrypt: '1', force_https: '0', is_hsts: 0 };
    expect(
      planFor({ 'https.force': false, 'https.lets_encrypt': true, 'https.hsts': false }, { security: v1 }).changes,
    ).toEqual([]);
    expect(onlyUpdate(planFor({ 'https.force': true }, { security: v1 })).body).toEqual({
      security: { ...v1, force_https: true, is_prefer_https: true },
    });
  });

  it('reads booleans as 0/1, "0"/"1", "true"/"false" in any case', () => {
    for (const [yes, no] of [
      [1, 0],
      ['1', '0'],
      ['true', 'false'],
      [' TRUE ', 'False'],
    ] as const) {
      const security = { lets_encrypt: yes, is_prefer_https: no, is_hsts: no };
      const plan = planFor({ 'https.lets_encrypt': true, 'https.force': false, 'https.hsts': false }, { security });
      expect(plan.changes, String(yes)).toEqual([]);
      expect(plan.unknowns).toEqual([]);
    }
  });

  it('reads forwarding_type as "301", and numbers in strings', () => {
    const target = { target: 'https://a.example/', is_forwarding: '1', forwarding_type: '301' };
    expect(planFor({ redirect: { to: 'https://a.example/', status: 301 } }, { target }).changes).toEqual([]);
    const security = { is_hsts: true, hsts_max_age: '600', hsts_include: 0, hsts_preload: '0' };
    expect(
      planFor({ 'https.hsts': { max_age: 600, include_subdomains: false, preload: false } }, { security }).changes,
    ).toEqual([]);
  });

  it('reads php_version null, "" and blanks as the default, and a number as the version it prints', () => {
    for (const php_version of [null, '', '  '])
      expect(planFor({ php_version: 'default' }, { php_version }).changes, String(php_version)).toEqual([]);
    expect(onlyUpdate(planFor({ php_version: '8.3' }, { php_version: null })).fields).toEqual([
      { field: 'php_version', before: 'default', after: '8.3' },
    ]);
    expect(planFor({ php_version: '8.3' }, { php_version: 8.3 }).changes).toEqual([]);
    // JSON's 8.0 arrives as the number 8: it is 8.0, not a version "8" that never matches.
    expect(planFor({ php_version: '8.0' }, { php_version: 8 }).changes).toEqual([]);
    expect(planFor({ php_version: '8.0' }, { php_version: 8 }).unknowns).toEqual([]);
    // A negative number or true is no version: a note, not a change.
    for (const php_version of [-1, true, { v: '8.3' }])
      expect(planFor({ php_version: '8.3' }, { php_version }).unknowns, JSON.stringify(php_version)).toHaveLength(1);
  });
});

describe('a setting the panel does not show', () => {
  const ALL: DomainSettings = {
    php_version: '8.3',
    'https.lets_encrypt': true,
    'https.force': true,
    'https.hsts': HSTS,
    redirect: REDIRECT,
  };

  it('is a note for each managed key, never a change, when the record lacks the object', () => {
    for (const record of [
      {},
      { security: [], target: 'x' },
      { security: null, target: null },
      { php_version: undefined },
    ]) {
      const plan = planFor(ALL, record);
      expect(plan.changes, JSON.stringify(record)).toEqual([]);
      expect(plan.unknowns.map((u) => u.field)).toEqual([
        'php_version',
        'https.lets_encrypt',
        'https.force',
        'https.hsts',
        'redirect',
      ]);
      expect(plan.unknowns[0]).toEqual({
        client: 'alice',
        domain: 'shop.example',
        field: 'php_version',
        keys: ['php_version'],
      });
    }
  });

  it('is a note when the value cannot be read, and the rest still compared', () => {
    const plan = planFor(ALL, {
      php_version: '8.3',
      security: { lets_encrypt: 'yes', is_prefer_https: false, is_hsts: 'yes' },
      target: { target: 5, is_forwarding: true, forwarding_type: 302 },
    });
    expect(plan.unknowns.map((u) => u.field)).toEqual(['https.lets_encrypt', 'https.hsts', 'redirect']);
    const update = onlyUpdate(plan);
    expect(update.fields.map((f) => f.field)).toEqual(['https.force']);
    // The unreadable keys go back as they were.
    expect(update.body).toEqual({ security: { lets_encrypt: 'yes', is_prefer_https: true, is_hsts: 'yes' } });
  });

  it('is a note when HSTS is on without its age or flags, and the manifest gives an object', () => {
    for (const security of [
      { is_hsts: true },
      { is_hsts: true, hsts_max_age: null, hsts_include: false, hsts_preload: false },
      { is_hsts: true, hsts_max_age: 600, hsts_include: false },
    ]) {
      const plan = planFor({ 'https.hsts': HSTS }, { security });
      expect(plan.changes).toEqual([]);
      expect(plan.unknowns).toMatchObject([{ client: 'alice', domain: 'shop.example', field: 'https.hsts' }]);
    }
    expect(settingUnknownLine({ client: 'alice', domain: 'shop.example', field: 'https.hsts' })).toBe(
      'domain "shop.example" of client "alice": the panel\'s record (GET /domains) does not show all of ' +
        'security.is_hsts, hsts_max_age, hsts_include, hsts_preload readably: https.hsts not compared, not changed',
    );
  });

  it('does not carry an object nested past MAX_OBJECT_DEPTH (a note, not a stack overflow)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const plan = planFor({ 'https.force': true, php_version: '8.3' }, { ...RECORD, security: { ...SECURITY, deep } });
    expect(plan.unknowns.map((u) => u.field)).toEqual(['https.force']);
    expect(onlyUpdate(plan).body).toEqual({ php_version: '8.3' });
    expect(() => planFingerprint(plan, live())).not.toThrow();
    // Nested as deep as allowed: carried, and sent back whole.
    let allowed: unknown = 1;
    for (let i = 0; i < MAX_OBJECT_DEPTH - 1; i++) allowed = { a: allowed };
    const kept = onlyUpdate(planFor({ 'https.force': true }, { ...RECORD, security: { ...SECURITY, allowed } }));
    expect(kept.body).toEqual({ security: { ...SECURITY, allowed, is_prefer_https: true } });
  });

  it('sends a large security object back whole', () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`extra_${i}`, i]));
    const update = onlyUpdate(planFor({ 'https.force': true }, { ...RECORD, security: { ...SECURITY, ...many } }));
    expect(update.body).toEqual({ security: { ...SECURITY, ...many, is_prefer_https: true } });
  });
});

describe('a saved plan of domain settings', () => {
  const plan = diff(
    desired({
      alice: {
        domains: [
          { name: 'shop.example', settings: { php_version: '8.3', 'https.force': true, redirect: REDIRECT } },
          { name: 'new.example', settings: { 'https.hsts': HSTS, php_version: 'default' } },
        ],
      },
    }),
    live([[7, 'alice']], [[70, 'shop.example', 7, false, RECORD]]),
  );
  const documentOf = (): ChangeJson[] => JSON.parse(JSON.stringify(plan.changes.map(changeToJson))) as ChangeJson[];

  it('reads back the same changes', () => {
    expect(plan.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['update shop.example', 'create new.example']);
    const problems: string[] = [];
    expect(readChanges(documentOf(), problems)).toEqual(plan.changes);
    expect(problems).toEqual([]);
  });

  it('refuses a body edited to send another value, another key, or less', () => {
    const cases: [string, (body: Record<string, Record<string, unknown>>) => void, string][] = [
      ['value', (b) => (b.security!.is_prefer_https = false), 'does not send https.force as the change says'],
      ['php', (b) => (b.php_version = '5.6' as never), 'does not send php_version as the change says'],
      ['extra', (b) => (b.apache = { http_directives: 'x' }), 'sends "apache", which no field changes'],
      ['lacks', (b) => delete b.target, 'lacks "target"'],
    ];
    for (const [name, edit, message] of cases) {
      const changes = documentOf();
      edit((changes[0]!.request as { body: Record<string, Record<string, unknown>> }).body);
      const problems: string[] = [];
      expect(readChanges(changes, problems), name).toEqual([plan.changes[1]]);
      expect(problems.join('\n'), name).toContain(message);
    }
  });
});
