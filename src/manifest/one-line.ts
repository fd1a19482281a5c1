/**
 * The one-line reads of the fast read of client items (simple-items.ts, whose block reader
 * extends this): plain and quoted scalars, and flow sequences and mappings that open and close
 * on their line. Each answers exactly what `yaml` would, or undefined (the batch goes through
 * `yaml`): test/manifest/simple-items.test.ts holds them to it.
 */

import { type Line, Lines } from './item-lines.js';
import type { PosEntry, PosNode } from './positions.js';
import { DECIMAL, IPV4, NOT_PLAINLY_A_STRING, plainCharacter, quotedCharacter } from './scalars.js';

/** What a read gives: the data (what `yaml`'s toJS gives) and its positions. */
export interface Read {
  readonly value: unknown;
  readonly pos: PosNode;
}

/**
 * A short list built by push, as a list of its own length: V8 gives a list room for 17 items
 * at its first push, 152 bytes, which a batch of many short lists keeps empty (one client of
 * 20,000 domains with a zone each is one batch: five lists a domain). Longer lists keep theirs.
 */
export function exact<T>(list: T[]): T[] {
  return list.length === 0 || list.length > 16 ? list : list.slice();
}

/** A mapping key: a plain name and `:` (then a space or the line's end: see keyEnd). */
const KEY = /[A-Za-z][A-Za-z0-9_-]*:/y;

/** The scalars and flow collections of one line. */
export class OneLineReader {
  /** Where the last quoted scalar or flow collection read ended (after its closing quote or bracket). */
  private end = 0;
  /** Flow mappings open around the current read: a mapping in a sequence only in none (one level deep). */
  private openMappings = 0;

  /**
   * @param lazy a one-line flow mapping's entries are read again from its line when asked
   *   (FlowMappingPos), not kept
   */
  constructor(
    protected readonly text: string,
    private readonly lazy = true,
  ) {}

  /** A quoted scalar that ends its line (or is followed by a comment). */
  protected quotedAlone(from: number, line: Line): Read | undefined {
    const quoted = this.quoted(from, line);
    if (quoted === undefined) return undefined;
    const end = this.end;
    let at = end;
    while (at < line.end && this.text.charCodeAt(at) === 32) at++;
    return at === line.end || (at > end && this.startsComment(at)) ? quoted : undefined;
  }

  /**
   * A quoted scalar closed on its line: double-quoted without an escape (no backslash), or
   * single-quoted (`''` is a quote); only characters a plain scalar may hold inside, the space
   * and the indicators. Its value is a string, at the opening quote; `end` is set after the closing one.
   */
  private quoted(from: number, line: Line): Read | undefined {
    const quote = this.text.charCodeAt(from);
    let value = '';
    let run = from + 1;
    for (let at = from + 1; at < line.end; at++) {
      const c = this.text.charCodeAt(at);
      if (c === quote) {
        if (quote === 39 && this.text.charCodeAt(at + 1) === 39 && at + 1 < line.end) {
          value += this.text.slice(run, at + 1);
          run = at + 2;
          at++;
          continue;
        }
        value += this.text.slice(run, at);
        this.end = at + 1;
        return { value, pos: { line: line.number, column: from - line.start + 1 } };
      }
      if (!quotedCharacter(c)) return undefined;
    }
    return undefined;
  }

  /** A plain scalar from `from` to the line's end (or a comment). */
  protected scalar(from: number, line: Line): Read | undefined {
    // A comment starts at ` #`; only this line is searched.
    let end = from;
    while (end < line.end && !this.startsComment(end)) end++;
    return this.plain(from, end, line);
  }

  /** `[a, b]` on one line, of plain or quoted scalars (or flow mappings), then nothing or a comment. */
  protected flowSequence(from: number, line: Line): Read | undefined {
    const found = this.flowSequenceAt(from, line);
    if (found === undefined) return undefined;
    let at = this.end;
    while (at < line.end && this.text.charCodeAt(at) === 32) at++;
    return at < line.end && !this.startsComment(at) ? undefined : found;
  }

  /** `[a, b]` of plain or quoted scalars (or flow mappings) from `from` on its line; `end` is set after the `]`. */
  private flowSequenceAt(from: number, line: Line): Read | undefined {
    const values: unknown[] = [];
    const items: PosNode[] = [];
    let at = from + 1;
    const spaces = (): void => {
      while (at < line.end && this.text.charCodeAt(at) === 32) at++;
    };
    spaces();
    if (this.text.charCodeAt(at) === 93) at++;
    else {
      for (;;) {
        spaces();
        const item = this.flowScalar(at, line, 93);
        if (item === undefined) return undefined;
        at = this.end;
        values.push(item.value);
        items.push(item.pos);
        if (this.text.charCodeAt(at++) === 93) break;
      }
    }
    this.end = at;
    return { value: exact(values), pos: { line: line.number, column: from - line.start + 1, items: exact(items) } };
  }

  /**
   * `{key: value, ...}` on one line, keys plain names each once, values plain or quoted
   * scalars or flow sequences of them, then nothing or a comment (a DNS record: `{host: www,
   * type: A, value: 192.0.2.1}`; a client: `{username: a, domains: [a.example]}`).
   */
  flowMapping(from: number, line: Line): Read | undefined {
    const read = this.flowMappingAt(from, line, !this.lazy);
    if (read === undefined) return undefined;
    let at = this.end;
    while (at < line.end && this.text.charCodeAt(at) === 32) at++;
    if (at < line.end && !this.startsComment(at)) return undefined;
    const column = from - line.start + 1;
    return { value: read.value, pos: read.pos ?? new FlowMappingPos(this.text, line, column) };
  }

