/**
 * The list scanner (src/panel/list-stream.ts) reads a list answer element by element; it must
 * agree with JSON.parse of the whole decoded body on every input, however the bytes are cut
 * into chunks: the same records for an array, "not JSON" exactly when JSON.parse refuses, and
 * the whole text (for the caller to read as before) when the body is not an array. The whole
 * read of a small answer (readWholeList) must give the same on every input, and readListAnswer
 * the same on either side of its bound.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readListAnswer } from '../../src/panel/body.js';
import { ListScanner, type ListRead } from '../../src/panel/list-stream.js';
import { readWholeList } from '../../src/panel/list-whole.js';
import { oneEdit, utf8, wholeList as whole } from '../helpers/list-reference.js';

/** The scanner's reading of `bytes` cut at `cuts` (offsets), each element through `item`. */
function scan(
  bytes: Uint8Array,
  cuts: readonly number[] = [],
  item: (value: unknown, index: number) => unknown = (value) => value,
): ListRead<unknown> {
  const scanner = new ListScanner(item);
  let from = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b)) {
    scanner.write(bytes.subarray(from, cut));
    from = cut;
  }
  scanner.write(bytes.subarray(from));
  return scanner.end();
}

const cuts = (length: number): fc.Arbitrary<number[]> =>
  fc.array(fc.nat({ max: Math.max(0, length) }), { maxLength: 12 });

/** JSON texts of arrays, with whitespace, unicode and escapes, and edits of them (most of which are not JSON). */
const arrays = fc
  .tuple(
    fc.array(fc.jsonValue(), { maxLength: 6 }),
    fc.constantFrom(0, 1, 2),
    fc.constantFrom('', ' ', '\n', '\t', '\r\n'),
  )
  .map(([items, indent, pad]) => pad + JSON.stringify(items, null, indent) + pad);
const edited = oneEdit(arrays, ['', '"', '\\', ',', '[', ']', '{', '}', ' ', ':', 'x', '\uFEFF', '\u00e9', '1']);

describe('the list scanner agrees with JSON.parse of the whole body', () => {
  test('on arrays of any JSON, cut anywhere', () => {
    fc.assert(
      fc.property(
        arrays.chain((text) => fc.tuple(fc.constant(utf8(text)), cuts(utf8(text).length))),
        ([bytes, at]) => {
          expect(scan(bytes, at)).toEqual(whole(bytes));
          expect(readWholeList(bytes, (value) => value)).toEqual(whole(bytes));
        },
      ),
      { numRuns: 400 },
    );
  });

  test('on edited arrays (mostly not JSON) and any text, cut anywhere', () => {
    fc.assert(
      fc.property(
        fc
          .oneof(edited, fc.string({ unit: 'binary' }), fc.json())
          .chain((text) => fc.tuple(fc.constant(utf8(text)), cuts(utf8(text).length))),
        ([bytes, at]) => {
          expect(scan(bytes, at)).toEqual(whole(bytes));
          expect(readWholeList(bytes, (value) => value)).toEqual(whole(bytes));
        },
      ),
      { numRuns: 1500 },
    );
  });

  test('on raw bytes: invalid UTF-8 and byte order marks, whole and cut short', () => {
    const bytes = fc.uint8Array({ maxLength: 24 }).map((tail) => Uint8Array.from([...tail]));
    const listy = fc
      .tuple(
        fc.constantFrom([], [0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef], [0x20, 0xef, 0xbb, 0xbf]),
        fc.constantFrom('[1,"a\u00e9"]', '[ ]', '[{"a":[1,{}]}]', '{"data":[]}', '[1,]'),
        fc.uint8Array({ maxLength: 3 }),
      )
      .map(([head, text, junk]) => Uint8Array.from([...head, ...utf8(text), ...junk]));
    fc.assert(
      fc.property(
        fc.oneof(bytes, listy).chain((b) => fc.tuple(fc.constant(b), cuts(b.length))),
        ([b, at]) => {
          expect(scan(b, at)).toEqual(whole(b));
          expect(readWholeList(b, (value) => value)).toEqual(whole(b));
        },
      ),
      { numRuns: 1500 },
    );
  });

  test.each([
    ['[]', { kind: 'items', items: [], count: 0, error: undefined }],
    [' [ \n ] ', { kind: 'items', items: [], count: 0, error: undefined }],
    ['\uFEFF[1]', { kind: 'items', items: [1], count: 1, error: undefined }],
    ['[1,]', { kind: 'not-json' }],
    ['[,1]', { kind: 'not-json' }],
    ['[1 2]', { kind: 'not-json' }],
    ['[1]]', { kind: 'not-json' }],
    ['[1}', { kind: 'not-json' }],
    ['[1', { kind: 'not-json' }],
    ['["\\"]",2]', { kind: 'items', items: ['"]', 2], count: 2, error: undefined }],
    ['[1,\uFEFF2]', { kind: 'not-json' }],
    ['{"data":[1]}', { kind: 'text', text: '{"data":[1]}' }],
    ['<html>', { kind: 'text', text: '<html>' }],
    ['', { kind: 'text', text: '' }],
  ])('%j', (text, expected) => {
    expect(scan(utf8(text))).toEqual(expected);
    expect(scan(utf8(text), [...utf8(text).keys()])).toEqual(expected);
    expect(readWholeList(utf8(text), (value) => value)).toEqual(expected);
  });
});

