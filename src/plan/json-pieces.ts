import { jsonText } from '../escape.js';
import { canonical } from '../util.js';

/**
 * JSON written piece by piece, for documents too big to hold whole (a plan of 100,000 creates is
 * a hundred megabytes of text): the same bytes as `jsonText(value, 2)` and `canonical(value)`,
 * made one list item at a time. A list given as an ItemList makes each item only when it is
 * written, so neither the document's tree nor its text is ever whole in memory. Pure.
 */

/** A list whose items are made one at a time as they are written (a plan's changes as the document holds them). */
export class ItemList<T> {
  constructor(
    private readonly from: readonly T[],
    private readonly make: (item: T) => unknown,
  ) {}

  get length(): number {
    return this.from.length;
  }

  *items(): Generator {
    for (const item of this.from) yield this.make(item);
  }
}

/** The items of a list, plain or made one at a time. */
function itemsOf(list: ItemList<unknown> | readonly unknown[]): Iterable<unknown> {
  return list instanceof ItemList ? list.items() : list;
}

function isList(value: unknown): value is ItemList<unknown> | readonly unknown[] {
  return value instanceof ItemList || Array.isArray(value);
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ItemList);
}

/** What JSON.stringify leaves out of an object (and writes as null in a list). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * `jsonText(value, 2)` in pieces, `indent` spaces in: lists and the objects around them are
 * written member by member, each list item whole (its own JSON.stringify). An object with a
 * `toJSON` is not expected here (the plan document holds plain data only).
 */
export function* indentedPieces(value: unknown, indent = ''): Generator<string> {
  const inner = `${indent}  `;
  if (isList(value)) {
    let first = true;
    for (const item of itemsOf(value)) {
      const text = skipped(item) ? 'null' : jsonText(item, 2).replaceAll('\n', `\n${inner}`);
      yield `${first ? '[' : ','}\n${inner}${text}`;
      first = false;
    }
    yield first ? '[]' : `\n${indent}]`;
    return;
  }
  if (isPlainObject(value)) {
    let first = true;
    for (const [key, member] of Object.entries(value)) {
      if (skipped(member)) continue;
      yield `${first ? '{' : ','}\n${inner}${jsonText(key)}: `;
      first = false;
      yield* indentedPieces(member, inner);
    }
    yield first ? '{}' : `\n${indent}}`;
    return;
  }
  yield jsonText(value);
}

/** `canonical(value)` (util.ts: keys sorted, no space) in pieces: lists item by item, each item whole. */
export function* canonicalPieces(value: unknown): Generator<string> {
  if (isList(value)) {
    let first = true;
    for (const item of itemsOf(value)) {
      yield `${first ? '[' : ','}${canonical(item)}`;
      first = false;
    }
    yield first ? '[]' : ']';
    return;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let first = true;
    for (const [key, member] of entries) {
      yield `${first ? '{' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* canonicalPieces(member);
    }
    yield first ? '{}' : '}';
    return;
  }
  yield canonical(value);
}

/** `sha256:<hex>` of the pieces' text (UTF-8), as sha256Hex of it whole: no piece splits a character. */
export function sha256OfPieces(pieces: Iterable<string>): string {
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const piece of batched(pieces)) hash.update(piece);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * How long a run of pieces is: about 16 K characters. A run is held while its pieces are made
 * (about ten bytes made and dropped for each character of a plan's text or JSON); a run of 64 K
 * outlived the young generation (1 MB, src/cli/heap.ts) and was copied into the old one, most of
 * every run: 10 MB of the 12 MB text of a plan of 20,000 new clients (docs/benchmarks.md).
 */
export const RUN_LENGTH = 16 * 1024;

/** Pieces joined into runs of about `size` characters: fewer writes, each still bounded. */
export function* batched(pieces: Iterable<string>, size = RUN_LENGTH): Generator<string> {
  let run = '';
  for (const piece of pieces) {
    run += piece;
    if (run.length >= size) {
      yield run;
      run = '';
    }
  }
  if (run !== '') yield run;
}
