import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { dependencyFacts, planFingerprint, staleReasons } from '../../src/plan/fingerprint.js';
import { desired, live, PLANS } from '../helpers/builders.js';

const DESIRED = desired({
  alice: {
    plan: 'Basic',
    email: 'a@example.com',
    domains: ['alice.example', 'shop.alice.example'],
  },
  carol: { domains: ['carol.example'] },
});
// carol exists (id 7); alice does not.
const LIVE = live(
  [
    [7, 'carol', 1],
    [8, 'zed'],
  ],
  [[70, 'other.example', 8]],
);

describe('fingerprint: exactly what the plan depends on', () => {
  const plan = diff(DESIRED, LIVE);
  const base = planFingerprint(plan, LIVE);

  it('lists the facts', () => {
    expect(Object.fromEntries(dependencyFacts(plan, LIVE))).toEqual({
      'client:alice': 'absent',
      'hosting-plan:Basic': 'id:1',
      'domain:alice.example': 'absent',
      'domain:shop.alice.example': 'absent',
      'domain:carol.example': 'absent',
      'owner:carol': 'id:7',
    });
    expect(staleReasons(plan, LIVE)).toEqual([]);
  });

  it('ignores accounts the plan neither creates nor references', () => {
    const more = live(
      [
        [7, 'carol', 1],
        [8, 'zed'],
        [9, 'yves'],
      ],
      [
        [70, 'other.example', 8],
        [71, 'new.example', 9],
      ],
    );
    expect(planFingerprint(plan, more)).toBe(base);
  });

  it('changes, with a reason each, when what it creates appears, a referenced client or plan changes', () => {
    const changed = live(
      [
        [7, 'bob'],
        [9, 'carol'],
        [10, 'alice'],
      ],
      [[80, 'shop.alice.example', 10]],
      { plans: PLANS.map((p) => (p.name === 'Basic' ? { ...p, id: 11 } : p)) },
    );
    expect(planFingerprint(plan, changed)).not.toBe(base);
    expect(staleReasons(plan, changed)).toEqual([
      'client "alice" now exists on the panel (id 10); the plan would create it',
      'hosting plan "Basic" now has id 11; the plan says 1',
      'domain "shop.alice.example" now exists on the panel (client "alice"); the plan would create it',
      'client "carol" now has id 9; the plan says 7',
    ]);
    const gone = live([], [], { plans: [] });
    expect(staleReasons(plan, gone)).toEqual([
      'hosting plan "Basic" is no longer on the panel',
      'client "carol" (id 7), which the plan adds domains to, is no longer on the panel',
    ]);
  });
});
