/**
 * `provision validate` of manifests with indentation mistakes: each in plain words ("indented
 * more than the key above it") at the line that holds it, file:line:column, in a file and in a
 * directory's part, read whole or in chunks (docs/manifest.md, "Indentation").
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHUNKED_DIAGNOSTICS_ABOVE } from '../../src/manifest/load.js';
import { run } from '../helpers/cli.js';

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-indent-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function manifestFile(text: string): Promise<string> {
  const path = join(await tempDir(), 'manifest.yaml');
  await writeFile(path, text);
  return path;
}

/** validate's stderr for `text`, with the file's path written as `m.yaml`; it must fail. */
async function refused(text: string): Promise<string> {
  const path = await manifestFile(text);
  const r = await run(['validate', path]);
  expect(r.code).toBe(1);
  return r.stderr.replaceAll(path, 'm.yaml');
}

const KEY_MORE =
  'm.yaml:4:6: error: line 4 is indented more than the key above it: "plan" starts at column 6, ' +
  '"username" on line 3 at column 5; the keys of one mapping start at the same column\n';

describe('provision validate, indentation mistakes', () => {
  it('a key one space too far: at its line, in plain words', async () => {
    expect(
      await refused('version: 1\nclients:\n  - username: alice\n     plan: Basic\n    email: a@example.com\n'),
    ).toBe(`${KEY_MORE}error: m.yaml: 1 error: fix them and run again\n`);
    expect(await refused('version: 1\n clients:\n  - username: alice\n')).toContain(
      'm.yaml:2:2: error: line 2 is indented more than the key above it: "clients" starts at column 2, ' +
        '"version" on line 1 at column 1; the keys of one mapping start at the same column\n',
    );
    expect(
      await refused(
        'version: 1\nclients:\n  - username: alice\n    domains:\n      - name: a.example\n         php_version: "8.2"\n',
      ),
    ).toContain('m.yaml:6:10: error: line 6 is indented more than the key above it: "php_version" starts at column 10');
  });

  it('a key one space too little', async () => {
    expect(await refused('version: 1\nclients:\n  - username: alice\n    plan: Basic\n   email: a@example.com\n')).toBe(
      'm.yaml:5:4: error: line 5 is indented less than the key above it: "email" starts at column 4, ' +
        '"plan" on line 4 at column 5; the keys of one mapping start at the same column\n' +
        'error: m.yaml: 1 error: fix them and run again\n',
    );
  });

  it('a list item one space too far or too little', async () => {
    expect(await refused('version: 1\nclients:\n  - username: alice\n   - username: bob\n')).toContain(
      'm.yaml:4:4: error: line 4 is indented more than the list item above it: this "-" is at column 4, ' +
        'the one on line 3 at column 3; the items of one list start at the same column\n',
    );
    expect(await refused('version: 1\nclients:\n  - username: alice\n - username: bob\n')).toContain(
      'm.yaml:4:2: error: line 4 is indented less than the list item above it: this "-" is at column 2, ' +
        'the one on line 3 at column 3',
    );
    const domains = 'version: 1\nclients:\n  - username: alice\n    domains:\n      - a.example\n';
    expect(await refused(`${domains}     - b.example\n`)).toContain(
      'm.yaml:6:6: error: line 6 is indented less than the list item above it: this "-" is at column 6, ' +
        'the one on line 5 at column 7',
    );
    // YAML reads this one as the text "a.example - b.example", without an error of its own.
    expect(await refused(`${domains}       - b.example\n`)).toBe(
      'm.yaml:6:8: error: line 6 is indented more than the list item above it: this "-" is at column 8, ' +
        'the one on line 5 at column 7; the items of one list start at the same column ' +
        '(as written, line 6 is more of the text on line 5)\n' +
        'error: m.yaml: 1 error: fix them and run again\n',
    );
  });

  it('a tab in the indentation: at its line, with the word indent', async () => {
    expect(await refused('version: 1\nclients:\n  - username: alice\n\tplan: Basic\n')).toBe(
      'm.yaml:4:1: error: tabs are not allowed as indentation: indent with spaces\n' +
        'error: m.yaml: 1 error: fix them and run again\n',
    );
  });

  it('every mistake at once, and the errors yaml finds elsewhere', async () => {
    const stderr = await refused(
      'version: 1\nclients:\n  - username: alice\n     plan: Basic\n  - username: bob\n' +
        '    email: "b@example.com\n',
    );
    expect(stderr.split('\n').filter((l) => l.startsWith('m.yaml:'))).toEqual([
      expect.stringMatching(/^m\.yaml:4:6: error: line 4 is indented more than the key above it/),
      expect.stringMatching(/^m\.yaml:7:1: error: missing closing "quote/),
    ]);
    const two = await refused(
      'version: 1\nclients:\n  - username: alice\n     plan: Basic\n  - username: bob\n   - username: carol\n',
    );
    expect(two.split('\n').filter((l) => l.startsWith('m.yaml:'))).toEqual([
      expect.stringMatching(/^m\.yaml:4:6: error: line 4 is indented more than the key above it/),
      expect.stringMatching(/^m\.yaml:6:4: error: line 6 is indented more than the list item above it/),
    ]);
  });

  it('after a block scalar: a line less indented than its text ends it', async () => {
    const text = (key: string): string =>
      `version: 1\nx-notes: |\n    Deploy notes\n      - indented more: still text\n\n${key}:\n  - username: alice\n`;
    const path = await manifestFile(text('clients'));
    expect((await run(['validate', path])).code).toBe(0);
    expect(await refused(text('  clients'))).toContain(
      'm.yaml:6:3: error: line 6 is indented more than the key above it: "clients" starts at column 3, ' +
        '"x-notes" on line 2 at column 1; the keys of one mapping start at the same column\n',
    );
  });

  it("in a directory's part: at the part's line", async () => {
    const dir = await tempDir();
    const parts = join(dir, 'panel');
    await mkdir(parts);
    await writeFile(join(parts, 'a.yaml'), 'version: 1\nclients:\n  - username: bob\n');
    await writeFile(join(parts, 'b.yaml'), 'version: 1\nclients:\n  - username: alice\n     plan: Basic\n');
    const r = await run(['validate', parts]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(parts, 'b.yaml')}:4:6: error: line 4 is indented more than the key above it`);
  });

  it('in a large manifest (read in chunks when valid): at its line', async () => {
    const clients = Array.from({ length: 3000 }, (_, i) => `  - username: user${i}\n    email: u${i}@example.com\n`);
    const mistake = 2000;
    clients[mistake] = `  - username: user${mistake}\n     email: u${mistake}@example.com\n`;
    const text = `version: 1\nclients:\n${clients.join('')}`;
    expect(text.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
    const line = 2 + 2 * mistake + 2;
    expect(await refused(text)).toBe(
      `m.yaml:${line}:6: error: line ${line} is indented more than the key above it: "email" starts at column 6, ` +
        `"username" on line ${line - 1} at column 5; the keys of one mapping start at the same column\n` +
        'error: m.yaml: 1 error: fix them and run again\n',
    );
    // The same list item read as text, which yaml takes without an error: found in chunks too.
    const items = Array.from(
      { length: 3000 },
      (_, i) => `  - username: user${i}\n    domains:\n      - u${i}.example\n`,
    );
    items[mistake] = `  - username: user${mistake}\n    domains:\n      - a.example\n       - b.example\n`;
    const at = 2 + 3 * mistake + 4;
    expect(await refused(`version: 1\nclients:\n${items.join('')}`)).toContain(
      `m.yaml:${at}:8: error: line ${at} is indented more than the list item above it`,
    );
  });
});
