/**
 * `provision validate` of a manifest with `dns` blocks: their warnings (what a panel can hold)
 * reach the user through the diagnostics path (text on stderr, the JSON document, GitHub
 * annotations) and do not fail the run; their errors do, at their file:line:column.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from '../helpers/cli.js';

async function manifestFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-dns-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'manifest.yaml');
  await writeFile(path, text);
  return path;
}

const HEAD = 'version: 1\nclients:\n  - username: alice\n    domains:\n      - name: alice.example\n        dns:\n';

describe('provision validate, dns', () => {
  it('prints a record warning at its place and exits 0', async () => {
    const path = await manifestFile(
      `${HEAD}          records:\n` +
        '            - {host: www, type: CNAME, value: alice.example.}\n' +
        '            - {host: www, type: TXT, value: "v=spf1 -all"}\n' +
        '          prune: true\n',
    );
    const r = await run(['validate', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${path}: valid (1 client, 1 domain)\n`);
    expect(r.stderr).toBe(
      `${path}:8:33: warning: "dns" record #1 of domain "alice.example" in client "alice" is a CNAME at host "www" ` +
        'beside another record there (record #2, TXT, line 9): DNS forbids it (RFC 1034: an alias has no other ' +
        'records), and resolvers answer one or the other; keep the CNAME alone at its host\n',
    );

    const json = await run(['validate', path, '--format', 'json'], { GITHUB_ACTIONS: 'true' });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: true,
      files: [{ warning_count: 1, error_count: 0, diagnostics: [{ severity: 'warning', line: 8, column: 33 }] }],
    });
    expect(json.stderr).toMatch(/^::warning file=.*manifest\.yaml,line=8,col=33::"dns" record #1/m);
  });

  it('prints a record error at its value and exits 1', async () => {
    const path = await manifestFile(
      `${HEAD}          ttl: 3600\n          records:\n            - {host: mail.bob.example., type: A, value: 192.0.2.1}\n`,
    );
    const r = await run(['validate', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `${path}:9:22: error: "host" of "dns" record #1 of domain "alice.example" in client "alice" is a name in ` +
        'another zone than "alice.example": its records belong in that zone\n',
    );
  });
});
