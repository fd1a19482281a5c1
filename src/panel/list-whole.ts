/**
 * A small list answer read whole (body.ts readListAnswer, up to WHOLE_LIST_BYTES), with the
 * answer list-stream.ts's ListScanner gives for the same bytes: its elements through `item` (the
 * first throw kept, the rest only counted), "not JSON" for a body that starts as an array but is
 * not JSON, and the text of any other body.
 */
import { isSpace, type ListRead } from './list-stream.js';

/**
 * A list answer no larger than this is read whole (readWholeList): one JSON.parse of the whole
 * body costs a tenth of cutting it element by element in JavaScript (1.2 MB, 5,000 records: about
 * 10 ms against 40 to 60 ms), and what it holds at once, the body and its parsed array, is a few
 * times this bound. A larger one is read element by element (ListScanner), never held whole.
 */
export const WHOLE_LIST_BYTES = 4 * 1024 * 1024;

/**
 * A whole body read as ListScanner reads it in pieces, with the same answer on every input
 * (test/panel/list-stream.test.ts and list-compact.test.ts check them against each other and
 * JSON.parse). A compact list of objects is parsed an element at a time (readCompactObjects);
 * any other body, or the rest of one that turns out not to be compact, in one JSON.parse. Each
 * element goes through `item` once, in order, up to the first that throws.
 */
export function readWholeList<T>(bytes: Uint8Array, item: (value: unknown, index: number) => T): ListRead<T> {
  // As the scanner decodes: a byte order mark at the start dropped, a later U+FEFF kept (JSON.parse refuses it).
  const text = new TextDecoder().decode(bytes);
  if (!LIST_START.test(text)) return { kind: 'text', text };
  const items: T[] = [];
  const compact = readCompactObjects(text, item, items);
  if (compact !== undefined) return compact;
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    return { kind: 'not-json' };
  }
  // The elements the compact read handed to `item` already are the whole parse's first ones.
  const all = values as unknown[];
  for (let index = items.length; index < all.length; index++) {
    try {
      items.push(item(all[index], index));
    } catch (thrown) {
      return { kind: 'items', items: [], count: all.length, error: { thrown } };
    }
  }
  return { kind: 'items', items, count: all.length, error: undefined };
}

/** A body that starts as an array: whitespace (JSON's four), then `[`. */
const LIST_START = /^[ \t\n\r]*\[/;

const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

/** Cuts tried per element (a `},{` inside a string) before the rest is parsed at once instead. */
const CUTS_PER_ELEMENT = 8;

/**
 * A list written compactly as panels write it, `[{...},{...}]` (whitespace only around the
 * brackets), read one element at a time: each element is parsed on its own (JSON.parse of a
 * slice of the text, which V8 does not copy) and handed to `item` at once (its answer pushed to
 * `items`), so that its parsed object dies young. Parsed whole, the 5,000 objects of GET /emails
 * (1.2 MB) all lived until the last was made: the young generation copied them out, and a full
 * collection followed (docs/benchmarks.md, "Mailboxes (issue 32)").
 *
 * An element ends at a `}` followed by `,{`: the first such `}` at which the slice parses (a
 * `},{` inside a string leaves the element's text unfinished, which JSON.parse refuses; a JSON
 * object is never the beginning of a longer one). Every element an object parsed alone,
 * separated by single commas, inside `[` and `]`: that is a JSON array, and its elements are what
 * JSON.parse of the whole gives.
 *
 * Undefined when the body turns out not to be such a list (before `item` threw): the elements
 * read so far are in `items`, and the caller reads the rest from a parse of the whole.
 */
function readCompactObjects<T>(
  text: string,
  item: (value: unknown, index: number) => T,
  items: T[],
): ListRead<T> | undefined {
  let close = text.length - 1;
  while (close > 0 && isSpace(text.charCodeAt(close))) close--;
  // LIST_START matched: the first `[` is the array's.
  let start = text.indexOf('[') + 1;
  if (text.charCodeAt(close) !== CLOSE_SQUARE || start >= close) return undefined;
  let count = 0;
  let error: { readonly thrown: unknown } | undefined;
  while (start < close) {
    const value = text.charCodeAt(start) === OPEN_CURLY ? element(text, start, close) : undefined;
    if (value === undefined) return error === undefined ? undefined : refusedWhole(text, error);
    start = value.next;
    if (error === undefined) {
      try {
        items.push(item(value.value, count));
      } catch (thrown) {
        error = { thrown };
      }
    }
    count++;
  }
  return error === undefined
    ? { kind: 'items', items, count, error: undefined }
    : { kind: 'items', items: [], count, error };
}

/**
 * The object that starts at `start` (a `{`) of a compact list whose `]` stands at `close`, and
 * where the next element starts (past the `,`; `close + 1` after the last); undefined when none
 * is found so.
 */
function element(
  text: string,
  start: number,
  close: number,
): { readonly value: unknown; readonly next: number } | undefined {
  let end = text.indexOf('},{', start);
  for (let cut = 0; cut <= CUTS_PER_ELEMENT; cut++) {
    // The last element ends at the `}` before the `]`.
    const last = end === -1 || end >= close;
    const stop = last ? close : end + 1;
    if (last && text.charCodeAt(close - 1) !== CLOSE_CURLY) return undefined;
    try {
      return { value: JSON.parse(text.slice(start, stop)), next: stop + 1 };
    } catch {
      if (last) return undefined;
      end = text.indexOf('},{', end + 1);
    }
  }
  return undefined;
}

/** A list whose element `item` refused, read on not compactly: "not JSON", or the refusal with the count. */
function refusedWhole<T>(text: string, error: { readonly thrown: unknown }): ListRead<T> {
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    return { kind: 'not-json' };
  }
  return { kind: 'items', items: [], count: (values as unknown[]).length, error };
}
