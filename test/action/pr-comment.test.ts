/**
 * The action's comment script against a fake GitHub API on loopback, fed with real
 * `provision plan` output from the simulator: one comment per manifest, created once and then
 * updated in place, for every exit code; the token never printed; API errors said plainly.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, commentBody, commentMarker, hasMarker } from '../../src/action/body.js';
import { nextLink } from '../../src/action/github.js';
import { runPrComment } from '../../src/action/run.js';
import { API_KEY, cliEnv, run } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';
import { fakeGitHub, type FakeGitHub } from './fake-github.js';

const TOKEN = 'ghs_FAKEtoken0123456789abcdefTOKEN';
const MANIFEST = 'panel/manifest.yaml';

function githubEnv(fake: FakeGitHub, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GITHUB_TOKEN: TOKEN,
    GITHUB_REPOSITORY: 'acme/panel',
    GITHUB_API_URL: fake.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '99',
    PROVISION_PR_NUMBER: '7',
    ...extra,
  };
}

/** Runs the script in-process; its outputs and exit code. */
async function comment(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runPrComment(args, env, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/**
 * Runs `provision plan <manifest> --format markdown --detailed-exitcode` against a simulator
 * (seeded with `seed`) as the action does, under GitHub Actions, and saves stdout and stderr as
 * the action's files. Returns the flags for the comment script.
 */
async function planRun(
  manifest: string,
  seed: Parameters<typeof sim>[0] = {},
): Promise<{ args: string[]; code: number; stdout: string; stderr: string }> {
  const simulator = await sim(seed);
  const dir = await tempDir();
  const file = join(dir, 'manifest.yaml');
  await writeFile(file, manifest);
  const r = await run(['plan', file, '--format', 'markdown', '--detailed-exitcode'], {
    ...cliEnv(simulator),
    GITHUB_ACTIONS: 'true',
  });
  await writeFile(join(dir, 'plan.md'), r.stdout);
  await writeFile(join(dir, 'stderr.txt'), r.stderr);
  return {
    ...r,
    args: [
      '--manifest',
      MANIFEST,
      '--exit-code',
      String(r.code),
      '--plan-file',
      join(dir, 'plan.md'),
      '--stderr-file',
      join(dir, 'stderr.txt'),
    ],
  };
}

const CHANGES = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
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

  it('never prints the token, not even when the API echoes it, and sends it only as the Authorization header', async () => {
    const fake = await fakeGitHub();
    const planned = await planRun(CHANGES);
    const ok = await comment(planned.args, githubEnv(fake));
    fake.fail = { method: 'GET', status: 401, message: `Bad credentials: ${TOKEN}` };
    const refused = await comment(planned.args, githubEnv(fake));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[redacted]');
    for (const output of [
      ok.stdout,
      ok.stderr,
      refused.stdout,
      refused.stderr,
      ...fake.comments.map((c) => c.body),
      ...fake.requests.map((r) => r.path),
    ]) {
      expect(output).not.toContain(TOKEN);
    }
    expect(new Set(fake.requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));
    // Nor the panel's API key, which the comment step is never given.
    expect(fake.comments[0]!.body).not.toContain(API_KEY);
  });

  it.each([
    [
      403,
      'GET',
      'Resource not accessible by integration',
      /^error: GitHub API: GET \/api\/repos\/acme\/panel\/issues\/7\/comments\?per_page=100 answered 403: "Resource not accessible by integration"\nhint: the token may not write comments: give the job "permissions: pull-requests: write"/,
    ],
    [
      404,
      'POST',
      'Not Found',
      /^error: GitHub API: POST \/api\/repos\/acme\/panel\/issues\/7\/comments answered 404: "Not Found"\nhint: no such repository or pull request/,
    ],
    [
      403,
      'PATCH',
      'Must have admin rights to Repository.',
      /^error: GitHub API: PATCH \/api\/repos\/acme\/panel\/issues\/comments\/\d+ answered 403: "Must have admin rights to Repository\."\nhint: /,
    ],
  ])(
    'an API error (%i on %s) is one clear error naming the method, path and status; exit 1',
    async (status, method, message, expected) => {
      const fake = await fakeGitHub();
      const planned = await planRun(CHANGES);
      if (method === 'PATCH') await comment(planned.args, githubEnv(fake));
      fake.fail = { method, status, message };
      const r = await comment(planned.args, githubEnv(fake));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(expected);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('refuses a next page on another host: the token is not sent there', async () => {
    const fake = await fakeGitHub();
    const elsewhere = await fakeGitHub();
    fake.add('one');
    fake.add('two');
    fake.add('three');
    fake.nextOrigin = elsewhere.url.replace(/\/api$/, '').replace('127.0.0.1', 'localhost');
    const r = await comment(['--manifest', MANIFEST, '--exit-code', '0'], githubEnv(fake));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: GitHub API: GET \S+ answered a next page on another host \("http:\/\/localhost:\d+"\): the token is not sent there\n/,
    );
    expect(elsewhere.requests).toEqual([]);
  });

  it('without a pull request says so and posts nothing; bad input is a clear error', async () => {
    const fake = await fakeGitHub();
    const env = githubEnv(fake);
    delete env.PROVISION_PR_NUMBER;
    expect(await comment(['--manifest', MANIFEST, '--exit-code', '0'], env)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('No pull request') as unknown,
    });
    expect(fake.requests).toEqual([]);
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--exit-code', '0'], githubEnv(fake), /^error: --manifest is required/],
      [
        ['--manifest', MANIFEST, '--exit-code', 'two'],
        githubEnv(fake),
        /^error: --exit-code must be a whole number from 0 to 255, not "two"/,
      ],
      [
        ['--manifest', MANIFEST, '--exit-code', '0', '--command', 'destroy'],
        githubEnv(fake),
        /^error: --command must be plan or apply, not "destroy"/,
      ],
      [
        ['--manifest', MANIFEST, '--exit-code', '0', '--bogus'],
        githubEnv(fake),
        /^error: Unknown option '--bogus'[^\n]*\nhint: provision-pr-comment --help/,
      ],
      [
        ['--manifest', MANIFEST, '--exit-code', '0'],
        { ...githubEnv(fake), GITHUB_TOKEN: '' },
        /^error: GITHUB_TOKEN is not set/,
      ],
      [
        ['--manifest', MANIFEST, '--exit-code', '0'],
        { ...githubEnv(fake), GITHUB_API_URL: 'http://api.github.example' },
        /^error: GITHUB_API_URL must be https/,
      ],
      [
        ['--manifest', MANIFEST, '--exit-code', '0'],
        { ...githubEnv(fake), GITHUB_REPOSITORY: 'just-a-name' },
        /^error: GITHUB_REPOSITORY must be owner\/repo/,
      ],
    ];
    for (const [args, caseEnv, expected] of cases) {
      const r = await comment(args, caseEnv);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(expected);
    }
    expect(fake.requests).toEqual([]);
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

  it('finds the pull request in the event file when no number is given', async () => {
    const fake = await fakeGitHub();
    const dir = await tempDir();
    await writeFile(join(dir, 'event.json'), JSON.stringify({ action: 'synchronize', pull_request: { number: 7 } }));
    const env = { ...githubEnv(fake), GITHUB_EVENT_PATH: join(dir, 'event.json') };
    delete (env as Record<string, string | undefined>).PROVISION_PR_NUMBER;
    expect((await comment(['--manifest', MANIFEST, '--exit-code', '0'], env)).code).toBe(0);
    expect(fake.comments).toHaveLength(1);
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

describe('the comment body', () => {
  it('stays within 65,536 characters however long the plan, cut at a line with its fences and sections closed', () => {
    const section = `<details><summary><code>c</code></summary>\n\n\`\`\`diff\n${'+ POST /domains {"domain":"x.example"}\n'.repeat(50)}\`\`\`\n</details>\n`;
    const plan = `### panel-provision plan\n\n${section.repeat(60)}`;
    expect(plan.length).toBeGreaterThan(COMMENT_LIMIT);
    const body = commentBody({
      command: 'plan',
      manifest: MANIFEST,
      exitCode: 2,
      plan,
      stderr: 'warning: something\n',
    });
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).toMatch(
      /\*\*The plan is cut here\*\*: \d+ more characters than a comment can hold \(creates are listed last, so they are what is left out\); run `provision plan` on the branch for the whole plan\.\n/,
    );
    // Where the whole plan is, when the run printed it (the action: provision show plan.json): the run's log, linked.
    const logged = commentBody({
      command: 'plan',
      manifest: MANIFEST,
      exitCode: 2,
      plan,
      stderr: '',
      planInLog: true,
      runUrl: 'https://github.example/acme/panel/actions/runs/99',
    });
    expect(logged.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(logged).toContain(
      '; the whole plan is in the log of [the run](https://github.example/acme/panel/actions/runs/99), step "provision plan" (printed by `provision show` from the saved plan.json).',
    );
    for (const text of [body, logged]) expect(text).not.toContain('job summary');
    expect((body.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect((body.match(/<details>/g) ?? []).length).toBe((body.match(/<\/details>/g) ?? []).length);
    // The error output is long too: quoted up to its limit, the rest named.
    const noisy = commentBody({
      command: 'plan',
      manifest: MANIFEST,
      exitCode: 1,
      plan: '',
      stderr: 'error: x\n'.repeat(5000),
    });
    expect(noisy.length).toBeLessThan(20_000);
    expect(noisy).toMatch(/… \d+ more lines in the job's log/);
  });

  it('keeps what the run printed as data: a fence it cannot close, no raw control characters, a marker no path can end early', () => {
    const body = commentBody({
      command: 'plan',
      manifest: 'a-->b/<m>.yaml',
      exitCode: 1,
      plan: '',
      stderr: 'error: name "````\n<script>" \u001b[31mred\u202e\n',
    });
    expect(body).toContain('`````text\nerror: name "````\n<script>" \\u001b[31mred\\u202e\n`````');
    expect(body.includes('\u001b') || body.includes('\u202e')).toBe(false);
    const marker = commentMarker('a-->b/<m>.yaml');
    expect(marker).toBe('<!-- panel-provision: a--%3Eb/%3Cm%3E.yaml -->');
    expect(hasMarker(body, marker)).toBe(true);
    expect(hasMarker(body, commentMarker('a-->b/<m>.yml'))).toBe(false);
    expect(body).toContain('**Plan of <code>a--&#62;b/&#60;m&#62;.yaml</code>**');
  });

  it('says what each exit code means, for plan and for apply', () => {
    const status = (command: 'plan' | 'apply', exitCode: number): string =>
      commentBody({ command, manifest: 'm.yaml', exitCode, plan: '', stderr: '' }).split('\n')[1] ?? '';
    expect([0, 1, 2, 7].map((code) => status('plan', code))).toEqual([
      '**Plan of <code>m.yaml</code>**: :white_check_mark: no changes (exit 0)',
      '**Plan of <code>m.yaml</code>**: :x: failed: nothing can be applied until the problems below are fixed (exit 1)',
      '**Plan of <code>m.yaml</code>**: :memo: changes to review (exit 2)',
      '**Plan of <code>m.yaml</code>**: :x: ended unexpectedly (exit 7)',
    ]);
    expect([0, 3, 4, 130].map((code) => status('apply', code))).toEqual([
      '**Apply of <code>m.yaml</code>**: :white_check_mark: applied (exit 0)',
      '**Apply of <code>m.yaml</code>**: :x: stale plan: the panel changed since the plan was made; nothing was sent (exit 3)',
      '**Apply of <code>m.yaml</code>**: :x: mass create or delete refused; nothing was sent (exit 4)',
      '**Apply of <code>m.yaml</code>**: :warning: interrupted: apply again to finish (exit 130)',
    ]);
  });

  it('reads the next page from a Link header', () => {
    expect(
      nextLink(
        '<https://api.github.com/repositories/1/issues/7/comments?page=2>; rel="next", <https://api.github.com/repositories/1/issues/7/comments?page=5>; rel="last"',
      ),
    ).toBe('https://api.github.com/repositories/1/issues/7/comments?page=2');
    expect(nextLink('<https://x/?page=1>; rel="prev", <https://x/?page=3>; rel="last"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});
