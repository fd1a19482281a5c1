/**
 * The one check every list read makes (src/kinds/read.ts unique): a list is refused exactly when
 * two of its records share a key, whatever the order of the keys (a list in increasing order is
 * checked without a map, any other with one), and the refusal names the first five pairs.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { unique } from '../../src/kinds/read.js';

const WHERE = 'GET /api/v2/clients';

/** unique's verdict: undefined, or the refusal's message. */
function verdict(keys: readonly (string | number)[]): string | undefined {
  try {
    unique(keys, (k) => k, WHERE, 'id');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('unique', () => {
  test('refuses a list exactly when two keys are equal, sorted or not, numbers and strings mixed', () => {
    const keys = fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom('1', '2', 'a', 'b', '')), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(keys, fc.boolean(), (list, sorted) => {
        const ordered = sorted ? [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : list;
        const twice = new Set(ordered).size !== ordered.length;
        expect(verdict(ordered) !== undefined).toBe(twice);
      }),
      { numRuns: 2000 },
    );
  });

  test('names every pair of the first five, in list order, after the first one', () => {
    expect(verdict([1, 2, 3])).toBeUndefined();
    expect(verdict(['a', 'b', 'c'])).toBeUndefined();
    expect(verdict([3, 1, 2])).toBeUndefined();
    expect(verdict([1, 2, 3, 2])).toBe(`${WHERE}: records share one "id": [1] and [3] (2)`);
    expect(verdict([1, 1])).toBe(`${WHERE}: records share one "id": [0] and [1] (1)`);
    expect(verdict(['a', 'b', 'b'])).toBe(`${WHERE}: records share one "id": [1] and [2] ("b")`);
    expect(verdict([1, '1', 2])).toBeUndefined();
    expect(verdict([7, 7, 7, 7, 7, 7, 7, 7])).toBe(
      `${WHERE}: records share one "id": [0] and [1] (7), [0] and [2] (7), [0] and [3] (7), [0] and [4] (7), ` +
        '[0] and [5] (7), and 2 more',
    );
  });
});
