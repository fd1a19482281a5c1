import { structuredPatch } from 'diff';

/**
 * The 1-based line ranges of `before` that the change from `before` to `after` touches: each
 * hunk (no context) as [first, last] old lines; an insertion as the line it follows.
 */
export function touched(before: string, after: string): [number, number][] {
  // jsdiff gives an insertion's oldStart as the line it goes before.
  return structuredPatch('a', 'b', before, after, undefined, undefined, { context: 0 }).hunks.map((h) =>
    h.oldLines === 0 ? [h.oldStart - 1, h.oldStart - 1] : [h.oldStart, h.oldStart + h.oldLines - 1],
  );
}

/** The 1-based line range of `text` from the line holding `first` to the next line holding `last` (both included). */
export function linesOf(text: string, first: string, last: string = first): [number, number] {
  const lines = text.split('\n');
  const a = lines.findIndex((l) => l.includes(first));
  const b = lines.findIndex((l, i) => i >= a && l.includes(last));
  if (a < 0 || b < 0) throw new Error(`not in the text: ${first} / ${last}`);
  return [a + 1, b + 1];
}

/** The touched ranges of the change that lie outside every range of `changed`: none when only those entries changed. */
export function outside(before: string, after: string, changed: readonly [number, number][]): [number, number][] {
  return touched(before, after).filter(([first, last]) => !changed.some(([a, b]) => first >= a && last <= b));
}
