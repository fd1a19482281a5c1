/**
 * A saved plan's fingerprint over a domain's settings update (plan/fingerprint.ts staleReasons,
 * kinds/domain/facts.ts): stale when a managed value changed, or a key the update sends back
 * whole; not when anything else changed.
 */
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { planFingerprint, staleReasons } from '../../src/plan/fingerprint.js';
import { desired, live } from '../helpers/builders.js';

const SECURITY = {
  id_certificate: 4,
  lets_encrypt: true,
  is_prefer_https: false,
  is_hsts: false,
  hsts_max_age: 0,
  hsts_include: false,
  hsts_preload: false,
};
const TARGET = { target: '/home/users/alice/www/shop.example/', is_forwarding: false, forwarding_type: 301 };

/** The panel with shop.example's record (`shop`) and other.example's (`other`), both alice's. */
function panel(shop: Record<string, unknown>, other: Record<string, unknown> = { security: SECURITY }) {
  return live(
    [[7, 'alice']],
    [
      [70, 'shop.example', 7, false, shop],
      [71, 'other.example', 7, false, other],
    ],
  );
}

const BEFORE = panel({ php_version: '8.1', security: SECURITY, target: TARGET });
const PLAN = diff(
  desired({
    alice: {
      domains: [
        { name: 'shop.example', settings: { 'https.force': true, 'https.lets_encrypt': true } },
        'other.example',
      ],
    },
  }),
  BEFORE,
);

describe('the fingerprint of a domain settings update', () => {
  it('is the plan itself against the panel it was made from', () => {
    expect(PLAN.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['update shop.example']);
    expect(staleReasons(PLAN, BEFORE)).toEqual([]);
  });

  it('goes stale when the managed value changed on the panel', () => {
    const now = panel({ php_version: '8.1', security: { ...SECURITY, is_prefer_https: true }, target: TARGET });
    expect(planFingerprint(PLAN, now)).not.toBe(planFingerprint(PLAN, BEFORE));
    expect(staleReasons(PLAN, now)).toEqual([
      'domain "shop.example"\'s https.force is now true; the plan was made when it was false',
    ]);
    const unreadable = panel({ php_version: '8.1', security: { ...SECURITY, is_prefer_https: 'maybe' } });
    expect(staleReasons(PLAN, unreadable)[0]).toBe(
      'domain "shop.example"\'s https.force is now unknown; the plan was made when it was false',
    );
  });

  it('goes stale when a key the update sends back whole changed, managed or not', () => {
    for (const changed of [{ id_certificate: 9 }, { lets_encrypt: false }, { hsts_max_age: 600 }, { extra: 1 }]) {
      const now = panel({ php_version: '8.1', security: { ...SECURITY, ...changed }, target: TARGET });
      expect(staleReasons(PLAN, now), JSON.stringify(changed)).toEqual([
        'domain "shop.example"\'s security settings changed on the panel since the plan was made ' +
          '(keys the plan sends back as they were): it would undo that change',
      ]);
    }
    const less: Record<string, unknown> = { ...SECURITY };
    delete less.id_certificate;
    expect(staleReasons(PLAN, panel({ security: less }))).toHaveLength(1);
    expect(staleReasons(PLAN, panel({ php_version: '8.1', target: TARGET }))).toEqual([
      'domain "shop.example"\'s https.force is now unknown; the plan was made when it was false',
      'domain "shop.example"\'s record no longer shows its security settings, which the plan sends whole',
    ]);
  });

  it('stays when what changed is not sent: another object, another key, another domain', () => {
    for (const now of [
      panel({ php_version: '8.3', security: SECURITY, target: { ...TARGET, is_forwarding: true } }),
      panel({ php_version: '8.1', security: SECURITY }),
      panel(
        { php_version: '8.1', security: SECURITY, target: TARGET },
        { security: { ...SECURITY, id_certificate: 2 } },
      ),
      panel({ php_version: '8.1', security: SECURITY, target: TARGET }, {}),
    ]) {
      expect(staleReasons(PLAN, now)).toEqual([]);
      expect(planFingerprint(PLAN, now)).toBe(planFingerprint(PLAN, BEFORE));
    }
  });

  it('goes stale when the domain is gone or made again', () => {
    const gone = live([[7, 'alice']], []);
    expect(staleReasons(PLAN, gone)).toContain(
      'domain "shop.example", which the plan updates, is no longer on the panel',
    );
    const again = live([[7, 'alice']], [[99, 'shop.example', 7, false, { security: SECURITY }]]);
    expect(staleReasons(PLAN, again)).toContain(
      'domain "shop.example" was made again on the panel (id 99; the plan updates id 70)',
    );
  });
});
