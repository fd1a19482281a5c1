/**
 * cli/progress.ts: without the live line (a pipe, a CI log), the outcome lines a turn of the
 * event loop makes are written together, and always before a note and at the end: the same
 * text, in the same order, in few writes.
 */
import { describe, expect, it } from 'vitest';
import { setImmediate as turn } from 'node:timers/promises';
import { ApplyProgress } from '../../src/cli/progress.js';
import type { Io } from '../../src/cli/io.js';
import { newClient } from '../helpers/builders.js';

/** An Io whose outputs keep each write, neither a terminal. */
function capture(): { io: Io; writes: { stream: string; text: string }[] } {
  const writes: { stream: string; text: string }[] = [];
  const output = (stream: string) => ({ isTTY: false, write: (text: string) => void writes.push({ stream, text }) });
  return {
    io: {
      stdout: output('stdout'),
      stderr: output('stderr'),
      env: {},
      untilStopped: () => new Promise(() => undefined),
    },
    writes,
  };
}

const succeeded = (name: string) => ({ change: newClient(name), status: 'succeeded' as const, id: 1 });

describe('apply progress without a live line', () => {
  it("writes a turn's outcome lines in one write, after the turn", async () => {
    const { io, writes } = capture();
    const progress = new ApplyProgress(io, 'text', 3);
    for (const name of ['a', 'b', 'c']) progress.onEvent({ type: 'outcome', outcome: succeeded(name) });
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toHaveLength(1);
    expect(writes[0]?.text.match(/client "[abc]"/g)).toEqual(['client "a"', 'client "b"', 'client "c"']);
  });

  it('writes what is pending before a note and at the end, in order', () => {
    const { io, writes } = capture();
    const progress = new ApplyProgress(io, 'text', 2);
    progress.onEvent({ type: 'outcome', outcome: succeeded('a') });
    progress.onEvent({ type: 'note', message: 'a note' });
    progress.onEvent({ type: 'outcome', outcome: succeeded('b') });
    progress.end();
    expect(
      writes.map((w) => `${w.stream}: ${w.text.includes('"a"') ? 'a' : w.text.includes('"b"') ? 'b' : w.text.trim()}`),
    ).toEqual(['stdout: a', 'stderr: a note', 'stdout: b']);
  });
});
