/**
 * `provision validate` of a manifest with domain settings: their warnings reach the user
 * through the diagnostics path (text on stderr, the JSON document, GitHub annotations) and do
 * not fail the run; their errors do.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from '../helpers/cli.js';

async function manifestFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-settings-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'manifest.yaml');
  await writeFile(path, text);
  return path;
}

const HEAD = 'version: 1\nclients:\n  - username: alice\n    domains:\n      - alice.example\n';

describe('provision validate, domain settings', () => {
  it('prints a setting warning at its value and exits 0', async () => {
    const path = await manifestFile(
      `${HEAD}      - name: shop.alice.example\n        php_version: "8.3"\n        https:\n          hsts: {max_age: 60}\n`,
    );
    const r = await run(['validate', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${path}: valid (1 client, 2 domains)\n`);
    expect(r.stderr).toBe(
      `${path}:9:27: warning: "https.hsts.max_age" of domain "shop.alice.example" in client "alice" is 60 seconds: ` +
        'under 300 (5 minutes), browsers forget the HTTPS-only rule almost at once; one year is 31536000\n',
    );

    const json = await run(['validate', path, '--format', 'json'], { GITHUB_ACTIONS: 'true' });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: true,
      files: [{ warning_count: 1, error_count: 0, diagnostics: [{ severity: 'warning', line: 9, column: 27 }] }],
    });
    expect(json.stderr).toMatch(/^::warning file=.*manifest\.yaml,line=9,col=27::"https\.hsts\.max_age"/m);
  });

  it('prints a setting error at its value and exits 1', async () => {
    const path = await manifestFile(`${HEAD}      - {name: shop.alice.example, php_version: 8.10}\n`);
    const r = await run(['validate', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `${path}:6:49: error: "php_version" of domain "shop.alice.example" in client "alice" must be quoted, ` +
        'like php_version: "8.3": YAML reads an unquoted version as a number (8.10 as 8.1), not 8.1\n',
    );
  });
});
