/**
 * provision export through the CLI, over real HTTP against the simulator: the exact manifest of a seeded panel, the
 * requests it costs, --out, --clients, names as data; export --into on a hand-written manifest (only the changed
 * entries change, --check writes nothing, a shared panel adds nobody else, --drop-missing); plan then shows no update.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { validateManifest } from '../../src/manifest/load.js';
import { run, workspace } from '../helpers/cli.js';
import { linesOf, outside } from '../export/lines.js';

const SEED: SimulatorSeed = {
  hostingPlans: ['Basic', 'Premium Plus', 'true'],
  clients: [
    { username: 'carol', plan: 'true', domains: ['carol.example'] },
    {
      username: 'bob',
      plan: 'Premium Plus',
      email: 'bob@example.com',
      suspended: true,
      domains: ['shop.bob.example', 'bücher.example', 'bob.example', 'a.shop.bob.example'],
    },
    { username: 'alice', plan: 'Basic', domains: ['alice.example'] },
    { username: 'team-b-1', domains: ['b1.example'] },
  ],
};

/** GETs the simulator answered, as `<path>`. */
function gets(w: Awaited<ReturnType<typeof workspace>>): string[] {
  return w.sim.requests.filter((r) => r.method === 'GET').map((r) => r.path);
}

describe('provision export', () => {
  it('writes the manifest of the panel: sorted, plan by name, email, suspended, no system domains, IDNs in Unicode, parents first; 4 GETs', async () => {
    const w = await workspace('', { seed: SEED });
    const r = await run(['export'], w.env);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(w.sim.url, 'URL')).toMatchInlineSnapshot(`
      "# yaml-language-server: $schema=https://raw.githubusercontent.com/panel-provision/panel-provision/main/schemas/manifest.schema.json
      # The panel URL, as provision export read it.
      # Review it, commit it: provision plan of it against this panel shows no changes.
      version: 1
      clients:
        - username: alice
          plan: Basic
          domains:
            - alice.example
        - username: bob
          plan: Premium Plus
          email: bob@example.com
          suspended: true
          domains:
            - bob.example
            - shop.bob.example
            - a.shop.bob.example
            - bücher.example
        - username: carol
          plan: "true"
          domains:
            - carol.example
        - username: team-b-1
          plan: Basic
          domains:
            - b1.example
      "
    `);
    expect(r.stderr.replace(w.sim.url, 'URL')).toBe('exported 4 clients and 7 domains of URL\n');
    expect(gets(w).sort()).toEqual(['/clients', '/domains', '/hosting-plans', '/ping']);
    expect(r.stdout).not.toContain('test-api-key');
  });

  it('--out writes the file; it validates, and plan of it shows no changes', async () => {
    const w = await workspace('', { seed: SEED });
    const out = join(w.dir, 'exported.yaml');
    const r = await run(['export', '--out', out], w.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`to ${out}`);
    const text = await readFile(out, 'utf8');
    expect(validateManifest(text, out).desired?.clients).toHaveLength(4);
    const plan = await run(['plan', out, '--detailed-exitcode'], w.env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
  });

  it('--clients GLOB (repeatable) narrows to matching usernames', async () => {
    const w = await workspace('', { seed: SEED });
    const r = await run(['export', '--clients', 'a*', '--clients', 'team-?-1'], w.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(clients matching "a*", "team-?-1")');
    expect([...r.stdout.matchAll(/username: (\S+)/g)].map((m) => m[1])).toEqual(['alice', 'team-b-1']);
  });

  it('reads GET /clients/{id} only when the list lacks the managed fields, for the clients it exports, and says so', async () => {
    const w = await workspace('', { seed: SEED, clientListFields: false });
    const r = await run(['export', '--clients', 'b*'], w.env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'note: GET /api/v2/clients does not carry "id_hosting_plan", "email", "is_suspended": read 1 client one by one (GET /api/v2/clients/{id}).',
    );
    expect(gets(w).filter((p) => /^\/clients\/\d+$/.test(p))).toHaveLength(1);
    expect(r.stdout).toContain('suspended: true');
  });

  it('names are data: a username or domain the manifest refuses is left out, named quoted on stderr; the output holds no raw escape', async () => {
    const evil = 'evil\n\u001b[31mred';
    const w = await workspace('', {
      seed: SEED,
      intercept: ({ method, path }) => {
        if (method !== 'GET') return undefined;
        if (path === '/clients')
          return {
            status: 200,
            json: [
              {
                id: 50,
                username: evil,
                id_hosting_plan: 1,
                email: 'x\u202e@example.com',
                is_suspended: false,
              },
              { id: 51, username: 'dora', id_hosting_plan: 1, email: null, is_suspended: false },
            ],
          };
        if (path === '/domains')
          return {
            status: 200,
            json: [
              { id: 60, id_user: 51, domain: 'dora.example', is_system_domain: false },
              { id: 61, id_user: 51, domain: 'bad\u001b]8;;name.example', is_system_domain: false },
              { id: 62, id_user: 50, domain: 'evil.example', is_system_domain: false },
            ],
          };
        return undefined;
      },
    });
    const r = await run(['export'], w.env);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(w.sim.url, 'URL')).toMatchInlineSnapshot(`
      "# yaml-language-server: $schema=https://raw.githubusercontent.com/panel-provision/panel-provision/main/schemas/manifest.schema.json
      # The panel URL, as provision export read it.
      # Review it, commit it: provision plan of it against this panel shows no changes.
      version: 1
      clients:
        - username: dora
          plan: Basic
          domains:
            - dora.example
      "
    `);
    expect(r.stderr.replace(w.sim.url, 'URL')).toMatchInlineSnapshot(`
      "warning: domain "bad\\u001b]8;;name.example" (id 61) of client "dora" is not a name the manifest accepts: left out
      warning: client "evil\\n\\u001b[31mred" (id 50) has a username the manifest refuses: left out, with its 1 domain
      note: the panel's records (GET /domains) of 1 domain do not show php_version, https.lets_encrypt, https.force, https.hsts, redirect: left out of those domains (not managed)
      exported 1 client and 1 domain of URL; 2 names or values left out (see the warnings above)
      "
    `);
  });

  it('a plan name or email that needs quoting is quoted by yaml, and reads back the same', async () => {
    const w = await workspace('', {
      seed: {
        hostingPlans: ["O'Neil: #1, [gold]", 'x\u202ey'],
        clients: [
          { username: 'alice', plan: "O'Neil: #1, [gold]", email: 'a\u202e@x.example' },
          { username: 'bob', plan: 'x\u202ey' },
        ],
      },
    });
    const r = await run(['export'], w.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`plan: "O'Neil: #1, [gold]"`);
    expect(r.stdout).toContain('plan: "x\\u202ey"');
    expect(r.stdout).toContain('email: "a\\u202e@x.example"');
    const out = join(w.dir, 'm.yaml');
    await writeFile(out, r.stdout);
    expect((await run(['plan', out, '--detailed-exitcode'], w.env)).code).toBe(0);
  });

  it('1,200 clients whose emails the manifest refuses (more than validation reports): exit 0, each named in a warning, the result validates and plans no change', async () => {
    const count = 1200;
    const w = await workspace('', {
      seed: {
        clients: Array.from({ length: count }, (_, i) => ({
          username: `legacy${String(i).padStart(4, '0')}`,
          email: `legacy${i}@localhost`,
        })),
      },
    });
    const out = join(w.dir, 'exported.yaml');
    const r = await run(['export', '--out', out], w.env);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings).toHaveLength(count);
    expect(warnings[0]).toBe(
      'warning: client "legacy0000": its email "legacy0@localhost" is not an address the manifest accepts: "email" left out (not managed)',
    );
    expect(r.stderr).toContain(`exported ${count} clients and 0 domains of `);
    expect(r.stderr).toContain(`; ${count} names or values left out (see the warnings above)`);
    const check = validateManifest(await readFile(out, 'utf8'), out);
    expect(check.diagnostics).toEqual([]);
    expect(check.desired?.clients).toHaveLength(count);
    expect((await run(['plan', out, '--detailed-exitcode'], w.env)).code).toBe(0);
  });

  it('refuses flags that do not go together, and a panel without a domain list', async () => {
    const w = await workspace('version: 1\nclients: []\n', { seed: SEED });
    expect((await run(['export', '--check'], w.env)).stderr).toContain('error: --check works with --into only');
    expect((await run(['export', '--drop-missing'], w.env)).stderr).toContain(
      'error: --drop-missing works with --into only',
    );
    expect((await run(['export', '--into', w.file, '--out', 'x.yaml'], w.env)).stderr).toContain(
      'error: --out and --into do not go together',
    );
    expect((await run(['export', '--into', '-'], w.env)).stderr).toContain(
      'error: --into needs the path of the manifest to rewrite',
    );
    expect((await run(['export', 'manifest.yaml'], w.env)).stderr).toContain('error: this command takes no arguments');
    const noList = await workspace('', { seed: SEED, listDomains: false });
    const r = await run(['export'], noList.env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('export cannot see which domains the panel has: nothing was written');
  });
});

