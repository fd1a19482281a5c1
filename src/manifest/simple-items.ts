/**
 * The fast read of a batch of client items (chunked.ts), for the block YAML nearly every
 * manifest is written in: block sequences and block mappings, one scalar per line.
 * `yaml` builds a concrete syntax tree and a Document for that, about 60% of the time plan
 * spends on a 1,000-client manifest (docs/benchmarks.md); this reads the lines directly,
 * block sequences and mappings, and one-line flow sequences and mappings of plain or quoted
 * scalars (a syntax tree costs about 20 bytes a byte read more than these: docs/benchmarks.md,
 * "Manifest memory per byte read").
 *
 * It reads only what it can read exactly as `yaml` would, data and positions alike, and gives
 * up (undefined: the batch goes through `yaml`) on anything else: a block or multi-line
 * scalar, a quoted one with an escape (a backslash), a flow collection other than a sequence
 * of scalars or a mapping of plain names to scalars or sequences of them on one line
 * (`domains: [a.example, b.example]`, `- {host: www, type: A, value: 192.0.2.1}`, `-
 * {username: a, domains: [a.example]}`), an anchor, alias or tag, an empty value, a key that is
 * not a plain name, the same key twice, a sequence at its key's own indentation, a plain
 * scalar that is not plainly a string (whatever YAML's core schema could read as a null, a
 * number other than a plain decimal integer, or a boolean other than `true` and `false`), or with a character `yaml` might
 * treat otherwise (indicators, `:`, `,`, brackets, quotes, controls), keys YAML reads as
 * booleans or nulls, very long keys, deep nesting. test/manifest/simple-items.test.ts holds
 * it to `yaml`'s answer (readItemsWithYaml) on random and generated items, cut anywhere.
 */

import { type Line, Lines } from './item-lines.js';
import { oneKeyItem } from './one-key-item.js';
import type { PosEntry, PosNode } from './positions.js';
import { DECIMAL, IPV4, NOT_PLAINLY_A_STRING, plainCharacter, quotedCharacter } from './scalars.js';

interface Read {
  readonly value: unknown;
  readonly pos: PosNode;
}

/** A mapping key: a plain name and `:` (then a space or the line's end: see keyEnd). */
const KEY = /[A-Za-z][A-Za-z0-9_-]*:/y;

/** Longer keys are left to yaml, which refuses implicit keys over 1,024 characters. */
const MAX_KEY = 1000;

/** Collections nested deeper than this are left to yaml (a manifest nests four deep). */
const MAX_DEPTH = 32;

/**
 * The client items of `text` from `start` (the start of an item's line) to `end`, whose first
 * line is line `firstLine + 1` of the file: the items' data (what `yaml`'s toJS gives) and the
 * sequence's positions (what chunked.ts's `position` gives); undefined: read it with `yaml`.
 */
export function readSimpleItems(
  text: string,
  start: number,
  end: number,
  firstLine: number,
): { readonly clients: unknown[]; readonly seq: PosNode } | undefined {
  const lines = new Lines(text, start, end, firstLine);
  const first = lines.line;
  if (first === undefined) return undefined;
  const reader = new LineReader(text, lines);
  const seq = reader.sequence(first.indent);
  if (seq === undefined || lines.line !== undefined || !Array.isArray(seq.value)) return undefined;
  return { clients: seq.value, seq: seq.pos };
}

class LineReader {
  /** Where the last quoted scalar or flow collection read ended (after its closing quote or bracket). */
  private end = 0;
  /** Collections open around the current line: deeper than a manifest goes is yaml's to read. */
  private depth = 0;

  /**
   * @param lazy a one-line flow mapping's entries are read again from its line when asked
   *   (FlowMappingPos), not kept
   */
  constructor(
    private readonly text: string,
    private readonly lines: Lines,
    private readonly lazy = true,
  ) {}

  /** A block sequence whose dashes stand at `indent`, from the current line. */
  sequence(indent: number): Read | undefined {
    if (++this.depth > MAX_DEPTH) return undefined;
    const read = this.sequenceAt(indent);
    this.depth--;
    return read;
  }

  private sequenceAt(indent: number): Read | undefined {
    const first = this.lines.line;
    if (first === undefined) return undefined;
    const values: unknown[] = [];
    const items: PosNode[] = [];
    for (let line = this.lines.line; line !== undefined && line.indent === indent; line = this.lines.line) {
      const dash = line.start + indent;
      if (this.text.charCodeAt(dash) !== 45 || this.text.charCodeAt(dash + 1) !== 32) return undefined;
      let content = dash + 2;
      while (content < line.end && this.text.charCodeAt(content) === 32) content++;
      const item =
        (content === dash + 2 && this.depth < MAX_DEPTH
          ? oneKeyItem(this.text, this.lines, content, line, MAX_KEY)
          : undefined) ??
        (this.startsKey(content, line.end) ? this.mapping(content - line.start) : this.scalarLine(content));
      if (item === undefined) return undefined;
      values.push(item.value);
      items.push(item.pos);
    }
    // What follows is less indented (the parent's), or the batch ends.
    const after = this.lines.line;
    if (after !== undefined && after.indent >= indent) return undefined;
    return { value: values, pos: { line: first.number, column: indent + 1, items } };
  }

  /** A block mapping whose keys stand at `column` (0-based), its first key on the current line. */
  private mapping(column: number): Read | undefined {
    if (++this.depth > MAX_DEPTH) return undefined;
    const read = this.mappingAt(column);
    this.depth--;
    return read;
  }

