/**
 * `plan --from-snapshot` of a snapshot dated in the future (issue 30, 8): a wrong clock where it
 * was taken, or an edited file, leaves its age unknown: a warning says so (text, JSON, stderr);
 * a few seconds ahead (clocks differ) is not warned of.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: dave
    domains: [dave.example]
`;

/** A snapshot of the simulator for MANIFEST, its `taken_at` moved `aheadMs` past now. */
async function snapshotAhead(aheadMs: number): Promise<{ file: string; manifest: string; takenAt: string }> {
  const w = await workspace(MANIFEST);
  const file = join(w.dir, 'snapshot.json');
  const taken = await run(['snapshot', w.file, '--out', file], w.env);
  expect(taken.code, taken.stderr).toBe(0);
  const document = JSON.parse(await readFile(file, 'utf8')) as { taken_at: string };
  const takenAt = new Date(Date.now() + aheadMs).toISOString();
  await writeFile(file, JSON.stringify({ ...document, taken_at: takenAt }));
  return { file, manifest: w.file, takenAt };
}

describe('a snapshot taken in the future', () => {
  it('is planned with a warning that its age is unknown, in text and JSON', async () => {
    const { file, manifest, takenAt } = await snapshotAhead(3 * 24 * 3_600_000);
    const warning =
      `the snapshot ${file} says it was taken at ${takenAt}, 2 days from now: its age is unknown ` +
      '(a wrong clock where it was taken, or an edited file); check that clock and take it again';
    const text = await run(['plan', manifest, '--from-snapshot', file, '--no-color'], {});
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Warnings:');
    expect(text.stdout).toContain(warning);
    expect(text.stdout).toContain('client "dave" will be created');

    const json = await run(['plan', manifest, '--from-snapshot', file, '--format', 'json'], {});
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { warnings?: string[] }).warnings).toEqual([warning]);
    expect(json.stderr).toContain(`warning: ${warning}`);
  });

  it('a few seconds ahead (clocks differ) is not warned of', async () => {
    const { file, manifest } = await snapshotAhead(20_000);
    const text = await run(['plan', manifest, '--from-snapshot', file, '--no-color'], {});
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('Warnings:');
    expect(text.stdout).toContain('note: Planned against the snapshot');
  });
});
