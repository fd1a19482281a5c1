/**
 * The plan document written in pieces (plan/json-pieces.ts, plan/saved.ts planDocumentPieces):
 * byte for byte the text of the whole document (jsonText of its tree), digest included, made
 * one change at a time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/escape.js';
import { diff } from '../../src/plan/diff.js';
import { dependencyFacts, fingerprintOf, planFingerprint } from '../../src/plan/fingerprint.js';
import { canonicalPieces, indentedPieces, ItemList } from '../../src/plan/json-pieces.js';
import { type PlanSource, planDocument, planDocumentPieces } from '../../src/plan/saved.js';
import { canonical, sha256Hex } from '../../src/util.js';
import { desired, live } from '../helpers/builders.js';

const DESIRED = desired(
  {
    alice: { plan: 'Basic', email: 'a@example.com', domains: ['alice.example', 'shop.alice.example'] },
    'b\u2028ob': { domains: ['bücher.example', { name: 'gone.example', state: 'absent' }] },
    carol: { email: 'new@example.com', domains: ['carol.example'] },
    dan: { state: 'absent' },
  },
  { prune: { clients: false } },
);
const LIVE = live(
  [
    [7, 'carol', 1],
    [8, 'zed'],
    [9, 'dan'],
  ],
  [
    [70, 'other.example', 8],
    [71, 'gone.example', 7],
  ],
);

function source(showUnmanaged: boolean): PlanSource {
  const plan = diff(DESIRED, LIVE);
  return {
    plan: { ...plan, scope: { clients: ['*'] } },
    panelUrl: 'https://panel.example/api/v2',
    manifest: 'm\u202e.yaml',
    manifestSha256: 'a'.repeat(64),
    manifestParts: [{ file: 'a.yaml', sha256: 'b'.repeat(64) }],
    fingerprint: planFingerprint(plan, LIVE),
    notes: ['a note with \u0085 in it'],
    warnings: ['more than 0 creates'],
    showUnmanaged,
  };
}

describe('the plan document in pieces', () => {
  it('is the whole document text byte for byte, its digest included', () => {
    for (const showUnmanaged of [false, true]) {
      const s = source(showUnmanaged);
      expect(s.plan.changes.length).toBeGreaterThan(4);
      const pieces = [...planDocumentPieces(s)];
      const text = pieces.join('');
      expect(text).toBe(`${jsonText(planDocument(s), 2)}\n`);
      expect(pieces.length).toBeGreaterThan(0);
    }
  });

  it('makes each change only as it is written', () => {
    const made: number[] = [];
    const list = new ItemList([1, 2, 3], (n) => {
      made.push(n);
      return { n };
    });
    const pieces = indentedPieces({ list })[Symbol.iterator]();
    pieces.next(); // the opening
    pieces.next(); // the first item
    expect(made).toEqual([1]);
  });

  it('writes any JSON value as jsonText and canonical write it whole', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 5 }), (value, list) => {
        const doc = { value, list: new ItemList(list, (v) => v), nested: { list } };
        const whole = { value, list, nested: { list } };
        expect([...indentedPieces(doc)].join('')).toBe(jsonText(whole, 2));
        expect([...canonicalPieces(doc)].join('')).toBe(canonical(whole));
        expect([...indentedPieces(value)].join('')).toBe(jsonText(value, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('hashes the fingerprint fact by fact, as the JSON text of the sorted pairs', () => {
    const facts = dependencyFacts(diff(DESIRED, LIVE), LIVE);
    expect(facts.size).toBeGreaterThan(3);
    facts.set('a"\u2028', 'é');
    const whole = JSON.stringify([...facts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(fingerprintOf(facts)).toBe(`sha256:${sha256Hex(whole)}`);
  });
});
