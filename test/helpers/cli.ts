import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { runPrComment } from '../../src/action/run.js';
import { main } from '../../src/cli/main.js';
import type { Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { parseJournal } from '../../src/secrets/journal.js';
import type { FakeGitHub } from '../action/fake-github.js';

export { API_KEY } from './key.js';
import { API_KEY } from './key.js';
import { sim, startSim } from './sim.js';
import { tempDir } from './sim-http.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Both outputs are terminals. */
  tty?: boolean;
  /** The terminal's width (with `tty`); default 0: unknown. */
  columns?: number;
  /** Resolves when the run should act as if SIGINT arrived; default: never. */
  stop?: Promise<void>;
  /** Answers a confirmation prompt (an interactive stdin); default: no terminal input. */
  answer?: (question: string) => string;
}

/** Runs the CLI in-process, as `provision <argv>`, with captured output and the given env only. */
export async function run(
  argv: string[],
  env: Record<string, string | undefined> = {},
  options: RunOptions = {},
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const { answer } = options;
  const code = await main(argv, {
    stdout: {
      write: (t) => (stdout += t),
      isTTY: options.tty ?? false,
      columns: options.columns ?? 0,
    },
    stderr: {
      write: (t) => (stderr += t),
      isTTY: options.tty ?? false,
      columns: options.columns ?? 0,
    },
    env,
    untilStopped: () => options.stop ?? new Promise<void>(() => undefined),
    ...(answer === undefined
      ? {}
      : {
          prompt: (question: string) => {
            stderr += question;
            return Promise.resolve(answer(question));
          },
        }),
  });
  return { code, stdout, stderr };
}

/** The secrets file's password records (`password` or `password_age`, null included), leaving out write-ahead intents and refusals. */
export async function createdRecords(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return parseJournal(text).flatMap((line) => (line.kind === 'password' ? [{ ...line.entry }] : []));
}

/** What the CLI needs to reach `simulator`: PROVISION_URL and PROVISION_API_KEY (the test key). */
export function cliEnv(simulator: Simulator): Record<string, string> {
  return { PROVISION_URL: simulator.url, PROVISION_API_KEY: API_KEY };
}

/** A simulator (started by `startSim`), a temp directory, and paths in it for the CLI. */
export interface Workspace {
  readonly sim: Simulator;
  readonly dir: string;
  /** The manifest's path, `<dir>/manifest.yaml` (written when a manifest was given). */
  readonly file: string;
  /** `<dir>/secrets.jsonl` and `<dir>/plan.json` (not created). */
  readonly secrets: string;
  readonly planFile: string;
  /** `cliEnv(sim)`, and the same with PROVISION_SECRETS_FILE set to `secrets`. */
  readonly env: Record<string, string>;
  readonly envWithSecrets: Record<string, string>;
  /** The POSTs the simulator answered, as `<path> <status>`. */
  readonly posts: () => string[];
  /** Closes the simulator and removes the directory. */
  readonly close: () => Promise<void>;
}

/**
 * A workspace the caller closes (`await w.close()`): for one shared by several tests or one
 * per property-test iteration. `manifest`, when given, is written to `file`. Within one test,
 * use `workspace()`.
 */
export async function startWorkspace(manifest?: string, options: Partial<SimulatorOptions> = {}): Promise<Workspace> {
  const simulator = await startSim(options);
  const dir = await mkdtemp(join(tmpdir(), 'provision-test-')).catch(async (err: unknown) => {
    await simulator.close();
    throw err;
  });
  const file = join(dir, 'manifest.yaml');
  const secrets = join(dir, 'secrets.jsonl');
  const env = cliEnv(simulator);
  const close = async (): Promise<void> => {
    await simulator.close();
    await rm(dir, { recursive: true, force: true });
  };
  if (manifest !== undefined) await writeFile(file, manifest);
  return {
    sim: simulator,
    dir,
    file,
    secrets,
    planFile: join(dir, 'plan.json'),
    env,
    envWithSecrets: { ...env, PROVISION_SECRETS_FILE: secrets },
    posts: () => simulator.requests.filter((r) => r.method === 'POST').map((r) => `${r.path} ${r.status}`),
    close,
  };
}

