import type { Outcome } from '../api/apply.js';
import type { OnEvent } from '../api/prepare.js';
import { renderOutcomeLine, renderProgressLine } from '../render/outcome.js';
import type { Io, Output } from './io.js';
import { useColor } from './io.js';

/**
 * Progress of an apply. On a terminal with a known width, finished actions are printed as they
 * come with one live counts line under them (stderr, redrawn in place); otherwise one
 * timestamped line per finished action, for CI logs. Outcome lines go to stdout in text
 * format, to stderr in json format (stdout is then the result only).
 */
export class ApplyProgress {
  private readonly lines: Output;
  private readonly live: boolean;
  private readonly counts = { succeeded: 0, failed: 0, skipped: 0 };
  private shown = false;
  /**
   * Outcome lines not written yet (without the live line): written together when the turn of
   * the event loop that made them ends, or at 64 kB, or before a note. A write each cost a
   * system call a line: to a pipe (CI logs), about a sixth of apply's CPU at 3,000 changes.
   */
  private pending = '';
  private flushing: ReturnType<typeof setImmediate> | undefined;

  constructor(
    private readonly io: Io,
    format: 'text' | 'json',
    private readonly total: number,
  ) {
    this.lines = format === 'json' ? io.stderr : io.stdout;
    this.live = io.stderr.isTTY && (io.stderr.columns ?? 0) > 0;
  }

  /**
   * The run's events (api/apply.ts runPlan): each outcome as a line, each note above the live
   * line; the rest is not shown here.
   */
  readonly onEvent: OnEvent = (event) => {
    if (event.type === 'outcome') this.outcome(event.outcome);
    else if (event.type === 'note') this.note(event.message);
  };

  outcome(outcome: Outcome): void {
    this.counts[outcome.status]++;
    const stamp = this.lines.isTTY ? '' : `${new Date().toISOString()} `;
    const line = `${stamp}${renderOutcomeLine(outcome, { color: useColor(this.lines, this.io.env) })}\n`;
    if (this.live) {
      this.clear();
      this.lines.write(line);
      this.draw();
      return;
    }
    this.pending += line;
    if (this.pending.length >= 65_536) this.flush();
    else
      this.flushing ??= setImmediate(() => {
        this.flush();
      });
  }

  note(text: string): void {
    this.flush();
    this.clear();
    this.io.stderr.write(`${text}\n`);
    this.draw();
  }

  /** The run is over (or stopped): what is pending is written, the live line cleared. */
  end(): void {
    this.flush();
    this.clear();
  }

  private flush(): void {
    if (this.flushing !== undefined) clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.lines.write(text);
  }

  private draw(): void {
    if (!this.live) return;
    this.io.stderr.write(renderProgressLine(this.counts, this.total, this.io.stderr.columns ?? 0));
    this.shown = true;
  }

  private clear(): void {
    if (!this.shown) return;
    this.io.stderr.write('\r\x1b[2K');
    this.shown = false;
  }
}
