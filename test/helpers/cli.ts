import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { parseJournal } from '../../src/secrets/journal.js';

export { API_KEY } from './key.js';
import { API_KEY } from './key.js';
import { startSim } from './sim.js';

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
