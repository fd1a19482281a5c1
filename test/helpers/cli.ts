import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/simulator/index.js';
import { parseJournal } from '../../src/secrets/journal.js';

export { API_KEY } from './key.js';
import { API_KEY } from './key.js';

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
export async function run(argv: string[], env: Record<string, string | undefined> = {}, options: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const { answer } = options;
  const code = await main(argv, {
    stdout: { write: (t) => (stdout += t), isTTY: options.tty ?? false, columns: options.columns ?? 0 },
    stderr: { write: (t) => (stderr += t), isTTY: options.tty ?? false, columns: options.columns ?? 0 },
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

/** A simulator on loopback plus a temp directory, torn down by `close`. */
export async function panel(options: Partial<SimulatorOptions> = {}): Promise<{
  sim: Simulator;
  dir: string;
  env: Record<string, string>;
  posts: () => string[];
  close: () => Promise<void>;
}> {
  const sim = await startSimulator({ apiKey: API_KEY, ...options });
  const dir = await mkdtemp(join(tmpdir(), 'provision-test-'));
  return {
    sim,
    dir,
    env: { PROVISION_URL: sim.url, PROVISION_API_KEY: API_KEY },
    posts: () => sim.requests.filter((r) => r.method === 'POST').map((r) => `${r.path} ${r.status}`),
    close: async () => {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The secrets file's "created" records (lines with an id), leaving out write-ahead intents. */
export async function createdRecords(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return parseJournal(text).flatMap((line) => (line.kind === 'created' ? [{ ...line.entry }] : []));
}

/**
 * A simulator, a temp directory and a manifest in it, closed when the current test finishes:
 * `file` (the manifest), `secrets` and `planFile` (paths in the directory), `env` (URL and key)
 * and `envWithSecrets` (the same with PROVISION_SECRETS_FILE).
 */
export async function workspace(manifest: string, options: Partial<SimulatorOptions> = {}) {
  const p = await panel(options);
  onTestFinished(p.close);
  const file = join(p.dir, 'manifest.yaml');
  await writeFile(file, manifest);
  const secrets = join(p.dir, 'secrets.jsonl');
  return { ...p, file, secrets, planFile: join(p.dir, 'plan.json'), envWithSecrets: { ...p.env, PROVISION_SECRETS_FILE: secrets } };
}
