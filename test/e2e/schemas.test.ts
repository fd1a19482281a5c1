/**
 * The JSON the CLI prints is what its schemas say: `plan --format json` against
 * schemas/plan.schema.json, `apply --format json` against schemas/apply-result.schema.json and
 * a failure under `--format json` against schemas/error.schema.json,
 * compiled here with ajv from the files users get, on real output against the simulator (every
 * action and every outcome status). And the schemas are where their `$id`s say: the
 * repository's raw URL of the very file (the package's `exports` map serves the same file
 * from node_modules, test/e2e/package.test.ts), which is what `export` names in its modeline.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { EXIT_FOR_ERROR } from '../../src/cli/exit.js';
import { parseManifest } from '../../src/manifest/index.js';
import { INTERNAL_ERROR_CODE } from '../../src/render/error-json.js';
import { run, workspace } from '../helpers/cli.js';

const schema = (name: string): object =>
  JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), 'utf8')) as object;
// The options the build compiles the plan schema with (scripts/generate-validator.ts).
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const planValid = ajv.compile(schema('plan.schema.json'));
const applyValid = ajv.compile(schema('apply-result.schema.json'));
const errorValid = ajv.compile(schema('error.schema.json'));

const MANIFEST = `version: 1
clients:
  - username: alice
    plan: Standard
    suspended: true
    domains: [alice.example, shop.alice.example, {name: old.alice.example, state: absent}]
  - username: bob
    state: absent
  - username: carol
    domains: [carol.example, quota.carol.example]
`;

describe('JSON output against the schemas', () => {
  it('plan and apply, with creates, updates, deletes, a failure and a skip', async () => {
    const w = await workspace(MANIFEST, {
      seed: {
        clients: [
          { username: 'alice', plan: 'Basic', domains: ['alice.example', 'old.alice.example'] },
          { username: 'bob' },
        ],
      },
      // carol's first domain is refused, so the subdomain that waits for it is skipped.
      intercept: (req) =>
        req.method === 'POST' &&
        req.path === '/domains' &&
        (req.body as { domain?: string } | undefined)?.domain === 'carol.example'
          ? { status: 400, json: { code: '400 Bad Request', message: 'Quota reached.' } }
          : undefined,
    });
    const plan = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { changes: { action: string }[] };
    expect(planValid(planned), JSON.stringify(planValid.errors)).toBe(true);
    expect(new Set(planned.changes.map((c) => c.action))).toEqual(new Set(['create', 'update', 'delete']));

    const applied = await run(
      ['apply', w.file, '--auto-approve', '--format', 'json', '--settle-timeout', '0'],
      w.envWithSecrets,
    );
    expect(applied.code).toBe(1);
    const result = JSON.parse(applied.stdout) as { outcomes: { status: string }[] };
    expect(applyValid(result), JSON.stringify(applyValid.errors)).toBe(true);
    expect(new Set(result.outcomes.map((o) => o.status))).toEqual(new Set(['succeeded', 'failed', 'skipped']));
  });

  it('a failure: the error document, with and without problems at places, and every code', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: Alice\n');
    const failures = [
      await run(['plan', w.file, '--format', 'json'], w.env),
      await run(['plan', w.file, '--format', 'json'], { ...w.env, PROVISION_URL: 'http://127.0.0.1:1' }),
      await run(['apply', w.file, '--format', 'json', '--concurrency', '0'], w.env),
    ];
    await writeFile(w.file, 'version: 1\nclients: [{username: alice}]\n');
    failures.push(await run(['plan', w.file, '--format', 'json'], { ...w.env, PROVISION_URL: 'http://127.0.0.1:1' }));
    const documents = failures.map((r) => JSON.parse(r.stdout) as { error: { code: string }; errors: unknown[] });
    for (const document of documents) expect(errorValid(document), JSON.stringify(errorValid.errors)).toBe(true);
    expect(documents.map((d) => [d.error.code, d.errors.length])).toEqual([
      ['manifest_invalid', 1],
      ['manifest_invalid', 1],
      ['usage', 0],
      ['panel_unreachable', 0],
    ]);
    const codes = (schema('error.schema.json') as { $defs: { error: { properties: { code: { enum: string[] } } } } })
      .$defs.error.properties.code.enum;
    expect(codes.toSorted()).toEqual([...Object.keys(EXIT_FOR_ERROR), INTERNAL_ERROR_CODE].toSorted());
  });

  it('the schemas refuse what the output never holds', () => {
    expect(
      applyValid({
        format_version: '1.1',
        panel_url: 'x',
        outcomes: [{ id: 'client:a', action: 'create', type: 'client', name: 'a', status: 'succeeded' }],
        summary: { succeeded: 1, failed: 0, skipped: 0 },
      }),
    ).toBe(false);
    expect(
      applyValid({
        format_version: '1.1',
        panel_url: 'x',
        outcomes: [
          {
            id: 'client:a',
            action: 'create',
            type: 'client',
            name: 'a',
            status: 'failed',
            error: 'e',
            panel_id: 3,
          },
        ],
        summary: { succeeded: 0, failed: 1, skipped: 0 },
      }),
    ).toBe(false);
  });
});

/** Where the repository serves its files raw (package.json `repository`, branch main). */
const RAW = 'https://raw.githubusercontent.com/panel-provision/panel-provision/main/';

describe("the schemas' addresses", () => {
  const files = readdirSync(new URL('../../schemas/', import.meta.url)).filter((name) => name.endsWith('.schema.json'));

  it('each $id is the raw URL of its own file in the repository', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'apply-result.schema.json',
        'error.schema.json',
        'manifest.schema.json',
        'plan.schema.json',
      ]),
    );
    for (const name of files) expect((schema(name) as { $id?: unknown }).$id).toBe(`${RAW}schemas/${name}`);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      repository: { url: string };
      exports: Record<string, unknown>;
    };
    expect(pkg.repository.url).toBe('git+https://github.com/panel-provision/panel-provision.git');
    expect(pkg.exports['./schemas/*']).toBe('./schemas/*');
  });

  it('export writes the manifest schema in the modeline; a JSON manifest may name it in "$schema"', async () => {
    const w = await workspace('version: 1\nclients: []\n', {
      seed: { clients: [{ username: 'alice' }] },
    });
    const exported = await run(['export'], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.split('\n')[0]).toBe(`# yaml-language-server: $schema=${RAW}schemas/manifest.schema.json`);
    const json = parseManifest(
      JSON.stringify({
        $schema: `${RAW}schemas/manifest.schema.json`,
        version: 1,
        clients: [{ username: 'alice' }],
      }),
      'm.json',
    );
    expect(json.diagnostics).toEqual([]);
    expect(json.desired?.clients.map((c) => c.username)).toEqual(['alice']);
  });
});
