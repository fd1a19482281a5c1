import type { Output } from './io.js';

/** How much is written to an output before waiting for it to take what it holds queued. */
const QUEUED_AT_MOST = 1024 * 1024;

/**
 * Writes a document made in pieces (a plan's text, its JSON) to `output` as each is made, never
 * holding it whole: after about a megabyte it waits until the output has taken what was
 * written (`flushed`: a slow pipe, a pager), so a reader slower than the plan holds the
 * process at that, not at the whole document queued in memory. A reader gone (`| head`) ends
 * the process at its next write, as writing it whole did (src/outputs.ts).
 */
export async function writePieces(output: Output, pieces: Iterable<string>): Promise<void> {
  let queued = 0;
  for (const piece of pieces) {
    output.write(piece);
    queued += piece.length;
    if (queued >= QUEUED_AT_MOST && output.flushed !== undefined) {
      await output.flushed();
      queued = 0;
    }
  }
}
