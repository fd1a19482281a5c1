/**
 * The fast read of a batch of client items (chunked.ts), for the block YAML nearly every
 * manifest is written in: block sequences and block mappings, one plain scalar per line.
 * `yaml` builds a concrete syntax tree and a Document for that, about 60% of the time plan
 * spends on a 1,000-client manifest (docs/benchmarks.md); this reads the lines directly,
 * block sequences and mappings, and one-line flow sequences and mappings of plain scalars.
 *
 * It reads only what it can read exactly as `yaml` would, data and positions alike, and gives
 * up (undefined: the batch goes through `yaml`) on anything else: a quoted, block or
 * multi-line scalar, a flow collection other than a sequence of plain scalars or a mapping of
 * plain names to plain scalars on one line (`domains: [a.example, b.example]`, `- {host: www,
 * type: A, value: 192.0.2.1}`), an anchor, alias or tag, an empty value, a key that is
 * not a plain name, the same key twice, a sequence at its key's own indentation, a plain
 * scalar that is not plainly a string (whatever YAML's core schema could read as a null, a
 * number other than a plain decimal integer, or a boolean other than `true` and `false`), or with a character `yaml` might
 * treat otherwise (indicators, `:`, `,`, brackets, quotes, controls), keys YAML reads as
 * booleans or nulls, very long keys, deep nesting. test/manifest/simple-items.test.ts holds
 * it to `yaml`'s answer (readItemsWithYaml) on random and generated items, cut anywhere.
 */

/** A node's position (where the whole-document parse's node starts), and its children. */
export interface PosNode {
  readonly line: number;
  readonly column: number;
  /** A mapping's entries, in document order. */
  readonly entries?: readonly PosEntry[];
  /** A sequence's items. */
  readonly items?: readonly PosNode[];
}

export interface PosEntry {
  readonly key: string;
  readonly line: number;
  readonly column: number;
  readonly value: PosNode | undefined;
}

interface Line {
  /** Offsets of the line's content in the text: from its indentation on, without the line break. */
  readonly start: number;
  readonly end: number;
  readonly indent: number;
  /** The line's number in the file, from 1. */
  readonly number: number;
}

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

/** A plain decimal integer YAML's core schema reads as that number: no sign, no leading zero, safe. */
const DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;

/** An IPv4 address (an A record's value): three dots, where a number of the core schema has one at most. */
const IPV4 = /^[0-9]{1,3}(?:\.[0-9]{1,3}){3}$/;

/**
 * A plain scalar that YAML's core schema could read as something else than a string: a null
 * (`~`, `null`), a boolean in another spelling than `true` and `false`, or a number. Every
 * number of the schema (an integer, a hexadecimal or octal one, a float, `.inf`, `.nan`)
 * starts with a sign, a dot or a digit, and holds only characters of the second class: a
 * wider net than the schema's, so anything it may resolve is caught.
 */
const NOT_PLAINLY_A_STRING = /^(?:~|null|Null|NULL|True|TRUE|False|FALSE|[-+.0-9][-+.0-9a-fA-FxXoOiInN]*)$/;

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
  const lines = contentLines(text, start, end, firstLine);
  const first = lines[0];
  if (first === undefined) return undefined;
  const reader = new LineReader(text, lines);
  const seq = reader.sequence(first.indent);
  if (seq === undefined || reader.at !== lines.length || !Array.isArray(seq.value)) return undefined;
  return { clients: seq.value, seq: seq.pos };
}

/** The lines that hold something (not blank, not only a comment). */
function contentLines(text: string, start: number, end: number, firstLine: number): Line[] {
  const lines: Line[] = [];
  let number = firstLine;
  for (let at = start; at < end;) {
    const newline = text.indexOf('\n', at);
    const broken = newline !== -1 && newline < end;
    const next = broken ? newline + 1 : end;
    let stop = broken ? newline : end;
    // \r\n ends a line; a \r without its \n is yaml's to read (chunked.ts refuses it first).
    if (broken && stop > at && text.charCodeAt(stop - 1) === 13) stop--;
    number++;
    let indent = 0;
    while (at + indent < stop && text.charCodeAt(at + indent) === 32) indent++;
    if (at + indent < stop && text.charCodeAt(at + indent) !== 35) lines.push({ start: at, end: stop, indent, number });
    at = next;
  }
  return lines;
}

