/**
 * A big plan is written as it is made, in pieces, never as one text (issue 30, 7f): the text and
 * the JSON on stdout, the --out file; stdout waits for a slow reader; a failure while the file is
 * written leaves nothing under its name.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAtomically } from '../../src/cli/files.js';
import { main } from '../../src/cli/main.js';
import { run, workspace } from '../helpers/cli.js';

/** `n` new clients of one domain each: a plan text of about 200 bytes a change. */
function manifest(n: number): string {
  const lines = ['version: 1', 'clients:'];
  for (let i = 0; i < n; i++) lines.push(`  - username: c${i}`, `    domains: [c${i}.example]`);
  return `${lines.join('\n')}\n`;
}

/** Runs `provision <argv>` with a stdout that records each write and whose `flushed` the test controls. */
async function recorded(
  argv: string[],
  env: Record<string, string>,
  flushed: () => Promise<void> = () => Promise.resolve(),
  writes: string[] = [],
): Promise<{ code: number; writes: string[]; stderr: string }> {
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (t) => writes.push(t), isTTY: false, flushed },
    stderr: { write: (t) => (stderr += t), isTTY: false },
    env,
    untilStopped: () => new Promise<void>(() => undefined),
  });
  return { code, writes, stderr };
}

const N = 3_000;

describe('a big plan, written in pieces', () => {
  it('writes the text and the JSON in pieces of at most about 16 K characters, the same bytes as the file', async () => {
    const w = await workspace(manifest(N));
    const flags = ['--allow-mass-create'];
    for (const format of ['text', 'json']) {
      const out = await recorded(['plan', w.file, '--format', format, ...flags], w.env);
      expect(out.code, out.stderr).toBe(0);
      const text = out.writes.join('');
      expect(text.length).toBeGreaterThan(500_000);
      expect(out.writes.length).toBeGreaterThan(5);
      // A piece held while it is made must not outlive the young generation (plan/json-pieces.ts RUN_LENGTH).
      for (const piece of out.writes) expect(piece.length).toBeLessThan(20_000);
      if (format === 'text') expect(text).toContain(`client "c${N - 1}" will be created`);
      if (format === 'json') {
        const saved = await run(['plan', w.file, '--out', w.planFile, '--format', 'markdown', ...flags], w.env);
        expect(saved.code, saved.stderr).toBe(0);
        expect(await readFile(w.planFile, 'utf8')).toBe(text);
        expect((JSON.parse(text) as { changes: unknown[] }).changes).toHaveLength(2 * N);
        // As written whole: a plan file show reads back and prints as plan printed it.
        expect((await run(['show', w.planFile, '--format', 'json'], {})).stdout).toBe(text);
      }
    }
  });

  it('waits for a slow reader: about a megabyte is queued, then nothing more until stdout takes it', async () => {
    const w = await workspace(manifest(N));
    let release: () => void = () => undefined;
    const writes: string[] = [];
    const written = (): number => writes.reduce((sum, piece) => sum + piece.length, 0);
    const atWaits: number[] = [];
    const running = recorded(
      ['plan', w.file, '--format', 'json', '--allow-mass-create'],
      w.env,
      () => {
        atWaits.push(written());
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      writes,
    );
    for (let i = 0; i < 400 && atWaits.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(atWaits).toHaveLength(1);
    expect(atWaits[0]).toBeGreaterThanOrEqual(1024 * 1024);
    expect(atWaits[0]).toBeLessThan(1024 * 1024 + 100_000);
    // Held while the reader does not take it: nothing more is written.
    await new Promise((r) => setTimeout(r, 200));
    expect(written()).toBe(atWaits[0]);
    const taking = setInterval(() => {
      release();
    }, 5);
    const out = await running;
    clearInterval(taking);
    expect(out.code, out.stderr).toBe(0);
    expect(atWaits.length).toBeGreaterThan(1);
    expect(written()).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('--out: a piece that fails mid-way leaves nothing under the name, no temporary file either', async () => {
    const w = await workspace(manifest(1));
    function* failing(): Generator<string> {
      yield '{"a": 1,\n';
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    }
    await expect(writeAtomically(w.planFile, failing())).rejects.toMatchObject({ code: 'io' });
    expect(await readdir(w.dir)).toEqual(['manifest.yaml']);
    await writeAtomically(join(w.dir, 'ok.json'), ['a', 'b', 'c'][Symbol.iterator]());
    expect(await readFile(join(w.dir, 'ok.json'), 'utf8')).toBe('abc');
  });
});
