/**
 * A list answer read element by element as its bytes arrive (ListScanner), so that a large list
 * (GET /domains of 100,000 clients: about 70 MB) is never held whole: not as bytes, not as one
 * string, not as one parsed array. Each element of the top-level array is cut out of the bytes,
 * decoded and parsed with JSON.parse on its own, handed to the caller's `item` (which makes a
 * compact record of it) and let go.
 *
 * It accepts exactly what JSON.parse of the whole (decoded) body accepts: the body is
 * whitespace, `[`, elements separated by `,`, `]`, whitespace (a UTF-8 byte order mark first is
 * skipped, as the decoder of a whole body does), and each element must parse on its own;
 * together that is the JSON grammar of an array. The cuts are made at `,` and `]` at the
 * array's own depth outside strings: ASCII bytes, which never occur inside a UTF-8 sequence, so
 * decoding element by element gives the same characters as decoding the whole. A body that
 * does not start with `[` (an object wrapping the list, an HTML page, nothing) is held and
 * decoded whole, for the caller to read as text. A small answer (at most WHOLE_LIST_BYTES) is
 * read whole instead (list-whole.ts readWholeList), with the same result: faster, and small enough to hold.
 */
import { assertNever } from '../util.js';

/** What a list answer turned out to be. */
export type ListRead<T> =
  /**
   * A JSON array: its elements through `item`, in order. `error`: the first one `item` threw (the
   * rest were only checked to be JSON).
   */
  | {
      readonly kind: 'items';
      readonly items: T[];
      readonly count: number;
      readonly error: { readonly thrown: unknown } | undefined;
    }
  /** Not JSON, though it started as an array. */
  | { readonly kind: 'not-json' }
  /** Not an array: the whole body, decoded. */
  | { readonly kind: 'text'; readonly text: string };

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
const BOM = [0xef, 0xbb, 0xbf] as const;

export const isSpace = (b: number): boolean => b === SPACE || b === LF || b === CR || b === TAB;

/** Feed it the body's chunks in order (`write`), then `end`. */
export class ListScanner<T> {
  /**
   * start: before the first byte that is not whitespace; list: in the array; after: past its `]`;
   * text: not an array; broken: not JSON.
   */
  private mode: 'start' | 'list' | 'after' | 'text' | 'broken' = 'start';
  /** Bytes seen so far in mode start, and how many of them were a byte order mark's (it counts only at 0 to 2). */
  private offset = 0;
  private bom = 0;
  /** The body so far, while it may turn out not to be an array (mode start or text). */
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  /** Nesting inside the top-level array: 1 directly in it. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The current element's bytes from earlier chunks. */
  private pieces: Uint8Array[] = [];
  /** Whether the current element has a byte that is not whitespace. */
  private filled = false;
  /** Whether a `,` was seen (then no element may be empty). */
  private comma = false;
  private readonly items: T[] = [];
  private count = 0;
  private error: { thrown: unknown } | undefined;
  /** ignoreBOM: a U+FEFF inside the body stays a character (JSON.parse refuses it, as it does in the whole body). */
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  constructor(private readonly item: (value: unknown, index: number) => T) {}

  write(chunk: Uint8Array): void {
    switch (this.mode) {
      case 'start': {
        const from = this.start(chunk);
        if (this.isListing()) this.scan(chunk, from);
        return;
      }
      case 'list':
        this.scan(chunk, 0);
        return;
      case 'text':
        this.hold(chunk);
        return;
      case 'after':
        if (chunk.some((b) => !isSpace(b))) this.break();
        return;
      case 'broken':
        return;
      default:
        return assertNever(this.mode);
    }
  }

  /** Mode list (a method: the compiler does not see start() change the mode). */
  private isListing(): boolean {
    return this.mode === 'list';
  }

  end(): ListRead<T> {
    if (this.mode === 'start' || this.mode === 'text') {
      const whole = this.held.length === 1 ? (this.held[0] as Uint8Array) : Buffer.concat(this.held, this.heldBytes);
      this.held = [];
      return { kind: 'text', text: new TextDecoder().decode(whole) };
    }
    if (this.mode !== 'after') return { kind: 'not-json' };
    return { kind: 'items', items: this.items, count: this.count, error: this.error };
  }

