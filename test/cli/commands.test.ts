/**
 * The commands in-process against the simulator on loopback: validate (offline, every problem
 * with its location), plan (text, JSON, Markdown, conflicts, updates, unknown plans, no domain
 * list) and apply (approval, the secrets file, converging, failures and their dependents).
 * Connection errors, the command line and review findings: connection-errors.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createdRecords, expectNoSecrets, run, setupCommands as setup } from '../helpers/cli.js';

describe('validate', () => {
  it('accepts a valid manifest offline', async () => {
    const { file } = await setup();
    const r = await run(['validate', file]);
    expect(r).toEqual({ code: 0, stdout: `${file}: valid (2 clients, 4 domains)\n`, stderr: '' });
  });

  it('reports every problem with its location and exits 1', async () => {
    const { file } = await setup(
      {},
      'version: 1\nclients:\n  - username: Alice\n    domian: [a.example]\n  - username: bob\n    domains: [bad_domain, b.example, b.example]\n',
    );
    const r = await run(['validate', file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.slice(0, -1).every((l) => l.startsWith(`${file}:`))).toBe(true);
    expect(r.stderr).toContain(`${file}:3:15: error: username "Alice" must be lowercase`);
    expect(r.stderr).toContain(`${file}:4:5:`);
    expect(r.stderr).toMatch(/did you mean "domains"/);
    expect(r.stderr).toMatch(new RegExp(`${file}:6:\\d+: error: .*bad_domain`));
    expect(r.stdout).toBe('');
  });

  it('says what to do about a missing file, without a stack trace', async () => {
    const r = await run(['validate', '/nonexistent/manifest.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot read the manifest \/nonexistent\/manifest\.yaml: ENOENT/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('plan', () => {
  it('shows the creates in dependency order with their POSTs, reading the panel with 4 requests', async () => {
    const { sim, file, env } = await setup();
    const r = await run(['plan', file], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.replaceAll(sim.url, 'URL')).toMatchInlineSnapshot(`
      "Changes to URL:

        # client "alice" on hosting plan "Basic" will be created: not on the panel
        + POST /clients {"username":"alice","id_hosting_plan":1,"email":"alice@example.com","send_login_credentials":false}
        # domain "alice.example" of client "alice" will be created: not on the panel
        + POST /domains {"domain":"alice.example","id_user":(known after apply)}
        # domain "shop.alice.example" of client "alice" will be created: not on the panel, after alice.example
        + POST /domains {"domain":"shop.alice.example","id_user":(known after apply),"id_parent_domain":(known after apply)}
        # domain "xn--bcher-kva.example" (bücher.example) of client "alice" will be created: not on the panel
        + POST /domains {"domain":"xn--bcher-kva.example","id_user":(known after apply)}
        # client "bob" will be created: not on the panel
        + POST /clients {"username":"bob","send_login_credentials":false}
        # domain "bob.example" of client "bob" will be created: not on the panel
        + POST /domains {"domain":"bob.example","id_user":(known after apply)}

      Plan: 6 to create (2 clients, 4 domains).
      "
    `);
    expect(sim.requests.map((q) => `${q.method} ${q.path}`).sort()).toEqual([
      'GET /clients',
      'GET /domains',
      'GET /hosting-plans',
      'GET /ping',
    ]);
  });

  it('--detailed-exitcode: 2 with changes', async () => {
    const { file, env } = await setup();
    expect((await run(['plan', file, '--detailed-exitcode'], env)).code).toBe(2);
  });

  it('--format json follows the contract and --out writes the same plan', async () => {
    const { file, env, dir } = await setup();
    // A byte order mark first: the plan's manifest_sha256 covers the bytes as read, it too.
    await writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(file)]));
    const out = join(dir, 'plan.json');
    const r = await run(['plan', file, '--format', 'json', '--out', out], env);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(plan).toMatchObject({
      format_version: '2.5',
      summary: { create: 6, update: 0, delete: 0, conflicts: 0, unknowns: 0 },
    });
    // The hash of the very bytes read, the byte order mark included.
    expect(plan.manifest_sha256).toBe(
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
    expect(plan.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    const changes = plan.changes as Record<string, unknown>[];
    expect(changes.map((c) => [c.action, c.type, c.name, c.client])).toEqual([
      ['create', 'client', 'alice', undefined],
      ['create', 'domain', 'alice.example', 'alice'],
      ['create', 'domain', 'shop.alice.example', 'alice'],
      ['create', 'domain', 'xn--bcher-kva.example', 'alice'],
      ['create', 'client', 'bob', undefined],
      ['create', 'domain', 'bob.example', 'bob'],
    ]);
    expect(changes[2]).toMatchObject({
      depends_on: ['client:alice', 'domain:alice.example'],
      request: {
        method: 'POST',
        path: '/domains',
        body: { domain: 'shop.alice.example', id_user: null },
      },
    });
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(plan);
  });

  it('--format markdown gives a summary table and collapsible sections per client', async () => {
    const { file, env } = await setup();
    const r = await run(['plan', file, '--format', 'markdown'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| clients to create | 2 |');
    expect(r.stdout).toContain('| domains to create | 4 |');
    expect(r.stdout).toContain('<details><summary><code>alice</code>: 4 to create (1 client, 3 domains)</summary>');
    expect(r.stdout).toContain('+ POST /domains {"domain":"bob.example","id_user":(known after apply)}');
  });

  it('fails on a domain owned by another client, naming both, and apply sends nothing', async () => {
    const { file, envWithSecrets, posts } = await setup({
      seed: { clients: [{ username: 'carol', domains: ['shop.alice.example'] }] },
    });
    const planned = await run(['plan', file], envWithSecrets);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      'domain "shop.alice.example" is listed under client "alice" but belongs to client "carol" on the panel',
    );
    expect(planned.stderr).toMatch(/^error: 1 domain of the manifest belongs to another client on the panel/);
    const applied = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(applied.code).toBe(1);
    expect(posts()).toEqual([]);
  });

  it('updates a client on another plan, and counts unmanaged accounts, naming them only on request', async () => {
    const { file, env } = await setup({
      seed: {
        clients: [
          { username: 'alice', plan: 'Standard', domains: ['alice.example'] },
          { username: 'zed', domains: ['zed.example'] },
        ],
      },
    });
    const r = await run(['plan', file], env);
    expect(r.stdout).toContain(
      '  ~ client "alice": plan: "Standard" -> "Basic", email: (none) -> "alice@example.com"\n',
    );
    expect(r.stdout).toMatch(/ {2}~ PUT \/clients\/\d+ \{"id_hosting_plan":1,"email":"alice@example.com"\}\n/);
    expect(r.stdout).toContain('Not in the manifest, left alone: 1 client, 1 domain.');
    expect(r.stdout).not.toContain('zed');
    const named = await run(['plan', file, '--show-unmanaged'], env);
    expect(named.stdout).toContain('  client zed\n  domain zed.example\n');
  });

  it('names an unknown hosting plan with its location and the closest match', async () => {
    const { file, env } = await setup({}, 'version: 1\nclients:\n  - username: alice\n    plan: basic\n');
    const r = await run(['plan', file], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: the manifest names a hosting plan the panel does not have\n  ${file}:4:11: error: hosting plan "basic" is not on the panel: did you mean "Basic"?\nhint: the panel has: "Basic", "Premium Plus", "Standard" (names are case-sensitive)\n`,
    );
    // Under GitHub Actions it is also an annotation on the manifest's line.
    const annotated = await run(['plan', file], { ...env, GITHUB_ACTIONS: 'true' });
    expect(annotated.code).toBe(1);
    expect(annotated.stderr).toContain(
      `\n::error file=${file.replaceAll(':', '%3A').replaceAll(',', '%2C')},line=4,col=11::hosting plan "basic" is not on the panel: did you mean "Basic"?\n`,
    );
  });

  it('falls back to look-ups by name when the panel cannot list domains, and says so', async () => {
    const { file, env, sim } = await setup({
      listDomains: false,
      seed: { clients: [{ username: 'bob', domains: ['bob.example'] }] },
    });
    const r = await run(['plan', file], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/note: The panel has no domain list \(GET \/api\/v2\/domains answered 404 or 405\)/);
    expect(r.stdout).toContain('Plan: 4 to create (1 client, 3 domains).');
    expect(sim.requests.filter((q) => q.path.startsWith('/domains/name/'))).toHaveLength(4);
  });
});

describe('apply', () => {
  it('refuses without --auto-approve and sends nothing', async () => {
    const { file, envWithSecrets, posts } = await setup();
    const r = await run(['apply', file], envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: apply needs --auto-approve without a terminal to confirm on: 6 changes planned, nothing was sent/m,
    );
    expect(posts()).toEqual([]);
  });

  it('refuses to create clients without a secrets file, before any POST and before printing the plan', async () => {
    const { file, env, posts } = await setup();
    const r = await run(['apply', file, '--auto-approve'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: this apply creates clients, and their passwords need a secrets file: nothing was sent\nhint: give --secrets-file/m,
    );
    expect(r.stdout).toBe('');
    expect(posts()).toEqual([]);
  });

  it('refuses a secrets file that others can read', async () => {
    const { file, env, secrets, posts } = await setup();
    await writeFile(secrets, '', { mode: 0o644 });
    const r = await run(['apply', file, '--auto-approve', '--secrets-file', secrets], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('can be read by others (mode 644)');
    expect(posts()).toEqual([]);
  });

  it('creates everything, stores each password once (0600), and converges', async () => {
    const { sim, file, envWithSecrets, secrets, posts } = await setup();
    const first = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Apply: 6 succeeded, 0 failed, 0 skipped.');
    expect(first.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z ✓ created client "alice" \(id \d+\)$/m);
    expect(posts()).toHaveLength(6);

    const alice = sim.state.clientNamed('alice');
    const bob = sim.state.clientNamed('bob');
    expect(alice?.id_hosting_plan).toBe(sim.state.planNamed('Basic')?.id);
    expect(sim.state.domainNamed('shop.alice.example')).toMatchObject({
      id_user: alice?.id,
      id_parent_domain: sim.state.domainNamed('alice.example')?.id,
    });
    expect(sim.state.domainNamed('xn--bcher-kva.example')?.id_user).toBe(alice?.id);
    expect(sim.state.domainNamed('bob.example')?.id_user).toBe(bob?.id);

    expect(((await stat(secrets)).mode & 0o777).toString(8)).toBe('600');
    const records = await createdRecords(secrets);
    expect(records.map((r) => [r.username, r.id, r.panel_url])).toEqual(
      expect.arrayContaining([
        ['alice', alice?.id, sim.url],
        ['bob', bob?.id, sim.url],
      ]),
    );
    expect(records).toHaveLength(2);
    expect(records.every((r) => typeof r.password === 'string' && r.password.length >= 12)).toBe(true);

    const again = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes: the panel matches the manifest.');
    expect(posts()).toHaveLength(6);
    expect((await run(['plan', file, '--detailed-exitcode'], envWithSecrets)).code).toBe(0);
    await expectNoSecrets([first, again], secrets);
  });

  it('skips the dependents of a failure and nothing else; a second run finishes without duplicates', async () => {
    let failing = true;
    const { sim, file, envWithSecrets, secrets, posts } = await setup({
      intercept: ({ method, path, body }) =>
        failing && method === 'POST' && path === '/clients' && (body as { username?: string }).username === 'alice'
          ? {
              status: 500,
              json: {
                code: '500 Internal Server Error',
                message: 'Disk quota backend unavailable.',
              },
            }
          : undefined,
    });
    const first = await run(['apply', file, '--auto-approve', '--concurrency', '2'], envWithSecrets);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('✗ failed to create client "alice": POST /api/v2/clients: 500');
    expect(first.stdout).toContain('Disk quota backend unavailable.');
    expect(first.stdout).toContain('- skipped domain "shop.alice.example" of client "alice": client "alice" failed');
    expect(first.stdout).toContain('Apply: 2 succeeded, 1 failed, 3 skipped');
    expect(sim.state.clientNamed('bob')?.id).toEqual(expect.any(Number));
    expect(sim.state.domainNamed('bob.example')?.id_user).toBe(sim.state.clientNamed('bob')?.id);

    failing = false;
    const second = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Apply: 4 succeeded, 0 failed, 0 skipped.');
    expect(posts().filter((p) => p.endsWith(' 201'))).toHaveLength(6);
    const usernames = (await createdRecords(secrets)).map((r) => r.username);
    expect(usernames.sort()).toEqual(['alice', 'bob']);
    await expectNoSecrets([first, second], secrets);
  });

  it("reports a 400 with the panel's message, e.g. a username taken by an administrator", async () => {
    const { file, envWithSecrets } = await setup(
      {},
      'version: 1\nclients:\n  - username: admin\n    domains: [admin.example]\n',
    );
    const r = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ failed to create client "admin": POST \/api\/v2\/clients: 400 Bad Request: .+/);
    expect(r.stdout).toContain('skipped domain "admin.example"');
  });

  it('--format json prints the outcomes for scripts, progress on stderr', async () => {
    const { file, envWithSecrets } = await setup();
    const r = await run(['apply', file, '--auto-approve', '--format', 'json'], envWithSecrets);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as {
      outcomes: { id: string; status: string }[];
      summary: unknown;
    };
    expect(result.summary).toEqual({ succeeded: 6, failed: 0, skipped: 0 });
    expect(result.outcomes.map((o) => o.id)).toEqual([
      'client:alice',
      'domain:alice.example',
      'domain:shop.alice.example',
      'domain:xn--bcher-kva.example',
      'client:bob',
      'domain:bob.example',
    ]);
    expect(r.stderr).toContain('✓ created client "alice"');
  });

  it('warns when the secrets file is inside a git work tree and not ignored', async () => {
    const { dir, file, env } = await setup();
    execFileSync('git', ['init', '-q', dir]);
    const r = await run(['apply', file, '--auto-approve', '--secrets-file', join(dir, 'secrets.jsonl')], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('is inside a git work tree and not ignored');
    await writeFile(join(dir, '.gitignore'), 'secrets.jsonl\n');
    const ignored = await run(['apply', file, '--auto-approve', '--secrets-file', join(dir, 'secrets.jsonl')], env);
    expect(ignored.stderr).not.toContain('git work tree');
  });
});
