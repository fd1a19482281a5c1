/**
 * The action's comment script against a fake GitHub API on loopback: the token never printed nor
 * sent elsewhere, GitHub's API errors said plainly, and the pull request found or its absence
 * and bad input said, before any request.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  API_KEY,
  githubEnv,
  planRun,
  PR_CHANGES as CHANGES,
  prComment as comment,
  PR_MANIFEST as MANIFEST,
  PR_TOKEN as TOKEN,
} from '../helpers/cli.js';
import { tempDir } from '../helpers/sim-http.js';
import { fakeGitHub } from './fake-github.js';

describe('the sticky plan comment', () => {
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

  it('finds the pull request in the event file when no number is given', async () => {
    const fake = await fakeGitHub();
    const dir = await tempDir();
    await writeFile(join(dir, 'event.json'), JSON.stringify({ action: 'synchronize', pull_request: { number: 7 } }));
    const env = { ...githubEnv(fake), GITHUB_EVENT_PATH: join(dir, 'event.json') };
    delete (env as Record<string, string | undefined>).PROVISION_PR_NUMBER;
    expect((await comment(['--manifest', MANIFEST, '--exit-code', '0'], env)).code).toBe(0);
    expect(fake.comments).toHaveLength(1);
  });
});
