/**
 * action.yml's check of the manifest input, run (see action.test.ts): a regular file or a
 * directory of parts inside the workspace, never a symlink, a device or a path out of it; a
 * directory's parts linked out of the repository are refused by provision itself.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { runComposite } from './composite.js';
import { fakeGitHub } from './fake-github.js';
import { action, CHANGES, RUN, setup, stepNamed } from './setup.js';

/** The action run on `manifest`, which it must refuse before provision runs: the log's annotation and the comment say `why`. */
async function expectRefused(
  manifest: string,
  why: { readonly annotation: string; readonly comment: string },
  context: {
    simulator: { url: string };
    fake: Awaited<ReturnType<typeof fakeGitHub>>;
    s: Awaited<ReturnType<typeof setup>>;
  },
): Promise<void> {
  const { simulator, fake, s } = context;
  const r = await runComposite(
    action,
    { manifest, url: simulator.url, 'api-key': API_KEY },
    { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
  );
  expect(r.outputs['exit-code'], manifest).toBe('1');
  expect(r.failed).toBe(true);
  expect(stepNamed(r, RUN).stdout).toContain(`::error title=panel-provision::${why.annotation}`);
  expect(fake.comments.at(-1)!.body).toContain(`error: ${why.comment}`);
}

describe('the action, its manifest input', () => {
  it('refuses a manifest that is a symlink or a device before provision reads it, and says so in the comment; a path that starts with - is a path', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '7');
    await symlink('manifest.yaml', join(s.workspace, 'panel', 'link.yaml'));
    await symlink('panel', join(s.workspace, 'link-dir'));
    for (const manifest of ['panel/link.yaml', '/dev/zero', 'link-dir'])
      await expectRefused(
        manifest,
        {
          annotation: 'the manifest input must name a regular file or a directory',
          comment: 'the manifest must be a regular file or a directory of the checked-out repository, not a symlink',
        },
        { simulator, fake, s },
      );
    expect(simulator.requests).toEqual([]);
    // Given after `--`: a file named like a flag is read as the manifest.
    await writeFile(join(s.workspace, '--show-url'), CHANGES);
    const r = await runComposite(
      action,
      { manifest: '--show-url', url: simulator.url, 'api-key': API_KEY },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    expect(r.outputs['exit-code']).toBe('2');
    expect(await readFile(r.outputs['plan-file']!, 'utf8')).not.toContain(simulator.url);
  });

  it('refuses a manifest whose whole path, resolved, leaves the workspace: a symlinked folder, .. or an absolute path; a symlinked folder inside it is fine', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '7');
    // A regular file outside the workspace, reached through a symlinked folder, `..` and its absolute path.
    const outside = join(s.temp, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'manifest.yaml'), CHANGES);
    await symlink(outside, join(s.workspace, 'escape'));
    await symlink(join(outside, '..'), join(s.workspace, 'panel', 'up'));
    for (const manifest of [
      'escape/manifest.yaml',
      'panel/up/outside/manifest.yaml',
      '../outside/manifest.yaml',
      'panel/../../outside/manifest.yaml',
      join(outside, 'manifest.yaml'),
    ])
      await expectRefused(
        manifest,
        {
          annotation: 'the manifest input must name a file or directory inside the checked-out repository',
          comment:
            'the manifest must be a file or directory inside the checked-out repository; its path, symlinked folders resolved, leads out of it',
        },
        { simulator, fake, s },
      );
    expect(simulator.requests).toEqual([]);
    // Inside the workspace, whichever way: a symlinked folder that stays in it, its absolute path.
    await symlink('panel', join(s.workspace, 'also-panel'));
    for (const manifest of [
      'also-panel/manifest.yaml',
      'panel/../panel/manifest.yaml',
      join(s.workspace, 'panel', 'manifest.yaml'),
    ]) {
      const r = await runComposite(
        action,
        { manifest, url: simulator.url, 'api-key': API_KEY },
        { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
      );
      expect(r.outputs['exit-code'], manifest).toBe('2');
    }
  });

  it('plans a directory of parts, one linked to a part elsewhere in the repository; a part linked out of it is refused, unread', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '7');
    // setup() made the workspace a git repository (its .git marks the repository's root).
    await mkdir(join(s.workspace, 'parts'));
    await writeFile(join(s.workspace, 'parts', 'b.yaml'), 'version: 1\nclients:\n  - username: bob\n');
    await symlink('../panel/manifest.yaml', join(s.workspace, 'parts', 'a.yaml'));
    const run = () =>
      runComposite(
        action,
        { manifest: 'parts', url: simulator.url, 'api-key': API_KEY },
        { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
      );
    const r = await run();
    expect(r.outputs['exit-code']).toBe('2');
    const plan = await readFile(r.outputs['plan-file']!, 'utf8');
    expect(plan).toContain('alice');
    expect(plan).toContain('bob');
    // A part that is a link to a file outside the repository (the runner's own files) is never read.
    await writeFile(join(s.temp, 'secret.yaml'), 'version: 1\nclients:\n  - username: SECRET-VALUE\n');
    await symlink(join(s.temp, 'secret.yaml'), join(s.workspace, 'parts', 'c.yaml'));
    const refused = await run();
    expect(refused.outputs['exit-code']).toBe('1');
    expect(fake.comments.at(-1)!.body).toContain('not to a manifest part inside');
    expect(fake.comments.at(-1)!.body).not.toContain('SECRET-VALUE');
    expect(simulator.requests).toEqual(expect.not.arrayContaining([expect.objectContaining({ method: 'POST' })]));
  });
});
