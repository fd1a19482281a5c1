import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_NAMES, loadCommand } from '../../src/cli/main.js';
import { loadManifestFile as loadManifest } from '../helpers/manifest.js';
import type { Simulator } from '../../src/simulator/index.js';
import { cliEnv, run } from '../helpers/cli.js';
import { startSim } from '../helpers/sim.js';

const DIR = new URL('../../examples/', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;
const files = await readdir(DIR);
/** Every example manifest: the top-level ones and each panel's of the multi-panel example. */
const manifests = [
  ...files.filter((f) => f.endsWith('.yaml') && !f.includes('ci')),
  ...(await readdir(join(DIR, 'multi-panel', 'panels'))).map((panel) => `multi-panel/panels/${panel}`),
];
const workflows = files.filter((f) => f === 'github-actions.yml' || f === 'gitlab-ci.yml' || f === 'github-drift.yml');
/** Every file whose shell calls provision: the workflows, the multi-panel one, and the action itself (relative to the repository). */
const callers = [...workflows.map((f) => `examples/${f}`), 'examples/multi-panel/github-actions.yml', 'action.yml'];

/** Every string under `run` / `script` keys of a CI file, as shell text. */
function shellOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(shellOf);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if ((key === 'run' || key === 'script' || key === 'before_script') && typeof value === 'string') return [value];
    if ((key === 'script' || key === 'before_script') && Array.isArray(value))
      return value.filter((v): v is string => typeof v === 'string');
    return shellOf(value);
  });
}

/**
 * The bin as the examples call it: by the path it was installed at (`…/bin/provision`, or a
 * variable holding it, `"$provision"`), or `provision` after `npx --no-install`.
 */