describe('records made one by one', () => {
  test('each element goes through `item` with its index; the first throw is kept, and the rest only checked', () => {
    const seen: number[] = [];
    const bad = new Error('record [1] is bad');
    const read = scan(utf8('[{"id":1},{"id":0},{"id":3}]'), [5, 13], (value, index) => {
      seen.push(index);
      if ((value as { id: number }).id === 0) throw bad;
      return index;
    });
    expect(read).toEqual({ kind: 'items', items: [], count: 3, error: { thrown: bad } });
    expect(seen).toEqual([0, 1]);
  });

  test('a body that is not JSON further on is "not JSON", not the bad record before it', () => {
    const read = scan(utf8('[{"id":0},{"id":'), [], () => {
      throw new Error('bad');
    });
    expect(read).toEqual({ kind: 'not-json' });
  });
});

describe('a small answer read whole (readWholeList) as the scanner reads it', () => {
  test('each element through `item` with its index; the first throw kept, the rest only counted', () => {
    const seen: number[] = [];
    const bad = new Error('record [1] is bad');
    const read = readWholeList(utf8('[{"id":1},{"id":0},{"id":3}]'), (value, index) => {
      seen.push(index);
      if ((value as { id: number }).id === 0) throw bad;
      return index;
    });
    expect(read).toEqual({ kind: 'items', items: [], count: 3, error: { thrown: bad } });
    expect(seen).toEqual([0, 1]);
  });

  test('a body that is not JSON further on is "not JSON", not the bad record before it', () => {
    const read = readWholeList(utf8('[{"id":0},{"id":'), () => {
      throw new Error('bad');
    });
    expect(read).toEqual({ kind: 'not-json' });
  });

  test('readListAnswer reads a declared small answer whole up to its bound, element by element past it, alike', async () => {
    const chunked = (bytes: Uint8Array, cutAt: readonly number[]): AsyncIterable<Uint8Array> => ({
      async *[Symbol.asyncIterator]() {
        let from = 0;
        for (const cut of [...cutAt, bytes.length]) {
          yield await Promise.resolve(bytes.subarray(from, cut));
          from = cut;
        }
      },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(arrays, edited).chain((text) => fc.tuple(fc.constant(utf8(text)), cuts(utf8(text).length))),
        fc.nat({ max: 64 }),
        async ([bytes, at], bound) => {
          const sorted = [...new Set(at)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
          const read = await readListAnswer(chunked(bytes, sorted), undefined, 1 << 20, 'GET /x', (v) => v, 0, bound);
          expect(read).toEqual(whole(bytes));
        },
      ),
      { numRuns: 500 },
    );
  });
});
