/**
 * action.yml, run here: its bash steps in a stand-in for the Actions runner (composite.ts), the
 * install step against a fake `npm` that records what it is asked (the action's own build in its
 * path, which is this checkout, built by the global setup; or an install from the registry),
 * provision against the simulator, the comment against a fake GitHub API. Plus the structure it
 * promises (which input each step sees, actions pinned by commit). A clean checkout building
 * itself for real: checkout.test.ts.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { runComposite } from './composite.js';
import { fakeGitHub } from './fake-github.js';
import { action, CHANGES, CONFLICT, pkg, ROOT, RUN, setup, SETUP_NODE, stepNamed, TOKEN } from './setup.js';

describe('the action, run', () => {
  it("plan on a pull request: builds the action's own checkout, outside the work tree, plans, comments; exit 2 is a success", async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '7');
    const r = await runComposite(
      action,
      { manifest: 'panel/manifest.yaml', url: simulator.url, 'api-key': API_KEY },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    // `npm ci` of the action's own lockfile, then its build, both in the action's path; nothing installed.
    expect((await readFile(`${s.npmLog}.build`, 'utf8')).trimEnd().split('\n')).toEqual([
      ROOT,
      'ci',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ROOT,
      'run',
      'build',
      '--silent',
    ]);
    await expect(readFile(s.npmLog, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(r.steps[1]!.stdout.trim()).toBe(pkg.version);
    expect(r.steps.map((step) => `${step.name}: ${step.outcome}`)).toEqual([
      `${SETUP_NODE}: success`,
      'Install panel-provision: success',
      'Fetch the secrets journal: skipped',
      'Download the secrets journal: skipped',
      'provision ${{ inputs.command }}: success',
      'Comment on the pull request: success',
      'Summarise the apply: skipped',
      'Show the plan: success',
      'Keep the secrets journal: skipped',
      'Keep the encrypted passwords: skipped',
      'Rescue the secrets journal: skipped',
      'Fail when provision failed: skipped',
    ]);
    expect(r.steps[0]!.with).toEqual({ 'node-version': '24', 'package-manager-cache': 'false' });
    // The whole plan in the log (the comment may be cut for length), from the saved plan.json.
    expect(stepNamed(r, RUN).stdout).toMatch(
      /::group::The whole plan \(provision show\)\n[\s\S]*\+ POST \/clients \{"username":"alice"[\s\S]*\nPlan: 2 to create[^\n]*\n::endgroup::/,
    );
    expect(await readdir(join(r.outputs['plan-file']!, '..'))).toContain('plan.json');
    expect(r.failed).toBe(false);
    expect(r.outputs['exit-code']).toBe('2');
    expect(await readFile(r.outputs['plan-file']!, 'utf8')).toMatch(/^### panel-provision plan: 2 to create/);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]!.body).toMatch(
      /^<!-- panel-provision: panel\/manifest\.yaml -->\n\*\*Plan of <code>panel\/manifest\.yaml<\/code>\*\*: :memo: changes to review \(exit 2\)/,
    );
    for (const step of r.steps) {
      expect(step.stdout + step.stderr).not.toContain(API_KEY);
      expect(step.stdout + step.stderr).not.toContain(TOKEN);
    }
    // A second run updates the same comment.
    await runComposite(
      action,
      { manifest: 'panel/manifest.yaml', url: simulator.url, 'api-key': API_KEY },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    expect(fake.comments).toHaveLength(1);
    expect(simulator.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('plan with a conflict (exit 1): the comment is posted first, then the step fails', async () => {
    const simulator = await sim({
      seed: { clients: [{ username: 'carol', domains: ['shop.alice.example'] }] },
    });
    const fake = await fakeGitHub();
    const s = await setup(CONFLICT, fake, '7');
    const r = await runComposite(
      action,
      { manifest: 'panel/manifest.yaml', url: simulator.url, 'api-key': API_KEY },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.steps.slice(4).map((step) => `${step.name}: ${step.outcome}`)).toEqual([
      'provision ${{ inputs.command }}: success',
      'Comment on the pull request: success',
      'Summarise the apply: skipped',
      'Show the plan: success',
      'Keep the secrets journal: skipped',
      'Keep the encrypted passwords: skipped',
      'Rescue the secrets journal: skipped',
      'Fail when provision failed: failure',
    ]);
    expect(r.failed).toBe(true);
    // The annotation on the manifest's line reaches the log (the runner reads it from there).
    expect(stepNamed(r, RUN).stderr).toMatch(
      /::error file=panel\/manifest\.yaml,line=4,col=30::domain "shop\.alice\.example"/,
    );
    expect(fake.comments[0]!.body).toContain(':x: failed');
    expect(fake.comments[0]!.body).toContain('**Conflicts**');
    expect(stepNamed(r, 'Fail when provision failed').stdout).toContain(
      '::error title=panel-provision::provision ended with exit code 1',
    );
  });

  it('apply with an empty recipient refuses before sending anything, and the step fails', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '');
    const r = await runComposite(
      action,
      { command: 'apply', manifest: 'panel/manifest.yaml', url: simulator.url, 'api-key': API_KEY },
      { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
    );
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.failed).toBe(true);
    expect(stepNamed(r, RUN).stderr).toMatch(/error: [^\n]*recipient/i);
    expect(simulator.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    const secretsDir = await readdir(r.outputs['plan-file']!.replace(/\/plan\.md$/, ''));
    expect(secretsDir).not.toContain('secrets.jsonl');
  });

  it('given a version, installs that exact version or a release tarball from outside the work tree, nothing else', async () => {
    const fake = await fakeGitHub();
    for (const [version, expected] of [
      ['1.2.3', '@panel-provision/cli@1.2.3'],
      ['1.2.3-rc.1', '@panel-provision/cli@1.2.3-rc.1'],
      [
        'https://github.com/panel-provision/panel-provision/releases/download/v1.2.3/panel-provision-cli-1.2.3.tgz',
        'https://github.com/panel-provision/panel-provision/releases/download/v1.2.3/panel-provision-cli-1.2.3.tgz',
      ],
      ['latest', undefined],
      ['^1.2.0', undefined],
      ['1.2.3 evil-package', undefined],
      ['http://example.com/x.tgz', undefined],
    ] as const) {
      const s = await setup(CHANGES, fake, '');
      const r = await runComposite(
        action,
        {
          command: 'plan',
          manifest: 'panel/manifest.yaml',
          url: 'http://127.0.0.1:9',
          'api-key': API_KEY,
          version,
        },
        { temp: s.temp, workspace: s.workspace, github: s.github, env: s.env },
      );
      const install = r.steps[1]!;
      if (expected === undefined) {
        expect(install.outcome, version).toBe('failure');
        expect(install.stdout).toContain('::error title=panel-provision::the version input must be empty');
        expect(r.steps.slice(2).every((step) => step.outcome === 'skipped')).toBe(true);
      } else {
        expect(install.outcome, version).toBe('success');
        const [cwd, ...args] = (await readFile(s.npmLog, 'utf8')).trimEnd().split('\n');
        expect(cwd).toBe(s.temp);
        expect(args).toEqual([
          'install',
          '--global',
          '--prefix',
          join(s.temp, 'panel-provision'),
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          expected,
        ]);
        await expect(readFile(`${s.npmLog}.build`, 'utf8')).rejects.toThrow(/ENOENT/);
      }
    }
  });
});

describe('action.yml', () => {
  const steps = action.runs.steps;
  const byName = (name: string): (typeof steps)[number] =>
    steps.find((step) => step.name === name) ?? expect.fail(`no step ${name}`);

  it('is a composite action that runs its own build unless a version is given; it calls its scripts by their path in the package', () => {
    expect(action.runs.using).toBe('composite');
    expect(pkg.name).toBe('@panel-provision/cli');
    expect(action.inputs.version!.default).toBe('');
    const install = byName('Install panel-provision');
    expect(install.env).toMatchObject({ VERSION: '${{ inputs.version }}', ACTION_PATH: '${{ github.action_path }}' });
    // Whatever package.json's bin says: the comment and journal scripts are called by path, from
    // the action's own build or from the installed package (lib/node_modules/@panel-provision/cli).
    expect(install.run).toContain(
      '"provision:bundle/bin.js" "provision-pr-comment:dist/action/pr-comment.js" "provision-journal:dist/action/journal-main.js"',
    );
    expect(install.run).toContain('package="$prefix/lib/node_modules/@panel-provision/cli"');
    expect(pkg.bin.provision).toBe('bundle/bin.js');
    // The comment script is internal: no bin of a global install; the action runs it by its path.
    expect(Object.keys(pkg.bin)).toEqual(['provision']);
    for (const script of ['bundle/bin.js', 'dist/action/pr-comment.js', 'dist/action/journal-main.js'])
      expect(existsSync(join(ROOT, script)), script).toBe(true);
  });

  it('every input and output says what it is; the required ones have no default; url and api-key are optional, empty by default', () => {
    const inputs = action.inputs as Record<string, { description?: string; required?: boolean; default?: string }>;
    for (const [name, input] of Object.entries(inputs)) {
      expect(input.description, name).toMatch(/\w{3}/);
      if (input.required === true) expect(input.default, name).toBeUndefined();
      else expect(typeof input.default, name).toBe('string');
    }
    for (const [name, output] of Object.entries(action.outputs as Record<string, { description?: string }>))
      expect(output.description, name).toMatch(/\w{3}/);
    expect(
      Object.entries(action.inputs)
        .filter(([, input]) => input.required === true)
        .map(([name]) => name)
        .sort(),
    ).toEqual(['manifest']);
    // A plan from a snapshot (a pull request's job, forks included) is given neither.
    for (const name of ['url', 'api-key']) {
      expect(inputs[name], name).toMatchObject({ required: false, default: '' });
      expect(inputs[name]!.description, name).toContain('--from-snapshot');
    }
    expect(inputs.command!.description).toMatch(/\bplan\b[\s\S]*\bapply\b[\s\S]*\bsnapshot\b/);
    expect(action.outputs['snapshot-file']!.value).toBe('${{ steps.run.outputs.snapshot-file }}');
  });

  it('each command-specific input reaches the provision step only; a snapshot posts no comment; the step fails on a failed snapshot', () => {
    for (const input of ['plan-args', 'apply-args', 'snapshot-args', 'secrets-recipient', 'saved-plan'])
      for (const step of steps)
        expect(JSON.stringify(step.env ?? {}).includes(`inputs.${input} `), `${input} in ${step.name}`).toBe(
          step.id === 'run',
        );
    expect(byName('Comment on the pull request').if).toContain("inputs.command != 'snapshot'");
    // The apply's own steps stay apply's: a snapshot has none.
    expect(byName('Summarise the apply').if).toContain("inputs.command == 'apply'");
    expect(byName('Keep the encrypted passwords').if).toContain("inputs.command == 'apply'");
    expect(byName('Fail when provision failed').if).toBe("always() && steps.run.outputs.ok == 'false'");
  });

  it('the panel key reaches the provision step only, the GitHub token the comment and journal steps only; no expression is pasted into a script', () => {
    for (const step of steps) {
      const env = JSON.stringify(step.env ?? {});
      expect(env.includes('inputs.api-key'), step.name).toBe(step.id === 'run');
      expect(env.includes('inputs.github-token'), step.name).toBe(
        ['Comment on the pull request', 'Fetch the secrets journal', 'Keep the secrets journal'].includes(
          step.name ?? '',
        ),
      );
      if (step.run !== undefined) {
        expect(step.run, step.name).not.toContain('${{');
        expect(step.shell, step.name).toBe('bash');
      }
    }
    expect(JSON.stringify(byName('Comment on the pull request').env)).not.toContain('PROVISION_API_KEY');
    // Given empty (a plan from a snapshot), the key is not even set for provision: unset, not ''.
    expect(byName('provision ${{ inputs.command }}').run).toContain(
      '[ -n "${key_given//[[:space:]]/}" ] || unset PROVISION_API_KEY',
    );
    // The URL reaches the comment step, to be blanked there.
    expect(byName('Comment on the pull request').env?.PROVISION_URL).toBe('${{ inputs.url }}');
  });

  it('calls the installed bins by their path, never through a bare npx; actions pinned by commit', () => {
    const scripts = steps.map((step) => step.run ?? '').join('\n');
    expect(scripts).not.toMatch(/\bnpx\b/);
    expect(scripts).toContain('provision="$RUNNER_TEMP/panel-provision/bin/provision"');
    expect(scripts).toContain('"$RUNNER_TEMP/panel-provision/bin/provision-pr-comment" --command');
    expect(
      steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses.replace(/@[0-9a-f]{40}$/, '@<sha>')])),
    ).toEqual([
      'actions/setup-node@<sha>',
      'actions/download-artifact@<sha>',
      'actions/upload-artifact@<sha>',
      'actions/upload-artifact@<sha>',
    ]);
  });
});
