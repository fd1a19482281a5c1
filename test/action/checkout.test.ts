/**
 * The action as a workflow gets it at a release tag of this repository: a clean checkout (a git
 * clone of HEAD: no dist/, no bundle/, no node_modules), its own action.yml run by the stand-in
 * runner (composite.ts) with that checkout as github.action_path and the real npm. No registry:
 * npm runs offline (its cache only; a proxy that answers nothing), and no @panel-provision/cli
 * is installed from anywhere. The install step builds the checkout; apply then runs the CLI and
 * the summary script from that build against the simulator.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { API_KEY } from '../helpers/cli.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';
import { type ActionFile, runComposite } from './composite.js';
import { gitRemote } from './setup.js';

const ROOT = join(import.meta.dirname, '..', '..');
const exec = promisify(execFile);

/** True when `path` exists. */
async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe('the action from a clean checkout of this repository', () => {
  // npm ci from the cache and a whole build: minutes on a busy machine.
  it(
    'builds itself in its own path with no registry, then applies and summarises with that build',
    { timeout: 600_000 },
    async () => {
      const temp = await realpath(await tempDir());
      const checkout = join(temp, 'panel-provision');
      await exec('git', ['clone', '--quiet', '--no-hardlinks', ROOT, checkout]);
      for (const built of ['dist', 'bundle', 'node_modules'])
        expect(await exists(join(checkout, built)), built).toBe(false);
      const action = parse(await readFile(join(checkout, 'action.yml'), 'utf8')) as ActionFile;
      const { version } = JSON.parse(await readFile(join(checkout, 'package.json'), 'utf8')) as { version: string };

      const simulator = await sim();
      const workspace = join(temp, 'workspace');
      await mkdir(join(workspace, 'panel'), { recursive: true });
      await writeFile(
        join(workspace, 'panel', 'manifest.yaml'),
        'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n',
      );
      const runnerTemp = join(temp, 'runner');
      await mkdir(runnerTemp);
      await gitRemote(temp, workspace);
      const summary = join(temp, 'summary.md');
      await writeFile(summary, '');
      const offline = {
        npm_config_offline: 'true',
        npm_config_proxy: 'http://127.0.0.1:9',
        npm_config_https_proxy: 'http://127.0.0.1:9',
        npm_config_update_notifier: 'false',
      };
      const env = Object.fromEntries(
        Object.entries(process.env).filter(
          (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].toLowerCase().startsWith('npm_'),
        ),
      );
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
          temp: runnerTemp,
          workspace,
          github: {
            token: 'ghs_FAKEtoken0123456789',
            'event.pull_request.number': '',
            'event.repository.private': 'true',
            action_path: checkout,
          },
          env: { ...env, ...offline, GITHUB_STEP_SUMMARY: summary },
        },
      );
      const install = r.steps.find((step) => step.name === 'Install panel-provision')!;
      expect(install.outcome, install.stderr).toBe('success');
      expect(install.stdout.trim().split('\n').at(-1)).toBe(version);
      // Built in the action's own path; the bins call that build, nothing installed elsewhere.
      expect(await exists(join(checkout, 'bundle', 'bin.js'))).toBe(true);
      expect(await exists(join(checkout, 'dist', 'action', 'pr-comment.js'))).toBe(true);
      expect(await exists(join(checkout, 'node_modules', '@panel-provision'))).toBe(false);
      const bins = join(runnerTemp, 'panel-provision', 'bin');
      expect(await readFile(join(bins, 'provision'), 'utf8')).toContain(join(checkout, 'bundle', 'bin.js'));
      expect(await readFile(join(bins, 'provision-pr-comment'), 'utf8')).toContain(
        join(checkout, 'dist', 'action', 'pr-comment.js'),
      );
      expect(await readFile(join(bins, 'provision-journal'), 'utf8')).toContain(
        join(checkout, 'dist', 'action', 'journal-main.js'),
      );
      expect(await exists(join(runnerTemp, 'panel-provision', 'lib'))).toBe(false);

      expect(r.outputs['exit-code']).toBe('0');
      expect(r.failed).toBe(false);
      expect(simulator.state.clientNamed('alice')).toBeDefined();
      const page = await readFile(summary, 'utf8');
      expect(page).toContain('**Created** (2)');
      expect(page).toContain('- client <code>alice</code>');
    },
  );
});
