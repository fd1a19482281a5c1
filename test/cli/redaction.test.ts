/**
 * Every byte the CLI writes is filtered from the first, for every form a credential can come
 * back in. These runs have a panel (or a user) put the key where output picks it up on purpose;
 * the leak test covers the runs where nothing should ever need filtering.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactingIo } from '../../src/cli/io.js';
import { REDACTED, Redactions } from '../../src/redact.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n';

/** A key with every character that escaping changes (keys are printable ASCII). */
const KEY = `Ab1/"<&>'+%x-SECRET`;

/** The key as it stands, and in each form a panel may echo it: none may reach the output. */
const FORMS = [
  KEY,
  encodeURIComponent(KEY),
  JSON.stringify(KEY).slice(1, -1),
  JSON.stringify(KEY).slice(1, -1).replace(/\//g, '\\/'),
  KEY.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;'),
];

describe('a panel that echoes the key back', () => {
  it.each(FORMS.map((form, i) => [i, form]))(
    'form %i of the key, in the JSON message of an error: never in the output',
    async (_, form) => {
      const w = await workspace(MANIFEST, {
        apiKey: KEY,
        intercept: ({ path }) =>
          path === '/ping' ? { status: 500, json: { message: `bad key <${form}>` } } : undefined,
      });
      const r = await run(['plan', w.file], { ...w.env, PROVISION_API_KEY: KEY });
      expect(r.code).toBe(1);
      for (const f of FORMS) expect(r.stdout + r.stderr).not.toContain(f);
      expect(r.stderr).toContain('GET /api/v2/ping: 500');
    },
  );
});

describe('the key given by mistake where a path belongs', () => {
  it.each([
    ['--api-key-file KEY', ['--api-key-file', API_KEY]],
    ['--api-key-file=KEY', [`--api-key-file=${API_KEY}`]],
  ])('%s: the error that says the "file" cannot be read does not repeat the path', async (_, flag) => {
    const w = await workspace(MANIFEST);
    const r = await run(['plan', w.file, ...flag], {
      PROVISION_URL: w.env.PROVISION_URL,
    });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
    // Not blanked either: the code never tried to print it.
    expect(r.stdout + r.stderr).not.toContain(REDACTED);
    expect(r.stderr).toContain('error: cannot read the API key file of --api-key-file: ENOENT');
    expect(r.stderr).toContain('hint: check the path given to --api-key-file (not repeated here');
  });

  it('the key from the environment, as an argument, is refused unquoted before anything is read, by commands that never use it too', async () => {
    const r = await run(['validate', API_KEY], { PROVISION_API_KEY: API_KEY });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: argument 1 after 'validate' holds the API key: nothing was read or sent");
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
    expect(r.stdout + r.stderr).not.toContain(REDACTED);
  });
});

describe('the key of --api-key-file is known before any other input is read', () => {
  it.each([
    ['plan', ['plan', API_KEY, '--api-key-file', 'KEYFILE']],
    ['apply', ['apply', API_KEY, '--api-key-file', 'KEYFILE']],
    ['apply, --api-key-file=FILE first', ['apply', '--api-key-file=KEYFILE', `./${API_KEY}.yaml`]],
    [
      'apply, inside a URL',
      ['apply', 'MANIFEST', '--api-key-file', 'KEYFILE', '--url', `https://panel.example/?k=${API_KEY}`],
    ],
    ['validate', ['validate', API_KEY, '--api-key-file', 'KEYFILE']],
  ])('%s: the key given as an argument is never printed, not even blanked', async (_, argv) => {
    const w = await workspace(MANIFEST);
    const keyFile = join(w.dir, 'key.txt');
    await writeFile(keyFile, `${API_KEY}\n`);
    const r = await run(
      argv.map((a) => (a === 'KEYFILE' ? keyFile : a.replace('KEYFILE', keyFile).replace('MANIFEST', w.file))),
      { PROVISION_URL: w.env.PROVISION_URL },
    );
    expect(r.code).toBe(1);
    const output = r.stdout + r.stderr;
    expect(output).not.toContain(API_KEY);
    // No marker either: the code itself never tried to print it.
    expect(output).not.toContain(REDACTED);
    expect(output).toMatch(/holds the API key: nothing was read or sent|unknown option '--api-key-file'/);
    expect(w.sim.requests).toHaveLength(0);
  });
});

describe('every other channel takes the filter', () => {
  it('the step summary: a key in the manifest is blanked there as on stdout; the --out plan file is a document, written as it is', async () => {
    const w = await workspace(`version: 1\nclients:\n  - username: alice\n    email: ${API_KEY}@example.com\n`);
    const summary = join(w.dir, 'summary.md');
    const r = await run(['plan', w.file, '--out', w.planFile], {
      ...w.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code).toBe(0);
    for (const text of [r.stdout, await readFile(summary, 'utf8')]) {
      expect(text).not.toContain(API_KEY);
      expect(text).toContain(`${REDACTED}@example.com`);
    }
    // What the manifest says, as it says it (the leak test holds that no code puts a credential there).
    expect(await readFile(w.planFile, 'utf8')).toContain(`"${API_KEY}@example.com"`);
  });

  it("the terminal prompt's question", async () => {
    const asked: string[] = [];
    const out = { write: () => undefined, isTTY: true };
    const io = redactingIo(
      {
        stdout: out,
        stderr: out,
        env: {},
        untilStopped: () => new Promise(() => undefined),
        prompt: (q) => (asked.push(q), Promise.resolve('no')),
      },
      new Redactions().add(API_KEY),
    );
    await io.prompt?.(`Apply 2 changes to https://panel.example/${API_KEY}? \u001b]0;x\u0007`);
    expect(asked).toEqual([`Apply 2 changes to https://panel.example/${REDACTED}? \\u001b]0;x\\u0007`]);
  });
});
