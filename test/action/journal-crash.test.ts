/**
 * The journal outlives the runner (docs/ci.md, "The secrets journal"): the Action's journal
 * script fetches the branch's file, `provision apply --generate-passwords` (the built CLI, a real
 * process) is killed with SIGKILL while creates are in flight, and the `always()` step's save
 * pushes what it wrote ahead to a local bare repository standing for the same repository. A
 * second run, on a fresh runner (a new temporary directory), runs action.yml whole: it fetches
 * that journal, its apply settles the first run's intents, and every client's current password
 * in the journal on the branch is the one the panel holds.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { runJournal } from '../../src/action/journal.js';
import { decryptPassword } from '../../src/secrets/encrypt.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { API_KEY } from '../helpers/cli.js';
import { runBin } from '../helpers/process.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';
import { runComposite } from './composite.js';
import { fakeGitHub } from './fake-github.js';
import { action, setup } from './setup.js';

const git = promisify(execFile);
const CLIENTS = 12;

/** What the journal script printed, and its exit code. */
async function journal(argv: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  let out = '';
  const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) } };
  const code = await runJournal(argv, env, io);
  return { code, out };
}

/** The branch's journal in the bare remote. */
async function onBranch(remote: string): Promise<string> {
  return (await git('git', ['--git-dir', remote, 'show', 'provision-secrets:panel-secrets.jsonl'])).stdout;
}

describe('the secrets journal on its branch, through a killed apply and a second run', () => {
  it('the second run settles the first run’s intents: every password known, held by the panel, none open', async () => {
    let tick = 0;
    const simulator = await sim({
      // POSTs take 10-25 ms and /clients answers trickle out: kills land with creates in flight.
      slowBodyMs: 5,
      faultFilter: ({ method, path }) => method === 'POST' && path === '/clients',
      intercept: async ({ method }) => {
        if (method === 'POST') await sleep(10 + (tick++ % 4) * 5);
        return undefined;
      },
    });
    const lines = ['version: 1', 'clients:'];
    for (let i = 0; i < CLIENTS; i++) lines.push(`  - username: user${i}`, `    domains: [site${i}.example]`);
    const fake = await fakeGitHub();
    const first = await setup(`${lines.join('\n')}\n`, fake, '');
    const remote = join(first.temp, 'remote.git');
    const identity = await generateIdentity();
    const recipient = await identityToRecipient(identity);
    const scriptEnv = {
      GITHUB_WORKSPACE: first.workspace,
      GITHUB_REPOSITORY: 'acme/panel',
      PROVISION_REPOSITORY_PRIVATE: 'true',
      RUNNER_TEMP: first.temp,
    };
    const file = join(first.temp, 'secrets.jsonl');

    // Run 1: the journal fetched (none yet), apply killed mid-run, the journal kept anyway.
    const fetched = await journal(['fetch', '--file', file], scriptEnv);
    expect(fetched.code, fetched.out).toBe(0);
    expect(fetched.out).toContain('No secrets journal panel-secrets.jsonl on the branch provision-secrets yet');
    const killed = await runBin(
      [
        'apply',
        join(first.workspace, 'panel', 'manifest.yaml'),
        '--auto-approve',
        '--generate-passwords',
        '--concurrency',
        '4',
        '--secrets-file',
        file,
      ],
      { PROVISION_URL: simulator.url, PROVISION_API_KEY: API_KEY, PROVISION_SECRETS_RECIPIENT: recipient },
      { signalWhen: { signal: 'SIGKILL', stdout: (text) => (text.match(/ created /g) ?? []).length >= 2 } },
    );
    expect(killed.signal).toBe('SIGKILL');
    const saved = await journal(['save', '--file', file, '--exit-code', '137'], scriptEnv);
    expect(saved.code, saved.out).toBe(0);
    expect(saved.out).toContain('committed to the branch provision-secrets');
    // What the first run left on the branch: intents still open, the panel holding some clients.
    const left = passwordStates(parseJournal(await onBranch(remote)));
    expect([...left.values()].filter((state) => state.open.length > 0).length).toBeGreaterThan(0);
    expect(simulator.state.clients.size).toBeLessThan(CLIENTS);

    // Run 2: a fresh runner, action.yml whole, the same repository.
    const second = await tempDir();
    const r = await runComposite(
      action,
      {
        command: 'apply',
        manifest: 'panel/manifest.yaml',
        url: simulator.url,
        'api-key': API_KEY,
        'secrets-recipient': recipient,
        'apply-args': '--generate-passwords --concurrency 4',
      },
      { temp: second, workspace: first.workspace, github: first.github, env: first.env },
    );
    const fetchStep = r.steps.find((s) => s.name === 'Fetch the secrets journal')!;
    expect(fetchStep.stdout).toContain('The secrets journal panel-secrets.jsonl from the branch provision-secrets');
    expect(r.outputs['exit-code'], r.steps.map((s) => s.stderr).join('')).toBe('0');
    expect(r.failed).toBe(false);
    expect(r.steps.find((s) => s.name === 'Keep the secrets journal')?.outcome).toBe('success');

    // The branch's journal: every client's current password is the one the panel holds; nothing open.
    const text = await onBranch(remote);
    expect(text).not.toMatch(/"password":/);
    const states = passwordStates(parseJournal(text));
    expect([...states.values()].filter((state) => state.open.length > 0).map((s) => s.username)).toEqual([]);
    for (let i = 0; i < CLIENTS; i++) {
      const username = `user${i}`;
      const state = [...states.values()].find((s) => s.username === username);
      const entry = state?.current?.entry;
      expect(typeof entry?.password_age, username).toBe('string');
      const password = await decryptPassword(String(entry?.password_age), [identity]);
      expect(password, username).toBe(simulator.state.passwordOf(username));
    }
    expect(simulator.state.clients.size).toBe(CLIENTS);
    // The branch's history: the two runs' commits, each a fast-forward of the one before.
    const log = (await git('git', ['--git-dir', remote, 'log', '--format=%s', 'provision-secrets'])).stdout;
    expect(log.trim().split('\n')).toEqual([
      'panel-secrets: the secrets journal after apply (exit 0)',
      'panel-secrets: the secrets journal after apply (exit 137)',
    ]);
  }, 60_000);
});