function isProvision(word: string): boolean {
  const bare = word.replace(/^["']|["']$/g, '');
  return !bare.includes('=') && (bare === 'provision' || bare === '$provision' || bare.endsWith('/bin/provision'));
}

/** Each `provision <command> args…` invocation: its words up to a shell operator. */
function invocations(shell: string): string[][] {
  const calls: string[][] = [];
  for (const line of shell.split('\n')) {
    const words = line.trim().split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      if (!isProvision(words[i] ?? '')) continue;
      const call: string[] = [];
      for (const word of words.slice(i + 1)) {
        if (['>', '|', '||', '&&', ';', '2>&1'].includes(word) || word.startsWith('>') || word.startsWith('2>')) break;
        call.push(word);
      }
      calls.push(call);
    }
  }
  return calls;
}

/** The `with:` of every step that uses the action (`panel-provision/panel-provision@…`). */
function actionUses(node: unknown): Record<string, string>[] {
  if (Array.isArray(node)) return node.flatMap(actionUses);
  if (typeof node !== 'object' || node === null) return [];
  const step = node as { uses?: unknown; with?: Record<string, string> };
  if (typeof step.uses === 'string' && step.uses.startsWith('panel-provision/panel-provision@'))
    return [step.with ?? {}];
  return Object.values(node).flatMap(actionUses);
}

/** Fails unless `provision <command> <args>` names a command and flags that exist. */
async function expectKnown(where: string, command: string | undefined, args: readonly string[]): Promise<void> {
  expect(COMMAND_NAMES, `${where}: provision ${command ?? ''}`).toContain(command);
  const options = (await loadCommand(command as (typeof COMMAND_NAMES)[number])).options ?? {};
  for (const arg of args) {
    // `--` ends the flags (the manifest follows it); not a flag itself.
    if (!arg.startsWith('--') || arg === '--') continue;
    const flag = arg.slice(2).split('=')[0] ?? '';
    if (flag === 'version') continue;
    expect(Object.keys(options), `${where}: provision ${command ?? ''} ${arg}`).toContain(flag);
  }
}

describe('example manifests', () => {
  it('there are a quick-start and a larger one', () => {
    expect(manifests).toEqual(expect.arrayContaining(['quickstart.yaml', 'agency.yaml']));
  });

  it.each(manifests)('%s is valid, without warnings', async (name) => {
    const { desired, diagnostics } = await loadManifest(join(DIR, name));
    expect(diagnostics).toEqual([]);
    expect(desired?.clients.length).toBeGreaterThan(0);
  });

  describe('plan against the simulator', () => {
    // One simulator for all: plan only reads.
    let simulator: Simulator;
    beforeAll(async () => {
      simulator = await startSim();
    });
    afterAll(async () => {
      await simulator.close();
    });
    it.each(manifests)('%s plans with changes and no errors', async (name) => {
      const r = await run(['plan', join(DIR, name), '--detailed-exitcode'], cliEnv(simulator));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(2);
    });
  });
});

describe('example CI workflows', () => {
  it('there are a GitHub Actions and a GitLab CI one, and a nightly drift one', () => {
    expect(workflows.sort()).toEqual(['github-actions.yml', 'github-drift.yml', 'gitlab-ci.yml']);
  });

  it.each(callers)('%s calls only commands and flags that exist, through the installed bin', async (name) => {
    const text = await readFile(join(ROOT, name), 'utf8');
    const shell = shellOf(parse(text)).join('\n');
    // Never a bare `npx provision` (npx would fetch a stranger's package of that name when ours is missing).
    expect(shell).not.toMatch(/\bnpx\s+(?!--no-install\b)\S/);
    // Nothing of the branch is installed; the action builds its own checkout (its path), only that.
    // The examples, before the first release, build panel-provision in a checkout of its own,
    // outside the work tree: that `npm ci` only.
    if (name === 'action.yml')
      expect(shell.replace(/cd "\$ACTION_PATH"\n\s*npm ci --ignore-scripts /, '')).not.toMatch(/\bnpm ci\b/);
    else
      expect(
        shell.replace(
          /\(cd (\/opt\/panel-provision-src|"\$RUNNER_TEMP\/provision-src") && npm ci --ignore-scripts /g,
          '',
        ),
      ).not.toMatch(/\bnpm ci\b/);
    for (const [command, ...args] of invocations(shell)) {
      if (command === '--version') continue;
      await expectKnown(name, command, args);
    }
    // Through the action: its inputs exist, and the flags it passes on exist for plan and apply.
    const inputs = (
      parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as {
        inputs: Record<string, unknown>;
      }
    ).inputs;
    for (const given of actionUses(parse(text))) {
      for (const input of Object.keys(given)) expect(Object.keys(inputs), `${name}: input ${input}`).toContain(input);
      await expectKnown(`${name} plan-args`, 'plan', (given['plan-args'] ?? '').split(/\s+/));
      await expectKnown(`${name} apply-args`, 'apply', (given['apply-args'] ?? '').split(/\s+/));
      await expectKnown(`${name} snapshot-args`, 'snapshot', (given['snapshot-args'] ?? '').split(/\s+/));
    }
    const commands = [...invocations(shell).map((c) => c[0]), ...actionUses(parse(text)).map((w) => w.command)];
    if (name === 'action.yml')
      expect(invocations(shell).map((c) => c[0])).toEqual([
        '--version',
        'plan',
        'show',
        'show',
        'plan',
        'apply',
        'snapshot',
      ]);
    else
      expect(commands).toEqual(
        expect.arrayContaining(name.endsWith('github-drift.yml') ? ['export'] : ['plan', 'apply']),
      );
  });

  it('GitHub drift: nightly and on demand, export --into with the read key, one pull request on a fixed branch, opened or updated', async () => {
    const text = await readFile(join(DIR, 'github-drift.yml'), 'utf8');
    const wf = parse(text) as {
      on: Record<string, unknown>;
      concurrency: unknown;
      jobs: Record<
        string,
        {
          env: Record<string, string>;
          environment: string;
          steps: { env?: Record<string, string> }[];
        }
      >;
    };
    expect(Object.keys(wf.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(wf.concurrency).toEqual({ group: 'panel-drift', 'cancel-in-progress': false });
    const shell = shellOf(wf.jobs).join('\n');
    expect(shell).toContain('"$RUNNER_TEMP/provision/bin/provision" export --into panel/manifest.yaml');
    expect(shell).toMatch(/git push --force origin "\$BRANCH"/);
    expect(shell).toContain('gh pr create');
    expect(shell).toContain('gh pr edit');
    expect(wf.jobs.drift!.env.BRANCH).toBe('provision/drift');
    expect(wf.jobs.drift!.environment).toBe('panel-plan');
    expect(JSON.stringify(wf.jobs.drift!.steps)).toContain('${{ secrets.PANEL_PLAN_API_KEY }}');
    expect(text).not.toContain('secrets.PANEL_API_KEY');
    expect(text).not.toMatch(/PROVISION_API_KEY:\s*[^$\s]/);
  });

  it('GitLab: the same, with a resource_group so two merges never apply at once', async () => {
    const text = await readFile(join(DIR, 'gitlab-ci.yml'), 'utf8');
    const ci = parse(text) as Record<string, Record<string, unknown>>;
    expect(ci.apply!.resource_group).toBe('panel-production');
    expect(shellOf(ci.apply).join('\n')).toContain('provision apply plan.json --secrets-file panel-secrets.jsonl');
    expect(ci.apply!.artifacts).toMatchObject({ when: 'always', paths: ['panel-secrets.jsonl'] });
    expect(shellOf(ci.plan).join('\n')).toContain('--detailed-exitcode');
    expect(shellOf(ci).join('\n')).not.toMatch(/(cat|echo|secrets decrypt)[^\n]*secrets\.jsonl/);
  });
});
