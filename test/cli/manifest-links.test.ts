/**
 * Manifest directories through the CLI: parts that are symbolic links. A link to a part elsewhere
 * in the repository is read; one out of the repository, into .git (the checkout's credentials),
 * to a file not named like a part, or a directory that is itself a link out of the repository is
 * refused, unread; a directory named like a part is refused, naming it.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/cli.js';
import { setup, validLine } from '../helpers/manifest-dir.js';
import { runBin } from '../helpers/process.js';
import { tempDir } from '../helpers/sim-http.js';

describe('a manifest directory and symbolic links', () => {
  it('reads a part that is a symbolic link to a file outside the directory, inside its repository', async () => {
    const w = await setup();
    // The repository holding the directory (cli/manifest-files.ts repositoryOf: the nearest folder with .git).
    await mkdir(join(w.dir, '.git'));
    const shared = join(w.dir, 'shared.yaml');
    await writeFile(shared, 'version: 1\nclients:\n  - username: carol\n    domains: [carol.example]\n');
    await symlink(shared, w.path('c-shared.yaml'));
    const valid = await run(['validate', w.manifests]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toMatch(validLine(w.manifests, '3 parts, 3 clients, 4 domains'));
    const applied = await run(['apply', w.manifests, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(w.sim.state.domainNamed('carol.example')?.id_user).toBe(w.sim.state.clientNamed('carol')?.id);

    // A broken link is named, with the reason, no stack trace.
    await symlink(join(w.dir, 'gone.yaml'), w.path('d-gone.yaml'));
    const broken = await run(['validate', w.manifests]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`cannot read the manifest part ${w.path('d-gone.yaml')}: ENOENT`);
    expect(broken.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a part linked out of its repository (or, with none, out of the directory), naming it', async () => {
    const w = await setup();
    const outside = join(await tempDir(), 'secret.yaml');
    await writeFile(outside, 'version: 1\nclients:\n  - username: Mallory\n');
    await symlink(outside, w.path('c-elsewhere.yaml'));
    await mkdir(join(w.dir, '.git'));
    const r = await run(['plan', w.manifests], w.env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `error: ${w.path('c-elsewhere.yaml')} is a link to ${outside}, not to a manifest part inside ${w.dir}: it is not read`,
    );
    expect(r.stderr).not.toContain('Mallory');
    expect(r.stderr).not.toContain('git init');
    expect(w.sim.requests).toEqual([]);

    // Without a repository, the directory itself is the bound: a link beside it is refused too.
    await rm(join(w.dir, '.git'), { recursive: true });
    await rm(w.path('c-elsewhere.yaml'));
    await writeFile(join(w.dir, 'beside.yaml'), 'version: 1\nclients: []\n');
    await symlink(join(w.dir, 'beside.yaml'), w.path('c-beside.yaml'));
    const bare = await run(['validate', w.manifests]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(
      `error: ${w.path('c-beside.yaml')} is a link to ${join(w.dir, 'beside.yaml')}, not to a manifest part inside ${w.manifests}`,
    );
    // Copied out of a repository (an example tried elsewhere): the hint says how to give it one.
    expect(bare.stderr).toMatch(/^hint: .*no git repository holds .*: run git init in the folder that holds it/m);
  });

  it("refuses a part linked to the checkout's credentials (.git/config) or any file not named like a part, unread", async () => {
    const w = await setup();
    await mkdir(join(w.dir, '.git'));
    // What actions/checkout writes by default: a header with the job's token.
    await writeFile(
      join(w.dir, '.git', 'config'),
      '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic TOKEN-VALUE\n',
    );
    await writeFile(join(w.dir, '.git', 'x.yaml'), 'version: 1\nclients:\n  - username: TOKEN-VALUE\n');
    await writeFile(join(w.dir, 'secrets.jsonl'), '{"username":"alice","password":"TOKEN-VALUE"}\n');
    for (const target of [join('..', '.git', 'config'), join('..', '.git', 'x.yaml'), join('..', 'secrets.jsonl')]) {
      await rm(w.path('c-link.yaml'), { force: true });
      await symlink(target, w.path('c-link.yaml'));
      const r = await run(['plan', w.manifests, '--format', 'markdown'], { ...w.env, GITHUB_ACTIONS: 'true' });
      expect(r.code, target).toBe(1);
      expect(r.stderr).toContain(`error: ${w.path('c-link.yaml')} is a link to `);
      expect(r.stdout + r.stderr).not.toContain('TOKEN-VALUE');
    }
    expect(w.sim.requests).toEqual([]);
  });

  it('a manifest directory that is itself a link out of the repository: its parts are refused', async () => {
    const w = await setup();
    await mkdir(join(w.dir, '.git'));
    const outside = await tempDir();
    await writeFile(join(outside, 'a.yaml'), 'version: 1\nclients:\n  - username: mallory\n');
    await symlink(outside, join(w.dir, 'evil'));
    const r = await run(['validate', join(w.dir, 'evil')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: ${join(w.dir, 'evil', 'a.yaml')} is in ${outside}, outside ${w.dir}, the repository that holds ${join(w.dir, 'evil')} (a link): it is not read`,
    );
    expect(r.stdout).toBe('');
  });

  it('a directory given with a trailing `/.` or a `..` after a link out of the repository: its parts are refused too', async () => {
    const w = await setup();
    await mkdir(join(w.dir, '.git'));
    const outside = await tempDir();
    await mkdir(join(outside, 'sub'));
    await writeFile(join(outside, 'a.yaml'), 'version: 1\nclients:\n  - username: mallory\n');
    await writeFile(join(outside, 'sub', 'a.yaml'), 'version: 1\nclients:\n  - username: mallory\n');
    await symlink(join(outside, 'sub'), join(w.dir, 'evil'));
    // Typed as given: join would simplify the `.` and `..` away as text.
    for (const typed of [`${w.dir}/evil/.`, `${w.dir}/evil/./`, `${w.dir}/evil/..`]) {
      const r = await run(['validate', typed]);
      expect(r.code, typed).toBe(1);
      expect(r.stderr, typed).toMatch(/a\.yaml is (in|a link to) .*: it is not read/);
      expect(r.stdout, typed).toBe('');
      const planned = await run(['plan', typed], w.env);
      expect(planned.code, typed).toBe(1);
      expect(planned.stdout + planned.stderr, typed).not.toContain('mallory');
    }
    expect(w.sim.requests).toEqual([]);
  });

  it('a repository reached through a link is read; `..` after a link goes where the link leads, as the system reads it', async () => {
    const w = await setup();
    const repo = join(w.dir, 'r2');
    await mkdir(join(repo, '.git'), { recursive: true });
    await writeFile(join(repo, 'a.yaml'), 'version: 1\nclients:\n  - username: rita\n');
    await symlink(repo, join(w.dir, 'r2link'));
    const linked = await run(['validate', join(w.dir, 'r2link')]);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toContain('valid (1 part, 1 client');
    // deep/lk -> ../m: deep/lk/../x is m/../x, that is x beside m, not deep/x.
    await mkdir(join(w.dir, 'm'));
    await mkdir(join(w.dir, 'x'));
    await mkdir(join(w.dir, 'deep', 'x'), { recursive: true });
    await writeFile(join(w.dir, 'x', 'p.yaml'), 'version: 1\nclients:\n  - username: xavier\n');
    await writeFile(join(w.dir, 'deep', 'x', 'p.yaml'), 'version: 1\nclients:\n  - username: deepak\n');
    await symlink(join('..', 'm'), join(w.dir, 'deep', 'lk'));
    // Given as typed (join would simplify the `..` away as text).
    const typed = `${w.dir}/deep/lk/../x`;
    const across = await run(['validate', '--format', 'json', typed]);
    expect(across.code, across.stderr).toBe(0);
    const file = (JSON.parse(across.stdout) as { files: { clients: number }[] }).files[0];
    expect(file?.clients).toBe(1);
    const plan = await run(['plan', typed, '--format', 'json'], w.env);
    expect(plan.stdout).toContain('"client:xavier"');
    expect(plan.stdout).not.toContain('deepak');
  });

  it('never reads through a link the system cannot resolve (a path too long): refused, naming the errno', async () => {
    const w = await setup();
    await mkdir(join(w.dir, '.git'));
    await writeFile(join(w.dir, 'secret.env'), 'GITHUB_TOKEN: TOKEN-VALUE\n');
    // A chain of folders whose relative path fits in PATH_MAX and whose absolute one does not,
    // made from inside the repository (as git would check it out), its last link to the secret.
    const script = `
      const fs = require('node:fs');
      const parts = []; let total = 0;
      while (total < 4070 - 251) { parts.push('d'.repeat(250)); total += 251; }
      parts.push('e'.repeat(4070 - total));
      const deep = parts.join('/');
      fs.mkdirSync(deep, { recursive: true });
      fs.symlinkSync(${JSON.stringify(join(w.dir, 'secret.env'))}, deep + '/z.yaml');
      fs.symlinkSync('../' + deep + '/z.yaml', 'manifests/c-deep.yaml');`;
    const made = spawnSync(process.execPath, ['-e', script], { cwd: w.dir, encoding: 'utf8' });
    try {
      expect(made.status, made.stderr).toBe(0);
      const r = await runBin(['validate', 'manifests'], {}, { cwd: w.dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot read the manifest part manifests\/c-deep\.yaml: ENAMETOOLONG/);
      expect(r.stdout + r.stderr).not.toContain('TOKEN-VALUE');
      expect(r.stderr).not.toContain('internal error');
    } finally {
      // Removed from inside, by relative paths: the absolute ones are too long for the system.
      spawnSync(process.execPath, ['-e', `require('node:fs').rmSync('${'d'.repeat(250)}', { recursive: true })`], {
        cwd: w.dir,
      });
    }
  });

  it('refuses a directory named like a part, naming it, before any request', async () => {
    const w = await setup();
    await mkdir(w.path('x.yaml'));
    for (const argv of [
      ['validate', w.manifests],
      ['plan', w.manifests],
      ['apply', w.manifests, '--auto-approve'],
    ]) {
      const r = await run(argv, w.envWithSecrets);
      expect(r.code, argv[0]).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: ${w.path('x.yaml')} is a directory, not a manifest part\n`);
      expect(r.stderr).toContain(
        'hint: every *.yaml and *.yml entry of a manifest directory is a part: rename it, or move it elsewhere',
      );
    }
    expect(w.sim.requests).toEqual([]);
  });
});
