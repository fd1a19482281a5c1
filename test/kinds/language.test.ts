/**
 * The client field `language`: one row of the client's table (src/kinds/client/fields.ts),
 * plus the manifest schema and the simulator. Each stage picks it up from the table: the
 * manifest's checks, the diff, the requests, the plan document and the details read.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { adopt } from '../../src/export/adopt.js';
import { LiveModel } from '../../src/export/model.js';
import { rewrite } from '../../src/export/rewrite.js';
import { manifestText } from '../../src/export/write.js';
import { validateManifest } from '../../src/manifest/load.js';
import { diff } from '../../src/plan/diff.js';
import { requestFor } from '../../src/plan/requests.js';
import { readChanges, changeToJson, type ChangeJson } from '../../src/plan/saved-changes.js';
import { fieldsText } from '../../src/kinds/client/index.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';
import { desired, live } from '../helpers/builders.js';

const manifest = (language: string): string =>
  `version: 1\nclients:\n  - username: alice\n    language: ${language}\n    domains: [alice.example]\n`;

describe('language in the manifest', () => {
  it('is taken as given; a value that is not an ISO 639-1 code is a warning, not an error', () => {
    const ok = validateManifest(manifest('de'), 'm.yaml');
    expect(ok.diagnostics).toEqual([]);
    expect(ok.desired?.clients[0]?.language).toBe('de');
    const odd = validateManifest(manifest('de_DE'), 'm.yaml');
    expect(odd.desired?.clients[0]?.language).toBe('de_DE');
    expect(odd.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        line: 4,
        message: 'language "de_DE" in client "alice" is not an ISO 639-1 code like de or en: the panel may refuse it',
      }),
    ]);
  });

  it('must be a string', () => {
    const bad = validateManifest(manifest('[de]'), 'm.yaml');
    expect(bad.diagnostics.map((d) => d.message)).toEqual([
      '"language" in client "alice" must be a string: a language code, like de or en',
    ]);
  });

  it('an empty one is refused once, as empty, with no warning beside it', () => {
    const empty = validateManifest(manifest('""'), 'm.yaml');
    expect(empty.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['error', '"language" in client "alice" is empty: give a language code, like de or en, or leave the key out'],
    ]);
  });
});

describe('language in the plan', () => {
  const panel = live([[7, 'alice', 1, { email: null }]], [[70, 'alice.example', 7]]);

  it('is an update when it differs, unknown when the record lacks it, sent as "language"', () => {
    const lacking = diff(desired({ alice: { language: 'de', domains: ['alice.example'] } }), panel);
    expect(lacking.changes).toEqual([]);
    expect(lacking.unknowns).toEqual([{ client: 'alice', field: 'language' }]);

    const known = { ...panel, client: panel.client.map((c) => ({ ...c, language: 'en' })) };
    const plan = diff(desired({ alice: { language: 'de', domains: ['alice.example'] } }), known);
    const [update] = plan.changes;
    expect(update === undefined ? undefined : requestFor(update)).toEqual({
      method: 'PUT',
      path: '/clients/7',
      body: { language: 'de' },
    });
    expect(update?.action === 'update' && update.type === 'client' ? fieldsText(update.fields) : '').toBe(
      'language: "en" -> "de"',
    );
    const problems: string[] = [];
    const json = JSON.parse(JSON.stringify(plan.changes.map(changeToJson))) as ChangeJson[];
    expect(readChanges(json, problems)).toEqual(plan.changes);
    expect(problems).toEqual([]);
  });

  it("goes into a new client's POST", () => {
    const plan = diff(desired({ bob: { language: 'de' } }), live());
    expect(plan.changes.map((c) => requestFor(c))).toEqual([
      { method: 'POST', path: '/clients', body: { username: 'bob', language: 'de', send_login_credentials: false } },
    ]);
  });
});

describe('language in export', () => {
  const panel = live([[7, 'alice', 1, { email: null, suspended: false, language: 'fr' }]], [[70, 'alice.example', 7]]);

  it('export --into sets it where the manifest gives it, and removes it where the panel has none', () => {
    const text = manifest('de');
    const desiredAlice = validateManifest(text, 'm.yaml').desired;
    if (desiredAlice === undefined) throw new Error('test manifest invalid');
    const { edits } = adopt(desiredAlice, new LiveModel(panel));
    expect(edits).toEqual([{ kind: 'set', client: 0, field: 'language', value: 'fr' }]);
    expect(rewrite(text, edits, 'm.yaml')).toBe(manifest('fr'));
    const none = live([[7, 'alice', 1, { language: null }]], [[70, 'alice.example', 7]]);
    expect(adopt(desiredAlice, new LiveModel(none)).edits).toEqual([{ kind: 'unset', client: 0, field: 'language' }]);
  });

  it('a fresh export leaves it out, so its output is as before the field', () => {
    const warnings: string[] = [];
    const entries = new LiveModel(panel).entries((w) => warnings.push(w));
    expect(manifestText(entries, [])).not.toMatch(/^\s*language:/m);
    expect(warnings).toEqual([]);
  });
});

describe('language through the CLI and the simulator', () => {
  it('plan shows the change, apply sends it, and the next plan has none', async () => {
    const w = await workspace(manifest('de'), {
      seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] },
    });
    expect(w.sim.state.clientNamed('alice')?.language).toBe('en');
    const plan = await run(['plan', w.file], w.env);
    expect(plan.stdout).toContain('~ client "alice": language: "en" -> "de"');
    expect(plan.stdout).toMatch(/~ PUT \/clients\/\d+ \{"language":"de"\}/);
    const apply = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(apply.code).toBe(0);
    expect(w.sim.state.clientNamed('alice')?.language).toBe('de');
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code).toBe(0);
  });

  it('a plan document with language, created and updated, passes the plan schema', async () => {
    const text = `${manifest('de')}  - username: bob\n    language: fr\n`;
    const w = await workspace(text, { seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] } });
    const plan = await run(['plan', w.file, '--format', 'json'], w.env);
    const document = JSON.parse(plan.stdout) as { changes: Record<string, unknown>[] };
    const schema = JSON.parse(
      readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const valid = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(schema);
    expect(valid(document), JSON.stringify(valid.errors)).toBe(true);
    expect(document.changes).toMatchObject([
      { action: 'update', name: 'alice', fields: [{ field: 'language', before: 'en', after: 'de' }] },
      { action: 'create', name: 'bob', language: 'fr' },
    ]);
  });
  it("a panel's odd language for a client no manifest manages breaks nothing (read as unknown)", async () => {
    // A panel answers language 7 for zed, whom the manifest does not list: a plan that never
    // named the field worked before it was managed, and must still.
    const odd = (json: unknown): unknown =>
      Array.isArray(json)
        ? json.map((c: Record<string, unknown>) => (c.username === 'zed' ? { ...c, language: 7 } : c))
        : json;
    let inner = false;
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      seed: { clients: [{ username: 'alice' }, { username: 'zed' }] },
      intercept: async (req) => {
        if (inner || req.method !== 'GET' || req.path !== '/clients') return undefined;
        inner = true; // the simulator's own answer, fetched through it, then changed
        const answer = await fetch(`${w.sim.url}/clients`, { headers: { 'X-API-Key': API_KEY } });
        inner = false;
        return { status: 200, json: odd(await answer.json()) };
      },
    });
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    const exported = await run(['export'], w.env);
    expect(exported.code, exported.stderr).toBe(0);
  });
});
