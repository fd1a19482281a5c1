/**
 * The bundled CLI (bundle/, what the package's bin runs): with PROVISION_DEBUG set, a stack
 * trace taken inside it names src/*.ts files and positions (from the linked source maps), and
 * each position is the line that made the call; without it, the bundle's own chunks.
 *
 * The error is real and raised inside the bundle's call chain: a preload (NODE_OPTIONS
 * --import) makes process.stdout.write throw, as a broken pipe or a bug might, and prints that
 * error's stack at exit. main() itself prints the stack of an unexpected error only with
 * PROVISION_DEBUG set, and then it is the same mapped stack.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/process.js';
import { tempDir } from '../helpers/sim-http.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MANIFEST = join(ROOT, 'examples', 'quickstart.yaml');

const PROBE = `
import { writeSync } from 'node:fs';
let thrown;
process.stdout.write = () => { thrown = new Error('probe'); throw thrown; };
process.on('exit', () => { writeSync(2, '\\nPROBE-STACK\\n' + thrown?.stack + '\\nPROBE-END\\n'); });
`;

/** The frames (`at ...` lines) of the probe's stack, after a `validate` that wrote to stdout. */
async function probeStack(env: Record<string, string>): Promise<{ frames: string[]; stderr: string }> {
  const dir = await tempDir();
  const probe = join(dir, 'probe.mjs');
  await writeFile(probe, PROBE);
  const run = await runBin(['validate', MANIFEST], {
    ...env,
    NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`,
  });
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toContain('error: internal error: probe');
  const stack = /PROBE-STACK\n([\s\S]*)\nPROBE-END/.exec(run.stderr)?.[1] ?? '';
  return {
    frames: stack.split('\n').filter((line) => line.trim().startsWith('at ')),
    stderr: run.stderr,
  };
}

/** `src/...ts:line:column` positions in the frames, as [file under the root, line, column]. */
function sourcePositions(frames: readonly string[]): [string, number, number][] {
  const at = new RegExp(`${ROOT.replaceAll('/', '\\/')}/(src/[\\w/.-]+\\.ts):(\\d+):(\\d+)`);
  return frames.flatMap((frame) => {
    const match = at.exec(frame);
    return match === null ? [] : [[match[1]!, Number(match[2]), Number(match[3])] as [string, number, number]];
  });
}

describe("the bundle's stack traces", () => {
  it('with PROVISION_DEBUG=1, name src/*.ts positions, each on the line that made the call', async () => {
    const { frames, stderr } = await probeStack({ PROVISION_DEBUG: '1' });
    const positions = sourcePositions(frames);
    // process-io.ts (the write), io.ts, validate.ts, main.ts at least: the whole chain, mapped.
    expect(
      positions.map(([file]) => file),
      stderr,
    ).toEqual(expect.arrayContaining(['src/cli/process-io.ts', 'src/cli/validate.ts', 'src/cli/main.ts']));
    // Only bin.js (loaded before the maps were turned on) is left as bundle output.
    expect(
      frames.filter((frame) => /bundle\/chunk-/.test(frame)),
      stderr,
    ).toEqual([]);
    for (const [file, line, column] of positions) {
      const text = (await readFile(join(ROOT, file), 'utf8')).split('\n')[line - 1] ?? '';
      // The column points at a call on that line (a name and an opening bracket; an async frame, at its await).
      expect(text.slice(column - 1), `${file}:${line}:${column}`).toMatch(/^(await )?[\w$.]*\(/);
    }
    const main = positions.find(([file]) => file === 'src/cli/main.ts');
    const mainLine = (await readFile(join(ROOT, 'src/cli/main.ts'), 'utf8')).split('\n')[(main?.[1] ?? 0) - 1] ?? '';
    expect(mainLine).toContain('dispatch(');
    // The CLI's own report (before the probe's) carries the mapped stack, and says what to send.
    const own = stderr.slice(0, stderr.indexOf('PROBE-STACK'));
    expect(own).toMatch(/\n\s+at .*src\/cli\/main\.ts:\d+:\d+/);
    expect(own).toContain(
      'hint: this is a bug in panel-provision: please report it with the command you ran and this output',
    );
  });

  it("without it, name the bundle's own files (the maps are not read)", async () => {
    const { frames, stderr } = await probeStack({});
    expect(sourcePositions(frames), stderr).toEqual([]);
    expect(
      frames.some((frame) => /\/bundle\/chunk-[\w]+\.js:\d+:\d+/.test(frame)),
      stderr,
    ).toBe(true);
    // No stack in the CLI's own report: it says how to get one.
    const own = stderr.slice(0, stderr.indexOf('PROBE-STACK'));
    expect(own).not.toMatch(/\n\s+at /);
    expect(own).toContain('PROVISION_DEBUG=1');
  });
});