/** `startWorkspace(manifest, options)`, closed when the current test finishes. */
export async function workspace(manifest: string, options: Partial<SimulatorOptions> = {}): Promise<Workspace> {
  const w = await startWorkspace(manifest, options);
  onTestFinished(w.close);
  return w;
}

/**
 * No output of any run may carry the API key or a created client's password: the passwords
 * given, or those of the secrets file at `secrets` (which must hold some).
 */
export async function expectNoSecrets(results: RunResult[], secrets?: string | readonly string[]): Promise<void> {
  const passwords =
    typeof secrets === 'string' ? (await createdRecords(secrets)).map((r) => String(r.password)) : (secrets ?? []);
  expect(typeof secrets !== 'string' || passwords.length > 0).toBe(true);
  for (const r of results) {
    for (const secret of [API_KEY, ...passwords]) {
      expect(r.stdout).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
  }
}

/** The manifest of the command tests (test/cli/commands.test.ts, connection-errors.test.ts): 6 creates. */
export const COMMANDS_MANIFEST = `version: 1
clients:
  - username: alice
    plan: Basic
    email: alice@example.com
    domains:
      - shop.alice.example
      - alice.example
      - Bücher.example
  - username: bob
    domains: [bob.example]
`;

/** A workspace for one test, on COMMANDS_MANIFEST unless `manifest` is given. */
export const setupCommands = (options: Parameters<typeof workspace>[1] = {}, manifest = COMMANDS_MANIFEST) =>
  workspace(manifest, options);

/** The manifest of the pull-request workflow tests (test/cli/workflow.test.ts, saved-plans.test.ts): 5 creates. */
export const WORKFLOW_MANIFEST = `version: 1
clients:
  - username: alice
    plan: Basic
    domains: [alice.example, shop.alice.example]
  - username: bob
    domains: [bob.example]
`;

/** A workspace for one test, on WORKFLOW_MANIFEST unless `manifest` is given. */
export const setupWorkflow = (options: Parameters<typeof workspace>[1] = {}, manifest = WORKFLOW_MANIFEST) =>
  workspace(manifest, options);

// The action's comment script (test/action/pr-comment*.test.ts): a pull request's sticky comment
// on a fake GitHub, for the manifest at PR_MANIFEST.

/** The GitHub token the comment script is given: tests search all output for it. */
export const PR_TOKEN = 'ghs_FAKEtoken0123456789abcdefTOKEN';
/** The manifest's path as the comment names it. */
export const PR_MANIFEST = 'panel/manifest.yaml';

/** The GitHub Actions environment of a run for pull request #7 of acme/panel, its API `fake`. */
export function githubEnv(fake: FakeGitHub, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GITHUB_TOKEN: PR_TOKEN,
    GITHUB_REPOSITORY: 'acme/panel',
    GITHUB_API_URL: fake.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '99',
    PROVISION_PR_NUMBER: '7',
    ...extra,
  };
}

/** Runs the script in-process; its outputs and exit code. */
export async function prComment(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runPrComment(args, env, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/**
 * Runs `provision plan <manifest> --format markdown --detailed-exitcode` against a simulator
 * (seeded with `seed`) as the action does, under GitHub Actions, and saves stdout and stderr as
 * the action's files. Returns the flags for the comment script.
 */
export async function planRun(
  manifest: string,
  seed: Parameters<typeof sim>[0] = {},
): Promise<{ args: string[]; code: number; stdout: string; stderr: string }> {
  const simulator = await sim(seed);
  const dir = await tempDir();
  const file = join(dir, 'manifest.yaml');
  await writeFile(file, manifest);
  const r = await run(['plan', file, '--format', 'markdown', '--detailed-exitcode'], {
    ...cliEnv(simulator),
    GITHUB_ACTIONS: 'true',
  });
  await writeFile(join(dir, 'plan.md'), r.stdout);
  await writeFile(join(dir, 'stderr.txt'), r.stderr);
  return {
    ...r,
    args: [
      '--manifest',
      PR_MANIFEST,
      '--exit-code',
      String(r.code),
      '--plan-file',
      join(dir, 'plan.md'),
      '--stderr-file',
      join(dir, 'stderr.txt'),
    ],
  };
}

/** A manifest whose plan has changes (exit 2 with --detailed-exitcode). */
export const PR_CHANGES = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
