/** `provision validate` of several manifests: each checked and reported, exit 1 when one is invalid. */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from '../helpers/cli.js';
import { runBin } from '../helpers/process.js';

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
    const p = await files({
      'a.yaml': 'version: 1\nclients:\n  - username: alice\n',
      'b.yaml': 'version: 1\nclients:\n  - username: Bob\n',
      'c.yaml': 'version: 1\nclients: []\n',
    });
    const r = await run(['validate', p['a.yaml'] ?? '', p['b.yaml'] ?? '', p['c.yaml'] ?? '']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `${p['a.yaml']}: valid (1 client, 0 domains)\n${p['c.yaml']}: valid (0 clients, 0 domains)\n`,
    );
    expect(r.stderr).toContain(`${p['b.yaml']}:3:15: error: username "Bob"`);
    expect(r.stderr).toContain(`error: 1 manifest of 3 is invalid: "${p['b.yaml']}"`);
    const ok = await run(['validate', p['a.yaml'] ?? '', p['c.yaml'] ?? '']);
    expect(ok.code).toBe(0);
  });

  it("counts each section kind's items when some item gives its list, even empty", async () => {
    const p = await files({
      'm.yaml':
        'version: 1\nclients:\n  - username: alice\n    databases: [{name: alice_wp}]\n    domains:\n' +
        '      - name: alice.example\n        mailboxes: [{name: info}, {name: desk}]\n      - name: b.example\n' +
        '  - username: bob\n    ftp_users: []\n',
    });
    const r = await run(['validate', p['m.yaml'] ?? '']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${p['m.yaml']}: valid (2 clients, 2 domains, 2 mailboxes, 1 database, 0 FTP users)\n`);
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

describe('validate --format json', () => {
  const schema = JSON.parse(
    readFileSync(new URL('../../schemas/validate-result.schema.json', import.meta.url), 'utf8'),
  ) as object;
  // The options the plan schema is compiled with (scripts/generate-validator.ts, test/e2e/schemas.test.ts).
  const valid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

  it('prints one document for all the manifests, each with its diagnostics, that the schema accepts; exit codes as in text', async () => {
    const p = await files({
      'a.yaml': 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n  - username: a1ice\n',
      'b.yaml': 'version: 1\nclients:\n  - username: Bob\n',
    });
    const r = await run(['validate', p['a.yaml'] ?? '', p['b.yaml'] ?? '', '--format', 'json']);
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout) as { files: { diagnostics: { message: string }[] }[] };
    expect(valid(result), JSON.stringify(valid.errors)).toBe(true);
    expect(result).toMatchObject({
      format_version: '1.1',
      valid: false,
      files: [
        {
          path: p['a.yaml'],
          valid: true,
          error_count: 0,
          warning_count: 1,
          clients: 2,
          domains: 1,
          diagnostics: [{ severity: 'warning', file: p['a.yaml'], line: 5, column: 15 }],
        },
        {
          path: p['b.yaml'],
          valid: false,
          error_count: 1,
          warning_count: 0,
          diagnostics: [{ severity: 'error', file: p['b.yaml'], line: 3, column: 15 }],
        },
      ],
    });
    expect(result.files[1]?.diagnostics[0]?.message).toContain('username "Bob"');
    expect(result.files[1]).not.toHaveProperty('clients');
    // The diagnostics are in the document, not on stderr as well; the failure is said there.
    expect(r.stderr).toBe(`error: 1 manifest of 2 is invalid: "${p['b.yaml']}"\n`);

    const ok = await run(['validate', p['a.yaml'] ?? '', '--format', 'json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true });
    expect(valid(JSON.parse(ok.stdout))).toBe(true);
  });

  it('annotates under GitHub Actions beside the document; refuses another format', async () => {
    const p = await files({ 'b.yaml': 'version: 1\nclients:\n  - username: Bob\n' });
    const r = await run(['validate', p['b.yaml'] ?? '', '--format', 'json'], {
      GITHUB_ACTIONS: 'true',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^::error file=.*b\.yaml,line=3,col=15::username "Bob"/m);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: false });
    const bad = await run(['validate', p['b.yaml'] ?? '', '--format', 'markdown']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--format must be one of text, json, not "markdown"');
  });

  it('the schema refuses what the output never holds', () => {
    const file = {
      path: 'm.yaml',
      valid: true,
      error_count: 0,
      warning_count: 0,
      clients: 1,
      domains: 0,
      diagnostics: [],
    };
    expect(valid({ format_version: '1.0', valid: true, files: [file] })).toBe(true);
    expect(valid({ format_version: '1.0', valid: true, files: [{ ...file, error_count: 1 }] })).toBe(false);
    expect(
      valid({
        format_version: '1.0',
        valid: false,
        files: [{ ...file, valid: false, error_count: 1 }],
      }),
    ).toBe(false);
    expect(valid({ format_version: '2.0', valid: true, files: [] })).toBe(false);
  });
});

describe('validate as a process: nothing bypasses the output filter', () => {
  it("yaml's own warnings (a key that is a collection) are not printed raw: the located problem says it", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provision-validate-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'm.yaml');
    await writeFile(file, 'version: 1\nclients:\n  - username: alice\n    ? [a, "\\e[31mred"]\n    : c\n');
    const r = await runBin(['validate', file], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:5: error: unknown key`);
    expect(r.stderr).not.toContain('Keys with collection values');
    expect(r.stderr).not.toContain('\u001b');
  });
});
