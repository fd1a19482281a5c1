/**
 * The place of a section item's value found without the path's steps (src/manifest/sections.ts
 * itemValueAt, what readSections hands a section as `itemAt`): wherever it answers, it must answer
 * what the general way (locateIn over the chunked read's PositionMap) gives for `[index, key]`,
 * over lists whose items are mappings, scalars, aliases, mappings with merges, reached through an
 * alias or not, with keys present, missing and repeated.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Found, locateIn } from '../../src/manifest/locate.js';
import { type PosEntry, type PosNode, PositionMap } from '../../src/manifest/positions.js';
import { itemValueAt } from '../../src/manifest/sections.js';

const KEYS = ['name', 'state', 'quota'] as const;

const at = fc.record({ line: fc.integer({ min: 1, max: 500 }), column: fc.integer({ min: 1, max: 80 }) });
const scalar: fc.Arbitrary<PosNode> = at;
const aliasOf = (target: fc.Arbitrary<PosNode>): fc.Arbitrary<PosNode> =>
  fc.tuple(at, target).map(([place, alias]) => ({ ...place, alias }));
const entry = (value: fc.Arbitrary<PosNode>): fc.Arbitrary<PosEntry> =>
  fc.tuple(fc.constantFrom(...KEYS), at, fc.option(value, { nil: undefined })).map(([key, place, v]) => ({
    key,
    ...place,
    value: v,
  }));
const plainMapping: fc.Arbitrary<PosNode> = fc
  .tuple(at, fc.array(entry(fc.oneof(scalar, aliasOf(scalar))), { maxLength: 4 }))
  .map(([place, entries]) => ({ ...place, entries }));
const mapping: fc.Arbitrary<PosNode> = fc.oneof(
  { weight: 3, arbitrary: plainMapping },
  fc
    .tuple(plainMapping, fc.array(fc.oneof(plainMapping, aliasOf(plainMapping)), { minLength: 1, maxLength: 2 }))
    .map(([map, merges]) => ({ ...map, merges })),
);
const item: fc.Arbitrary<PosNode> = fc.oneof({ weight: 4, arbitrary: mapping }, scalar, aliasOf(mapping));
const sequence: fc.Arbitrary<PosNode> = fc
  .tuple(at, fc.array(item, { maxLength: 5 }))
  .map(([place, items]) => ({ ...place, items }));
/** A list as a section is handed it: a sequence, an alias of one, a mapping; reached through an alias or not. */
const list: fc.Arbitrary<Found<PosNode>> = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: sequence }, aliasOf(sequence), plainMapping),
    fc.option(at, { nil: undefined }),
  )
  .map(([node, via]) => ({ node, via }));

describe('itemValueAt', () => {
  test('gives what locateIn gives for [index, key] wherever it answers', () => {
    fc.assert(
      fc.property(list, (found) => {
        const map = new PositionMap('m.yaml', '', { line: 1, column: 1 });
        const items = (found.node.alias ?? found.node).items ?? [];
        for (let index = 0; index <= items.length; index++)
          for (const key of KEYS) {
            const fast = itemValueAt('m.yaml', found, index, key);
            if (fast !== undefined) expect(fast).toEqual(locateIn(map, found, [index, key], false));
          }
      }),
      { numRuns: 2000 },
    );
  });

  test('answers for a plain list of plain mappings (the common case)', () => {
    const value = { line: 7, column: 15 };
    const found: Found<PosNode> = {
      node: {
        line: 5,
        column: 9,
        items: [{ line: 7, column: 9, entries: [{ key: 'name', line: 7, column: 9, value }] }],
      },
      via: undefined,
    };
    expect(itemValueAt('m.yaml', found, 0, 'name')).toEqual({ file: 'm.yaml', line: 7, column: 15 });
    expect(itemValueAt('m.yaml', found, 0, 'quota')).toBeUndefined();
    expect(itemValueAt('m.yaml', found, 1, 'name')).toBeUndefined();
  });
});
