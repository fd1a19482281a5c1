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
import { oneKeyItems } from './one-key-item.js';
import { exact, OneLineReader, type Read } from './one-line.js';
import type { PosNode } from './positions.js';
import { NOT_PLAINLY_A_STRING } from './scalars.js';

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

/** The block collections of the lines, their one-line parts read by OneLineReader. */
class LineReader extends OneLineReader {
  /** Collections open around the current line: deeper than a manifest goes is yaml's to read. */
  private depth = 0;

  constructor(
    text: string,
    private readonly lines: Lines,
  ) {
    super(text);
  }

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
      // One-key items (`- name: m1`), a run of them at once.
      if (
        content === dash + 2 &&
        this.depth < MAX_DEPTH &&
        oneKeyItems(this.text, this.lines, line, MAX_KEY, values, items)
      )
        continue;
      const item = this.startsKey(content, line.end) ? this.mapping(content - line.start) : this.scalarLine(content);
      if (item === undefined) return undefined;
      values.push(item.value);
      items.push(item.pos);
    }
    // What follows is less indented (the parent's), or the batch ends.
    const after = this.lines.line;
    if (after !== undefined && after.indent >= indent) return undefined;
    return { value: exact(values), pos: { line: first.number, column: indent + 1, items: exact(items) } };
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
    return { value, pos: { line: first.number, column: column + 1, entries: exact(entries) } };
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
}
