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
    this.clear();
    const stamp = this.lines.isTTY ? '' : `${new Date().toISOString()} `;
    this.lines.write(`${stamp}${renderOutcomeLine(outcome, { color: useColor(this.lines, this.io.env) })}\n`);
    this.draw();
  }

  note(text: string): void {
    this.clear();
    this.io.stderr.write(`${text}\n`);
    this.draw();
  }

  end(): void {
    this.clear();
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
