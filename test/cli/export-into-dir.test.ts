/**
 * provision export --into DIR through the CLI, over real HTTP against the simulator: a manifest
 * directory's parts each edited in place with the changes of the entries they hold (the other
 * parts byte for byte as they were), new entries in the first part or the one --new-entries
 * names (a part without clients gets the key), --drop-missing in the part that holds the entry,
 * --check's exit code, refusals before the panel is read, no part written when one cannot be;
 * the directory then validates, plans to no changes and exports to "nothing to change".
 */
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

const SEED: SimulatorSeed = {
  hostingPlans: ['Basic', 'Premium'],
  clients: [
    { username: 'alice', plan: 'Basic', email: 'alice@new.example', domains: ['alice.example'] },
    { username: 'bob', plan: 'Premium', email: 'bob@example.com', domains: ['bob.example', 'extra.bob.example'] },
    { username: 'carol', plan: 'Basic', domains: ['carol.example'] },
    { username: 'team-c-1', plan: 'Basic', domains: ['c1.example'] },
  ],
};

const A = `# part a: the first team
version: 1
clients:
  - username: alice   # keep this comment
    plan: Basic
    email: alice@old.example
    domains: [alice.example]
`;

const B = `version: 1
clients:
  # bob, since 2019
  - username: bob
    plan: Premium
    email: bob@example.com
    domains:
      - bob.example    # main
`;

const C = `version: 1
clients:
  - username: carol
    plan: Basic
    domains: [carol.example]
`;

/** A workspace with the directory `<dir>/manifests` of the given parts (name -> text). */
async function directory(parts: Record<string, string>, seed: SimulatorSeed = SEED) {
  const w = await workspace('', { seed });
  const dir = join(w.dir, 'manifests');
  await mkdir(dir);
  for (const [name, text] of Object.entries(parts)) await writeFile(join(dir, name), text);
  const read = (name: string): Promise<string> => readFile(join(dir, name), 'utf8');
  return { w, dir, read };
}

/** Whether plan of `dir` against the workspace's panel shows no changes (--detailed-exitcode 0). */
async function plansClean(dir: string, env: Record<string, string>): Promise<void> {
  const plan = await run(['plan', dir, '--detailed-exitcode'], env);
  expect(plan.stderr).not.toContain('error');
  expect(plan.code).toBe(0);
}

