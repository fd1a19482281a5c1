import { JSON_ESCAPES } from '../redact.js';
import type { ChunkedRead, ItemBatch } from './chunked.js';
import { plainValue } from './scalars.js';
import { type PosEntry, type PosNode, PositionMap } from './positions.js';

/**
 * The chunked read of a manifest written as JSON (a script's output: `{"version": 1, "clients":
 * [...]}`) or in YAML's flow style with plain strings (`{version: 1, clients: [{username: a}]}`),
 * which `yaml` reads as one flow mapping: its syntax tree and Document cost about 100
 * times the file's bytes, where this reads the top level, then the client items a batch at a
 * time (as chunked.ts does for block YAML), with the positions `yaml` would give each node (a
 * collection at its bracket, a string at its opening quote, a key at its quote).
 *
 * It reads only what it reads exactly as `yaml` does and gives up (undefined: the whole read)
 * on anything else: a value other than an object, array, string, `true`, `false`, `null`, an
 * integer of at most 15 digits or a plain scalar simple-items.ts reads (`plainValue`); a plain
 * scalar a line break ends but not its item; a plain key whose colon a space does not follow; a control character in a string; a key twice in an object, a key
 * longer than 1,000 characters or `__proto__`; a line break between a key and its colon;
 * anything after the top-level object; a top level without a `clients` array; collections
 * nested over 32 deep; a line that opens with `... ` (the document's end).
 * test/manifest/chunked-shapes.test.ts holds it to the whole read's answer.
 */

/** Collections nested deeper than this are left to yaml (as simple-items.ts does; a manifest nests four deep). */
const MAX_DEPTH = 32;

/** Thrown inside the reader to give up; caught at its entry points, never beyond. */
class GiveUp extends Error {
  override readonly name = 'GiveUp';
}

/** A JSON text's reader: its offset, and the line it is on, for positions. */
class Reader {
  pos = 0;
  line = 1;
  lineStart = 0;
  /** Collections open around the value being read. */
  depth = 0;

  constructor(readonly text: string) {}

  here(): { line: number; column: number } {
    return { line: this.line, column: this.pos - this.lineStart + 1 };
  }

  /** Skips white space (space, \n, \r\n), counting lines; a tab or a lone \r gives up. */
  space(): void {
    const { text } = this;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === 32) this.pos++;
      else if (c === 10) {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (c === 13 && text.charCodeAt(this.pos + 1) === 10) this.pos++;
      else if (c === 9 || c === 13) throw new GiveUp();
      else return;
    }
  }

  expect(char: string): void {
    if (this.text[this.pos] !== char) throw new GiveUp();
    this.pos++;
  }

  value(): { value: unknown; node: PosNode } {
    const at = this.here();
    const c = this.text[this.pos];
    if (c === '{' || c === '[') {
      // Deeper is yaml's to refuse (it stops at its own limit), before this recursion overflows the stack.
      if (this.depth >= MAX_DEPTH) throw new GiveUp();
      this.depth++;
      const read = c === '{' ? this.object(at) : this.array(at);
      this.depth--;
      return read;
    }
    if (c === '"') return { value: this.string(), node: at };
    const token = this.token();
    const json = /^(?:true|false|null|0|-?[1-9]\d{0,14})$/.exec(token);
    if (json !== null) {
      const value = token === 'true' ? true : token === 'false' ? false : token === 'null' ? null : Number(token);
      return { value, node: at };
    }
    // YAML's flow style writes strings plain (`{username: alice, plan: Premium Plus}`).
    const plain = plainValue(token);
    if (plain === undefined) throw new GiveUp();
    return { value: plain.value, node: at };
  }

  array(at: { line: number; column: number }): { value: unknown[]; node: PosNode } {
    const values: unknown[] = [];
    const items: PosNode[] = [];
    this.items((item) => {
      values.push(item.value);
      items.push(item.node);
    });
    return { value: values, node: { ...at, items } };
  }

  /**
   * A plain token from here to `,`, `]`, `}`, `:` or the line's end, trailing spaces dropped; one
   * that a line break ends must be followed by `,`, `]` or `}` (else it may go on: yaml's to read).
   */
  token(): string {
    const { text } = this;
    const start = this.pos;
    // `... ` at a line's start ends the document, in a flow collection too: yaml refuses the file.
    if (start === this.lineStart && /^\.\.\.(?:[ \r\n]|$)/.test(text.slice(start, start + 4))) throw new GiveUp();
    let end = start;
    for (;;) {
      const c = text.charCodeAt(end);
      if (Number.isNaN(c) || c === 44 || c === 93 || c === 125 || c === 58 || c === 10 || c === 13) break;
      end++;
    }
    this.pos = end;
    if (text.charCodeAt(end) === 10 || text.charCodeAt(end) === 13) {
      const next = /[ \r\n]*([,\]}])?/y;
      next.lastIndex = end;
      if (next.exec(text)?.[1] === undefined) throw new GiveUp();
    }
    return text.slice(start, end).replace(/ +$/, '');
  }

  /** An array's items, each given to `each` as it is read; false when `stop` ended it early (see rest). */
  items(each: (item: { value: unknown; node: PosNode }) => void, stop?: () => boolean): boolean {
    this.expect('[');
    this.space();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return true;
    }
    return this.rest(each, stop);
  }

  /**
   * The items of an array from one on, to past its `]` (true), or until `stop` says so after an
   * item and its comma (false: `rest` goes on from there).
   */
  rest(each: (item: { value: unknown; node: PosNode }) => void, stop?: () => boolean): boolean {
    for (;;) {
      each(this.value());
      this.space();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return true;
      }
      this.expect(',');
      this.space();
      // A trailing comma: YAML's flow style allows one, and yaml reads the array without it.
      if (this.text[this.pos] === ']') {
        this.pos++;
        return true;
      }
      if (stop?.() === true) return false;
    }
  }

  /** An object's entries; `skip(key)` true: its value is stepped over, not read (the clients). */
  object(
    at: { line: number; column: number },
    skip?: (key: string, start: number) => void,
  ): { value: Record<string, unknown>; node: PosNode } {
    this.expect('{');
    const value: Record<string, unknown> = {};
    const entries: PosEntry[] = [];
    const keys = new Set<string>();
    this.space();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { value, node: { ...at, entries } };
    }
    for (;;) {
      const keyAt = this.here();
      const quoted = this.text[this.pos] === '"';
      const key = quoted ? this.string() : this.plainKey();
      if (keys.has(key) || key.length > 1000 || key === '__proto__') throw new GiveUp();
      keys.add(key);
      const line = this.line;
      this.space();
      if (this.line !== line) throw new GiveUp();
      this.expect(':');
      // A plain key's colon is followed by a space or a line break (`a:b` is one scalar in YAML).
      if (!quoted && !/[ \r\n]/.test(this.text[this.pos] ?? '')) throw new GiveUp();
      this.space();
      if (skip !== undefined && key === 'clients') {
        entries.push({ key, ...keyAt, value: this.here() });
        value[key] = null;
        skip(key, this.pos);
      } else {
        const read = this.value();
        value[key] = read.value;
        entries.push({ key, ...keyAt, value: read.node });
      }
      this.space();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return { value, node: { ...at, entries } };
      }
      this.expect(',');
      this.space();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return { value, node: { ...at, entries } };
      }
    }
  }

  /** A plain key (YAML's flow style): a plain string, on its line, up to its colon. */
  plainKey(): string {
    const key = this.token();
    const plain = plainValue(key);
    // `<<` is a merge key to the whole read (load.ts): read whole.
    if (typeof plain?.value !== 'string' || this.text[this.pos] !== ':' || key === '<<') throw new GiveUp();
    return key;
  }

  /** A string at its opening quote, JSON's escapes decoded; a control character gives up. */
  string(): string {
    const { text } = this;
    this.pos++;
    let out = '';
    let from = this.pos;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (Number.isNaN(c) || c < 32) throw new GiveUp();
      if (c === 34) {
        out += text.slice(from, this.pos);
        this.pos++;
        return out;
      }
      if (c !== 92) {
        this.pos++;
        continue;
      }
      out += text.slice(from, this.pos);
      const e = text[this.pos + 1];
      const simple = e === undefined ? undefined : JSON_ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        this.pos += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(this.pos + 2, this.pos + 6))) {
        out += String.fromCharCode(parseInt(text.slice(this.pos + 2, this.pos + 6), 16));
        this.pos += 6;
      } else throw new GiveUp();
      from = this.pos;
    }
  }

  /** Steps over one array from its `[` to past its `]`, strings and nesting included, reading nothing. */
  skipArray(): void {
    const { text } = this;
    if (text[this.pos] !== '[') throw new GiveUp();
    let depth = 0;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (Number.isNaN(c)) throw new GiveUp();
      if (c === 34) {
        this.string();
        continue;
      }
      if (c === 91 || c === 123) depth++;
      else if (c === 93 || c === 125) depth--;
      else if (c === 10) {
        this.line++;
        this.lineStart = this.pos + 1;
      }
      this.pos++;
      if (depth === 0) return;
    }
  }
}

