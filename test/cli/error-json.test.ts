/**
 * Errors as data: a command run with `--format json` that fails prints one JSON document on
 * stdout (schemas/error.schema.json), its error's code, message, hint and facts (`meta`), and
 * each problem at a place in `errors`; it exits as it does without the flag, and stderr keeps
 * the text form. A command that printed its own document already prints no second one.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { API_KEY, run, type RunResult, workspace } from '../helpers/cli.js';
import { runBin } from '../helpers/process.js';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const errorValid = ajv.compile(
  JSON.parse(readFileSync(new URL('../../schemas/error.schema.json', import.meta.url), 'utf8')) as object,
);

interface ErrorDocument {
  format_version: string;
  error: { code: string; message: string; hint: string | null; meta: Record<string, unknown>; details: string[] };
  errors: { severity: string; file: string; line: number; column: number; message: string }[];
}

/** stdout as the one error document it must be, checked against the schema. */
function errorDocument(r: RunResult): ErrorDocument {
  const document = JSON.parse(r.stdout) as ErrorDocument;
  expect(errorValid(document), JSON.stringify(errorValid.errors)).toBe(true);
  expect(document.format_version).toBe('1.0');
  return document;
}

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
const UNREACHABLE = { PROVISION_URL: 'http://127.0.0.1:1', PROVISION_API_KEY: API_KEY };

