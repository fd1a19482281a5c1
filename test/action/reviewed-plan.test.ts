/**
 * What was reviewed is applied (examples/github-actions.yml): on a push to main the plan-main job
 * saves the plan as an artifact and shows it on the run's page; the apply job needs it and,
 * behind panel-production, applies exactly that saved plan (the action's saved-plan input); the
 * snapshot job needs the apply and runs unless cancelled. The push jobs run here through
 * action.yml against the simulator: the plan is applied as saved; a saved plan the panel no
 * longer matches exits 3 and sends nothing.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { runComposite } from './composite.js';
import { fakeGitHub } from './fake-github.js';
import { action, CHANGES, DOWNLOAD, ROOT, RUN, setup, stepNamed, UPLOAD } from './setup.js';

interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, string | number | boolean>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  environment?: string;
  outputs?: Record<string, string>;
  steps: Step[];
}
const wf = parse(await readFile(join(ROOT, 'examples', 'github-actions.yml'), 'utf8')) as {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
};
const planMain = wf.jobs['plan-main']!;
const apply = wf.jobs.apply!;
const snapshot = wf.jobs.snapshot!;

const uses = (job: Job, prefix: string): Step =>
  job.steps.find((s) => s.uses?.startsWith(prefix) === true) ?? expect.fail(`no step uses ${prefix}`);
const withOf = (step: Step): Record<string, string> =>
  Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));

describe('the example applies what was reviewed', () => {
  it('plan-main runs on a push to main and uploads the saved plan; apply needs it, downloads that artifact and applies it behind panel-production; the snapshot needs the apply', () => {
    expect(Object.keys(wf.on)).toEqual(expect.arrayContaining(['pull_request', 'push']));
    expect(planMain.if).toContain("github.event_name == 'push'");
    expect(planMain.if).toContain("github.ref == 'refs/heads/main'");
    const plan = uses(planMain, 'panel-provision/panel-provision@');
    expect(withOf(plan)).toMatchObject({ command: 'plan', comment: 'false' });
    const upload = uses(planMain, 'actions/upload-artifact@');
    expect(upload.uses).toBe(UPLOAD);
    expect(withOf(upload).path).toBe(`\${{ steps.${plan.id ?? ''}.outputs.saved-plan }}`);
    expect(planMain.outputs?.['exit-code']).toBe(`\${{ steps.${plan.id ?? ''}.outputs.exit-code }}`);

    expect(apply.needs).toBe('plan-main');
    expect(apply.if).toContain("needs.plan-main.outputs.exit-code == '2'");
    expect(apply.environment).toBe('panel-production');
    const download = uses(apply, 'actions/download-artifact@');
    expect(download.uses).toBe(DOWNLOAD);
    expect(withOf(download).name).toBe(withOf(upload).name);
    const applied = withOf(uses(apply, 'panel-provision/panel-provision@'));
    expect(applied.command).toBe('apply');
    expect(applied['saved-plan']).toBe(`${withOf(download).path}/plan.json`);
    expect(applied['apply-args']).toContain('--generate-passwords');

    expect(snapshot.needs).toBe('apply');
    expect(snapshot.if).toMatch(/^\$\{\{ !cancelled\(\) && /);
    expect(withOf(uses(snapshot, 'panel-provision/panel-provision@')).command).toBe('snapshot');
  });

  it('runs through the action: the saved plan on the page, then applied as saved; applied again (the panel changed), exit 3 and nothing sent', async () => {
    const simulator = await sim();
    const fake = await fakeGitHub();
    const s = await setup(CHANGES, fake, '');
    const summary = join(s.temp, 'summary.md');
    await writeFile(summary, '');
    const fill = (step: Step, temp: string): Record<string, string> =>
      Object.fromEntries(
        Object.entries(withOf(step)).map(([k, v]) => [
          k,
          v
            .replace('${{ secrets.PANEL_URL }}', simulator.url)
            .replace(/\$\{\{ secrets\.PANEL_(PLAN_)?API_KEY \}\}/, API_KEY)
            .replace('${{ runner.temp }}', temp),
        ]),
      );
    const planned = await runComposite(action, fill(uses(planMain, 'panel-provision/panel-provision@'), s.temp), {
      temp: s.temp,
      workspace: s.workspace,
      github: s.github,
      env: { ...s.env, GITHUB_STEP_SUMMARY: summary },
    });
    expect(planned.outputs['exit-code']).toBe('2');
    expect(fake.requests).toEqual([]);
    expect(await readFile(summary, 'utf8')).toMatch(/^### panel-provision plan: 2 to create/);
    const saved = planned.outputs['saved-plan']!;
    expect(saved).toMatch(/\/plan\.json$/);

    // A later commit on main adds bob: the apply job still applies what was reviewed, alice only.
    await writeFile(
      join(s.workspace, 'panel', 'manifest.yaml'),
      `${CHANGES}  - username: bob\n    domains: [bob.example]\n`,
    );
    // The apply job, on another runner: the artifact downloaded where its step says.
    const applyWith = fill(uses(apply, 'panel-provision/panel-provision@'), join(s.temp, 'runner2'));
    const into = fill(uses(apply, 'actions/download-artifact@'), join(s.temp, 'runner2')).path!;
    await mkdir(into, { recursive: true });
    await copyFile(saved, join(into, 'plan.json'));
    const recipient = await identityToRecipient(await generateIdentity());
    const inputs = { ...applyWith, 'secrets-recipient': recipient };
    await mkdir(join(s.temp, 'runner2', 'run'), { recursive: true });
    const r = await runComposite(action, inputs, {
      temp: join(s.temp, 'runner2', 'run'),
      workspace: s.workspace,
      github: s.github,
      env: s.env,
    });
    expect(r.outputs['exit-code'], stepNamed(r, RUN).stderr).toBe('0');
    // Exactly the saved plan, not the manifest planned again.
    expect(simulator.state.clientNamed('alice')).toBeDefined();
    expect(simulator.state.clientNamed('bob')).toBeUndefined();
    const posts = simulator.requests.filter((q) => q.method === 'POST').length;

    // The same saved plan again: the panel no longer matches it; exit 3, nothing sent.
    await mkdir(join(s.temp, 'runner3'), { recursive: true });
    const again = await runComposite(action, inputs, {
      temp: join(s.temp, 'runner3'),
      workspace: s.workspace,
      github: s.github,
      env: s.env,
    });
    expect(again.outputs['exit-code']).toBe('3');
    expect(again.failed).toBe(true);
    expect(simulator.requests.filter((q) => q.method !== 'GET')).toHaveLength(posts);
  });
});
