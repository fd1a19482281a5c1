/** The content lines of a batch of client items, for the fast read (simple-items.ts). */

export interface Line {
  /** Offsets of the line's content in the text: from its indentation on, without the line break. */
  readonly start: number;
  readonly end: number;
  readonly indent: number;
  /** The line's number in the file, from 1. */
  readonly number: number;
}

/**
 * The lines that hold something (not blank, not only a comment), one at a time: `line` is the
 * current one (undefined past the last). Made as they are read, not all at once: a batch that
 * is one large item (a client with every domain) holds no line but the current one.
 */
export class Lines {
  line: Line | undefined;
  private at: number;
  private number: number;

  constructor(
    private readonly text: string,
    start: number,
    /** Where the batch ends (an offset of the text). */
    readonly end: number,
    firstLine: number,
  ) {
    this.at = start;
    this.number = firstLine;
    this.next();
  }

  /** Where the search for the line after the current one starts: with `line`, a place to come back to (`back`). */
  get after(): number {
    return this.at;
  }

  /** Back to `line`, the current line when `after` was `at` (a look at the line after it taken back). */
  back(line: Line, at: number): void {
    this.line = line;
    this.at = at;
    this.number = line.number;
  }

  /** To the line that starts at `at`, line `number` of the file, or the first after it that holds something. */
  moveTo(at: number, number: number): void {
    this.at = at;
    this.number = number - 1;
    this.next();
  }

  /** Moves to the next line that holds something. */
  next(): void {
    const { text, end } = this;
    while (this.at < end) {
      const at = this.at;
      const newline = text.indexOf('\n', at);
      const broken = newline !== -1 && newline < end;
      let stop = broken ? newline : end;
      // \r\n ends a line; a \r without its \n is yaml's to read (chunked.ts refuses it first).
      if (broken && stop > at && text.charCodeAt(stop - 1) === 13) stop--;
      this.at = broken ? newline + 1 : end;
      this.number++;
      let indent = 0;
      while (at + indent < stop && text.charCodeAt(at + indent) === 32) indent++;
      if (at + indent < stop && text.charCodeAt(at + indent) !== 35) {
        this.line = { start: at, end: stop, indent, number: this.number };
        return;
      }
    }
    this.line = undefined;
  }
}
