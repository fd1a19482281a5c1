/**
 * The pull-request workflow end to end, in-process against the simulator on loopback:
 * approval, output for people and machines, GitHub Actions, the mass-create rail, interruption,
 * encrypted secrets, help and version. Saved plans: saved-plans.test.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, loadCommand } from '../../src/cli/main.js';
import { MARKDOWN_LIMIT } from '../../src/render/markdown.js';
import { createdRecords, expectNoSecrets, run, setupWorkflow as setup } from '../helpers/cli.js';

describe('approval', () => {
  it('asks on a terminal and applies on "yes"; anything else cancels and sends nothing', async () => {
    const { file, envWithSecrets, posts } = await setup();
    const questions: string[] = [];
    const no = await run(['apply', file], envWithSecrets, {
      tty: true,
      answer: (q) => (questions.push(q), 'y'),
    });
    expect(no.code).toBe(1);
    expect(questions[0]).toMatch(/Apply 5 changes to http:\/\/127\.0\.0\.1:\d+\/api\/v2\? Only "yes" goes on: $/);
    expect(no.stderr).toContain('error: apply cancelled: 5 changes planned, nothing was sent');
    expect(posts()).toEqual([]);

    const yes = await run(['apply', file], envWithSecrets, { tty: true, answer: () => 'yes\n' });
    expect(yes.code).toBe(0);
    expect(posts()).toHaveLength(5);
  });

  it('refuses without a terminal (CI) unless --auto-approve, saying so', async () => {
    const { file, envWithSecrets, posts } = await setup();
    // A terminal for output but no interactive input is still "no terminal to confirm on".
    const r = await run(['apply', file], envWithSecrets, { tty: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: apply needs --auto-approve without a terminal to confirm on: 5 changes planned, nothing was sent',
    );
    expect(posts()).toEqual([]);
  });
});

describe('output', () => {
  it('colours only on a terminal, never with NO_COLOR', async () => {
    const { file, env } = await setup();
    const ansi = '\u001b[';
    expect((await run(['plan', file], env, { tty: true })).stdout).toContain(ansi);
    const noColor = await run(['plan', file], { ...env, NO_COLOR: '1' }, { tty: true });
    expect(noColor.code).toBe(0);
    expect(noColor.stdout).toContain('Plan: 5 to create');
    expect(noColor.stdout).not.toContain(ansi);
    expect((await run(['plan', file], env)).stdout).not.toContain(ansi);
  });

  it('a live progress line on a terminal; timestamped lines otherwise', async () => {
    const { file, envWithSecrets } = await setup();
    const tty = await run(
      ['apply', file, '--auto-approve'],
      { ...envWithSecrets, NO_COLOR: '1' },
      { tty: true, columns: 80 },
    );
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('\r\u001b[2K');
    expect(tty.stderr).toContain('Applying: 5/5 done (5 succeeded)');
    expect(tty.stdout).toMatch(/^✓ created client "alice" \(id \d+\)$/m);
    expect(tty.stderr.endsWith('\r\u001b[2K') || !tty.stderr.includes('Applying: 5/5 done (5 created)\n')).toBe(true);

    const zeroColumns = await run(['apply', file, '--auto-approve'], envWithSecrets, {
      tty: true,
      columns: 0,
    });
    expect(zeroColumns.stderr).not.toContain('Applying:');
  });

  it('apply --format json: succeeded, failed with the panel message, skipped because of a failed dependency', async () => {
    const { file, envWithSecrets } = await setup({
      intercept: ({ method, path, body }) =>
        method === 'POST' && path === '/clients' && (body as { username?: string }).username === 'alice'
          ? { status: 500, json: { code: '500', message: 'Quota backend down.' } }
          : undefined,
    });
    const r = await run(['apply', file, '--auto-approve', '--format', 'json'], envWithSecrets);
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout) as {
      outcomes: Record<string, unknown>[];
      summary: unknown;
    };
    expect(result.summary).toEqual({ succeeded: 2, failed: 1, skipped: 2 });
    expect(result.outcomes[0]).toMatchObject({ id: 'client:alice', status: 'failed' });
    expect(String(result.outcomes[0]!.error)).toContain('Quota backend down.');
    expect(result.outcomes[1]).toEqual({
      id: 'domain:alice.example',
      action: 'create',
      type: 'domain',
      name: 'alice.example',
      status: 'skipped',
      because: 'client:alice',
    });
    expect(r.stderr).toMatch(/Z ✗ failed to create client "alice"/);
  });
});

describe('pull-request comment and GitHub Actions', () => {
  it('Markdown stays under 65,000 characters on a plan with thousands of changes and says what it left out', async () => {
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < 1500; i++)
      lines.push(`  - username: user${i}`, `    domains: [user${i}.example, www.user${i}.example]`);
    const { file, env } = await setup(
      { seed: { clients: [{ username: 'other1', domains: ['other1.example'] }] } },
      `${lines.join('\n')}\n`,
    );
    const r = await run(['plan', file, '--format', 'markdown'], env);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(r.stdout).toContain('| clients to create | 1500 |');
    expect(r.stdout).toContain('| domains to create | 3000 |');
    expect(r.stdout).toMatch(
      /_\d+ more client sections left out to keep this comment under 65,000 characters: run `provision plan` for the whole plan\._/,
    );
    expect(r.stdout).toContain('this plan creates 4500 resources, more than the limit of 100');
    // Unmanaged accounts as counts only.
    expect(r.stdout).toContain('Not in the manifest, left alone: 1 client, 1 domain.');
    expect(r.stdout).not.toContain('other1');
    expect(r.stderr).toContain('warning: this plan creates 4500 resources');
  });

  it('prints manifest problems as annotations on stderr, stdout only the error document, and fills the step summary', async () => {
    const { file, env, dir } = await setup(
      {},
      'version: 1\nclients:\n  - username: Alice\n    domains: ["a,b.example"]\n',
    );
    const gh = { ...env, GITHUB_ACTIONS: 'true' };
    const bad = await run(['plan', file, '--format', 'json'], gh);
    expect(bad.code).toBe(1);
    // stdout holds one JSON document, the error's (schemas/error.schema.json); no annotation.
    const failure = JSON.parse(bad.stdout) as { error: { code: string }; errors: { line: number }[] };
    expect(failure.error.code).toBe('manifest_invalid');
    expect(failure.errors.map((e) => e.line)).toEqual([3, 4]);
    expect(bad.stdout).not.toContain('::error');
    const escapedFile = file.replaceAll(':', '%3A').replaceAll(',', '%2C');
    expect(bad.stderr).toContain(`::error file=${escapedFile},line=3,col=15::username "Alice" must be lowercase`);

    // A valid manifest with look-alike domains: warnings annotated, stdout pure JSON.
    await writeFile(file, 'version: 1\nclients:\n  - username: alice\n    domains: [paypal.example, pаypal.example]\n');
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '# before\n');
    const r = await run(['plan', file, '--format', 'json'], {
      ...gh,
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code).toBe(0);
    // stdout is the plan document alone: the look-alike warnings are annotations on stderr, not in it.
    const plan = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(plan).toMatchObject({
      format_version: '2.5',
      manifest: file,
      summary: { create: 3, update: 0, delete: 0, conflicts: 0, unknowns: 0 },
    });
    expect(plan).not.toHaveProperty('warnings');
    expect((plan.changes as Record<string, unknown>[]).map((c) => [c.action, c.type, c.name])).toEqual([
      ['create', 'client', 'alice'],
      ['create', 'domain', 'paypal.example'],
      ['create', 'domain', 'xn--pypal-4ve.example'],
    ]);
    expect(r.stdout).not.toContain('::');
    expect(r.stderr).toMatch(
      /^::warning file=.*manifest\.yaml,line=4,col=\d+::domain "pаypal\.example" looks like domain "paypal\.example" \(line 4\)/m,
    );
    const written = await readFile(summary, 'utf8');
    expect(written.startsWith('# before\n### panel-provision plan: 3 to create')).toBe(true);

    // Outside GitHub Actions: no annotations, no summary.
    const plain = await run(['plan', file], { ...env, GITHUB_STEP_SUMMARY: summary });
    expect(plain.stderr).not.toContain('::warning');
    expect(await readFile(summary, 'utf8')).toBe(written);
  });
});

describe('mass-create safety rail', () => {
  it('plan warns; apply refuses with exit 4 and sends nothing, unless --allow-mass-create', async () => {
    const { file, envWithSecrets, posts, planFile } = await setup();
    const planned = await run(['plan', file, '--max-creates', '4', '--out', planFile], envWithSecrets);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(
      '! this plan creates 5 resources, more than the limit of 4 (--max-creates): apply refuses it without --allow-mass-create',
    );

    const refused = await run(['apply', file, '--auto-approve', '--max-creates', '4'], envWithSecrets);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      'error: this plan creates 5 resources, more than the limit of 4 (--max-creates): apply refuses it without --allow-mass-create: nothing was sent',
    );
    const savedRefused = await run(['apply', planFile, '--max-creates', '4'], envWithSecrets);
    expect(savedRefused.code).toBe(4);
    expect(posts()).toEqual([]);

    expect((await run(['apply', planFile, '--max-creates', '4', '--allow-mass-create'], envWithSecrets)).code).toBe(0);
    expect(posts()).toHaveLength(5);
  });

  it('the default limit is 100', async () => {
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < 101; i++) lines.push(`  - username: u${i}`);
    const { file, envWithSecrets, posts } = await setup({}, `${lines.join('\n')}\n`);
    const r = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(r.code).toBe(4);
    expect(posts()).toEqual([]);
  });
});

describe('interruption', () => {
  it('SIGINT during apply: in-flight requests finish, the rest is skipped, the summary is printed, exit 130', async () => {
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const { file, envWithSecrets, posts, secrets } = await setup({
      intercept: async ({ method }) => {
        if (method === 'POST') {
          stop();
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
        return undefined;
      },
    });
    const r = await run(['apply', file, '--auto-approve', '--concurrency', '1'], envWithSecrets, {
      stop: stopped,
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('interrupted: requests in flight finish; nothing new is sent');
    expect(r.stdout).toContain('✓ created client "alice"');
    expect(r.stdout).toContain('skipped domain "alice.example" of client "alice": interrupted before it was sent');
    expect(r.stdout).toMatch(/Apply: 1 succeeded, 0 failed, 4 skipped/);
    expect(posts()).toHaveLength(1);
    expect((await createdRecords(secrets)).map((x) => x.username)).toEqual(['alice']);
    const again = await run(['apply', file, '--auto-approve'], envWithSecrets);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Apply: 4 succeeded');
  });
});

describe('encrypted secrets', () => {
  it('--secrets-recipient encrypts each password; secrets decrypt reads them back with the identity', async () => {
    const { file, env, secrets, dir, sim } = await setup();
    const identity = await generateIdentity();
    const recipient = await identityToRecipient(identity);
    const identityFile = join(dir, 'key.txt');
    await writeFile(identityFile, `# created: test\n# public key: ${recipient}\n${identity}\n`);

    const applied = await run(['apply', file, '--auto-approve', '--secrets-file', secrets], {
      ...env,
      PROVISION_SECRETS_RECIPIENT: recipient,
    });
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('encrypted to the age recipient');
    const records = await createdRecords(secrets);
    expect(records.map((r) => r.username).sort()).toEqual(['alice', 'bob']);
    for (const record of records) {
      expect(record).not.toHaveProperty('password');
      expect(String(record.password_age)).toMatch(
        /^-----BEGIN AGE ENCRYPTED FILE-----\n[\s\S]+-----END AGE ENCRYPTED FILE-----\n?$/,
      );
      expect(record.id).toBe(sim.state.clientNamed(String(record.username))?.id);
    }

    const decrypted = await run(['secrets', 'decrypt', secrets, '--identity', identityFile]);
    expect(decrypted.code).toBe(0);
    const lines = decrypted.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.username).sort()).toEqual(['alice', 'bob']);
    expect(
      lines.every((l) => typeof l.password === 'string' && l.password.length >= 12 && !('password_age' in l)),
    ).toBe(true);
    expect(decrypted.stderr).toBe('2 records\n');
    await expectNoSecrets(
      [applied],
      lines.map((l) => String(l.password)),
    );

    const wrong = join(dir, 'wrong.txt');
    await writeFile(wrong, `${await generateIdentity()}\n`);
    const refused = await run(['secrets', 'decrypt', secrets, '--identity', wrong]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*secrets\.jsonl:\d+: cannot decrypt the password of "(alice|bob)"/);
    const missing = await run(['secrets', 'decrypt', secrets]);
    expect(missing.stderr).toContain('holds encrypted passwords: give --identity FILE');
  });

  it('refuses a recipient that is not an age public key before anything is sent', async () => {
    const { file, envWithSecrets, posts } = await setup();
    const r = await run(['apply', file, '--auto-approve', '--secrets-recipient', 'ssh-rsa AAAA'], envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the secrets recipient is not an age public key/);
    expect(posts()).toEqual([]);
  });
});

describe('help and version', () => {
  it('every command has --help with examples; --version prints the version', async () => {
    for (const name of COMMAND_NAMES) {
      const r = await run([name, '--help']);
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toMatch(new RegExp(`^Usage: provision ${name}`));
      expect(r.stdout, name).toContain('Examples:');
      expect((await loadCommand(name)).usage).toContain(name);
    }
    const global = await run(['--help']);
    expect(global.stdout).toContain('Examples:');
    expect(global.stdout).toContain('3 stale saved');
    const version = await run(['--version']);
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(version.stdout).toBe(`${pkg.version}\n`);
  });
});