/**
 * A JSON manifest's top level and its client items in batches of about `batchChars`; undefined
 * when the text is not JSON this reader reads exactly as `yaml` does (see above).
 */
export function readJsonChunked(text: string, file: string, batchChars: number): ChunkedRead | undefined {
  const reader = new Reader(text);
  let clientsAt: { pos: number; line: number; lineStart: number; end: number } | undefined;
  let top: { value: Record<string, unknown>; node: PosNode };
  try {
    reader.space();
    top = reader.object(reader.here(), () => {
      clientsAt = { pos: reader.pos, line: reader.line, lineStart: reader.lineStart, end: 0 };
      reader.skipArray();
      clientsAt.end = reader.pos;
    });
    reader.space();
    if (reader.pos !== text.length || clientsAt === undefined) return undefined;
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
  top.value.clients = [];
  return {
    top: top.value,
    topSource: new PositionMap(file, text, top.node),
    batches: jsonBatches(text, file, clientsAt, batchChars),
  };
}

/** The client items from the `[` at `from`, a batch at a time; undefined (and no more) to give up. */
function* jsonBatches(
  text: string,
  file: string,
  from: { pos: number; line: number; lineStart: number; end: number },
  batchChars: number,
): Generator<ItemBatch | undefined> {
  const reader = new Reader(text);
  reader.pos = from.pos;
  reader.line = from.line;
  reader.lineStart = from.lineStart;
  let done = false;
  let first = true;
  while (!done) {
    const clients: unknown[] = [];
    const items: PosNode[] = [];
    const start = reader.pos;
    try {
      const each = (item: { value: unknown; node: PosNode }): void => {
        clients.push(item.value);
        items.push(item.node);
      };
      const full = (): boolean => reader.pos - start >= batchChars;
      done = first ? reader.items(each, full) : reader.rest(each, full);
      first = false;
      // The items end where the first pass stepped over them, or something was read differently.
      if (done && reader.pos !== from.end) throw new GiveUp();
    } catch (error) {
      if (!(error instanceof GiveUp)) throw error;
      yield undefined;
      return;
    }
    const seq: PosNode = { line: 1, column: 1, items };
    yield {
      clients,
      nodes: items.map((node) => ({ node, via: undefined })),
      source: new PositionMap(file, text, seq, true),
    };
  }
}
