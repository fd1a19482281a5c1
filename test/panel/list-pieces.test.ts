/**
 * A small list answer of objects is read a piece at a time (src/panel/list-whole.ts
 * readWholeList): the elements up to a `},{` that ends one, after some characters (any number
 * here, down to 0: every `},{` a cut), parsed together. It must give what JSON.parse of the whole
 * body gives on every input: objects whose strings hold `},{`, `}`, `{` and `,`, nested objects
 * and arrays, whitespace anywhere, and edits of them (most of which are not JSON); and a record
 * `item` refuses as the whole read does, each element through `item` once.
 */
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { readWholeList } from '../../src/panel/list-whole.js';
import { oneEdit, utf8, wholeList as whole } from '../helpers/list-reference.js';

/** Strings that look like the cuts: `},{` and its parts, quotes and escapes. */
const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom('},{', '}', '{', ',', '"},{"', '\\"},{', '}},{{', '],[', '}, {', ''),
  fc
    .array(fc.constantFrom('},{', '}', '{', ',', '"', '\\', 'a', ' ', '\u00e9', ':'), { maxLength: 8 })
    .map((parts) => parts.join('')),
);
const leaf = fc.oneof(
  tricky,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 3 }),
  ),
}));
const record = fc.dictionary(tricky, value, { maxKeys: 5 });
const pad = fc.constantFrom('', ' ', '\n', '\r\n ', '\t');

/** Arrays of objects, compact as panels write them or indented, with whitespace around them. */
const compact = fc
  .tuple(pad, fc.array(record, { maxLength: 6 }), fc.constantFrom(0, 0, 1), pad)
  .map(([before, records, indent, after]) => before + JSON.stringify(records, null, indent) + after);

/** Where pieces are cut: after this many characters (0: at every `},{`). */
const pieceChars = fc.nat({ max: 40 });

/** The same with one edit: a character put in or taken out anywhere. */
const edited = oneEdit(compact, ['', '"', '\\', ',', '[', ']', '{', '}', ' ', ':', '},{', 'x', '1', '\uFEFF']);

describe('a list read a piece at a time, as JSON.parse of the whole reads it', () => {
  test('arrays of objects whose strings hold the cut', () => {
    fc.assert(
      fc.property(compact, pieceChars, (text, chars) => {
        const bytes = utf8(text);
        expect(readWholeList(bytes, (v) => v, chars)).toEqual(whole(bytes, (v) => v));
      }),
      { numRuns: 1500 },
    );
  });

  test('edited arrays (mostly not JSON)', () => {
    fc.assert(
      fc.property(edited, pieceChars, (text, chars) => {
        const bytes = utf8(text);
        expect(readWholeList(bytes, (v) => v, chars)).toEqual(whole(bytes, (v) => v));
      }),
      { numRuns: 2000 },
    );
  });

  test('a record `item` refuses: the first throw kept, the rest counted, as the whole read', () => {
    fc.assert(
      fc.property(fc.oneof(compact, edited), fc.nat({ max: 6 }), pieceChars, (text, bad, chars) => {
        const bytes = utf8(text);
        const calls: number[] = [];
        const item = (v: unknown, index: number): unknown => {
          calls.push(index);
          if (index === bad) throw new Error(`record ${index}`);
          return v;
        };
        const read = readWholeList(bytes, item, chars);
        const seen = calls.splice(0);
        expect(read).toEqual(whole(bytes, item));
        // Once each, in order (of a body that is not JSON, those before the piece that is not).
        expect(seen).toEqual(seen.map((_, i) => i));
        if (read.kind === 'items') expect(seen).toEqual(calls);
      }),
      { numRuns: 1000 },
    );
  });

  test('each element goes through `item` once, in order, when a piece does not parse', () => {
    for (const text of [
      '[{"a":1},{"b":2}, {"c":3}]',
      '[{"a":1},{"b":2},3]',
      '[{"a":1},{"b":2},{"c":3}]',
      '[{"a":1},{"b":"},{"},{"c":3}]',
    ]) {
      const seen: number[] = [];
      const read = readWholeList(
        utf8(text),
        (v, index) => {
          seen.push(index);
          return v;
        },
        0,
      );
      expect(read).toEqual(whole(utf8(text), (v) => v));
      expect(seen).toEqual([0, 1, 2]);
    }
  });

  test.each([
    ['[{"a":"},{"},{"b":1}]', [{ a: '},{' }, { b: 1 }]],
    ['[{"a":{"b":"},{"}},{"c":[{"d":1},{"e":2}]}]', [{ a: { b: '},{' } }, { c: [{ d: 1 }, { e: 2 }] }]],
    ['[{"a":1},{"b":"x},{\\"y"}] \n', [{ a: 1 }, { b: 'x},{"y' }]],
    ['[{"a":"},{","b":"},{"}]', [{ a: '},{', b: '},{' }]],
  ])('%s', (text, items) => {
    expect(readWholeList(utf8(text), (v) => v, 0)).toEqual({
      kind: 'items',
      items,
      count: items.length,
      error: undefined,
    });
  });

  test.each(['[{"a":1},{"b":2}', '[{"a":1},{"b":2}}]', '[{"a":1},{"b":2},]', '[{"a":1},,{"b":2}]', '[{"a":1}{"b":2}]'])(
    '%s is not JSON',
    (text) => {
      expect(readWholeList(utf8(text), (v) => v, 0)).toEqual({ kind: 'not-json' });
    },
  );
});

describe('a list whose strings hold `},{` before every cut', () => {
  test('costs a few parses in all, not a few a piece', () => {
    // Each element a 15 kB string ending in eight `},{`: every piece's first cuts fall in a string.
    const records = Array.from({ length: 100 }, (_, id) => ({ id, s: `${'z'.repeat(15_000)}${'},{'.repeat(8)}q` }));
    const bytes = utf8(JSON.stringify(records));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(readWholeList(bytes, (v) => v)).toEqual({ kind: 'items', items: records, count: 100, error: undefined });
      // The first piece's failed cuts (the body's budget), then the rest at once.
      expect(parse.mock.calls.length).toBeLessThanOrEqual(6);
    } finally {
      parse.mockRestore();
    }
  });
});
