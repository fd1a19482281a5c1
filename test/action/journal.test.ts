/**
 * The Action's journal script (src/action/journal.ts) against real git and a local bare
 * repository: pushes that race each other are fetched, merged and pushed again, never forced;
 * the branch mode refuses a public repository; the artifact mode finds the previous run's
 * artifact and states its retention on the run's page.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { mergeJournal } from '../../src/action/journal-branch.js';
import { runJournal } from '../../src/action/journal.js';
import { tempDir } from '../helpers/sim-http.js';
import { gitRemote } from './setup.js';

const git = promisify(execFile);

async function journal(
  argv: string[],
  env: Record<string, string>,
  fetch?: typeof globalThis.fetch,
): Promise<{ code: number; out: string }> {
  let out = '';
  const io = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (out += t) },
    pause: () => Promise.resolve(),
    ...(fetch === undefined ? {} : { fetch }),
  };
  return { code: await runJournal(argv, env, io), out };
}

/** A workspace whose origin is a fresh bare repository, and the env the script reads. */
async function repository(): Promise<{ temp: string; remote: string; env: Record<string, string> }> {
  const temp = await tempDir();
  const workspace = join(temp, 'workspace');
  await mkdir(workspace);
  const remote = await gitRemote(temp, workspace);
  const env = {
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: 'acme/panel',
    PROVISION_REPOSITORY_PRIVATE: 'true',
    RUNNER_TEMP: temp,
  };
  return { temp, remote, env };
}

const show = async (remote: string, path: string): Promise<string> =>
  (await git('git', ['--git-dir', remote, 'show', `provision-secrets:${path}`])).stdout;

describe('mergeJournal', () => {
  it("keeps the branch's lines in order, then this run's lines the branch lacks; nothing twice", () => {
    expect(mergeJournal('', 'a\nb\n')).toBe('a\nb\n');
    expect(mergeJournal('a\nb\n', 'a\nb\n')).toBe('a\nb\n');
    expect(mergeJournal('a\nb\nx\n', 'a\nb\nc\n')).toBe('a\nb\nx\nc\n');
    expect(mergeJournal('a', 'a\nc')).toBe('a\nc\n');
  });
});

