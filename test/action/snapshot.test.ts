/**
 * The action's "plans without a key" flow, run (see action.test.ts for the stand-in runner):
 * `command: snapshot` against the simulator writes a snapshot (mode 0600, no key, emails as
 * digests) that `command: plan` with `plan-args: --from-snapshot` plans from with no url and no
 * api-key (neither variable in the provision process's environment), the same changes as a
 * live plan, and comments; apply, snapshot and a live plan with an empty url or api-key fail
 * before provision runs, naming the input.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { runComposite } from './composite.js';
import { fakeGitHub } from './fake-github.js';
import { action, ROOT, RUN, setup, spyNode, stepNamed, TOKEN } from './setup.js';

const ALICE = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
const BOB =
  'version: 1\nclients:\n  - username: bob\n    email: bob@example.com\n    suspended: true\n' +
  '    domains: [bob.example, shop.bob.example]\n';
const SEED = { seed: { clients: [{ username: 'bob', email: 'bob@example.com', domains: ['bob.example'] }] } };
const BUNDLE = join(ROOT, 'bundle', 'bin.js');

/** The saved plan of a run (plan.json next to the plan-file output), what a plan's changes are. */
async function savedPlan(planFile: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(dirname(planFile), 'plan.json'), 'utf8')) as Record<string, unknown>;
}

