import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byFirstName, topmostAbove } from '../../src/manifest/topmost.js';

/** The former rule: of the client's domains whose name the name ends with after a dot, the shortest, the first listed on a tie. */
function reference<D extends { readonly name: string }>(name: string, domains: readonly D[]): D | undefined {
  return domains
    .filter((other) => name.endsWith(`.${other.name}`))
    .reduce<D | undefined>(
      (top, other) => (top === undefined || other.name.length < top.name.length ? other : top),
      undefined,
    );
}

/** Names of a few short labels from a small alphabet, so that suffixes meet often. */
const NAME = fc
  .array(fc.constantFrom('a', 'b', 'ab', 'example', 'x-1'), { minLength: 1, maxLength: 4 })
  .map((labels) => labels.join('.'));

describe('the topmost domain above a name', () => {
  it('is what comparing it with every domain of the client found', () => {
    fc.assert(
      fc.property(fc.array(NAME, { maxLength: 30 }), (names) => {
        const domains = names.map((name, at) => ({ name, at }));
        const byName = byFirstName(domains);
        for (const { name } of domains) expect(topmostAbove(name, byName)).toBe(reference(name, domains));
      }),
      { numRuns: 500 },
    );
  });

  it('is the highest of several, the first listed of a name listed twice, and none for a top domain', () => {
    const domains = [
      { name: 'shop.a.example', at: 0 },
      { name: 'a.example', at: 1 },
      { name: 'example', at: 2 },
      { name: 'example', at: 3 },
    ];
    const byName = byFirstName(domains);
    expect(topmostAbove('www.shop.a.example', byName)).toBe(domains[2]);
    expect(topmostAbove('example', byName)).toBeUndefined();
    expect(topmostAbove('a.examples', byName)).toBeUndefined();
  });
});