  /**
   * `{key: value, ...}` from `from` on its line (see flowMapping); `end` is set after the `}`.
   * Its entries' positions when `keep`, else none.
   */
  private flowMappingAt(
    from: number,
    line: Line,
    keep: boolean,
  ): { readonly value: unknown; readonly pos: PosNode | undefined } | undefined {
    this.openMappings++;
    try {
      const value: Record<string, unknown> = {};
      const entries: PosEntry[] = [];
      let at = from + 1;
      const spaces = (): void => {
        while (at < line.end && this.text.charCodeAt(at) === 32) at++;
      };
      spaces();
      if (this.text.charCodeAt(at) === 125) at++;
      else {
        for (;;) {
          spaces();
          const keyStart = at;
          const after = this.keyEnd(keyStart, line.end);
          if (after === -1) return undefined;
          const key = this.text.slice(keyStart, after - 1);
          if (key === 'true' || key === 'false' || NOT_PLAINLY_A_STRING.test(key) || Object.hasOwn(value, key))
            return undefined;
          at = after;
          spaces();
          const item = this.flowScalar(at, line, 125);
          if (item === undefined) return undefined;
          at = this.end;
          value[key] = item.value;
          if (keep) entries.push({ key, line: line.number, column: keyStart - line.start + 1, value: item.pos });
          if (this.text.charCodeAt(at++) === 125) break;
        }
      }
      this.end = at;
      return {
        value,
        pos: keep ? { line: line.number, column: from - line.start + 1, entries: exact(entries) } : undefined,
      };
    } finally {
      this.openMappings--;
    }
  }

  /**
   * A scalar in a flow collection from `from`: plain, or quoted then spaces; `end` is set at the
   * `,` or `close` (`]`, `}`) after it, on the line.
   */
  private flowScalar(from: number, line: Line, close: number): Read | undefined {
    const c = this.text.charCodeAt(from);
    let at = from;
    let read: Read | undefined;
    if (c === 34 || c === 39 || (c === 91 && close === 125) || (c === 123 && close === 93 && this.openMappings === 0)) {
      // A quoted scalar, a sequence as a mapping's value (`{name: a, domains: [b, c]}`), or a
      // mapping as an item of a sequence in no mapping (`records: [{host: www, type: A, ...}]`).
      const found =
        c === 91
          ? this.flowSequenceAt(from, line)
          : c === 123
            ? this.flowMappingAt(from, line, true)
            : this.quoted(from, line);
      if (found?.pos === undefined) return undefined;
      read = found as Read;
      at = this.end;
      while (at < line.end && this.text.charCodeAt(at) === 32) at++;
    } else {
      while (at < line.end && this.text.charCodeAt(at) !== 44 && this.text.charCodeAt(at) !== close) at++;
      read = this.plain(from, at, line);
    }
    const next = this.text.charCodeAt(at);
    this.end = at;
    return read === undefined || at >= line.end || (next !== 44 && next !== close) ? undefined : read;
  }

  /**
   * The plain scalar from `from` to `end` (trailing spaces dropped), when it is plainly a
   * string, or `true` or `false`, and holds no comment.
   */
  private plain(from: number, end: number, line: Line): Read | undefined {
    while (end > from && this.text.charCodeAt(end - 1) === 32) end--;
    for (let i = from; i < end; i++)
      if (!plainCharacter(this.text.charCodeAt(i), i === from) || this.startsComment(i)) return undefined;
    const text = this.text.slice(from, end);
    const pos = { line: line.number, column: from - line.start + 1 };
    if (text === 'true' || text === 'false') return { value: text === 'true', pos };
    // A decimal integer without sign or leading zero (a TTL, an MX priority): the core schema's int.
    if (DECIMAL.test(text)) return { value: Number(text), pos };
    return text === '' || (NOT_PLAINLY_A_STRING.test(text) && !IPV4.test(text)) ? undefined : { value: text, pos };
  }

  /** A `#` after a space. */
  private startsComment(at: number): boolean {
    return this.text.charCodeAt(at) === 35 && this.text.charCodeAt(at - 1) === 32;
  }

  protected startsKey(from: number, end: number): boolean {
    return this.keyEnd(from, end) !== -1;
  }

  /** Where a key that starts at `from` ends (after its `:`), or -1 when none does. */
  protected keyEnd(from: number, end: number): number {
    KEY.lastIndex = from;
    if (!KEY.test(this.text)) return -1;
    const after = KEY.lastIndex;
    return after === end || (after < end && this.text.charCodeAt(after) === 32) ? after : -1;
  }
}

/**
 * Where a one-line flow mapping stands; its entries' positions are read again from its line
 * when a check asks for them (to locate a problem). A zone of 100,000 records
 * (`- {host: www, type: A, value: 192.0.2.1}`) keeps one small object a record, not seven.
 */
class FlowMappingPos implements PosNode {
  readonly line: number;
  readonly #text: string;
  readonly #start: number;
  readonly #end: number;

  constructor(
    text: string,
    line: Line,
    readonly column: number,
  ) {
    this.line = line.number;
    this.#text = text;
    this.#start = line.start;
    this.#end = line.end;
  }

  get entries(): readonly PosEntry[] {
    // The same line read the same way: it was read once already, so it reads again.
    const lines = new Lines(this.#text, this.#start, this.#end, this.line - 1);
    const line = lines.line;
    const read = line && new OneLineReader(this.#text, false).flowMapping(this.#start + this.column - 1, line);
    return read?.pos.entries ?? [];
  }
}