class LineReader {
  /** The next line to read. */
  at = 0;
  /** Collections open around the current line: deeper than a manifest goes is yaml's to read. */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly lines: readonly Line[],
  ) {}

  /** A block sequence whose dashes stand at `indent`, from the current line. */
  sequence(indent: number): Read | undefined {
    if (++this.depth > MAX_DEPTH) return undefined;
    const read = this.sequenceAt(indent);
    this.depth--;
    return read;
  }

  private sequenceAt(indent: number): Read | undefined {
    const first = this.lines[this.at];
    if (first === undefined) return undefined;
    const values: unknown[] = [];
    const items: PosNode[] = [];
    for (let line = this.lines[this.at]; line !== undefined && line.indent === indent; line = this.lines[this.at]) {
      const dash = line.start + indent;
      if (this.text.charCodeAt(dash) !== 45 || this.text.charCodeAt(dash + 1) !== 32) return undefined;
      let content = dash + 2;
      while (content < line.end && this.text.charCodeAt(content) === 32) content++;
      const item = this.startsKey(content, line.end) ? this.mapping(content - line.start) : this.scalarLine(content);
      if (item === undefined) return undefined;
      values.push(item.value);
      items.push(item.pos);
    }
    // What follows is less indented (the parent's), or the batch ends.
    const after = this.lines[this.at];
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
    const first = this.lines[this.at];
    if (first === undefined) return undefined;
    for (let line: Line | undefined = first; line !== undefined; line = this.lines[this.at]) {
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
    const after = this.lines[this.at];
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
        c === 91 ? this.flowSequence(at, line) : c === 123 ? this.flowMapping(at, line) : this.scalar(at, line);
      this.at++;
      // A more indented line after it would go on the scalar (or be an error): yaml's to read.
      const next = this.lines[this.at];
      return next !== undefined && next.indent > keyColumn ? undefined : scalar;
    }
    this.at++;
    const next = this.lines[this.at];
    // Nothing below, or a sequence at the key's own indentation: yaml's to read.
    if (next === undefined || next.indent <= keyColumn) return undefined;
    const content = next.start + next.indent;
    if (this.text.charCodeAt(content) === 45 && this.text.charCodeAt(content + 1) === 32)
      return this.sequence(next.indent);
    return this.startsKey(content, next.end) ? this.mapping(next.indent) : undefined;
  }

  /** A sequence item that is a scalar: the rest of the current line. */
  private scalarLine(from: number): Read | undefined {
    const line = this.lines[this.at];
    if (line === undefined) return undefined;
    this.at++;
    return this.text.charCodeAt(from) === 123 ? this.flowMapping(from, line) : this.scalar(from, line);
  }

  /** A plain scalar from `from` to the line's end (or a comment). */
  private scalar(from: number, line: Line): Read | undefined {
    // A comment starts at ` #`; only this line is searched.
    let end = from;
    while (end < line.end && !this.startsComment(end)) end++;
    return this.plain(from, end, line);
  }

  /** `[a, b]` on one line, of plain scalars, then nothing or a comment. */
  private flowSequence(from: number, line: Line): Read | undefined {
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
        const start = at;
        while (at < line.end && this.text.charCodeAt(at) !== 44 && this.text.charCodeAt(at) !== 93) at++;
        const item = this.plain(start, at, line);
        if (item === undefined || at === line.end) return undefined;
        values.push(item.value);
        items.push(item.pos);
        if (this.text.charCodeAt(at++) === 93) break;
      }
    }
    spaces();
    if (at < line.end && !this.startsComment(at)) return undefined;
    return { value: values, pos: { line: line.number, column: from - line.start + 1, items } };
  }

  /**
   * `{key: value, ...}` on one line, keys plain names each once, values plain scalars, then
   * nothing or a comment (a DNS record: `{host: www, type: A, value: 192.0.2.1}`).
   */
  private flowMapping(from: number, line: Line): Read | undefined {
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
        const start = at;
        while (at < line.end && this.text.charCodeAt(at) !== 44 && this.text.charCodeAt(at) !== 125) at++;
        const item = this.plain(start, at, line);
        if (item === undefined || at === line.end) return undefined;
        value[key] = item.value;
        entries.push({ key, line: line.number, column: keyStart - line.start + 1, value: item.pos });
        if (this.text.charCodeAt(at++) === 125) break;
      }
    }
    spaces();
    if (at < line.end && !this.startsComment(at)) return undefined;
    return { value, pos: { line: line.number, column: from - line.start + 1, entries } };
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
 * Whether a plain scalar may hold this code unit here and mean only itself: printable ASCII
 * but the indicators, `:`, `,`, brackets and quotes (a space inside but not first), and
 * what Unicode prints from U+00A0 on, except the byte order mark, the line and paragraph
 * separators and the non-characters U+FFFE and U+FFFF. Surrogates come in pairs: the text
 * was decoded from valid UTF-8.
 */
function plainCharacter(code: number, first: boolean): boolean {
  if (code < 0x80) return (PLAIN_ASCII[code] ?? 0) > (first ? 1 : 0);
  return code >= 0xa0 && code !== 0xfeff && code !== 0x2028 && code !== 0x2029 && code < 0xfffe;
}

/** By ASCII code unit: 0 never in a plain scalar here, 1 inside one but not first, 2 anywhere. */
const PLAIN_ASCII = new Uint8Array(0x80);
for (let code = 0x20; code < 0x7f; code++) {
  const char = String.fromCharCode(code);
  PLAIN_ASCII[code] = ':,[]{}"\'\\`'.includes(char) ? 0 : ' -?#&*!|>%@~'.includes(char) ? 1 : 2;
}

/**
 * A plain scalar's value as `yaml` resolves it, for a token already cut at its end (chunked-json.ts,
 * YAML's flow style): `true`, `false`, a plain decimal integer, or a string that is plainly one;
 * undefined for anything else (yaml's to read).
 */
export function plainValue(text: string): { readonly value: unknown } | undefined {
  if (text === '' || text.includes(' #')) return undefined;
  for (let i = 0; i < text.length; i++) if (!plainCharacter(text.charCodeAt(i), i === 0)) return undefined;
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  if (DECIMAL.test(text)) return { value: Number(text) };
  return NOT_PLAINLY_A_STRING.test(text) && !IPV4.test(text) ? undefined : { value: text };
}
