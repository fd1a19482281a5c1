/** `provision validate` of several manifests: each checked and reported, exit 1 when one is invalid. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from '../helpers/cli.js';

async function files(contents: Record<string, string>): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-validate-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const paths: Record<string, string> = {};
  for (const [name, text] of Object.entries(contents)) {
    paths[name] = join(dir, name);
    await writeFile(paths[name], text);
  }
  return paths;
}

describe('validate, several manifests', () => {
  it('checks each one whatever the others hold, and fails when one is invalid', async () => {
    const p = await files({ 'a.yaml': 'version: 1\nclients:\n  - username: alice\n', 'b.yaml': 'version: 1\nclients:\n  - username: Bob\n', 'c.yaml': 'version: 1\nclients: []\n' });
    const r = await run(['validate', p['a.yaml'] ?? '', p['b.yaml'] ?? '', p['c.yaml'] ?? '']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${p['a.yaml']}: valid (1 client, 0 domains)\n${p['c.yaml']}: valid (0 clients, 0 domains)\n`);
    expect(r.stderr).toContain(`${p['b.yaml']}:3:15: error: username "Bob"`);
    expect(r.stderr).toContain(`error: 1 manifest of 3 is invalid: "${p['b.yaml']}"`);
    const ok = await run(['validate', p['a.yaml'] ?? '', p['c.yaml'] ?? '']);
    expect(ok.code).toBe(0);
  });

  it('takes standard input once at most, and at least one manifest', async () => {
    const twice = await run(['validate', '-', '-']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('standard input (-) can be given once');
    const none = await run(['validate']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('expected at least 1 argument, got 0');
  });
});
