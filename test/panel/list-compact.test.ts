/**
 * A small list answer written compactly, `[{...},{...}]`, is read one element at a time
 * (src/panel/list-whole.ts readWholeList): each object parsed alone, cut at a `},{` that ends
 * it. It must give what JSON.parse of the whole body gives on every input: objects whose strings
 * hold `},{`, `}`, `{` and `,`, nested objects and arrays, whitespace around the brackets, and
 * edits of them (most of which are not JSON); and a record `item` refuses as the whole read does.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ListRead } from '../../src/panel/list-stream.js';
import { readWholeList } from '../../src/panel/list-whole.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What the whole read gives: JSON.parse of the text, each element through `item` (the first throw kept). */
function whole(bytes: Uint8Array, item: (value: unknown, index: number) => unknown): ListRead<unknown> {
  const text = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return /^[ \t\n\r]*\[/.test(text) ? { kind: 'not-json' } : { kind: 'text', text };
  }
  if (!Array.isArray(value)) return { kind: 'text', text };
  const items: unknown[] = [];
  for (let index = 0; index < value.length; index++) {
    try {
      items.push(item(value[index], index));
    } catch (thrown) {
      return { kind: 'items', items: [], count: value.length, error: { thrown } };
    }
  }
  return { kind: 'items', items, count: value.length, error: undefined };
}

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

/** Compact arrays of objects, as panels write them, with whitespace around the brackets only. */
const compact = fc
  .tuple(pad, fc.array(record, { maxLength: 6 }), pad)
  .map(([before, records, after]) => before + JSON.stringify(records) + after);

/** The same with one edit: a character put in or taken out anywhere. */
const edited = fc
  .tuple(
    compact,
    fc.nat(),
    fc.constantFrom('', '"', '\\', ',', '[', ']', '{', '}', ' ', ':', '},{', 'x', '1', '\uFEFF'),
    fc.nat({ max: 2 }),
  )
  .map(([text, at, insert, remove]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + insert + text.slice(i + remove);
  });

describe('a compact list read one element at a time, as JSON.parse of the whole reads it', () => {
  test('arrays of objects whose strings hold the cut', () => {
    fc.assert(
      fc.property(compact, (text) => {
        const bytes = utf8(text);
        expect(readWholeList(bytes, (v) => v)).toEqual(whole(bytes, (v) => v));
      }),
      { numRuns: 1500 },
    );
  });

  test('edited arrays (mostly not JSON)', () => {
    fc.assert(
      fc.property(edited, (text) => {
        const bytes = utf8(text);
        expect(readWholeList(bytes, (v) => v)).toEqual(whole(bytes, (v) => v));
      }),
      { numRuns: 2000 },
    );
  });

  test('a record `item` refuses: the first throw kept, the rest counted, as the whole read', () => {
    fc.assert(
      fc.property(fc.oneof(compact, edited), fc.nat({ max: 6 }), (text, bad) => {
        const bytes = utf8(text);
        const item = (v: unknown, index: number): unknown => {
          if (index === bad) throw new Error(`record ${index}`);
          return v;
        };
        expect(readWholeList(bytes, item)).toEqual(whole(bytes, item));
      }),
      { numRuns: 1000 },
    );
  });

  test('each element goes through `item` once, in order, when the list turns out not to be compact', () => {
    for (const text of ['[{"a":1},{"b":2}, {"c":3}]', '[{"a":1},{"b":2},3]', '[{"a":1},{"b":2},{"c":3}]']) {
      const seen: number[] = [];
      const read = readWholeList(utf8(text), (v, index) => {
        seen.push(index);
        return v;
      });
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
    expect(readWholeList(utf8(text), (v) => v)).toEqual({
      kind: 'items',
      items,
      count: items.length,
      error: undefined,
    });
  });

  test.each(['[{"a":1},{"b":2}', '[{"a":1},{"b":2}}]', '[{"a":1},{"b":2},]', '[{"a":1},,{"b":2}]', '[{"a":1}{"b":2}]'])(
    '%s is not JSON',
    (text) => {
      expect(readWholeList(utf8(text), (v) => v)).toEqual({ kind: 'not-json' });
    },
  );
});