describe('the journal on its branch', () => {
  it('four panels saved at once: each file on the branch, the history a line of fast-forwards (pushes that lost were merged and pushed again)', async () => {
    const { temp, remote, env } = await repository();
    const panels = ['eu', 'us', 'asia', 'lab'];
    const saved = await Promise.all(
      panels.map(async (panel) => {
        const file = join(temp, `${panel}.jsonl`);
        await writeFile(file, `{"panel":"${panel}"}\n`, { mode: 0o600 });
        return journal(['save', '--name', `secrets-${panel}`, '--file', file, '--exit-code', '0'], env);
      }),
    );
    for (const s of saved) expect(s.code, s.out).toBe(0);
    for (const panel of panels) expect(await show(remote, `secrets-${panel}.jsonl`)).toBe(`{"panel":"${panel}"}\n`);
    const count = async (...args: string[]): Promise<string> =>
      (await git('git', ['--git-dir', remote, 'rev-list', '--count', ...args, 'provision-secrets'])).stdout.trim();
    expect(await count()).toBe('4');
    expect(await count('--merges')).toBe('0');
    // Committed as the Actions bot, never as an account someone could hold.
    const authors = (await git('git', ['--git-dir', remote, 'log', '--format=%an <%ae> %cn', 'provision-secrets']))
      .stdout;
    expect(new Set(authors.trim().split('\n'))).toEqual(
      new Set(['github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com> github-actions[bot]']),
    );
    expect(saved.map((s) => s.out).join('')).toMatch(/push\(es\) lost to another run and merged/);
  });

  it("two runs of one panel that raced: the second's push merges the one file, both runs' lines kept", async () => {
    const { temp, remote, env } = await repository();
    const base = join(temp, 'base.jsonl');
    await writeFile(base, '{"n":0}\n', { mode: 0o600 });
    expect((await journal(['save', '--file', base], env)).code).toBe(0);
    // Both fetched {"n":0}; each appended its own line; the first pushes, then the second.
    const fetchedA = join(temp, 'a.jsonl');
    const fetchedB = join(temp, 'b.jsonl');
    expect((await journal(['fetch', '--file', fetchedA], env)).code).toBe(0);
    expect((await journal(['fetch', '--file', fetchedB], env)).code).toBe(0);
    expect((await stat(fetchedA)).mode & 0o777).toBe(0o600);
    await writeFile(fetchedA, '{"n":0}\n{"n":"a"}\n');
    await writeFile(fetchedB, '{"n":0}\n{"n":"b"}\n');
    expect((await journal(['save', '--file', fetchedA], env)).code).toBe(0);
    expect((await journal(['save', '--file', fetchedB], env)).code).toBe(0);
    expect(await show(remote, 'panel-secrets.jsonl')).toBe('{"n":0}\n{"n":"a"}\n{"n":"b"}\n');
    // A run that wrote nothing new commits nothing.
    const again = await journal(['save', '--file', fetchedB], env);
    expect(again.out).toContain('(nothing new)');
    const count = (await git('git', ['--git-dir', remote, 'rev-list', '--count', 'provision-secrets'])).stdout.trim();
    expect(count).toBe('3');
  });

  it('refuses a public repository, pointing to artifact mode; asks the API when the event does not say', async () => {
    const { temp, env } = await repository();
    const file = join(temp, 'secrets.jsonl');
    const told = await journal(['fetch', '--file', file], { ...env, PROVISION_REPOSITORY_PRIVATE: 'false' });
    expect(told.code).toBe(1);
    expect(told.out).toContain('the secrets branch is refused in a public repository');
    expect(told.out).toContain('secrets-store: artifact');
    const asked: string[] = [];
    const api = ((url: URL) => {
      asked.push(url.pathname);
      return Promise.resolve(new Response(JSON.stringify({ private: false, visibility: 'public' }), { status: 200 }));
    }) as unknown as typeof fetch;
    const unknown = await journal(
      ['fetch', '--file', file],
      { ...env, PROVISION_REPOSITORY_PRIVATE: '', GITHUB_API_URL: 'https://api.github.example' },
      api,
    );
    expect(unknown.code).toBe(1);
    expect(asked).toEqual(['/repos/acme/panel']);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it("keeps the journal in this repository on this server, whatever the checkout's origin names (another repository, another host)", async () => {
    const { temp, env } = await repository();
    // actions/checkout with `repository:` (or a remote changed by an earlier step): its origin
    // is not the repository whose visibility was checked, nor on the server the token is for.
    await git('git', [
      '-C',
      env.GITHUB_WORKSPACE!,
      'remote',
      'set-url',
      'origin',
      'https://attacker.invalid/acme/public.git',
    ]);
    const server = join(temp, 'server');
    const same = join(server, 'acme', 'panel.git');
    await git('git', ['init', '--quiet', '--bare', same]);
    const file = join(temp, 'secrets.jsonl');
    await writeFile(file, '{"n":1}\n', { mode: 0o600 });
    const saved = await journal(['save', '--file', file], {
      ...env,
      GITHUB_SERVER_URL: `file://${server}`,
      GITHUB_TOKEN: 'ghs_never_to_another_host',
    });
    expect(saved.code, saved.out).toBe(0);
    expect(await show(same, 'panel-secrets.jsonl')).toBe('{"n":1}\n');
  });

  it('never commits the journal into a branch of code (secrets-branch: main): a secrets branch holds journals only', async () => {
    const { temp, remote, env } = await repository();
    const workspace = env.GITHUB_WORKSPACE!;
    await writeFile(join(workspace, 'app.ts'), 'export {};\n');
    await git('git', ['-C', workspace, 'add', 'app.ts']);
    await git('git', ['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'code']);
    await git('git', ['-C', workspace, 'push', '-q', 'origin', 'HEAD:refs/heads/main']);
    const before = (await git('git', ['--git-dir', remote, 'rev-parse', 'main'])).stdout;
    const file = join(temp, 'secrets.jsonl');
    await writeFile(file, '{"n":1}\n', { mode: 0o600 });
    const saved = await journal(['save', '--branch', 'main', '--file', file], env);
    expect(saved.code).toBe(1);
    expect(saved.out).toContain('the branch main holds more than secrets journals (app.ts)');
    expect((await git('git', ['--git-dir', remote, 'rev-parse', 'main'])).stdout).toBe(before);
    const fetched = await journal(['fetch', '--branch', 'main', '--file', join(temp, 'f.jsonl')], env);
    expect(fetched.code).toBe(1);
  });

  it('refuses a name that is no file name (the panel URL, say)', async () => {
    const { temp, env } = await repository();
    const r = await journal(['fetch', '--name', 'https://panel.example.com', '--file', join(temp, 's')], env);
    expect(r.code).toBe(1);
    expect(r.out).toContain('is no file name');
  });
});

/** A run of the repository itself (4242), as GitHub's artifact list names it. */
const own = (id: number) => ({ id, repository_id: 4242, head_repository_id: 4242, head_branch: 'main' });

describe('the journal as an artifact', () => {
  it("fetch names the newest unexpired artifact's run for the download; save states the retention on the run's page", async () => {
    const { temp, env } = await repository();
    const output = join(temp, 'output');
    const summary = join(temp, 'summary.md');
    await writeFile(output, '');
    await writeFile(summary, '');
    const api = ((url: URL) => {
      expect(url.pathname).toBe('/repos/acme/panel/actions/artifacts');
      expect(url.searchParams.get('name')).toBe('secrets-eu');
      return Promise.resolve(
        new Response(
          JSON.stringify({
            artifacts: [
              { name: 'secrets-eu', expired: true, created_at: '2026-11-28T00:00:00Z', workflow_run: own(9) },
              { name: 'secrets-eu', expired: false, created_at: '2026-11-20T00:00:00Z', workflow_run: own(7) },
              { name: 'secrets-eu', expired: false, created_at: '2026-11-25T00:00:00Z', workflow_run: own(8) },
            ],
          }),
          { status: 200 },
        ),
      );
    }) as unknown as typeof fetch;
    const all = { ...env, PROVISION_REPOSITORY_PRIVATE: 'false', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary };
    const file = join(temp, 'j', 'secrets.jsonl');
    const argv = ['--store', 'artifact', '--name', 'secrets-eu', '--file', file, '--retention-days', '30'];
    const fetched = await journal(['fetch', ...argv], all, api);
    expect(fetched.code, fetched.out).toBe(0);
    expect(await readFile(output, 'utf8')).toBe(`run-id=8\nfile=${file}\n`);
    // Nothing written (no create): nothing to keep, the earlier artifact keeps its own expiry.
    const none = await journal(['save', ...argv], all);
    expect(none.out).toContain('nothing to keep');
    expect(await readFile(summary, 'utf8')).toBe('');
    await mkdir(join(temp, 'j'));
    await writeFile(file, '{"n":1}\n', { mode: 0o600 });
    const saved = await journal(['save', ...argv], all);
    expect(saved.code, saved.out).toBe(0);
    expect(await readFile(summary, 'utf8')).toContain('kept as the artifact `secrets-eu` for 30 days');
  });

  it("never reads a fork's artifact: a pull request from a fork runs here too and can upload one of the journal's name", async () => {
    const { temp, env } = await repository();
    const output = join(temp, 'output');
    await writeFile(output, '');
    const listed = [
      { name: 'panel-secrets', expired: false, created_at: '2026-11-20T00:00:00Z', workflow_run: own(7) },
      // Newer, from a fork's pull request (its head is another repository), or saying nothing of its head.
      {
        name: 'panel-secrets',
        expired: false,
        created_at: '2026-11-28T00:00:00Z',
        workflow_run: { id: 66, repository_id: 4242, head_repository_id: 6666, head_branch: 'main' },
      },
      { name: 'panel-secrets', expired: false, created_at: '2026-11-27T00:00:00Z', workflow_run: { id: 67 } },
    ];
    const api = (() =>
      Promise.resolve(new Response(JSON.stringify({ artifacts: listed }), { status: 200 }))) as unknown as typeof fetch;
    const file = join(temp, 'secrets.jsonl');
    const fetched = await journal(
      ['fetch', '--store', 'artifact', '--file', file],
      { ...env, GITHUB_OUTPUT: output },
      api,
    );
    expect(fetched.code, fetched.out).toBe(0);
    expect(await readFile(output, 'utf8')).toBe(`run-id=7\nfile=${file}\n`);
  });
});