describe('the action, plans without a key', () => {
  it('snapshot (a directory of parts) writes a 0600 file with no key and no address, posts nothing; a plan from it with no url and no api-key runs with neither variable set, comments, and shows the live plan', async () => {
    const simulator = await sim(SEED);
    const fake = await fakeGitHub();
    const s = await setup(ALICE, fake, '');
    await writeFile(join(s.workspace, 'panel', 'bob.yaml'), BOB);
    const spy = await spyNode(s.temp, s.env);
    const taken = await runComposite(
      action,
      { command: 'snapshot', manifest: 'panel', url: simulator.url, 'api-key': API_KEY },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: spy.env },
    );
    expect(taken.steps.slice(2).map((step) => `${step.name}: ${step.outcome}`)).toEqual([
      'Fetch the secrets journal: skipped',
      'Download the secrets journal: skipped',
      'provision ${{ inputs.command }}: success',
      'Comment on the pull request: skipped',
      'Summarise the apply: skipped',
      'Show the plan: skipped',
      'Keep the secrets journal: skipped',
      'Keep the encrypted passwords: skipped',
      'Rescue the secrets journal: skipped',
      'Fail when provision failed: skipped',
    ]);
    expect(taken.failed).toBe(false);
    expect(taken.outputs['exit-code']).toBe('0');
    const file = taken.outputs['snapshot-file']!;
    expect(file).toMatch(/\/panel-provision-run\.[^/]+\/snapshot\.json$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('bob@example.com');
    expect(text).toMatch(/"sha256:[0-9a-f]{64}"/);
    expect(fake.requests).toEqual([]);
    expect(simulator.requests.every((q) => q.method === 'GET')).toBe(true);
    // The snapshot job is where the key is: provision had both variables.
    expect((await spy.calls()).find((c) => c.script === BUNDLE && c.arg === 'snapshot')?.vars).toEqual([
      'PROVISION_API_KEY',
      'PROVISION_URL',
    ]);

    // The pull request's job: the snapshot, no url, no api-key.
    const sent = simulator.requests.length;
    const pr = await setup(ALICE, fake, '7');
    await writeFile(join(pr.workspace, 'panel', 'bob.yaml'), BOB);
    const prSpy = await spyNode(pr.temp, pr.env);
    const planned = await runComposite(
      action,
      { manifest: 'panel', 'plan-args': `--from-snapshot ${file}` },
      { temp: pr.temp, workspace: pr.workspace, github: pr.github, env: prSpy.env },
    );
    expect(planned.failed).toBe(false);
    expect(planned.outputs['exit-code']).toBe('2');
    expect(simulator.requests).toHaveLength(sent);
    const calls = (await prSpy.calls()).filter((c) => c.script === BUNDLE && c.arg !== '--version');
    expect(calls.map((c) => c.arg)).toEqual(['plan', 'show']);
    for (const call of calls) expect(call.vars, call.arg).toEqual([]);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]!.body).toContain(':memo: changes to review (exit 2)');
    expect(fake.comments[0]!.body).toContain('Planned against the snapshot');
    // `show` names the snapshot's panel: with no url secret to mask it, the action masks it.
    const origin = new URL(simulator.url).origin;
    const provisionStep = stepNamed(planned, RUN);
    expect(provisionStep.stdout).toContain(`::add-mask::${origin}\n::group::The whole plan (provision show)`);
    for (const step of planned.steps) expect(step.stdout + step.stderr).not.toContain(API_KEY);

    // The same changes as a live plan of the same workspace.
    const live = await runComposite(
      action,
      { manifest: 'panel', url: simulator.url, 'api-key': API_KEY },
      { temp: pr.temp, workspace: pr.workspace, github: pr.github, env: pr.env },
    );
    expect(live.outputs['exit-code']).toBe('2');
    expect(stepNamed(live, RUN).stdout).not.toContain('::add-mask::');
    const [fromSnapshot, fromPanel] = [
      await savedPlan(planned.outputs['plan-file']!),
      await savedPlan(live.outputs['plan-file']!),
    ];
    expect(fromSnapshot.changes).toEqual(fromPanel.changes);
    expect(fromSnapshot.fingerprint).toEqual(fromPanel.fingerprint);
    expect(fromSnapshot.summary).toMatchObject({ create: 3, update: 1, delete: 0 });
    expect(fromSnapshot.summary).toEqual(fromPanel.summary);
  });

  it('apply, snapshot and a plan against the panel with an empty url or api-key fail before provision runs, naming the input', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    for (const [given, annotation] of [
      [
        { command: 'apply', url: simulator.url, 'api-key': '', 'secrets-recipient': 'age1x' },
        "the api-key input is empty: apply needs the panel's url and api-key",
      ],
      [{ command: 'apply', url: ' ', 'api-key': API_KEY }, 'the url input is empty: apply needs'],
      [{ command: 'snapshot', url: '', 'api-key': API_KEY }, 'the url input is empty: snapshot needs'],
      [{ command: 'snapshot', url: simulator.url }, 'the api-key input is empty: snapshot needs'],
      [
        { command: 'plan', 'plan-args': '--max-deletes 5' },
        'the url and api-key inputs are empty: a plan against the panel needs its url and api-key (a pull request from a fork gets no secret); to plan with neither, give plan-args: --from-snapshot FILE',
      ],
    ] as const) {
      const s = await setup(ALICE, fake, '7');
      const spy = await spyNode(s.temp, s.env);
      const comments = fake.comments.length;
      const r = await runComposite(
        action,
        { manifest: 'panel/manifest.yaml', ...given },
        { temp: s.temp, workspace: s.workspace, github: s.github, env: spy.env },
      );
      const what = JSON.stringify(given);
      expect(r.failed, what).toBe(true);
      expect(r.outputs['exit-code'], what).toBe('1');
      expect(r.outputs['snapshot-file'], what).toBe('');
      expect(stepNamed(r, RUN).stdout, what).toContain(`::error title=panel-provision::${annotation}`);
      expect(r.steps.at(-1)!.outcome, what).toBe('failure');
      // provision never ran: only the install step's `provision --version`.
      expect(
        (await spy.calls()).filter((c) => c.script === BUNDLE).map((c) => c.arg),
        what,
      ).toEqual(['--version']);
      // The pull request's comment says it too; a snapshot posts none.
      if (given.command === 'snapshot') expect(fake.comments, what).toHaveLength(comments);
      else expect(fake.comments.at(-1)!.body, what).toContain(`error: ${annotation}`);
      for (const step of r.steps) {
        expect(step.stdout + step.stderr).not.toContain(API_KEY);
        expect(step.stdout + step.stderr).not.toContain(TOKEN);
      }
    }
    expect(simulator.requests).toEqual([]);
  });

  it('a snapshot provision refuses (a wrong key) fails the step, with no file; snapshot-args reach provision (--with-emails keeps the addresses)', async () => {
    const simulator = await sim(SEED);
    const fake = await fakeGitHub();
    const s = await setup(BOB, fake, '7');
    const refused = await runComposite(
      action,
      { command: 'snapshot', manifest: 'panel/manifest.yaml', url: simulator.url, 'api-key': 'not-the-key-0000' },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    expect(refused.failed).toBe(true);
    expect(refused.outputs['exit-code']).toBe('1');
    expect(refused.outputs['snapshot-file']).toBe('');
    expect(stepNamed(refused, RUN).stderr).toMatch(/error: GET \/api\/v2\/ping: 401/);
    expect(stepNamed(refused, 'Comment on the pull request').outcome).toBe('skipped');
    expect(refused.steps.at(-1)!.stdout).toContain('provision ended with exit code 1');
    expect(fake.requests).toEqual([]);

    const kept = await runComposite(
      action,
      {
        command: 'snapshot',
        manifest: 'panel/manifest.yaml',
        url: simulator.url,
        'api-key': API_KEY,
        'snapshot-args': '--with-emails',
      },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    expect(kept.outputs['exit-code']).toBe('0');
    const text = await readFile(kept.outputs['snapshot-file']!, 'utf8');
    expect(text).toContain('"bob@example.com"');
    expect(text).not.toContain(API_KEY);
    expect(fake.requests).toEqual([]);
  });
});
