/**
 * The action's comment script against a fake GitHub API on loopback, fed with real
 * `provision plan` output from the simulator: one comment per manifest, created once and then
 * updated in place, for every exit code, saying what the run found and where; the built bin.
 * Its token, API errors and bad input: pr-comment-errors.test.ts; the body: pr-comment-body.test.ts.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentMarker } from '../../src/action/body.js';
import {
  API_KEY,
  githubEnv,
  planRun,
  PR_CHANGES as CHANGES,
  prComment as comment,
  PR_MANIFEST as MANIFEST,
  PR_TOKEN as TOKEN,
  run,
} from '../helpers/cli.js';
import { tempDir } from '../helpers/sim-http.js';
import { fakeGitHub } from './fake-github.js';

const NO_CHANGES = 'version: 1\nclients: []\n';
const CONFLICT = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, shop.alice.example]\n';
const UNKNOWN_PLAN = 'version: 1\nclients:\n  - username: alice\n    plan: Gold\n';

describe('the sticky plan comment', () => {
  it('is created on the first run, then updated in place (found by its marker among others, across pages) on every later run, whatever the exit code', async () => {
    const fake = await fakeGitHub();
    // Others' comments, a comment of another manifest, and someone else's copy of the marker.
    fake.add('Looks good to me');
    fake.add(`${commentMarker('other/manifest.yaml')}\nthe other panel's plan`);
    fake.add(`${commentMarker(MANIFEST)}\nfake plan: nothing to see`, 'mallory');
    const changes = await planRun(CHANGES);
    expect(changes.code).toBe(2);

    const first = await comment(changes.args, githubEnv(fake));
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(
      /^Created the plan comment for "panel\/manifest\.yaml" on pull request #7: https:\/\/github\.example\//,
    );
    expect(fake.comments).toHaveLength(4);
    const ours = fake.comments[3]!;
    expect(ours.body.split('\n')[0]).toBe('<!-- panel-provision: panel/manifest.yaml -->');
    expect(ours.body).toContain('**Plan of <code>panel/manifest.yaml</code>**: :memo: changes to review (exit 2)');
    expect(ours.body).toContain(changes.stdout.trimEnd());
    expect(ours.body).toContain('[the run](https://github.example/acme/panel/actions/runs/99)');

    // More comments after ours, so the search has to page past it and not stop at the first page.
    fake.add('another review');
    fake.add('and another');
    for (const [manifest, seed, code, status] of [
      [NO_CHANGES, {}, 0, ':white_check_mark: no changes (exit 0)'],
      [CONFLICT, { seed: { clients: [{ username: 'carol', domains: ['shop.alice.example'] }] } }, 1, ':x: failed'],
      [UNKNOWN_PLAN, {}, 1, ':x: failed'],
      [CHANGES, {}, 2, ':memo: changes to review (exit 2)'],
    ] as const) {
      const planned = await planRun(manifest, seed);
      expect(planned.code).toBe(code);
      const again = await comment(planned.args, githubEnv(fake));
      expect(again).toMatchObject({ code: 0, stderr: '' });
      expect(again.stdout).toMatch(/^Updated the plan comment/);
      expect(fake.comments).toHaveLength(6);
      expect(ours.body).toContain(status);
    }
    // Someone else's comment with the marker was never touched, nor the other manifest's.
    expect(fake.comments[2]!.body).toContain('fake plan: nothing to see');
    expect(fake.comments[1]!.body).toContain("the other panel's plan");
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(4);
    // The later pages were asked for on GitHub's /repositories/{id} form, as its Link header says.
    expect(fake.requests.some((r) => r.path.includes('/repositories/4242/issues/7/comments?per_page=100&page=3'))).toBe(
      true,
    );
  });

  it("with an app's token, updates that app's comment (PROVISION_COMMENT_AUTHOR), not the workflow bot's", async () => {
    const fake = await fakeGitHub();
    fake.add(`${commentMarker(MANIFEST)}\nold, by the workflow token`);
    const app = fake.add(`${commentMarker(MANIFEST)}\nold, by the app`, 'panel-app[bot]');
    const r = await comment(
      ['--manifest', MANIFEST, '--exit-code', '0'],
      githubEnv(fake, { PROVISION_COMMENT_AUTHOR: 'panel-app[bot]' }),
    );
    expect(r.stdout).toMatch(/^Updated/);
    expect(app.body).toContain(':white_check_mark: no changes');
    expect(fake.comments[0]!.body).toContain('old, by the workflow token');
  });

  it('two manifests of one repository get a comment each', async () => {
    const fake = await fakeGitHub();
    const planned = await planRun(CHANGES);
    await comment(planned.args, githubEnv(fake));
    const second = planned.args.map((a) => (a === MANIFEST ? 'panels/b/manifest.yaml' : a));
    await comment(second, githubEnv(fake));
    await comment(second, githubEnv(fake));
    expect(fake.comments.map((c) => c.body.split('\n')[0])).toEqual([
      '<!-- panel-provision: panel/manifest.yaml -->',
      '<!-- panel-provision: panels/b/manifest.yaml -->',
    ]);
  });

  it('a conflict (exit 1) reaches the pull request: the plan with its conflicts, and the problems, without the annotations the runner already shows', async () => {
    const fake = await fakeGitHub();
    const planned = await planRun(CONFLICT, {
      seed: { clients: [{ username: 'carol', domains: ['shop.alice.example'] }] },
    });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('::error file=');
    expect((await comment(planned.args, githubEnv(fake))).code).toBe(0);
    const body = fake.comments[0]!.body;
    expect(body).toContain(
      '**Plan of <code>panel/manifest.yaml</code>**: :x: failed: nothing can be applied until the problems below are fixed (exit 1)',
    );
    expect(body).toContain('**Conflicts**: apply will send nothing until they are resolved.');
    expect(body).toMatch(
      /```text\nerror: 1 domain of the manifest belongs to another client on the panel[^\n]*\n {2}\S+manifest\.yaml:4:30: error: domain "shop\.alice\.example"[^\n]*\nhint: [^\n]+\n```/,
    );
    expect(body).not.toContain('::error');
    // The other customer is not named in the comment (the renderer's rule holds through it).
    expect(body).not.toContain('carol');
  });

  it('an unknown hosting plan (exit 1, no plan printed) reaches the pull request with the manifest line', async () => {
    const fake = await fakeGitHub();
    const planned = await planRun(UNKNOWN_PLAN);
    expect(planned).toMatchObject({ code: 1, stdout: '' });
    await comment(planned.args, githubEnv(fake));
    const body = fake.comments[0]!.body;
    expect(body).toContain(':x: failed');
    expect(body).toMatch(/manifest\.yaml:4:11: error: hosting plan "Gold" is not on the panel/);
  });

  it('skips a listed comment without an author (GitHub answers user: null for a deleted account) and still finds its own', async () => {
    const fake = await fakeGitHub();
    fake.add('before');
    const ghost = fake.add(`${commentMarker(MANIFEST)}\nby an account since deleted`);
    (ghost as unknown as { user: null }).user = null;
    const first = await comment(['--manifest', MANIFEST, '--exit-code', '0'], githubEnv(fake));
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^Created/);
    const again = await comment(['--manifest', MANIFEST, '--exit-code', '2'], githubEnv(fake));
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/^Updated/);
    expect(ghost.body).toContain('by an account since deleted');
    expect(fake.comments).toHaveLength(3);
  });

  it("names the planned commit in the status line: the pull request's head from the event, else GITHUB_SHA", async () => {
    const fake = await fakeGitHub();
    const dir = await tempDir();
    const head = '0123456789abcdef0123456789abcdef01234567';
    await writeFile(join(dir, 'event.json'), JSON.stringify({ pull_request: { number: 7, head: { sha: head } } }));
    const merge = 'fedcba9876543210fedcba9876543210fedcba98';
    await comment(['--manifest', MANIFEST, '--exit-code', '2'], {
      ...githubEnv(fake),
      GITHUB_EVENT_PATH: join(dir, 'event.json'),
      GITHUB_SHA: merge,
    });
    expect(fake.comments[0]!.body.split('\n')[1]).toBe(
      '**Plan of <code>panel/manifest.yaml</code>** at `0123456`: :memo: changes to review (exit 2)',
    );
    await comment(['--manifest', MANIFEST, '--exit-code', '0'], {
      ...githubEnv(fake),
      GITHUB_SHA: merge,
    });
    expect(fake.comments[0]!.body.split('\n')[1]).toBe(
      '**Plan of <code>panel/manifest.yaml</code>** at `fedcba9`: :white_check_mark: no changes (exit 0)',
    );
    // Anything but a commit id is not shown.
    await comment(['--manifest', MANIFEST, '--exit-code', '0'], {
      ...githubEnv(fake),
      GITHUB_SHA: '`<b>x</b>`',
    });
    expect(fake.comments[0]!.body.split('\n')[1]).toBe(
      '**Plan of <code>panel/manifest.yaml</code>**: :white_check_mark: no changes (exit 0)',
    );
  });

  it("blanks the panel's address wherever the run's problems name it (PROVISION_URL)", async () => {
    const fake = await fakeGitHub();
    const dir = await tempDir();
    const file = join(dir, 'manifest.yaml');
    await writeFile(file, CHANGES);
    // A real run against a panel that does not answer: its error names the URL.
    const url = 'http://127.0.0.1:9';
    const failed = await run(['plan', file, '--format', 'markdown', '--detailed-exitcode'], {
      PROVISION_URL: url,
      PROVISION_API_KEY: API_KEY,
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('127.0.0.1:9');
    await writeFile(join(dir, 'stderr.txt'), failed.stderr);
    const r = await comment(
      ['--manifest', MANIFEST, '--exit-code', '1', '--stderr-file', join(dir, 'stderr.txt')],
      githubEnv(fake, { PROVISION_URL: url }),
    );
    expect(r.code).toBe(0);
    const body = fake.comments[0]!.body;
    expect(body).toContain('<panel>');
    expect(body).not.toContain('127.0.0.1');
    // Every form of the address, in any case; other names stay.
    await writeFile(
      join(dir, 'stderr.txt'),
      'error: GET https://Panel-Secret.internal:8443/api/v2/ping: cannot connect\nhint: is panel-secret.internal:8443 reachable? (getaddrinfo ENOTFOUND PANEL-SECRET.internal; shop.example)\n',
    );
    await comment(
      ['--manifest', MANIFEST, '--exit-code', '1', '--stderr-file', join(dir, 'stderr.txt')],
      githubEnv(fake, { PROVISION_URL: 'https://panel-secret.internal:8443/api/v2' }),
    );
    expect(fake.comments[0]!.body).toContain(
      'error: GET <panel>/api/v2/ping: cannot connect\nhint: is <panel> reachable? (getaddrinfo ENOTFOUND <panel>; shop.example)',
    );
    expect(fake.comments[0]!.body.toLowerCase()).not.toContain('panel-secret');
  });

  it('runs as the built bin (dist/action/pr-comment.js), the way the action calls it', async () => {
    const fake = await fakeGitHub();
    const planned = await planRun(CHANGES);
    const bin = join(import.meta.dirname, '..', '..', 'dist', 'action', 'pr-comment.js');
    const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...planned.args], {
        env: { PATH: process.env.PATH ?? '', ...githubEnv(fake) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        resolve({ code, out });
      });
    });
    expect(r.out).toMatch(/^Created the plan comment for "panel\/manifest\.yaml" on pull request #7/);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain(TOKEN);
    expect(fake.comments).toHaveLength(1);
  });
});
