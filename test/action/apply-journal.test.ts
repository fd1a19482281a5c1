/**
 * action.yml's apply and its secrets journal, run here (the stand-in runner, composite.ts): the
 * journal fetched from the branch of the same repository (a bare one, the workspace's origin)
 * and pushed back after apply; a public repository refused before apply; the artifact mode's
 * download of the newest artifact and its upload with the retention stated.
 */
import { execFile } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { runComposite } from './composite.js';
import { fakeGitHub } from './fake-github.js';
import { action, CHANGES, DOWNLOAD, RUN, setup, stepNamed, TOKEN, UPLOAD } from './setup.js';

describe('the action, apply and its secrets journal', () => {
  it('apply on main: the journal fetched from its branch, the plan applied, the passwords encrypted in the journal pushed back; no pull request, no comment', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '');
    const summary = join(s.temp, 'summary.md');
    await writeFile(summary, '');
    const recipient = await identityToRecipient(await generateIdentity());
    const r = await runComposite(
      action,
      {
        command: 'apply',
        manifest: 'panel/manifest.yaml',
        url: simulator.url,
        'api-key': API_KEY,
        'secrets-recipient': recipient,
        'secrets-name': 'panel-secrets-a',
        'apply-args': '--concurrency 2',
      },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: { ...s.env, GITHUB_STEP_SUMMARY: summary } },
    );
    expect(r.steps.map((step) => `${step.name}: ${step.outcome}`).slice(2)).toEqual([
      'Fetch the secrets journal: success',
      'Download the secrets journal: skipped',
      'provision ${{ inputs.command }}: success',
      'Comment on the pull request: success',
      'Summarise the apply: success',
      'Show the plan: skipped',
      'Keep the secrets journal: success',
      'Keep the encrypted passwords: skipped',
      'Rescue the secrets journal: skipped',
      'Fail when provision failed: skipped',
    ]);
    expect(r.outputs['exit-code']).toBe('0');
    expect(simulator.state.clientNamed('alice')).toBeDefined();
    expect(stepNamed(r, 'Comment on the pull request').stdout).toContain('No pull request');
    expect(fake.requests).toEqual([]);
    const secrets = await readFile(r.outputs['secrets-file']!, 'utf8');
    expect(secrets).toContain('"password_age"');
    expect(secrets).not.toMatch(/"password":/);
    // The same journal, on the branch of the same repository (the checkout's origin).
    const remote = join(s.temp, 'remote.git');
    const { stdout } = await promisify(execFile)('git', [
      '--git-dir',
      remote,
      'show',
      'provision-secrets:panel-secrets-a.jsonl',
    ]);
    expect(stdout).toBe(secrets);
    expect(await readFile(summary, 'utf8')).toContain(
      'The secrets journal: `panel-secrets-a.jsonl` committed to the branch `provision-secrets`',
    );
    for (const step of r.steps) expect(step.stdout + step.stderr).not.toContain(TOKEN);
  });

  it('a push the remote refuses fails the step, and the journal is rescued as an artifact instead', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '');
    // The remote declines every push (a protected branch, a token that may not write).
    const hook = join(s.temp, 'remote.git', 'hooks', 'pre-receive');
    await writeFile(hook, '#!/bin/sh\necho "protected branch" >&2\nexit 1\n');
    await chmod(hook, 0o755);
    const r = await runComposite(
      action,
      {
        command: 'apply',
        manifest: 'panel/manifest.yaml',
        url: simulator.url,
        'api-key': API_KEY,
        'secrets-recipient': await identityToRecipient(await generateIdentity()),
      },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    expect(r.outputs['exit-code']).toBe('0');
    expect(r.failed).toBe(true);
    const keep = stepNamed(r, 'Keep the secrets journal');
    expect(keep.outcome).toBe('failure');
    expect(keep.stdout).toContain('::error title=panel-provision::git could not push the journal to provision-secrets');
    const rescue = stepNamed(r, 'Rescue the secrets journal');
    expect(rescue.uses).toBe(UPLOAD);
    expect(rescue.with).toMatchObject({ name: 'panel-secrets-unpushed', path: r.outputs['secrets-file'] });
    expect(await readFile(r.outputs['secrets-file']!, 'utf8')).toContain('"password_age"');
  });

  it('apply in a public repository: the branch is refused before apply, pointing to artifact mode; nothing sent', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '');
    const r = await runComposite(
      action,
      {
        command: 'apply',
        manifest: 'panel/manifest.yaml',
        url: simulator.url,
        'api-key': API_KEY,
        'secrets-recipient': await identityToRecipient(await generateIdentity()),
      },
      {
        temp: s.temp,
        workspace: s.workspace,
        github: { ...s.github, 'event.repository.private': 'false' },
        env: s.env,
      },
    );
    expect(r.failed).toBe(true);
    const fetched = stepNamed(r, 'Fetch the secrets journal');
    expect(fetched.outcome).toBe('failure');
    expect(fetched.stdout).toContain(
      '::error title=panel-provision::the secrets branch is refused in a public repository',
    );
    expect(fetched.stderr).toContain('secrets-store: artifact');
    expect(stepNamed(r, RUN).outcome).toBe('skipped');
    expect(stepNamed(r, 'Keep the secrets journal').outcome).toBe('skipped');
    expect(simulator.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('apply in artifact mode: downloads the newest artifact of the journal first, uploads it again with its retention, and says so on the page', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    fake.artifacts.push(
      {
        name: 'panel-secrets',
        expired: false,
        created_at: '2026-11-01T00:00:00Z',
        workflow_run: { id: 41, repository_id: 4242, head_repository_id: 4242 },
      },
      {
        name: 'panel-secrets',
        expired: false,
        created_at: '2026-11-20T00:00:00Z',
        workflow_run: { id: 42, repository_id: 4242, head_repository_id: 4242 },
      },
      {
        name: 'other',
        expired: false,
        created_at: '2026-11-21T00:00:00Z',
        workflow_run: { id: 43, repository_id: 4242, head_repository_id: 4242 },
      },
    );
    const s = await setup(CHANGES, fake, '');
    const summary = join(s.temp, 'summary.md');
    await writeFile(summary, '');
    const r = await runComposite(
      action,
      {
        command: 'apply',
        manifest: 'panel/manifest.yaml',
        url: simulator.url,
        'api-key': API_KEY,
        'secrets-recipient': await identityToRecipient(await generateIdentity()),
        'secrets-store': 'artifact',
        'artifact-retention-days': '30',
      },
      {
        temp: s.temp,
        workspace: s.workspace,
        github: { ...s.github, 'event.repository.private': 'false' },
        env: { ...s.env, GITHUB_STEP_SUMMARY: summary },
      },
    );
    expect(r.failed).toBe(false);
    const dir = stepNamed(r, 'Fetch the secrets journal').stdout;
    expect(dir).toContain('The secrets journal from the artifact panel-secrets of run 42');
    const download = stepNamed(r, 'Download the secrets journal');
    expect(download.uses).toBe(DOWNLOAD);
    expect(download.with).toEqual({
      name: 'panel-secrets',
      path: r.outputs['secrets-file']!.replace(/\/secrets\.jsonl$/, ''),
      'run-id': '42',
      'github-token': TOKEN,
    });
    const upload = stepNamed(r, 'Keep the encrypted passwords');
    expect(upload.uses).toBe(UPLOAD);
    expect(upload.with).toEqual({
      name: 'panel-secrets',
      path: r.outputs['secrets-file'],
      'if-no-files-found': 'ignore',
      'retention-days': '30',
    });
    expect(await readFile(summary, 'utf8')).toContain('kept as the artifact `panel-secrets` for 30 days');
  });
});
