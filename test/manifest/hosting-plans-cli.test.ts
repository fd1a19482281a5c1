/**
 * `provision validate` of a manifest with `hosting_plans`: a key panel-provision does not know
 * is a warning with "did you mean" (text on stderr, the JSON document, GitHub annotations) and
 * does not fail the run; a value the panel cannot take, or a client on a plan marked absent,
 * fails it at its file:line:column.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from '../helpers/cli.js';

async function manifestFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-plans-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'manifest.yaml');
  await writeFile(path, text);
  return path;
}

describe('provision validate, hosting_plans', () => {
  it('prints an unknown key as a warning with "did you mean" and exits 0', async () => {
    const path = await manifestFile(
      'version: 1\nhosting_plans:\n  - name: Premium Plus\n    php: {memory_limt: 512M}\n' +
        'clients:\n  - username: alice\n    plan: Premium Plus\n',
    );
    const r = await run(['validate', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^.*manifest\.yaml: valid \(/);
    expect(r.stderr).toBe(
      `${path}:4:11: warning: "php.memory_limt" of hosting plan "Premium Plus" is not a key panel-provision ` +
        `knows in "php": did you mean "memory_limit"? (releases differ: plan refuses it if the panel's plans lack it)\n`,
    );

    const json = await run(['validate', path, '--format', 'json'], { GITHUB_ACTIONS: 'true' });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: true,
      files: [{ warning_count: 1, error_count: 0, diagnostics: [{ severity: 'warning', line: 4, column: 11 }] }],
    });
    expect(json.stderr).toMatch(/^::warning file=.*manifest\.yaml,line=4,col=11::"php\.memory_limt"/m);
  });

  it('prints each error at its value and exits 1', async () => {
    const path = await manifestFile(
      'version: 1\nhosting_plans:\n  - name: Business\n    php: {memory_limit: 512}\n' +
        '  - {name: Legacy, state: absent}\n' +
        'clients:\n  - username: alice\n    plan: Legacy\n',
    );
    const r = await run(['validate', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `${path}:4:25: error: "php.memory_limit" of hosting plan "Business" must be a PHP size like "512M" (quoted), or "-1"\n`,
    );
    expect(r.stderr).toContain(
      `${path}:8:11: error: "plan" of client "alice" names hosting plan "Legacy", which is marked state: absent ` +
        'at line 5: give the client another plan, or remove "state: absent" from the plan\n',
    );
  });
});
