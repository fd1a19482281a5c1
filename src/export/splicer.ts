/**
 * Minimal splices on a manifest's text (rewrite.ts): a Splicer collects replacements of the
 * original text and makes the new text once; the helpers find where a pair stands. Pure.
 */
import { isCollection, isScalar, type Node, type Pair, type YAMLMap } from 'yaml';

/** One replacement of the original text's [start, end) by `text`; `order` breaks ties. */
interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly order: number;
}

/** The pair of `key` in `map`, if any. */
export function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key);
}

/** Where a pair's key starts in the text. */
export function keyStart(pair: Pair | undefined): number {
  const start = (pair?.key as Node | undefined)?.range?.[0];
  if (start === undefined) throw new Error('export --into: a key without its place');
  return start;
}

/** The order of an insertion that goes after every other at its place (Splicer.addOnce's `last`). */
const LAST = 2 ** 40;

/** The text and the splices made on it; `apply` makes the new text. */
export class Splicer {
  readonly text: string;
  /** The file's line ending: CRLF when it uses it anywhere, else LF. */
  readonly eol: string;
  private readonly splices: Splice[] = [];
  /** Where insertLines broke a last line without a final newline. */
  private readonly broken = new Set<number>();
  /** The insertions addOnce made. */
  private readonly once = new Set<string>();

  constructor(text: string) {
    this.text = text;
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
  }

  add(start: number, end: number, text: string): void {
    this.splices.push({ start, end, text, order: this.splices.length });
  }

  /**
   * An insertion made once at its place however often it is asked for (a domain item's object
   * form, for each key a kind adds to it); `last`: after every other insertion there.
   */
  addOnce(start: number, end: number, text: string, last = false): void {
    const id = `${start}:${end}:${text}`;
    if (this.once.has(id)) return;
    this.once.add(id);
    this.splices.push({ start, end, text, order: last ? LAST + this.splices.length : this.splices.length });
  }

  /**
   * Whole lines inserted at `at` (a line start, or the end of a text without a final newline:
   * the first lines inserted there start with a line break, those after them need none).
   */
  insertLines(at: number, lines: readonly string[]): void {
    const before = at > 0 && this.text[at - 1] !== '\n' && !this.broken.has(at) ? this.eol : '';
    if (before !== '') this.broken.add(at);
    this.add(at, at, before + lines.map((line) => line + this.eol).join(''));
  }

  lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** The position after the line break that ends `offset`'s line (the text's end on its last line). */
  lineEnd(offset: number): number {
    const at = this.text.indexOf('\n', offset);
    return at < 0 ? this.text.length : at + 1;
  }

  column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  lineOf(offset: number): number {
    return this.text.slice(0, offset).split('\n').length;
  }

  /** Where a block collection ends: after its last line (its range ends there already). */
  blockEnd(node: Node): number {
    const end = node.range?.[1] ?? this.text.length;
    return end > 0 && this.text[end - 1] === '\n' ? end : this.lineEnd(end);
  }

  /**
   * Where a node's lines end: a block collection's end, else the end of the line its value ends
   * on (comment included).
   */
  nodeEnd(node: Node): number {
    return isCollection(node) && node.flow !== true
      ? this.blockEnd(node)
      : this.lineEnd(node.range?.[1] ?? this.text.length);
  }

  /** The position right after the `:` that follows a pair's key. */
  colonAfter(pair: Pair): number {
    const keyEnd = (pair.key as Node).range?.[1];
    const colon = keyEnd === undefined ? -1 : this.text.indexOf(':', keyEnd);
    if (colon < 0) throw new Error('export --into: a key without its colon');
    return colon + 1;
  }

  /** The text with every splice made; overlapping splices are a bug. */
  apply(): string {
    const sorted = [...this.splices].sort(
      (a, b) => a.start - b.start || Number(a.end !== a.start) - Number(b.end !== b.start) || a.order - b.order,
    );
    let out = '';
    let cursor = 0;
    for (const splice of sorted) {
      if (splice.start < cursor) throw new Error('export --into: two edits overlap');
      out += this.text.slice(cursor, splice.start) + splice.text;
      cursor = splice.end;
    }
    return out + this.text.slice(cursor);
  }
}
