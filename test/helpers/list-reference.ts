/**
 * The reference the panel's list reads (src/panel/list-stream.ts, list-whole.ts) are held to:
 * JSON.parse of the whole body, and the bodies their property tests write.
 */
import fc from 'fast-check';
import type { ListRead } from '../../src/panel/list-stream.js';

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * What reading the whole body gives: the array (each element through `item`, the first throw
 * kept), or "not JSON" for a body that opens as an array, or (not an array) the text.
 */
export function wholeList(
  bytes: Uint8Array,
  item: (value: unknown, index: number) => unknown = (value) => value,
): ListRead<unknown> {
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

/** The texts `texts` gives, each with one edit: one of `inserts` put in anywhere, up to two characters taken out there. */
export function oneEdit(texts: fc.Arbitrary<string>, inserts: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(texts, fc.nat(), fc.constantFrom(...inserts), fc.nat({ max: 2 }))
    .map(([text, at, insert, remove]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(i + remove);
    });
}