  private mappingAt(column: number): Read | undefined {
    const value: Record<string, unknown> = {};
    const entries: { key: string; line: number; column: number; value: PosNode }[] = [];
    const first = this.lines.line;
    if (first === undefined) return undefined;
    for (let line: Line | undefined = first; line !== undefined; line = this.lines.line) {
      if (line !== first && line.indent !== column) break;
      const keyStart = line.start + column;
      const after = this.keyEnd(keyStart, line.end);
      if (after === -1) return undefined;
      const key = this.text.slice(keyStart, after - 1);
      // A key YAML reads as a boolean or a null, a long one (yaml refuses keys over 1,024
      // characters), or one given twice: yaml's to read.
      if (
        key === 'true' ||
        key === 'false' ||
        NOT_PLAINLY_A_STRING.test(key) ||
        key.length > MAX_KEY ||
        Object.hasOwn(value, key)
      )
        return undefined;
      const entry = this.value(after, line, column);
      if (entry === undefined) return undefined;
      value[key] = entry.value;
      entries.push({ key, line: line.number, column: column + 1, value: entry.pos });
    }
    const after = this.lines.line;
    if (after !== undefined && after.indent > column) return undefined;
    return { value, pos: { line: first.number, column: column + 1, entries } };
  }

  /** A key's value: a scalar after it on its line, or a block collection on the lines below. */
  private value(from: number, line: Line, keyColumn: number): Read | undefined {
    let at = from;
    while (at < line.end && this.text.charCodeAt(at) === 32) at++;
    if (at < line.end && this.text.charCodeAt(at) !== 35) {
      const c = this.text.charCodeAt(at);
      const scalar =
        c === 91
          ? this.flowSequence(at, line)
          : c === 123
            ? this.flowMapping(at, line)
            : c === 34 || c === 39
              ? this.quotedAlone(at, line)
              : this.scalar(at, line);
      this.lines.next();
      // A more indented line after it would go on the scalar (or be an error): yaml's to read.
      const next = this.lines.line;
      return next !== undefined && next.indent > keyColumn ? undefined : scalar;
    }
    this.lines.next();
    const next = this.lines.line;
    // Nothing below, or a sequence at the key's own indentation: yaml's to read.
    if (next === undefined || next.indent <= keyColumn) return undefined;
    const content = next.start + next.indent;
    if (this.text.charCodeAt(content) === 45 && this.text.charCodeAt(content + 1) === 32)
      return this.sequence(next.indent);
    return this.startsKey(content, next.end) ? this.mapping(next.indent) : undefined;
  }

  /** A sequence item that is a scalar: the rest of the current line. */
  private scalarLine(from: number): Read | undefined {
    const line = this.lines.line;
    if (line === undefined) return undefined;
    this.lines.next();
    const c = this.text.charCodeAt(from);
    return c === 123
      ? this.flowMapping(from, line)
      : c === 34 || c === 39
        ? this.quotedAlone(from, line)
        : this.scalar(from, line);
  }

  /** A quoted scalar that ends its line (or is followed by a comment). */
  private quotedAlone(from: number, line: Line): Read | undefined {
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
  private scalar(from: number, line: Line): Read | undefined {
    // A comment starts at ` #`; only this line is searched.
    let end = from;
    while (end < line.end && !this.startsComment(end)) end++;
    return this.plain(from, end, line);
  }

  /** `[a, b]` on one line, of plain or quoted scalars, then nothing or a comment. */
  private flowSequence(from: number, line: Line): Read | undefined {
    const found = this.flowSequenceAt(from, line);
    if (found === undefined) return undefined;
    let at = this.end;
    while (at < line.end && this.text.charCodeAt(at) === 32) at++;
    return at < line.end && !this.startsComment(at) ? undefined : found;
  }

  /** `[a, b]` of plain or quoted scalars from `from` on its line; `end` is set after the `]`. */
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
    return { value: values, pos: { line: line.number, column: from - line.start + 1, items } };
  }

  /**
   * `{key: value, ...}` on one line, keys plain names each once, values plain or quoted
   * scalars or flow sequences of them, then nothing or a comment (a DNS record: `{host: www,
   * type: A, value: 192.0.2.1}`; a client: `{username: a, domains: [a.example]}`).
   */
  flowMapping(from: number, line: Line): Read | undefined {
    const value: Record<string, unknown> = {};
    const entries: PosEntry[] = [];
    const keep = !this.lazy;
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
    spaces();
    if (at < line.end && !this.startsComment(at)) return undefined;
    const column = from - line.start + 1;
    return { value, pos: keep ? { line: line.number, column, entries } : new FlowMappingPos(this.text, line, column) };
  }

  /**
   * A scalar in a flow collection from `from`: plain, or quoted then spaces; `end` is set at the
   * `,` or `close` (`]`, `}`) after it, on the line.
   */
  private flowScalar(from: number, line: Line, close: number): Read | undefined {
    const c = this.text.charCodeAt(from);
    let at = from;
    let read: Read | undefined;
    if (c === 34 || c === 39 || (c === 91 && close === 125)) {
      // A quoted scalar, or a sequence as a mapping's value (`{name: a, domains: [b, c]}`).
      const found = c === 91 ? this.flowSequenceAt(from, line) : this.quoted(from, line);
      if (found === undefined) return undefined;
      read = found;
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

  private startsKey(from: number, end: number): boolean {
    return this.keyEnd(from, end) !== -1;
  }

  /** Where a key that starts at `from` ends (after its `:`), or -1 when none does. */
  private keyEnd(from: number, end: number): number {
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
    const read = line && new LineReader(this.#text, lines, false).flowMapping(this.#start + this.column - 1, line);
    return read?.pos.entries ?? [];
  }
}