  /**
   * Mode start: skips whitespace (and a byte order mark at 0); returns where the array's content
   * starts in `chunk` once `[` is seen.
   */
  private start(chunk: Uint8Array): number {
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const b = chunk[i] as number;
      if (this.offset < BOM.length && this.bom === this.offset && b === BOM[this.offset]) {
        this.bom++;
        continue;
      }
      // A byte order mark cut short is no whitespace: not an array.
      const clean = this.bom === 0 || this.bom === BOM.length;
      if (clean && isSpace(b)) continue;
      if (clean && b === OPEN_SQUARE) {
        this.mode = 'list';
        this.depth = 1;
        this.held = [];
        this.heldBytes = 0;
        return i + 1;
      }
      this.mode = 'text';
      break;
    }
    this.hold(chunk);
    return chunk.length;
  }

  private hold(chunk: Uint8Array): void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
  }

  /** Mode list: cuts elements at `,` and `]` at depth 1, outside strings. */
  private scan(chunk: Uint8Array, from: number): void {
    let elementStart = from;
    let { depth, inString, escaped, filled } = this;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
        continue;
      }
      if (b === QUOTE) {
        inString = true;
        filled = true;
      } else if (b === OPEN_SQUARE || b === OPEN_CURLY) {
        depth++;
        filled = true;
      } else if (b === CLOSE_SQUARE || b === CLOSE_CURLY) {
        if (depth > 1) {
          depth--;
          continue;
        }
        if (b === CLOSE_SQUARE) this.close(chunk, elementStart, i, filled);
        else this.break();
        return;
      } else if (b === COMMA && depth === 1) {
        if (!filled) {
          this.break();
          return;
        }
        this.comma = true;
        this.element(chunk.subarray(elementStart, i));
        if (this.mode === 'broken') return;
        elementStart = i + 1;
        filled = false;
      } else if (!filled && !isSpace(b)) {
        filled = true;
      }
    }
    if (elementStart < chunk.length) this.pieces.push(chunk.subarray(elementStart));
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.filled = filled;
  }

  /** One element: its bytes (with the pieces from earlier chunks), parsed and handed to `item`. */
  private element(last: Uint8Array): void {
    const bytes = this.pieces.length === 0 ? last : Buffer.concat([...this.pieces, last]);
    this.pieces = [];
    let value: unknown;
    try {
      value = JSON.parse(this.decoder.decode(bytes));
    } catch {
      this.break();
      return;
    }
    const index = this.count++;
    if (this.error !== undefined) return;
    try {
      this.items.push(this.item(value, index));
    } catch (thrown) {
      // Kept for the end: a body that is not JSON further on is reported as not JSON, as a parse of the whole would.
      this.error = { thrown };
      this.items.length = 0;
    }
  }

  /** The array's own `]` at `chunk[at]`: its last element (none only in an empty array), then whitespace to the end. */
  private close(chunk: Uint8Array, elementStart: number, at: number, filled: boolean): void {
    if (filled) this.element(chunk.subarray(elementStart, at));
    else if (this.comma) this.break();
    this.pieces = [];
    if (this.mode === 'broken') return;
    this.mode = 'after';
    if (chunk.subarray(at + 1).some((b) => !isSpace(b))) this.break();
  }

  private break(): void {
    this.mode = 'broken';
    this.pieces = [];
    this.items.length = 0;
  }
}

/**
 * `parse` of each element of a list, `where` naming the element in errors ('GET
 * /api/v2/domains[3]'): each is parsed with the list's `where` alone, and only one that `parse`
 * refuses is parsed again with its own, whose error is thrown. The name of an element is made
 * for an error only, never for the thousands of records read fine; so `parse` must be pure (a
 * record's parsers are: the same element, the same answer or the same refusal).
 */
export function elementsOf<T>(
  parse: (value: unknown, where: string) => T,
  where: string,
): (value: unknown, index: number) => T {
  return (value, index) => {
    try {
      return parse(value, where);
    } catch {
      return parse(value, `${where}[${index}]`);
    }
  };
}

/** Makes one element of a list answer into a record; `index` from 0. */
export type ListItem = (value: unknown, index: number) => unknown;

/** A list answer read as an array, element by element (PanelClient.getList). */
export class StreamedList {
  constructor(
    readonly items: unknown[],
    readonly count: number,
    readonly failed: { readonly thrown: unknown } | undefined,
  ) {}
}

/**
 * What PanelClient.getList read: the records of an array (`count` elements), or the whole JSON
 * value when it is not one.
 */
export type ListAnswer<T> = {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
} & (
  | {
      readonly items: T[];
      readonly count: number;
      readonly failed: { readonly thrown: unknown } | undefined;
    }
  | { readonly value: unknown }
);
