/**
 * .github/workflows/release.yml: what a release does and with which rights (actionlint and the
 * pins: test/e2e/workflows.test.ts). Its scripts are run here too: the tag check against a
 * package.json and a CHANGELOG.md, and the major tag's move against a fake `gh` that logs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sim-http.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
  if?: string;
}
interface Job {
  needs?: string | string[];
  environment?: string;
  permissions: Record<string, string>;
  steps: Step[];
}
const wf = parse(await readFile(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<'build' | 'publish' | 'release', Job>;
};
const { build, publish, release } = wf.jobs;

/** A step's script run by bash as the runner does, in `cwd`, with `env`. */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code: code ?? 1, out });
    });
  });
}

const named = (job: Job, name: string): Step =>
  job.steps.find((step) => step.name === name) ?? expect.fail(`no step ${name}`);

describe('the release workflow', () => {
  it('runs on version tags; each job has only the rights it needs', () => {
    expect(wf.on).toEqual({ push: { tags: ['v*.*.*'] } });
    expect(wf.permissions).toEqual({});
    expect(build.permissions).toEqual({ contents: 'read' });
    expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    expect(release.permissions).toEqual({ contents: 'write' });
    expect(publish.needs).toBe('build');
    expect(release.needs).toEqual(['build', 'publish']);
    // The npm token lives in an environment of its own, and reaches the publish step only.
    expect(publish.environment).toBe('npm');
    const withToken = Object.values(wf.jobs)
      .flatMap((job) => job.steps)
      .filter((step) => JSON.stringify(step.env ?? {}).includes('secrets.'));
    expect(withToken.map((step) => step.name)).toEqual(['Publish the tarball with provenance']);
  });

  it('checks the tag, then installs, runs the tests, builds and packs, in that order, on Node 20', () => {
    const runs = build.steps.map((step) => step.name ?? step.run?.split('\n')[0] ?? step.uses?.split('@')[0]);
    expect(runs).toEqual([
      'actions/checkout',
      'actions/setup-node',
      "The tag is package.json's version",
      'npm ci --no-audit --no-fund',
      'npm test',
      'npm run build',
      'Pack',
      'actions/upload-artifact',
    ]);
    expect(build.steps[0]!.with).toEqual({ 'persist-credentials': false });
    expect(build.steps[1]!.with).toMatchObject({ 'node-version': 20, 'package-manager-cache': false });
    // The README's test command is the one the release runs.
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/## Run the tests[^\n]*\n+```sh\nnpm test\n```/);
  });

  it('publishes the tarball it packed with provenance, and attaches the same tarball to the GitHub release', () => {
    const script = named(publish, 'Publish the tarball with provenance').run ?? '';
    expect(script).toContain('npm publish "./panel-provision-cli-$VERSION.tgz" --provenance --access public');
    expect(named(publish, 'Publish the tarball with provenance').env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
    const gh = named(release, 'GitHub release with the tarball').run ?? '';
    expect(gh).toContain('gh release create "$TAG" "$RUNNER_TEMP/release/panel-provision-cli-$VERSION.tgz"');
    expect(gh).toContain('--verify-tag');
  });

  it("refuses a tag that is not package.json's version, or a version CHANGELOG.md has no section for", async () => {
    const script = named(build, "The tag is package.json's version").run ?? '';
    const dir = await tempDir();
    await writeFile(join(dir, 'package.json'), JSON.stringify({ version: '1.2.3' }));
    await writeFile(join(dir, 'CHANGELOG.md'), '# Changelog\n\n## [Unreleased]\n\n## [1.2.3] - 2026-11-26\n');
    const output = join(dir, 'output');
    await writeFile(output, '');
    const ok = await bash(script, dir, { TAG: 'v1.2.3', GITHUB_OUTPUT: output });
    expect(ok.code, ok.out).toBe(0);
    expect(await readFile(output, 'utf8')).toBe('version=1.2.3\n');
    const wrong = await bash(script, dir, { TAG: 'v1.2.4', GITHUB_OUTPUT: output });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain("::error title=release::the tag v1.2.4 is not package.json's version v1.2.3");
    await writeFile(join(dir, 'CHANGELOG.md'), '# Changelog\n\n## [Unreleased]\n');
    const unlisted = await bash(script, dir, { TAG: 'v1.2.3', GITHUB_OUTPUT: output });
    expect(unlisted.code).toBe(1);
    expect(unlisted.out).toContain('CHANGELOG.md has no section ## [1.2.3]');
  });

  it('moves the major tag (v0) to the release commit, creating it the first time; never for a prerelease', async () => {
    const step = named(release, 'Move the major tag to this release');
    expect(step.if).toBe("${{ !contains(needs.build.outputs.version, '-') }}");
    const dir = await tempDir();
    await mkdir(join(dir, 'bin'));
    const log = join(dir, 'gh.log');
    // A fake gh: the ref exists when EXISTS=1; every call is logged.
    await writeFile(
      join(dir, 'bin', 'gh'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> "${log}"\n[ "$2" = "repos/acme/pp/git/ref/tags/v0" ] && [ "$EXISTS" != 1 ] && exit 1\nexit 0\n`,
    );
    await chmod(join(dir, 'bin', 'gh'), 0o755);
    const env = {
      PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
      GITHUB_REPOSITORY: 'acme/pp',
      GITHUB_SHA: 'a'.repeat(40),
      VERSION: '0.4.1',
    };
    const first = await bash(step.run ?? '', dir, { ...env, EXISTS: '0' });
    expect(first.code, first.out).toBe(0);
    const again = await bash(step.run ?? '', dir, { ...env, EXISTS: '1' });
    expect(again.code, again.out).toBe(0);
    expect((await readFile(log, 'utf8')).trimEnd().split('\n')).toEqual([
      'api repos/acme/pp/git/ref/tags/v0 --silent',
      `api --method POST repos/acme/pp/git/refs -f ref=refs/tags/v0 -f sha=${'a'.repeat(40)} --silent`,
      'api repos/acme/pp/git/ref/tags/v0 --silent',
      `api --method PATCH repos/acme/pp/git/refs/tags/v0 -f sha=${'a'.repeat(40)} -F force=true --silent`,
    ]);
  });
});

describe("the project's own tests workflow", () => {
  const test = parse(readFileSync(join(ROOT, '.github', 'workflows', 'test.yml'), 'utf8')) as {
    on: Record<string, unknown>;
    permissions: Record<string, string>;
    jobs: Record<string, Job & { strategy: { matrix: { node: number[] } } }>;
  };

  it("runs the README's test command on pull requests and pushes, on Node 20 and 22, then a dry run of npm publish", () => {
    expect(Object.keys(test.on).sort()).toEqual(['pull_request', 'push']);
    expect(test.permissions).toEqual({ contents: 'read' });
    const job = test.jobs.test!;
    expect(job.strategy.matrix.node).toEqual([20, 22]);
    const runs = job.steps.map((step) => step.run ?? step.uses?.split('@')[0]);
    expect(runs).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'npm ci --no-audit --no-fund',
      'npm test',
      'npm publish --dry-run --access public',
    ]);
    expect(job.steps[1]!.with).toMatchObject({ 'node-version': '${{ matrix.node }}', 'package-manager-cache': false });
    expect(JSON.stringify(test)).not.toContain('secrets.');
    // The README's test command is the one this runs.
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/## Run the tests[^\n]*\n+```sh\nnpm test\n```/);
  });
});
