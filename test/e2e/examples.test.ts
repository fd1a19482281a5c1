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
const files = await readdir(DIR);
const manifests = files.filter((f) => f.endsWith('.yaml') && !f.includes('ci'));
const workflows = files.filter((f) => f === 'github-actions.yml' || f === 'gitlab-ci.yml' || f === 'github-drift.yml');

/** Every string under `run` / `script` keys of a CI file, as shell text. */
function shellOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(shellOf);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if ((key === 'run' || key === 'script' || key === 'before_script') && typeof value === 'string') return [value];
    if ((key === 'script' || key === 'before_script') && Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
    return shellOf(value);
  });
}

/** Each `provision <command> args…` invocation: its words up to a shell operator. */
function invocations(shell: string): string[][] {
  const calls: string[][] = [];
  for (const line of shell.split('\n')) {
    const words = line.trim().split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      if (words[i] !== 'provision') continue;
      const call: string[] = [];
      for (const word of words.slice(i + 1)) {
        if (['>', '|', '||', '&&', ';', '2>&1'].includes(word) || word.startsWith('>')) break;
        call.push(word);
      }
      calls.push(call);
    }
  }
  return calls;
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

  it.each(workflows)('%s calls only commands and flags that exist', async (name) => {
    const shell = shellOf(parse(await readFile(join(DIR, name), 'utf8'))).join('\n');
    const calls = invocations(shell);
    expect(calls.map((c) => c[0])).toEqual(expect.arrayContaining(name === 'github-drift.yml' ? ['export'] : ['plan', 'apply']));
    for (const [command, ...args] of calls) {
      expect(COMMAND_NAMES, `${name}: provision ${command ?? ''}`).toContain(command);
      const options = (await loadCommand(command as (typeof COMMAND_NAMES)[number])).options ?? {};
      for (const arg of args) {
        if (!arg.startsWith('--')) continue;
        const flag = arg.slice(2).split('=')[0] ?? '';
        expect(Object.keys(options), `${name}: provision ${command ?? ''} ${arg}`).toContain(flag);
      }
    }
  });

  it('GitHub: comments the Markdown plan with its exit code on pull requests; applies a saved plan on main, one at a time, secrets from the repository, passwords as an artifact', async () => {
    const text = await readFile(join(DIR, 'github-actions.yml'), 'utf8');
    const wf = parse(text) as { on: Record<string, unknown>; jobs: Record<string, Record<string, unknown>> };
    expect(Object.keys(wf.on)).toEqual(['pull_request', 'push']);
    const plan = wf.jobs.plan!;
    const apply = wf.jobs.apply!;
    const planShell = shellOf(plan).join('\n');
    expect(planShell).toContain('provision plan panel/manifest.yaml --format markdown --detailed-exitcode > plan.md');
    expect(planShell).toContain('gh pr comment');
    expect(planShell).toContain('GITHUB_OUTPUT');
    expect(apply.concurrency).toEqual({ group: 'panel-provision-apply', 'cancel-in-progress': false });
    expect(String(apply.if)).toContain("refs/heads/main");
    const applyShell = shellOf(apply).join('\n');
    expect(applyShell).toMatch(/provision plan \S+ --out plan\.json[\s\S]*provision apply plan\.json --secrets-file/);
    expect(JSON.stringify(apply.env)).toContain('${{ secrets.PANEL_API_KEY }}');
    expect(JSON.stringify(apply.env)).toContain('PROVISION_SECRETS_RECIPIENT');
    expect(JSON.stringify(apply.steps)).toContain('actions/upload-artifact');
    // The key comes from the repository's secrets only; no step prints the secrets file.
    expect(text).not.toMatch(/PROVISION_API_KEY:\s*[^$\s]/);
    expect(shellOf(wf.jobs).join('\n')).not.toMatch(/(cat|echo|secrets decrypt)[^\n]*secrets\.jsonl/);
  });

  it('GitHub drift: nightly and on demand, export --into with a key from the repository, one pull request on a fixed branch, opened or updated', async () => {
    const text = await readFile(join(DIR, 'github-drift.yml'), 'utf8');
    const wf = parse(text) as { on: Record<string, unknown>; concurrency: unknown; jobs: Record<string, { env: Record<string, string>; steps: { env?: Record<string, string> }[] }> };
    expect(Object.keys(wf.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(wf.concurrency).toEqual({ group: 'panel-drift', 'cancel-in-progress': false });
    const shell = shellOf(wf.jobs).join('\n');
    expect(shell).toContain('npx provision export --into panel/manifest.yaml');
    expect(shell).toMatch(/git push --force origin "\$BRANCH"/);
    expect(shell).toContain('gh pr create');
    expect(shell).toContain('gh pr edit');
    expect(wf.jobs.drift!.env.BRANCH).toBe('provision/drift');
    expect(JSON.stringify(wf.jobs.drift!.steps)).toContain('${{ secrets.PANEL_READ_API_KEY }}');
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
