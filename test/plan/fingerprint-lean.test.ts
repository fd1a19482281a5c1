/**
 * The fingerprint made without a map of its facts (plan/fingerprint.ts factTable, issue 30 7f)
 * is the fingerprint's definition, fingerprintOf over the map of every fact: for names whose
 * order a key's parts could change (a space, `!` or `"` sorting before the `"` that ends a key in
 * JSON, a colon inside a name, escapes, characters past the BMP, lone surrogates), for keys that
 * are prefixes of others' (`domain:` and `domain-parent:`, `Basic` and `Basic Plus`), and for
 * keys several changes share (a client's domains each name their owner). A saved plan made by
 * an older build must still apply: its fingerprint is pinned as that build made it (9941c66).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { FactTable } from '../../src/plan/fact-table.js';
import {
  dependencyFacts,
  expectedFacts,
  expectedFingerprint,
  fingerprintOf,
  planFingerprint,
} from '../../src/plan/fingerprint.js';
import { desired, live, type ClientSpec } from '../helpers/builders.js';

const NAMES = ['a', 'a b', 'a!', 'a"', 'a:b', 'a\\b', 'ab', 'ä', 'a\u0001', 'a\ud800', '𝒜', 'a-b', 'A'];
const PLAN_NAMES = ['Basic', 'Basic Plus', 'Basic!', 'Basic"x', 'Basic:x', 'Basic\\', 'Básic'];
const PLANS = PLAN_NAMES.map((name, i) => ({ id: i + 1, name }));
const DOMAINS = NAMES.flatMap((n) => [`${n}.example`, `s.${n}.example`, `${n}.example:x`]);

const manifest = fc
  .uniqueArray(
    fc.record({
      username: fc.constantFrom(...NAMES),
      absent: fc.boolean(),
      plan: fc.constantFrom(undefined, ...PLAN_NAMES),
      domains: fc.uniqueArray(fc.constantFrom(...DOMAINS), { maxLength: 4 }),
    }),
    { selector: (c) => c.username, maxLength: 8 },
  )
  .chain((clients) =>
    fc.boolean().map((prune) => {
      const specs: Record<string, ClientSpec> = {};
      const seen = new Set<string>();
      for (const c of clients)
        specs[c.username] = c.absent
          ? { state: 'absent' }
          : {
              ...(c.plan === undefined ? {} : { plan: c.plan }),
              domains: c.domains.filter((d) => !seen.has(d) && seen.add(d)),
            };
      return desired(specs, prune ? { prune: { clients: true, domains: true } } : {});
    }),
  );

/** A panel; `plans: false` keeps every hosting plan (a plan naming one the panel lacks is refused). */
const panel = (plans: boolean) =>
  fc
    .tuple(
      fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(undefined, 1, 2, 3)), {
        selector: ([u]) => u,
        maxLength: 8,
      }),
      fc.uniqueArray(fc.tuple(fc.constantFrom(...DOMAINS), fc.nat(8)), { selector: ([d]) => d, maxLength: 10 }),
      plans ? fc.subarray(PLANS) : fc.constant(PLANS),
    )
    .map(([clients, domains, plans]) =>
      live(
        clients.map(([u, plan], i) => [i + 1, u, plan, {}]),
        domains.map(([d, owner], i) => [100 + i, d, owner]),
        { plans },
      ),
    );

/** The fingerprint of `facts` as fingerprintOf hashes their map (a key's last value kept), and as a FactTable does. */
function both(facts: readonly (readonly [string, string, string])[]): [string, string] {
  const table = new FactTable();
  const map = new Map<string, string>();
  for (const [topic, subject, value] of facts) {
    table.add(topic, subject, value);
    map.set(`${topic}:${subject}`, value);
  }
  return [table.fingerprint(), fingerprintOf(map)];
}

const TOPICS = [
  'client',
  'domain',
  'domain-parent',
  'domain-record',
  'owner',
  'hosting-plan',
  'takes',
  'a',
  'a b',
  'ä',
];
const SUBJECTS = [...NAMES, ...PLAN_NAMES, '', ':', 'domain:a.example'];

describe('a FactTable', () => {
  it('hashes as fingerprintOf hashes the map of its facts: any topics, subjects, values, keys taken twice', () => {
    const fact = fc.tuple(
      fc.constantFrom(...TOPICS),
      fc.constantFrom(...SUBJECTS),
      fc.constantFrom('absent', 'id:1', 'id:2', '"x"'),
    );
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 60 }), (facts) => {
        const [lean, map] = both(facts);
        expect(lean).toBe(map);
      }),
      { numRuns: 500 },
    );
  });

  it('merges its parts in key order, of a key in several parts its last value', () => {
    // 40,000 facts: five parts of 8,192; the same keys come back in later parts with other values.
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const facts = Array.from(
      { length: 40_000 },
      () => [TOPICS[next(TOPICS.length)], `${SUBJECTS[next(SUBJECTS.length)]}${next(3000)}`, `id:${next(5)}`] as const,
    ) as (readonly [string, string, string])[];
    const [lean, map] = both(facts);
    expect(lean).toBe(map);
    expect(both([])).toEqual([fingerprintOf(new Map()), fingerprintOf(new Map())]);
  });

  it('refuses a topic with a colon, whose keys it could not order', () => {
    expect(() => {
      new FactTable().add('a:b', 'c', 'absent');
    }).toThrow(/topic/);
  });
});

describe('the fingerprint without a map of its facts', () => {
  it('is fingerprintOf the facts, for any names and panels', () => {
    fc.assert(
      fc.property(manifest, panel(false), panel(true), (wanted, before, after) => {
        const plan = diff(wanted, before);
        expect(planFingerprint(plan, before)).toBe(fingerprintOf(dependencyFacts(plan, before)));
        expect(planFingerprint(plan, after)).toBe(fingerprintOf(dependencyFacts(plan, after)));
        expect(expectedFingerprint(plan)).toBe(fingerprintOf(expectedFacts(plan)));
      }),
      { numRuns: 300 },
    );
  });

  it('is the value the build before it made, for a plan of such names', () => {
    const wanted = desired({
      a: { plan: 'Basic Plus', domains: ['a.example', 's.a.example', 'a b.example'] },
      'a b': { plan: 'Basic', domains: ['a!.example', 's.a!.example'] },
      'a"': { plan: 'Basic"x', domains: ['a:b.example:x'] },
      'a:b': { domains: ['𝒜.example', 'ä.example'] },
      ab: { state: 'absent' },
      ä: { plan: 'Básic', domains: ['a\\b.example', 'A.example'] },
    });
    const before = live(
      [
        [1, 'a b', 1, {}],
        [2, 'a:b', 2, {}],
        [3, 'ab', 3, {}],
        [4, 'A', 1, {}],
      ],
      [
        [100, 'a!.example', 1],
        [101, 'A.example', 4],
        [102, 'a-b.example', 2],
        [103, 'a:b.example:x', 2],
      ],
      { plans: PLANS },
    );
    const plan = diff(wanted, before);
    expect([...dependencyFacts(plan, before).keys()].length).toBe(18);
    // Made by 9941c66's fingerprintOf(dependencyFacts(plan, before)) and fingerprintOf(expectedFacts(plan)).
    expect(planFingerprint(plan, before)).toBe(
      'sha256:26bf38d455b4e13f811b4fa0d58dc1b20e61ed53ac6f359fecf8d0054c20823e',
    );
    expect(expectedFingerprint(plan)).toBe('sha256:26bf38d455b4e13f811b4fa0d58dc1b20e61ed53ac6f359fecf8d0054c20823e');
  });
});
