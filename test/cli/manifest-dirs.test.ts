/**
 * Manifest directories through the CLI (docs/manifest.md, "Manifest directories"), in-process against the
 * simulator on loopback, on real files in a temp directory: a directory of parts validated,
 * planned and applied as one manifest; duplicates across parts named at both files; a saved plan
 * records each part's digest and applies what was reviewed after a part is edited; hidden files
 * and README.md are not parts (links: manifest-links.test.ts); validate --format json and
 * GitHub annotations name the part. One run is of the built CLI as a process.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/cli.js';
import { CLIENTS, escaped, MORE, setup, sha256, validLine } from '../helpers/manifest-dir.js';
import { runBin } from '../helpers/process.js';

describe('a directory of parts, validated, planned and applied as one manifest', () => {
  it('validates it, plans and applies the clients of both parts, and then plans no changes', async () => {
    const w = await setup();
    const valid = await run(['validate', w.manifests]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toMatch(validLine(w.manifests, '2 parts, 2 clients, 3 domains'));
    expect(valid.stderr).toBe('');
    // The built CLI, as shipped, reads the directory the same.
    const bin = await runBin(['validate', w.manifests], {});
    expect(bin.code, bin.stderr).toBe(0);
    expect(bin.stdout).toBe(valid.stdout);

    const plan = await run(['plan', w.manifests, '--no-color'], w.env);
    expect(plan.code, plan.stderr).toBe(0);
    // The plan Gold (b-more.yml) first, then the clients of both parts and their domains.
    expect(plan.stdout.split('\n').filter((l) => l.startsWith('  # '))).toEqual([
      '  # hosting plan "Gold" will be created: not on the panel',
      '  # client "alice" on hosting plan "Basic" will be created: not on the panel',
      '  # domain "alice.example" of client "alice" will be created: not on the panel',
      '  # domain "shop.alice.example" of client "alice" will be created: not on the panel, after alice.example',
      '  # client "bob" on hosting plan "Gold" will be created: not on the panel',
      '  # domain "bob.example" of client "bob" will be created: not on the panel',
    ]);
    expect(plan.stdout).toContain('Plan: 6 to create (2 clients, 3 domains, 1 hosting plan).');
    expect(w.sim.requests.every((r) => r.method === 'GET')).toBe(true);

    const applied = await run(['apply', w.manifests, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`${w.manifests}: a manifest: planning against the panel now`);
    expect(applied.stdout).toContain('Apply: 6 succeeded, 0 failed, 0 skipped.');
    const alice = w.sim.state.clientNamed('alice');
    const bob = w.sim.state.clientNamed('bob');
    expect(alice).toBeDefined();
    expect(bob).toBeDefined();
    expect(w.sim.state.domainNamed('shop.alice.example')?.id_user).toBe(alice?.id);
    expect(w.sim.state.domainNamed('bob.example')?.id_user).toBe(bob?.id);

    const again = await run(['plan', w.manifests], w.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes: the panel matches the manifest.');
  });

  it('does not read hidden files, README.md or other non-YAML entries', async () => {
    const w = await setup({
      'a-clients.yaml': CLIENTS,
      'b-more.yml': MORE,
      '.draft.yaml': 'version: 1\nclients:\n  - username: Not Valid\n',
      '.#a-clients.yaml': 'not: [yaml',
      'README.md': '# Our panel\n\nclients: [',
      'notes.txt': 'version: 2',
      'a-clients.yaml~': 'version: 1\nclients:\n  - username: alice\n',
    });
    const r = await run(['validate', w.manifests]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(validLine(w.manifests, '2 parts, 2 clients, 3 domains'));
  });

  it('refuses a directory with no part', async () => {
    const w = await setup({ 'README.md': 'clients go here\n', '.hidden.yaml': CLIENTS });
    const r = await run(['validate', w.manifests]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${w.manifests}:1:1: error: the directory holds no manifest part: add a *.yaml file with "version: 1" and a "clients" list`,
    );
  });

  it('an empty part is named as a part; a part named with a control character is refused, naming it', async () => {
    const w = await setup({ 'a.yaml': CLIENTS, 'b.yaml': '' });
    const empty = await run(['validate', w.manifests]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(
      `${w.path('b.yaml')}:1:1: error: the part is empty: start it with "version: 1", then what it holds ("clients", "hosting_plans" or "prune")`,
    );
    await writeFile(w.path('b.yaml'), 'version: 1\n');
    await writeFile(w.path('c\nd.yaml'), 'version: 1\n');
    const named = await run(['validate', w.manifests]);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain(`a part of ${w.manifests} has a control character in its name: "c\\nd.yaml"`);
  });
});

describe('duplicates across parts', () => {
  it('a username, domain or plan name in two parts: an error at the second naming the first; nothing planned', async () => {
    const w = await setup({
      'a-clients.yaml': CLIENTS,
      'b-more.yml': MORE,
      'c-again.yaml': `version: 1
hosting_plans:
  - name: Gold
clients:
  - username: alice
  - username: dave
    domains: [Shop.Alice.Example]
`,
    });
    const r = await run(['validate', w.manifests]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const c = w.path('c-again.yaml');
    expect(r.stderr.split('\n').filter((l) => l.includes(': error: '))).toEqual([
      `${c}:3:11: error: hosting plan "Gold" is listed twice (first at ${w.path('b-more.yml')}:3): remove one`,
      `${c}:5:15: error: username "alice" is used twice (first at ${w.path('a-clients.yaml')}:3): each client needs its own username`,
      `${c}:7:15: error: domain "Shop.Alice.Example" (same as "shop.alice.example") is already listed under ` +
        `client "alice" at ${w.path('a-clients.yaml')}:5: a domain belongs to one client only`,
    ]);
    expect(r.stderr).toContain(`error: ${w.manifests}: 3 errors: fix them and run again`);

    const plan = await run(['plan', w.manifests], w.env);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${c}:5:15: error: username "alice" is used twice`);
    expect(w.sim.requests).toEqual([]);
  });

  it('prune in two parts is refused, naming the first', async () => {
    const w = await setup({
      'a-clients.yaml': `${CLIENTS}prune:\n  domains: true\n`,
      'z-prune.yaml': 'version: 1\nprune:\n  clients: true\n',
    });
    const r = await run(['validate', w.manifests]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${w.path('z-prune.yaml')}:2:1: error: "prune" is given again (first at ${w.path('a-clients.yaml')}:6): ` +
        'prune applies to the whole directory and stands in one part only; merge the two',
    );
    // In one part only, it is the directory's prune.
    await writeFile(w.path('a-clients.yaml'), CLIENTS);
    expect((await run(['validate', w.manifests])).code).toBe(0);
  });

  it('a client on a plan another part marks absent', async () => {
    const w = await setup({
      'a-clients.yaml': CLIENTS,
      'b-plans.yaml': 'version: 1\nhosting_plans:\n  - name: Basic\n    state: absent\n',
    });
    const r = await run(['validate', w.manifests]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${w.path('a-clients.yaml')}:4:11: error: "plan" of client "alice" names hosting plan "Basic", which is ` +
        `marked state: absent at ${w.path('b-plans.yaml')}:3`,
    );
  });
});

describe('a saved plan of a directory', () => {
  it('records each part and its digest, and applies what was reviewed, not a part edited since', async () => {
    const w = await setup();
    const planned = await run(['plan', w.manifests, '--out', w.planFile], w.envWithSecrets);
    expect(planned.code, planned.stderr).toBe(0);
    const saved = JSON.parse(await readFile(w.planFile, 'utf8')) as {
      format_version: string;
      manifest: string;
      manifest_sha256: string;
      manifest_parts: { file: string; sha256: string }[];
      changes: { id: string }[];
    };
    const parts = ['a-clients.yaml', 'b-more.yml'].map((name) => ({
      file: w.path(name),
      sha256: sha256(readFileSync(w.path(name))),
    }));
    expect(saved.format_version).toBe('2.5');
    expect(saved.manifest).toBe(w.manifests);
    expect(saved.manifest_parts).toEqual(parts);
    // As `sha256sum <parts> | sha256sum` gives it.
    expect(saved.manifest_sha256).toBe(sha256(parts.map((p) => `${p.sha256}  ${p.file.split('/').at(-1)}\n`).join('')));
    expect(saved.changes).toHaveLength(6);

    // After review, a part is edited (a client added, a domain dropped) and one removed.
    await writeFile(w.path('a-clients.yaml'), `${CLIENTS.replace(', shop.alice.example', '')}  - username: eve\n`);
    const applied = await run(['apply', w.planFile], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(
      `${w.planFile}: a saved plan (format 2.5, made from ${w.manifests}): applying exactly it, without asking`,
    );
    expect(applied.stdout).toContain('Apply: 6 succeeded, 0 failed, 0 skipped.');
    expect(w.sim.state.clientNamed('eve')).toBeUndefined();
    expect(w.sim.state.domainNamed('shop.alice.example')).toBeDefined();
    expect(w.sim.state.clientNamed('bob')).toBeDefined();

    // A new plan of the directory as it is now: eve, and a digest of the new bytes.
    const now = await run(['plan', w.manifests, '--format', 'json'], w.env);
    const doc = JSON.parse(now.stdout) as typeof saved;
    expect(doc.changes.map((c) => c.id)).toEqual(['client:eve']);
    expect(doc.manifest_parts[0]?.sha256).toBe(sha256(readFileSync(w.path('a-clients.yaml'))));
    expect(doc.manifest_parts[1]).toEqual(parts[1]);
    expect(doc.manifest_sha256).not.toBe(saved.manifest_sha256);
  });

  it('a snapshot taken for a directory records its digest, and plans from it', async () => {
    const w = await setup();
    const snapshot = join(w.dir, 'snapshot.json');
    const taken = await run(['snapshot', w.manifests, '--out', snapshot], w.env);
    expect(taken.code, taken.stderr).toBe(0);
    const doc = JSON.parse(await readFile(snapshot, 'utf8')) as { reads: { manifest_sha256: string } };
    const lines = ['a-clients.yaml', 'b-more.yml']
      .map((name) => `${sha256(readFileSync(w.path(name)))}  ${name}\n`)
      .join('');
    expect(doc.reads.manifest_sha256).toBe(sha256(lines));
    const fromSnapshot = await run(['plan', w.manifests, '--from-snapshot', snapshot, '--no-color'], {});
    expect(fromSnapshot.code, fromSnapshot.stderr).toBe(0);
    expect(fromSnapshot.stdout).toContain('Plan: 6 to create');
  });
});

describe('validate --format json and GitHub annotations', () => {
  const schema = JSON.parse(
    readFileSync(new URL('../../schemas/validate-result.schema.json', import.meta.url), 'utf8'),
  ) as object;
  const validResult = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

  it('one file entry for the directory, its diagnostics naming the parts', async () => {
    const w = await setup();
    const ok = await run(['validate', '--format', 'json', w.manifests]);
    expect(ok.code, ok.stderr).toBe(0);
    const okDoc = JSON.parse(ok.stdout) as unknown;
    expect(validResult(okDoc), JSON.stringify(validResult.errors)).toBe(true);
    expect(okDoc).toEqual({
      format_version: '1.1',
      valid: true,
      files: [
        {
          path: w.manifests,
          valid: true,
          error_count: 0,
          warning_count: 0,
          clients: 2,
          domains: 3,
          hosting_plans: 1,
          parts: 2,
          diagnostics: [],
        },
      ],
    });

    await writeFile(w.path('c.yaml'), 'version: 1\nclients:\n  - username: a1ice\n  - username: bob\n');
    const bad = await run(['validate', '--format', 'json', w.manifests]);
    expect(bad.code).toBe(1);
    const badDoc = JSON.parse(bad.stdout) as unknown;
    expect(validResult(badDoc), JSON.stringify(validResult.errors)).toBe(true);
    expect(badDoc).toMatchObject({
      valid: false,
      files: [
        {
          path: w.manifests,
          valid: false,
          error_count: 1,
          diagnostics: [{ severity: 'error', file: w.path('c.yaml'), line: 4, column: 15 }],
        },
      ],
    });
  });

  it('annotates each diagnostic on its part file under GitHub Actions', async () => {
    const w = await setup();
    await writeFile(w.path('c.yaml'), 'version: 1\nclients:\n  - username: bob\n');
    const r = await run(['validate', w.manifests], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `::error file=${w.path('c.yaml')},line=3,col=15::username "bob" is used twice (first at ${w.path('b-more.yml')}:6)`,
    );

    // A warning across parts, on the later part.
    await writeFile(w.path('c.yaml'), 'version: 1\nclients:\n  - username: b0b\n');
    const warned = await run(['validate', w.manifests], { GITHUB_ACTIONS: 'true' });
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toMatch(
      new RegExp(
        `^::warning file=${escaped(w.path('c.yaml'))},line=3,col=15::username "b0b" looks like username "bob"`,
        'm',
      ),
    );
    expect(warned.stdout).toMatch(validLine(w.manifests, '3 parts, 3 clients, 3 domains'));
  });

  it('refuses parts whose names differ only by case or Unicode form, naming both, before any request', async () => {
    const w = await setup({
      'clients.yaml': CLIENTS,
      'Clients.YAML': MORE,
      'caf\u00e9.yaml': MORE,
      'cafe\u0301.yml': MORE,
    });
    for (const argv of [
      ['validate', w.manifests],
      ['plan', w.manifests],
    ]) {
      const r = await run(argv, w.env);
      expect(r.code, argv[0]).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `error: the manifest directory ${w.manifests} has parts whose names differ only by case or Unicode form: ` +
          '"Clients.YAML" and "clients.yaml": a checkout on macOS or Windows',
      );
      expect(r.stderr).toContain('hint: rename one of each pair, or merge them into one part');
      expect(r.stderr).not.toContain('caf\u00e9.yaml" and');
    }
    expect(w.sim.requests).toEqual([]);

    // Above, the composed and decomposed é differed by extension too (two parts); here only by form and case.
    const apart = await setup({ 'a.yaml': CLIENTS, 'caf\u00e9.yaml': MORE, 'cafe\u0301.YAML': 'version: 1\n' });
    const twins = await run(['validate', apart.manifests]);
    expect(twins.code).toBe(1);
    expect(twins.stderr).toContain('"cafe\u0301.YAML" and "caf\u00e9.yaml"');
  });
});