describe('--format json: a failure is a JSON document on stdout', () => {
  it('plan against an unreachable panel: exit 1, panel_unreachable with the method, URL and network code', async () => {
    const { file } = await workspace(MANIFEST);
    const r = await run(['plan', file, '--format', 'json'], UNREACHABLE);
    expect(r.code).toBe(1);
    const { error, errors } = errorDocument(r);
    expect(error).toEqual({
      code: 'panel_unreachable',
      message: 'GET http://127.0.0.1:1/api/v2/ping: cannot connect (ECONNREFUSED)',
      hint: expect.stringContaining('check --url / PROVISION_URL') as unknown,
      meta: {
        method: 'GET',
        url: 'http://127.0.0.1:1/api/v2/ping',
        path: '/api/v2/ping',
        network_code: 'ECONNREFUSED',
        errno: 'ECONNREFUSED',
        sent: false,
      },
      details: [],
    });
    expect(errors).toEqual([]);
    // The text form, unchanged, on stderr; the same run without the flag prints nothing on stdout.
    expect(r.stderr).toBe(`error: ${error.message}\nhint: ${error.hint}\n`);
    const text = await run(['plan', file], UNREACHABLE);
    expect(text).toEqual({ code: 1, stdout: '', stderr: r.stderr });
  });

  it('the built CLI as a process: the document is whole on stdout at exit 1, stderr holds no stack', async () => {
    const { file } = await workspace(MANIFEST);
    const r = await runBin(['plan', file, '--format', 'json'], UNREACHABLE);
    expect(r.code).toBe(1);
    expect(errorDocument({ code: 1, stdout: r.stdout, stderr: r.stderr }).error.code).toBe('panel_unreachable');
    expect(r.stderr).toMatch(
      /^error: GET http:\/\/127\.0\.0\.1:1\/api\/v2\/ping: cannot connect \(ECONNREFUSED\)\nhint: [^\n]*\n$/,
    );
  });

  it('an HTTP error status: panel_http with the method, path and status', async () => {
    const { file, env } = await workspace(MANIFEST, {
      intercept: (req) =>
        req.method === 'GET' && req.path === '/clients'
          ? { status: 403, json: { code: '403 Forbidden', message: 'Not from this address.' } }
          : undefined,
    });
    const r = await run(['plan', file, '--format', 'json'], env);
    expect(r.code).toBe(1);
    const { error } = errorDocument(r);
    expect(error.code).toBe('panel_http');
    expect(error.message).toBe('GET /api/v2/clients: 403 Forbidden: Not from this address.');
    expect(error.meta).toEqual({
      method: 'GET',
      path: '/api/v2/clients',
      status: 403,
      panel_message: 'Not from this address.',
    });
    expect(r.stderr).toContain(`error: ${error.message}\n`);
  });

  it('an invalid manifest: manifest_invalid, each error with its file, line and column, printed once on stderr', async () => {
    const { file, env } = await workspace('version: 1\nclients:\n  - username: Alice\n    plan: 3\n');
    const r = await run(['plan', file, '--format', 'json'], env);
    expect(r.code).toBe(1);
    const { error, errors } = errorDocument(r);
    expect(error).toMatchObject({ code: 'manifest_invalid', meta: { file, error_count: 2 } });
    expect(errors.map((e) => [e.severity, e.file, e.line, e.column])).toEqual([
      ['error', file, 3, 15],
      ['error', file, 4, 11],
    ]);
    expect(errors[0]?.message).toMatch(/^username "Alice" must be lowercase/);
    // stderr as without the flag: each diagnostic once, then the error.
    const text = await run(['plan', file], env);
    expect(text.stdout).toBe('');
    expect(r.stderr).toBe(text.stderr);
    expect(r.stderr.split(`${file}:3:15: error:`)).toHaveLength(2);
  });

  it('apply of an applied saved plan: exit 3, stale_plan with what changed as details', async () => {
    const { file, planFile, envWithSecrets } = await workspace(MANIFEST);
    expect((await run(['plan', file, '--out', planFile], envWithSecrets)).code).toBe(0);
    expect((await run(['apply', planFile], envWithSecrets)).code).toBe(0);
    const r = await run(['apply', planFile, '--format', 'json'], envWithSecrets);
    expect(r.code).toBe(3);
    const { error } = errorDocument(r);
    expect(error.code).toBe('stale_plan');
    expect(error.details[0]).toMatch(/^client "alice" now exists on the panel/);
    expect(error.meta).toEqual({ file: planFile });
    expect(r.stderr).toContain('error: already applied: the panel holds what this plan makes');
  });

  it('a secrets file that cannot be opened: secrets, with its path and errno', async () => {
    const { file, env, dir } = await workspace(MANIFEST);
    const secrets = `${dir}/missing/secrets.jsonl`;
    const r = await run(['apply', file, '--auto-approve', '--format', 'json', '--secrets-file', secrets], env);
    expect(r.code).toBe(1);
    const { error } = errorDocument(r);
    expect(error.code).toBe('secrets');
    expect(error.meta).toEqual({ path: secrets, errno: 'ENOENT' });
  });

  it('apply with a conflict: plan_conflict, the conflict located in the manifest', async () => {
    const { file, envWithSecrets } = await workspace(MANIFEST, {
      seed: { clients: [{ username: 'bob', domains: ['alice.example'] }] },
    });
    const r = await run(['apply', file, '--auto-approve', '--format', 'json'], envWithSecrets);
    expect(r.code).toBe(1);
    const { error, errors } = errorDocument(r);
    expect(error.code).toBe('plan_conflict');
    expect(errors).toEqual([
      expect.objectContaining({ severity: 'error', file, line: 4, column: expect.any(Number) as unknown }),
    ]);
  });

  it('usage errors, the flag as data, whether or not the command parsed its flags', async () => {
    const { file, env } = await workspace(MANIFEST);
    const unknownFlag = await run(['plan', file, '--bogus', '--format=json'], env);
    expect(unknownFlag.code).toBe(1);
    expect(errorDocument(unknownFlag).error).toMatchObject({
      code: 'usage',
      message: "unknown option '--bogus'",
      meta: { flag: '--bogus' },
    });
    const badValue = await run(['apply', file, '--format', 'json', '--concurrency', 'many'], env);
    expect(errorDocument(badValue).error).toMatchObject({ code: 'usage', meta: { flag: '--concurrency' } });
    const unknownCommand = await run(['plna', file, '--format', 'json'], env);
    expect(errorDocument(unknownCommand).error).toMatchObject({ code: 'usage', meta: { command: 'plna' } });
    const shown = await run(['show', file, '--format', 'json'], env);
    expect(errorDocument(shown).error).toMatchObject({
      code: 'usage',
      message: expect.stringContaining('is a manifest') as unknown,
    });
    const io = await run(['validate', `${file}.missing`, '--format', 'json'], env);
    expect(errorDocument(io).error).toMatchObject({ code: 'io', meta: { path: `${file}.missing`, errno: 'ENOENT' } });
    // Only for the format asked for, and only by a command that has it.
    for (const argv of [
      ['plan', file, '--bogus', '--format', 'markdown'],
      ['plan', file, '--bogus'],
      ['plan', file, '--out', '--format', 'json', '--bogus'],
      ['export', '--format', 'json'],
    ]) {
      const r = await run(argv, env);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stdout, argv.join(' ')).toBe('');
      expect(r.stderr, argv.join(' ')).toMatch(/^error: /);
    }
  });
});

describe('--format json: one document on stdout, whatever happens', () => {
  it("validate's result and a plan with conflicts are the document: no error document after them", async () => {
    const { file, env } = await workspace(MANIFEST, {
      seed: { clients: [{ username: 'bob', domains: ['alice.example'] }] },
    });
    const planned = await run(['plan', file, '--format', 'json'], env);
    expect(planned.code).toBe(1);
    expect(JSON.parse(planned.stdout)).toMatchObject({ conflicts: [expect.anything()] });
    expect(planned.stderr).toContain('error: ');

    const { file: bad } = await workspace('version: 1\nclients:\n  - username: Alice\n');
    const validated = await run(['validate', bad, '--format', 'json'], env);
    expect(validated.code).toBe(1);
    expect(JSON.parse(validated.stdout)).toMatchObject({ valid: false, files: [{ path: bad, error_count: 1 }] });
  });
});