const MANIFEST = `# Team A's customers.
version: 1
prune:
  keep: ["legacy-*"]

clients:
  # the oldest customer
  - username: alice          # keep this comment
    plan: 'Premium Plus'
    domains: [alice.example, "new.alice.example"]

  - username: bob
    email: old@example.com
    suspended: false
    domains:
      - bob.example    # main

  - username: carol
    plan: "true"
  - username: zed           # pending: plan will create it
    domains: [zed.example]
`;

describe('provision export --into', () => {
  it('--check prints the diff, writes nothing and exits 2; then --into rewrites only the changed entries, exits 0, and plan shows no update', async () => {
    const w = await workspace(MANIFEST, { seed: SEED });
    const before = await stat(w.file);
    const check = await run(['export', '--into', w.file, '--check'], w.env);
    expect(check.code).toBe(2);
    expect(check.stdout.replaceAll(w.file, 'manifest.yaml')).toMatchInlineSnapshot(`
      "--- manifest.yaml
      +++ manifest.yaml
      @@ -5,17 +5,22 @@
       
       clients:
         # the oldest customer
         - username: alice          # keep this comment
      -    plan: 'Premium Plus'
      +    plan: 'Basic'
           domains: [alice.example, "new.alice.example"]
       
         - username: bob
      -    email: old@example.com
      -    suspended: false
      +    email: bob@example.com
      +    suspended: true
           domains:
             - bob.example    # main
      +      - shop.bob.example
      +      - a.shop.bob.example
      +      - bücher.example
       
         - username: carol
           plan: "true"
      +    domains:
      +      - carol.example
         - username: zed           # pending: plan will create it
           domains: [zed.example]
      "
    `);
    expect(check.stderr).toContain('--check: nothing was written');
    expect(await readFile(w.file, 'utf8')).toBe(MANIFEST);
    expect((await stat(w.file)).mtimeMs).toBe(before.mtimeMs);

    const write = await run(['export', '--into', w.file], w.env);
    expect(write.code).toBe(0);
    expect(write.stdout).toBe(check.stdout);
    const after = await readFile(w.file, 'utf8');
    const changed = [
      linesOf(MANIFEST, 'username: alice', 'alice.example'),
      linesOf(MANIFEST, 'username: bob', 'bob.example'),
      linesOf(MANIFEST, 'username: carol', '"true"'),
    ];
    expect(outside(MANIFEST, after, changed)).toEqual([]);

    const again = await run(['export', '--into', w.file, '--check'], w.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('already describes the panel');

    const plan = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(plan.code).toBe(0);
    const changes = (JSON.parse(plan.stdout) as { changes: { action: string; name: string }[] }).changes;
    expect(changes.map((c) => `${c.action} ${c.name}`)).toEqual([
      'create new.alice.example',
      'create zed',
      'create zed.example',
    ]);
  });

  it('a shared panel: adds nobody else unless claimed by --clients, never a keep match; --drop-missing removes what the panel lacks', async () => {
    const w = await workspace(MANIFEST, {
      seed: {
        ...SEED,
        clients: [...(SEED.clients ?? []), { username: 'legacy-1', domains: ['legacy.example'] }],
      },
    });
    await run(['export', '--into', w.file], w.env);
    const text = await readFile(w.file, 'utf8');
    expect(text).not.toContain('team-b-1');
    expect(text).not.toContain('legacy-1');
    expect(text).not.toContain('legacy.example');
    const claimed = await run(
      ['export', '--into', w.file, '--clients', 'team-*', '--clients', 'legacy-*', '--drop-missing'],
      w.env,
    );
    expect(claimed.code).toBe(0);
    const after = await readFile(w.file, 'utf8');
    expect(after).toContain('  - username: team-b-1\n    plan: Basic\n    domains:\n      - b1.example\n');
    expect(after).not.toContain('legacy-1');
    expect(after).not.toContain('zed');
    expect(after).toContain('domains: [alice.example]');
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
  });

  it('refuses an invalid manifest with its diagnostics, and reads nothing from the panel', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: Alice\n', { seed: SEED });
    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${w.file}:3:15: error: username "Alice" must be lowercase`);
    expect(r.stderr).toContain('1 error: fix them and run again');
    expect(w.sim.requests).toEqual([]);
    expect(await readFile(w.file, 'utf8')).toBe('version: 1\nclients:\n  - username: Alice\n');
  });

  it.each([
    [
      'a merge key',
      '%YAML 1.1\n---\nversion: 1\nclients:\n  - username: bob\n    <<: {plan: Basic}\n    email: old@example.com\n',
    ],
    [
      'a plan named on',
      '# a comment first\n%YAML 1.1\n---\nversion: 1\nclients:\n  - username: carol\n    plan: Basic\n',
    ],
  ])(
    'refuses a manifest in YAML 1.1 (%s) up front: says so at its line, reads nothing, writes nothing',
    async (_name, manifest) => {
      const w = await workspace(manifest, {
        seed: {
          hostingPlans: ['Basic', 'on'],
          clients: [
            { username: 'bob', plan: 'on', email: 'bob@example.com' },
            { username: 'carol', plan: 'on' },
          ],
        },
      });
      expect((await run(['validate', w.file], w.env)).code).toBe(0);
      const r = await run(['export', '--into', w.file], w.env);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code).toBe(1);
      const line = manifest.split('\n').indexOf('%YAML 1.1') + 1;
      expect(r.stderr).toContain(
        `error: ${w.file}:${line}: export --into rewrites YAML 1.2 manifests only, and this one says %YAML 1.1 (merge keys "<<" and values such as on, yes and no read differently there): nothing was read or written\n`,
      );
      expect(r.stderr).toContain('hint: remove the "%YAML 1.1" line');
      expect(w.sim.requests).toEqual([]);
      expect(await readFile(w.file, 'utf8')).toBe(manifest);
    },
  );

  it('a manifest that says %YAML 1.2 is rewritten as any other', async () => {
    const manifest = '%YAML 1.2\n---\nversion: 1\nclients:\n  - username: carol\n    plan: Basic\n';
    const w = await workspace(manifest, {
      seed: { hostingPlans: ['Basic', 'on'], clients: [{ username: 'carol', plan: 'on' }] },
    });
    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code).toBe(0);
    expect(await readFile(w.file, 'utf8')).toBe(manifest.replace('plan: Basic', 'plan: on'));
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
  });
});
