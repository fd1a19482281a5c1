/**
 * A small list answer read whole (body.ts readListAnswer, up to WHOLE_LIST_BYTES), with the
 * answer list-stream.ts's ListScanner gives for the same bytes: its elements through `item` (the
 * first throw kept, the rest only counted), "not JSON" for a body that starts as an array but is
 * not JSON, and the text of any other body.
 */
import { isSpace, type ListRead } from './list-stream.js';

/**
 * A list answer no larger than this is read whole (readWholeList): JSON.parse of large pieces
 * of the body costs a tenth of cutting it element by element in JavaScript (1.2 MB, 5,000
 * records: about 10 ms against 40 to 60 ms), and what it holds at once, the body's bytes and a
 * piece (or, for a body not in pieces, its text and parsed array), is a few times this bound. A
 * larger one is read element by element (ListScanner), never held whole.
 */
export const WHOLE_LIST_BYTES = 4 * 1024 * 1024;

/** A body that starts as an array: whitespace (JSON's four), then `[`. */
const LIST_START = /^[ \t\n\r]*\[/;

const CLOSE_SQUARE = 0x5d;

/** About how many bytes of a list are parsed at once (a `},{` after this many ends a piece). */
const PIECE_CHARS = 16 * 1024;

/**
 * Cuts that may fail in a whole body (a `},{` inside a string or a nested value) before the rest
 * is parsed at once: each failed cut parses its piece again from the piece's start, so a budget
 * per body, not per piece, keeps a hostile list at a few parses of the whole.
 */
const FAILED_CUTS = 4;

/**
 * A whole body read with the answer ListScanner gives for it in chunks, on every input
 * (test/panel/list-stream.test.ts and list-pieces.test.ts check them against each other and
 * JSON.parse). A list of objects is parsed a piece at a time (readInPieces; `pieceChars` bytes
 * a piece, about); any other body, or the rest of one a piece of which does not parse, in one
 * JSON.parse. Each element goes through `item` once, in order, up to the first that throws.
 */
export function readWholeList<T>(
  bytes: Uint8Array,
  item: (value: unknown, index: number) => T,
  pieceChars = PIECE_CHARS,
): ListRead<T> {
  const items: T[] = [];
  const pieces = readInPieces(bytes, item, items, pieceChars);
  if (pieces !== undefined) return pieces;
  // As the scanner decodes: a byte order mark at the start dropped, a later U+FEFF kept (JSON.parse refuses it).
  const text = new TextDecoder().decode(bytes);
  if (!LIST_START.test(text)) return { kind: 'text', text };
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    return { kind: 'not-json' };
  }
  // The elements the read in pieces handed to `item` already are the whole parse's first ones.
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

/** A piece's bytes decoded: a U+FEFF at its start kept (it is no start of the body), as in the whole text. */
const PIECE_DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

const OPEN_SQUARE = 0x5b;

/**
 * A list of objects read a piece at a time: the elements up to a `},{` after about `pieceChars`
 * (PIECE_CHARS) bytes are decoded and parsed together (JSON.parse of `[`, that piece, `]`) and
 * handed to `item` (each answer pushed to `items`) before the next piece is read, so that the
 * parsed objects die young, and the body is never one string. Parsed whole, the 5,000 objects of
 * GET /emails (1.2 MB) all lived until the last was made: the young generation copied them out,
 * and the text and they made a full collection more (docs/benchmarks.md, issue 32, "Fifth pass").
 * The cuts are ASCII bytes, never inside a UTF-8 sequence: the pieces decode to the whole's text.
 *
 * A piece ends at a `}` followed by `,{`, the first after the piece's start + `pieceChars` at which
 * the piece parses: a `},{` inside a string or inside an element leaves the piece unfinished,
 * which JSON.parse refuses (the piece is the start of the elements that follow, and a JSON value
 * is never the start of a longer one). Pieces that each parse, separated by the `,` of their
 * cut, inside the body's `[` and `]`: that is the body's array, element for element.
 *
 * Undefined when the body turns out not to be such a list (before `item` threw): the elements
 * read so far are in `items`, and the caller reads the rest from a parse of the whole.
 */
function readInPieces<T>(
  bytes: Uint8Array,
  item: (value: unknown, index: number) => T,
  items: T[],
  pieceChars: number,
): ListRead<T> | undefined {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // As the whole read: a byte order mark at the start, whitespace, then `[`.
  let start = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  while (start < body.length && isSpace(body[start] as number)) start++;
  if (body[start] !== OPEN_SQUARE) return undefined;
  start++;
  let close = body.length - 1;
  while (close > start && isSpace(body[close] as number)) close--;
  if (body[close] !== CLOSE_SQUARE || start >= close) return undefined;
  let count = 0;
  let error: { readonly thrown: unknown } | undefined;
  const budget = { failedCuts: FAILED_CUTS };
  while (start < close) {
    const piece = pieceAt(body, start, close, pieceChars, budget);
    if (piece === undefined) return error === undefined ? undefined : refusedWhole(bytes, error);
    start = piece.next;
    const { values } = piece;
    for (let i = 0; i < values.length; i++, count++) {
      if (error !== undefined) continue;
      try {
        items.push(item(values[i], count));
      } catch (thrown) {
        error = { thrown };
      }
    }
  }
  return error === undefined
    ? { kind: 'items', items, count, error: undefined }
    : { kind: 'items', items: [], count, error };
}

/**
 * The elements of the piece that starts at `start` of a list whose `]` stands at `close`, and
 * where the next piece starts (past the `,`; `close + 1` after the last); undefined when none is
 * found so. A cut that fails spends one of the body's `budget`; with none left, the piece is the
 * rest of the list.
 */
function pieceAt(
  body: Buffer,
  start: number,
  close: number,
  pieceChars: number,
  budget: { failedCuts: number },
): { readonly values: readonly unknown[]; readonly next: number } | undefined {
  let end = body.indexOf('},{', start + pieceChars);
  for (;;) {
    // The last piece ends before the `]`.
    const last = end === -1 || end >= close || budget.failedCuts === 0;
    const stop = last ? close : end + 1;
    try {
      const text = PIECE_DECODER.decode(body.subarray(start, stop));
      return { values: JSON.parse(`[${text}]`) as unknown[], next: stop + 1 };
    } catch {
      if (last) return undefined;
      budget.failedCuts--;
      end = body.indexOf('},{', end + 1);
    }
  }
}

/** A list whose element `item` refused, a piece of which did not parse: "not JSON", or the refusal with the count. */
function refusedWhole<T>(bytes: Uint8Array, error: { readonly thrown: unknown }): ListRead<T> {
  let values: unknown;
  try {
    values = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { kind: 'not-json' };
  }
  return { kind: 'items', items: [], count: (values as unknown[]).length, error };
}