describe('provision export --into DIR', () => {
  it('edits each entry in the part that holds it, leaves the other parts byte for byte; --check exits 2 first; again: nothing to change', async () => {
    const { w, dir, read } = await directory({ 'a.yaml': A, 'b.yaml': B, 'c.yaml': C });
    const cBefore = await stat(join(dir, 'c.yaml'));

    const check = await run(['export', '--into', dir, '--check'], w.env);
    expect(check.code).toBe(2);
    expect(check.stdout.replaceAll(`${dir}/`, '')).toBe(
      `--- a.yaml
+++ a.yaml
@@ -2,6 +2,6 @@
 version: 1
 clients:
   - username: alice   # keep this comment
     plan: Basic
-    email: alice@old.example
+    email: alice@new.example
     domains: [alice.example]
--- b.yaml
+++ b.yaml
@@ -5,4 +5,5 @@
     plan: Premium
     email: bob@example.com
     domains:
       - bob.example    # main
+      - extra.bob.example
`,
    );
    expect(check.stderr).toContain(
      `${dir}: 2 of 3 parts (a.yaml, b.yaml) differ from the panel (the diff above); --check: nothing was written\n`,
    );
    expect([await read('a.yaml'), await read('b.yaml'), await read('c.yaml')]).toEqual([A, B, C]);

    const write = await run(['export', '--into', dir], w.env);
    expect(write.code).toBe(0);
    expect(write.stdout).toBe(check.stdout);
    expect(write.stderr).toContain(`${dir}: 2 of 3 parts (a.yaml, b.yaml): rewritten (the diff above)\n`);
    expect(await read('a.yaml')).toBe(A.replace('alice@old.example', 'alice@new.example'));
    expect(await read('b.yaml')).toBe(`${B}      - extra.bob.example\n`);
    expect(await read('c.yaml')).toBe(C);
    expect((await stat(join(dir, 'c.yaml'))).mtimeMs).toBe(cBefore.mtimeMs);

    const again = await run(['export', '--into', dir, '--check'], w.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(`${dir}: already describes the panel for what it manages: nothing to change\n`);
    expect((await run(['validate', dir], w.env)).code).toBe(0);
    await plansClean(dir, w.env);
  });

  it('one changed part of several: "1 of 2 parts differs"; a part given alone is a file', async () => {
    const { w, dir } = await directory({ 'a.yaml': A, 'c.yaml': C });
    const check = await run(['export', '--into', dir, '--check'], w.env);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain(`${dir}: 1 of 2 parts (a.yaml) differs from the panel`);
    // A part given as a file is a manifest of its own: said as a file's.
    const file = join(dir, 'a.yaml');
    const alone = await run(['export', '--into', file, '--check'], w.env);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(`${file}: differs from the panel (the diff above); --check: nothing was written\n`);
  });

  it('a client claimed with --clients goes to the first part, or to the part --new-entries names (by name or path)', async () => {
    const entry = '  - username: team-c-1\n    plan: Basic\n    domains:\n      - c1.example\n';
    for (const [flags, part] of [
      [[], 'a.yaml'],
      [['--new-entries', 'b.yaml'], 'b.yaml'],
      [['--new-entries', 'manifests/c.yaml'], 'c.yaml'],
    ] as const) {
      const { w, dir, read } = await directory({ 'a.yaml': A, 'b.yaml': B, 'c.yaml': C });
      const args = flags.map((f) => (f.startsWith('manifests/') ? join(dir, f.slice('manifests/'.length)) : f));
      const r = await run(['export', '--into', dir, '--clients', 'team-*', ...args], w.env);
      expect(r.code).toBe(0);
      const texts = Object.fromEntries(
        await Promise.all(['a.yaml', 'b.yaml', 'c.yaml'].map(async (n) => [n, await read(n)] as const)),
      );
      for (const [name, text] of Object.entries(texts)) expect(text.includes(entry), name).toBe(name === part);
      expect(texts['c.yaml']).toBe(part === 'c.yaml' ? C + entry : C);
      await plansClean(dir, w.env);
    }
  });

  it('new entries go by default to the first part that is a file of its own, not to a linked (shared) part', async () => {
    const entry = '  - username: team-c-1\n    plan: Basic\n    domains:\n      - c1.example\n';
    const { w, dir, read } = await directory({ 'b.yaml': B });
    await mkdir(join(w.dir, '.git'));
    await mkdir(join(w.dir, 'shared'));
    await writeFile(join(w.dir, 'shared', 'plans.yaml'), 'version: 1\n');
    // a-plans.yaml sorts first, and is a link.
    await symlink(join('..', 'shared', 'plans.yaml'), join(dir, 'a-plans.yaml'));
    const r = await run(['export', '--into', dir, '--clients', 'team-*'], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect((await read('b.yaml')).endsWith(`  - extra.bob.example\n${entry}`)).toBe(true);
    expect(await readFile(join(w.dir, 'shared', 'plans.yaml'), 'utf8')).toBe('version: 1\n');
  });

  it('a new-entries part without clients gets the key; --with hosting-plans adds the panel plans there too', async () => {
    const plans = 'version: 1\n# plans only\nhosting_plans:\n  - name: Basic\n';
    const { w, dir, read } = await directory({ 'a.yaml': A, 'b.yaml': B, 'c.yaml': C, 'plans.yaml': plans });
    const r = await run(
      ['export', '--into', dir, '--clients', 'team-*', '--new-entries', 'plans.yaml', '--with', 'hosting-plans'],
      w.env,
    );
    expect(r.code).toBe(0);
    const after = await read('plans.yaml');
    expect(after.startsWith(`${plans}  - name: Premium\n`)).toBe(true);
    expect(after).toContain('\nclients:\n  - username: team-c-1\n    plan: Basic\n    domains:\n      - c1.example\n');
    expect(after.indexOf('hosting_plans:')).toBeLessThan(after.indexOf('clients:'));
    expect(await read('c.yaml')).toBe(C);
    expect((await run(['validate', dir], w.env)).code).toBe(0);
    await plansClean(dir, w.env);
    expect((await run(['export', '--into', dir, '--check', '--with', 'hosting-plans'], w.env)).code).toBe(0);
  });

  it('--drop-missing removes an entry the panel lacks from the part that holds it', async () => {
    const gone = `${C}  - username: gone\n    domains: [gone.example]\n`;
    const { w, dir, read } = await directory({ 'a.yaml': A, 'c.yaml': gone });
    const r = await run(['export', '--into', dir, '--drop-missing'], w.env);
    expect(r.code).toBe(0);
    expect(await read('c.yaml')).toBe(C);
    await plansClean(dir, w.env);
  });

  it('refuses --new-entries outside the directory, naming no part, with a manifest file, or without --into: the panel is not read', async () => {
    const { w, dir } = await directory({ 'a.yaml': A, 'b.yaml': B });
    const outside = join(w.dir, 'b.yaml');
    await writeFile(outside, B);
    const cases: [string[], string][] = [
      [
        ['--into', dir, '--new-entries', outside],
        `error: --new-entries "${outside}" is not a part of ${dir} (its parts: "a.yaml", "b.yaml"): nothing was read from the panel\n`,
      ],
      [
        ['--into', dir, '--new-entries', 'z.yaml'],
        `error: --new-entries "z.yaml" is not a part of ${dir} (its parts: "a.yaml", "b.yaml")`,
      ],
      [
        ['--into', outside, '--new-entries', 'b.yaml'],
        `error: --new-entries names a part of a manifest directory, and ${outside} is a file`,
      ],
      [['--new-entries', 'b.yaml'], 'error: --new-entries works with --into only'],
    ];
    for (const [args, message] of cases) {
      const r = await run(['export', ...args], w.env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(message);
    }
    expect((await run(['export', '--into', dir, '--new-entries', 'z.yaml'], w.env)).stderr).toContain(
      'hint: give one of its parts, by name (b.yaml) or as a path inside the directory',
    );
    // A part that is a link (shared with other directories) is never rewritten: said up front.
    await mkdir(join(w.dir, '.git'));
    await mkdir(join(w.dir, 'shared'));
    await writeFile(join(w.dir, 'shared', 'plans.yaml'), 'version: 1\n');
    await symlink(join('..', 'shared', 'plans.yaml'), join(dir, 'plans.yaml'));
    const linked = await run(['export', '--into', dir, '--new-entries', 'plans.yaml'], w.env);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain(
      'error: --new-entries "plans.yaml" is a link (a part shared with other directories): export --into does not rewrite it: nothing was read from the panel',
    );
    expect(w.sim.requests).toEqual([]);
    expect(await readFile(join(dir, 'b.yaml'), 'utf8')).toBe(B);
  });

  it('writes no part when one cannot be rewritten (aliases) or replaced (a symbolic link)', async () => {
    const aliased = `${B.replace('plan: Premium', 'plan: &p Premium')}  - username: carol\n    plan: *p\n    domains: [carol.example]\n`;
    const first = await directory({ 'a.yaml': A, 'b.yaml': aliased });
    const r = await run(['export', '--into', first.dir], first.w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('export --into cannot rewrite a manifest that uses YAML aliases');
    expect(await first.read('a.yaml')).toBe(A);

    const second = await directory({ 'a.yaml': A });
    await mkdir(join(second.dir, 'shared'));
    await writeFile(join(second.dir, 'shared', 'b.yaml'), B);
    await symlink(join(second.dir, 'shared', 'b.yaml'), join(second.dir, 'b.yaml'));
    const linked = await run(['export', '--into', second.dir], second.w.env);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain(`${join(second.dir, 'b.yaml')} is a symbolic link`);
    expect(linked.stderr).toContain('no part was written');
    expect(await second.read('a.yaml')).toBe(A);
    expect(await second.read('shared/b.yaml')).toBe(B);
  });

  it('--clients is checked as plan checks it: a domain given by mistake is refused', async () => {
    const { w, dir } = await directory({ 'a.yaml': A });
    const r = await run(['export', '--into', dir, '--clients', 'alice.example'], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--clients "alice.example" cannot match a username');
    expect(w.sim.requests).toEqual([]);
  });
});
