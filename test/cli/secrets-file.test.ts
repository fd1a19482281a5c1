/**
 * The secrets file is ours alone, for every command that touches it: apply refuses a symbolic
 * link before any request that changes the panel, and `secrets decrypt` reads through the
 * journal's own reader, which refuses links and anything but a regular file.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
const URL = 'http://panel.example/api/v2';
const record = (username: string, id: number) =>
  JSON.stringify({
    created_at: '2030-01-01T00:00:00.000Z',
    panel_url: URL,
    username,
    id,
    password: `pw-${username}-42`,
  });

describe('apply with a secrets file that is a symbolic link', () => {
  it.each([
    ['to a file', true],
    ['dangling', false],
  ])('%s: refused, and no request that changes the panel is sent', async (_, targetExists) => {
    const w = await workspace(MANIFEST);
    const target = join(w.dir, 'elsewhere.jsonl');
    if (targetExists) await writeFile(target, '', { mode: 0o600 });
    await symlink(target, w.secrets);
    const r = await run(['apply', w.file, '--auto-approve', '--secrets-file', w.secrets], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: the secrets file ${w.secrets} is a symbolic link`);
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(w.sim.state.clients.size).toBe(0);
    if (targetExists) expect(await readFile(target, 'utf8')).toBe('');
    else await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('secrets decrypt reads through the journal', () => {
  it('refuses a symbolic link to a journal, a directory and a pipe, printing nothing', async () => {
    const w = await workspace(MANIFEST);
    const real = join(w.dir, 'real.jsonl');
    await writeFile(real, `${record('alice', 2)}\n`, { mode: 0o600 });
    const link = join(w.dir, 'link.jsonl');
    await symlink(real, link);
    const directory = join(w.dir, 'sub');
    await mkdir(directory);
    const fifo = join(w.dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [path, what] of [
      [link, 'is a symbolic link'],
      [directory, 'is not a regular file'],
      [fifo, 'is not a regular file'],
    ] as const) {
      const r = await run(['secrets', 'decrypt', path]);
      expect(r.code, path).toBe(1);
      expect(r.stdout, path).toBe('');
      expect(r.stderr, path).toContain(`error: the secrets file ${path} ${what}`);
    }
    const missing = await run(['secrets', 'decrypt', join(w.dir, 'none.jsonl')]);
    expect(missing.stderr).toContain('cannot read the secrets file');
    expect(missing.stderr).toContain('ENOENT');
  });

  it('a null line, or one that is not an object, is warned about and skipped; the records around it are printed', async () => {
    const w = await workspace(MANIFEST);
    await writeFile(w.secrets, `${record('alice', 2)}\nnull\n[1]\n${record('bob', 3)}\n`, {
      mode: 0o600,
    });
    const r = await run(['secrets', 'decrypt', w.secrets]);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { username: string }).username),
    ).toEqual(['alice', 'bob']);
    expect(r.stderr).toContain(`warning: ${w.secrets}:2: not a JSON object: skipped`);
    expect(r.stderr).toContain(`warning: ${w.secrets}:3: not a JSON object: skipped`);
    expect(r.stderr).toContain('2 records');
  });
});

describe('apply with a secrets file whose directory does not exist', () => {
  it('nothing to change: exits 0, as before the lock (no journal can be written there, so none is locked)', async () => {
    const w = await workspace('version: 1\nclients: []\n');
    const missing = join(w.dir, 'nonexistent', 'dir', 's.jsonl');
    const r = await run(['apply', w.file, '--auto-approve'], { ...w.env, PROVISION_SECRETS_FILE: missing });
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
  });

  it('a plan that creates a client: refused before anything is sent', async () => {
    const w = await workspace(MANIFEST);
    const missing = join(w.dir, 'nonexistent', 's.jsonl');
    const r = await run(['apply', w.file, '--auto-approve'], { ...w.env, PROVISION_SECRETS_FILE: missing });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot open the secrets file ${missing}: ENOENT`);
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
