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
 * {username: a, domains: [a.example]}`), an anchor, alias (a merge key's `<<: *defaults` apart, when
 * its anchor is a mapping of scalars: Reading.mergeSource) or tag, an empty value, a key that is
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
import { type MergeSource, nodesIn, type PosEntry, type PosNode } from './positions.js';
import { NOT_PLAINLY_A_STRING } from './scalars.js';

/** Longer keys are left to yaml, which refuses implicit keys over 1,024 characters. */
const MAX_KEY = 1000;

/** Collections nested deeper than this are left to yaml (a manifest nests four deep). */
const MAX_DEPTH = 32;

/**
 * The items of a block sequence inside an item (a client's domains, a zone's records, the
 * lists of a domain's sections) whose positions are kept as read; a block mapping past them
 * keeps its place and reads its entries again when asked (BlockItemPos).
 */
const KEPT_ITEMS = 16;

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
  mergeSource?: MergeOf,
): { readonly clients: unknown[]; readonly seq: PosNode } | undefined {
  const lines = new Lines(text, start, end, firstLine);
  const first = lines.line;
  if (first === undefined) return undefined;
  const reader = new LineReader({ text, end, merge: mergeSource && remembered(mergeSource) }, lines);
  const seq = reader.sequence(first.indent);
  if (seq === undefined || lines.line !== undefined || !Array.isArray(seq.value)) return undefined;
  return { clients: seq.value, seq: seq.pos };
}

/** What a merge key's alias stands for (Reading.mergeSource); undefined: yaml's to read. */
type MergeOf = (name: string) => MergeSource | undefined;

/** A batch's text, where it ends, and what its merge keys' aliases stand for. */
interface Batch {
  readonly text: string;
  readonly end: number;
  readonly merge: MergeOf | undefined;
}

/** `merge`, each name asked once: an item read again (BlockItemPos) merges what its first read merged. */
function remembered(merge: MergeOf): MergeOf {
  const sources = new Map<string, MergeSource | undefined>();
  return (name) => {
    if (!sources.has(name)) sources.set(name, merge(name));
    return sources.get(name);
  };
}

/** A merge key and its alias on one line (`<<: *defaults`), perhaps a comment after it. */
const MERGE_LINE = /<<: +\*([A-Za-z0-9_-]+)(?: *| +#.*)$/y;

/** The block collections of the lines, their one-line parts read by OneLineReader. */
class LineReader extends OneLineReader {
  /** Collections open around the current line: deeper than a manifest goes is yaml's to read. */
  private depth = 0;

  constructor(
    private readonly batch: Batch,
    private readonly lines: Lines,
  ) {
    super(batch.text);
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
      // One-key items (`- name: m1`), a run of them at once; past the first few items of a list
      // inside an item, one at a time (their positions read again when asked: BlockItemPos).
      const lazy = this.depth > 1;
      if (
        content === dash + 2 &&
        this.depth < MAX_DEPTH &&
        (!lazy || items.length < KEPT_ITEMS) &&
        oneKeyItems(this.text, this.lines, line, MAX_KEY, values, items, lazy ? KEPT_ITEMS : Infinity)
      )
        continue;
      const block = this.startsEntry(content, line.end);
      const item = block ? this.mapping(content - line.start) : this.scalarLine(content);
      if (item === undefined) return undefined;
      values.push(item.value);
      // Past the first few items of a list inside an item, a block mapping's positions are read
      // again when asked: one client of 60,000 domains is one batch.
      items.push(
        block && lazy && items.length >= KEPT_ITEMS ? new BlockItemPos(this.batch, line, item.pos.column) : item.pos,
      );
    }
    // What follows is less indented (the parent's), or the batch ends.
    const after = this.lines.line;
    if (after !== undefined && after.indent >= indent) return undefined;
    return { value: exact(values), pos: { line: first.number, column: indent + 1, items: exact(items) } };
  }

  /** Whether a block mapping's first key starts at `from`: a plain name, or a merge key (`<<: *defaults`). */
  private startsEntry(from: number, end: number): boolean {
    return this.startsKey(from, end) || (this.batch.merge !== undefined && this.text.startsWith('<<: ', from));
  }

  /** A sequence item's block mapping (BlockItemPos), its first key at `column` of the current line. */
  mappingItem(column: number): Read | undefined {
    return this.mapping(column);
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
    /** Its merge (`<<: *defaults`): one at most, an alias of a mapping of scalars. */
    let merge: PosNode | undefined;
    /** Its own keys, once it merges (a merged key may be given again, an own one not). */
    let own: Set<string> | undefined;
    const first = this.lines.line;
    if (first === undefined) return undefined;
    for (let line: Line | undefined = first; line !== undefined; line = this.lines.line) {
      if (line !== first && line.indent !== column) break;
      const keyStart = line.start + column;
      const after = this.keyEnd(keyStart, line.end);
      if (after === -1) {
        if (merge !== undefined) return undefined;
        own = new Set(entries.map((e) => e.key));
        merge = this.merge(keyStart, line, column, value);
        if (merge === undefined) return undefined;
        continue;
      }
      const key = this.text.slice(keyStart, after - 1);
      // A key YAML reads as a boolean or a null, a long one (yaml refuses keys over 1,024
      // characters), or one given twice (a merged key may be given again): yaml's to read.
      if (
        key === 'true' ||
        key === 'false' ||
        NOT_PLAINLY_A_STRING.test(key) ||
        key.length > MAX_KEY ||
        (own === undefined ? Object.hasOwn(value, key) : own.has(key))
      )
        return undefined;
      const entry = this.value(after, line, column);
      if (entry === undefined) return undefined;
      value[key] = entry.value;
      own?.add(key);
      entries.push({ key, line: line.number, column: column + 1, value: entry.pos });
    }
    const after = this.lines.line;
    if (after !== undefined && after.indent > column) return undefined;
    const pos = { line: first.number, column: column + 1, entries: exact(entries) };
    return { value, pos: merge === undefined ? pos : { ...pos, merges: [merge] } };
  }

  /**
   * A merge key at `keyStart` of `line` (`<<: *defaults`, the mapping's keys at `keyColumn`): the
   * anchored mapping's keys that `value` lacks are added to it, in their order, as yaml merges
   * them; its alias's position (undefined: not a merge this read takes, yaml's to read).
   */
  private merge(keyStart: number, line: Line, keyColumn: number, value: Record<string, unknown>): PosNode | undefined {
    MERGE_LINE.lastIndex = keyStart;
    const match = this.batch.merge === undefined ? null : MERGE_LINE.exec(this.text.slice(0, line.end));
    const name = match?.[1];
    const source = name === undefined ? undefined : this.batch.merge?.(name);
    if (source === undefined) return undefined;
    this.lines.next();
    const next = this.lines.line;
    // A more indented line after it would go on the alias (an error): yaml's to read.
    if (next !== undefined && next.indent > keyColumn) return undefined;
    for (const [key, merged] of source.data) if (!Object.hasOwn(value, key)) value[key] = merged;
    return { line: line.number, column: this.text.indexOf('*', keyStart) - line.start + 1, alias: source.pos };
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
    return this.startsEntry(content, next.end) ? this.mapping(next.indent) : undefined;
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

/** A block mapping's positions, as BlockItemPos reads them again. */
type ReadAgain = PosNode & { readonly entries: readonly PosEntry[] };

/**
 * Where a block mapping that is a sequence's item stands (`- name: a.example` and the lines of
 * its keys below); its entries' positions are read again from its lines when first asked, then
 * kept while it is (issue 30, 7f). A batch's positions are all live once it is read, and a
 * domain item's are about fourteen objects and four lists, 960 bytes for a 100-byte item; this
 * is one object, and the builder lets a domain item go once taken (PositionMap.release).
 */
class BlockItemPos implements PosNode {
  readonly line: number;
  readonly #batch: Batch;
  /** Where its line starts. */
  readonly #start: number;
  #read: ReadAgain | undefined;

  constructor(
    batch: Batch,
    line: Line,
    readonly column: number,
  ) {
    this.line = line.number;
    this.#batch = batch;
    this.#start = line.start;
  }

  get entries(): readonly PosEntry[] {
    this.#read ??= this.readAgain();
    return this.#read.entries;
  }

  get merges(): readonly PosNode[] | undefined {
    this.#read ??= this.readAgain();
    return this.#read.merges;
  }

  /** Counted without keeping what is read (Reading.count, for a text that may hold an alias). */
  get nodes(): number {
    return nodesIn(this.#read ?? this.readAgain());
  }

  /** Its positions, read again: the same lines read the same way (they were read once already). */
  private readAgain(): ReadAgain {
    const { text, end } = this.#batch;
    const lines = new Lines(text, this.#start, end, this.line - 1);
    const pos = new LineReader(this.#batch, lines).mappingItem(this.column - 1)?.pos;
    if (pos?.entries === undefined) throw new Error(`the item at line ${this.line} did not read again`);
    return pos as ReadAgain;
  }
}
