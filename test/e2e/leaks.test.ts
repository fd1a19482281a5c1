/**
 * The API key and the created passwords must never reach stdout, stderr, a plan file or an
 * error: every command runs here (apply --generate-passwords and secrets reset included;
 * secrets decrypt aside: showing passwords is its job), failing ones included, with a known
 * key, and all output is searched for it and for every password the secrets file holds,
 * pending ones included.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/redact.js';
import { parseJournal } from '../../src/secrets/journal.js';
import { API_KEY, createdRecords, run, type RunResult, startWorkspace, type Workspace } from '../helpers/cli.js';

const MANIFEST =
  'version: 1\nclients:\n  - username: alice\n    plan: Basic\n    domains: [alice.example, www.alice.example]\n  - username: bob\n    domains: [bob.example]\n';

describe('no secret in any output', () => {
  let p: Workspace;
  let echoKey = false;
  let echoPassword = false;
  beforeAll(async () => {
    p = await startWorkspace(undefined, {
      // A careless panel that echoes the key, or the password it refuses, in an error message.
      intercept: ({ method, path, body }) => {
        if (echoKey && method === 'GET' && path === '/clients')
          return {
            status: 400,
            json: { code: '400 Bad Request', message: `bad key ${API_KEY} for this resource` },
          };
        const password = (body as { password?: unknown } | undefined)?.password;
        if (echoPassword && method === 'PUT' && typeof password === 'string')
          return {
            status: 400,
            json: { code: '400 Bad Request', message: `password ${password} is too weak` },
          };
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await p.close();
  });

  it('holds across every command and failure', async () => {
    const manifest = join(p.dir, 'manifest.yaml');
    const bad = join(p.dir, 'bad.yaml');
    const planFile = join(p.dir, 'plan.json');
    const secrets = join(p.dir, 'secrets.jsonl');
    const keyFile = join(p.dir, 'key');
    await writeFile(manifest, MANIFEST);
    await writeFile(bad, 'version: 2\nclients: [{username: Alice}]\n');
    await writeFile(keyFile, API_KEY);
    const env = { ...p.env, PROVISION_SECRETS_FILE: secrets };
    const results: (RunResult & { argv: string[] })[] = [];
    const go = async (argv: string[], e: Record<string, string | undefined> = env) => {
      const r = await run(argv, e);
      results.push({ ...r, argv });
      return r;
    };

    await go(['validate', manifest]);
    await go(['validate', bad]);
    await go(['plan', bad]);
    for (const format of ['text', 'json', 'markdown'])
      await go(['plan', manifest, '--format', format, '--out', planFile, '--show-unmanaged']);
    await go(['apply', manifest]);
    expect((await go(['apply', manifest, '--auto-approve', '--verbose'])).code).toBe(0);
    await go(['apply', manifest, '--auto-approve', '--format', 'json']);
    // Passwords made here: by apply --generate-passwords, and by secrets reset.
    const more = join(p.dir, 'more.yaml');
    await writeFile(more, `${MANIFEST}  - username: carol\n  - username: dave\n    domains: [dave.example]\n`);
    expect((await go(['apply', more, '--auto-approve', '--generate-passwords', '--verbose'])).code).toBe(0);
    expect((await go(['secrets', 'reset', 'alice', 'carol', '--verbose'])).code).toBe(0);
    await go(['secrets', 'reset', 'alice', 'nobody']);
    await go(['secrets', 'reset', 'bob', '--secrets-recipient', 'age1notakey']);
    await go(['plan', manifest, '--format', 'json', '--out', planFile, '--verbose']);
    await go(['plan', manifest, '--api-key-file', keyFile], { PROVISION_URL: p.env.PROVISION_URL });
    await go(['plan', manifest], { ...env, PROVISION_API_KEY: `${API_KEY}x` });
    await go(['plan', manifest, '--url', `https://user:${API_KEY}@panel.example`]);
    await go(['plan', manifest, '--url', `https://panel.example/?key=${API_KEY}`]);
    await go(['plan', manifest, '--url', 'http://127.0.0.1:1']);
    await go(['simulator', '--api-key', API_KEY, '--port', 'x']);
    // The key pasted where the manifest belongs, the key file named too: known before the manifest is read.
    const keyFileOnly = { PROVISION_URL: p.env.PROVISION_URL };
    for (const command of ['plan', 'apply', 'validate'])
      await go([command, API_KEY, '--api-key-file', keyFile], keyFileOnly);
    await go(['apply', `--api-key-file=${keyFile}`, join(p.dir, `${API_KEY}.yaml`)], keyFileOnly);
    // The key pasted where the key file's path belongs: the error does not repeat the path.
    await go(['plan', manifest, '--api-key-file', API_KEY], keyFileOnly);
    await go(['apply', manifest, `--api-key-file=${API_KEY}`], keyFileOnly);
    // The failures above under --format json: the error document on stdout, its `meta` too.
    const jsonRuns = [
      await go(['plan', bad, '--format', 'json']),
      await go(['plan', manifest, '--format', 'json', '--url', 'http://127.0.0.1:1']),
      await go(['plan', manifest, '--format', 'json'], { ...env, PROVISION_API_KEY: `${API_KEY}x` }),
      await go(['plan', manifest, '--format', 'json', '--url', `https://user:${API_KEY}@panel.example`]),
      ...(await Promise.all(
        ['plan', 'apply', 'validate'].map((command) =>
          go([command, API_KEY, '--api-key-file', keyFile, '--format', 'json'], keyFileOnly),
        ),
      )),
      await go(['plan', manifest, '--api-key-file', API_KEY, '--format', 'json'], keyFileOnly),
      await go(['apply', manifest, `--api-key-file=${API_KEY}`, '--format=json'], keyFileOnly),
    ];
    for (const r of jsonRuns) expect((JSON.parse(r.stdout) as { error?: unknown }).error).toBeDefined();
    // The step summary is output too.
    const summary = join(p.dir, 'summary.md');
    await go(['plan', manifest], { ...env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    echoKey = true;
    const echoed = await go(['plan', manifest]);
    const echoedRun = results.at(-1);
    const echoedJson = await go(['plan', manifest, '--format', 'json']);
    const echoedJsonRun = results.at(-1);
    echoKey = false;
    expect(echoed.code).toBe(1);
    expect(echoed.stderr).toContain(`bad key ${REDACTED} for this resource`);
    expect(JSON.parse(echoedJson.stdout)).toMatchObject({
      error: { code: 'panel_http', meta: { panel_message: `bad key ${REDACTED} for this resource` } },
    });
    // The password is in the redaction set before its request leaves.
    echoPassword = true;
    const refused = await go(['secrets', 'reset', 'bob']);
    const refusedRun = results.at(-1);
    echoPassword = false;
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`password ${REDACTED} is too weak`);

    // The output filter must never have had anything to hide: a marker where the panel did
    // not echo the key or a password means some code tried to print a secret (and the filter masked it).
    for (const r of results.filter((result) => ![echoedRun, echoedJsonRun, refusedRun].includes(result))) {
      expect(r.stdout, r.argv.join(' ')).not.toContain(REDACTED);
      expect(r.stderr, r.argv.join(' ')).not.toContain(REDACTED);
    }

    // Every password the file holds, current and pending: two from the panel, two made by
    // apply, three by secrets reset (one refused).
    const passwords = parseJournal(await readFile(secrets, 'utf8')).flatMap((line) =>
      line.kind === 'unreadable'
        ? []
        : [line.entry.password, line.entry.pending_password].filter((v): v is string => typeof v === 'string'),
    );
    expect(new Set(passwords).size).toBe(7);
    expect((await createdRecords(secrets)).filter((r) => typeof r.password === 'string')).toHaveLength(6);
    const planText = await readFile(planFile, 'utf8');
    const summaryText = await readFile(summary, 'utf8');
    expect(summaryText).toContain('panel-provision plan');
    for (const text of [planText, summaryText]) expect(text).not.toContain(REDACTED);
    for (const secret of [API_KEY, ...passwords]) {
      expect(planText).not.toContain(secret);
      expect(summaryText).not.toContain(secret);
      for (const r of results) {
        expect(r.stdout).not.toContain(secret);
        expect(r.stderr).not.toContain(secret);
      }
    }
  });
});
