/**
 * What every benchmark section shares: paths, the child processes (the simulator in its own
 * process, the in-process probe, whole CLI processes under /usr/bin/time), medians, and the
 * one shape of a figure (a measurement beside its yardstick from the same run, and the goal).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ProbeRequest, ProbeResult } from './probe.js';
import type { SimServerConfig, SimStats } from './sim-server.js';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/**
 * The CLI measured: what the package's bin runs (the bundle, scripts/bundle.ts), or another
 * build (`BENCH_BIN=../old/bundle/bin.js npm run bench`, or an unbundled dist/cli/bin.js) for a
 * before/after.
 */
export const BIN = process.env.BENCH_BIN ?? join(ROOT, 'bundle/bin.js');
const TIME = '/usr/bin/time';
export const LATENCY_MS = 20;
export const CONCURRENCY = 8;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/**
 * One pair of measured sides, run one after the other; which goes first alternates with `run`
 * (even: `a` first), so neither side always has the warmer machine.
 */
export async function inTurn<A, B>(run: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (run % 2 === 0) {
    const first = await a();
    return [first, await b()];
  }
  const first = await b();
  return [await a(), first];
}

export function log(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** One figure of the report: `measured` over `reference`, both from the same run. */
export interface Figure {
  readonly section: string;
  readonly name: string;
  readonly measured: string;
  readonly reference: string;
  /** measured / reference (or another ratio the name says). */
  readonly ratio: number;
  /** The goal for the ratio (at most), or undefined where none is set. */
  readonly goal: number | undefined;
  /** Each run's ratio or value, for the spread. */
  readonly runs?: readonly number[];
}

export const ms = (n: number): string =>
  Number.isNaN(n) ? 'n/a' : n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`;
export const mb = (n: number | undefined): string =>
  n === undefined || Number.isNaN(n) ? 'n/a' : `${Math.round(n)} MB`;

export interface SimHandle {
  readonly url: string;
  stats(): Promise<SimStats>;
  close(): Promise<void>;
}

/** The simulator in its own process (bench/sim-server.ts). */
export async function startSim(config: SimServerConfig): Promise<SimHandle> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/sim-server.ts'), JSON.stringify(config)],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line: IteratorResult<string> = await lines.next();
    if (line.done === true) throw new Error('the benchmark simulator exited');
    return line.value;
  };
  const { url } = JSON.parse(await next()) as { url: string };
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  return {
    url,
    stats: async () => {
      child.stdin.write('stats\n');
      return JSON.parse(await next()) as SimStats;
    },
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** The engine in-process from dist/ in a fresh process (bench/probe.ts), modules loaded before the clock starts. */
export function probe(request: ProbeRequest): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/probe.ts'), JSON.stringify(request)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        const result = JSON.parse(out.trim().split('\n').pop() ?? '') as ProbeResult;
        if (result.code !== 0)
          reject(new Error(`probe ${request.argv.join(' ')} exited ${result.code}: ${result.stderr}`));
        else resolve(result);
      } catch {
        reject(new Error(`probe ${request.argv.join(' ')} printed no result`));
      }
    });
  });
}

/** A whole process as measured from outside. */
export interface Whole {
  /** Epoch ms at spawn, for "time to the first request" (the simulator stamps arrivals with Date.now too). */
  readonly startedAt: number;
  readonly wallMs: number;
  /** User + system CPU of the whole process (its threads included), from /usr/bin/time. */
  readonly cpuMs: number;
  readonly maxRssMb: number;
  readonly stdout: string;
}

/** Runs `node ...argv` to its end (asynchronously: the simulator may be in this process), under /usr/bin/time when it exists. */
export function wholeProcess(
  argv: readonly string[],
  env: Readonly<Record<string, string>> = {},
  cwd = ROOT,
): Promise<Whole> {
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : process.execPath;
  const commandArgs = useTime ? ['-f', 'BENCH_TIME %M %U %S', process.execPath, ...argv] : [...argv];
  return new Promise((resolve, reject) => {
    const startedAt = performance.timeOrigin + performance.now();
    const started = performance.now();
    const child = spawn(command, commandArgs, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`node ${argv.join(' ')} exited ${String(code)}: ${stderr.slice(-600)}`));
        return;
      }
      const m = /BENCH_TIME (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
      resolve({
        startedAt,
        wallMs,
        cpuMs: m === null ? NaN : (Number(m[2]) + Number(m[3])) * 1000,
        maxRssMb: m === null ? NaN : Number(m[1]) / 1024,
        stdout,
      });
    });
  });
}

/** Runs `node ...argv` to its end, synchronously (nothing else of ours needs the event loop meanwhile). */
export function wholeProcessSync(
  argv: readonly string[],
  env: Readonly<Record<string, string>> = {},
): { wallMs: number } {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`node ${argv.join(' ')} exited ${String(result.status)}: ${result.stderr.toString().slice(-500)}`);
  return { wallMs };
}

let massCreate: string[] | undefined;
/** Benchmarks create on purpose: pass --allow-mass-create where apply has that guard. */
export function massCreateFlag(): string[] {
  massCreate ??= spawnSync(process.execPath, [BIN, 'apply', '--help'], {
    encoding: 'utf8',
  }).stdout.includes('--allow-mass-create')
    ? ['--allow-mass-create']
    : [];
  return massCreate;
}

const plainScripts = new Map<string, Promise<string>>();
/**
 * `bench/<name>.ts` as plain JavaScript beside node_modules (so it finds undici), transpiled once
 * per run: a yardstick run as its own process carries no TypeScript loader. Returns its path.
 */
export function plainScript(name: string): Promise<string> {
  let script = plainScripts.get(name);
  if (script === undefined) {
    script = (async () => {
      const { default: ts } = await import('typescript');
      const source = await readFile(join(ROOT, `bench/${name}.ts`), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const dir = join(ROOT, 'node_modules/.cache/panel-provision-bench');
      await mkdir(dir, { recursive: true });
      const path = join(dir, `${name}.mjs`);
      await writeFile(path, outputText);
      return path;
    })();
    plainScripts.set(name, script);
  }
  return script;
}

/** Peak RSS and CPU time of a finished `node` process (timedNode). */
export interface NodeCost {
  /** Peak resident set, MB. */
  readonly mb: number;
  /** User and system time, seconds. */
  readonly cpu: number;
}

/**
 * Runs `node ...argv` under /usr/bin/time and gives its peak RSS and CPU time; it must exit with
 * one of `codes`. Its stdout goes nowhere, or to the file `stdoutTo` as a shell redirect writes it.
 */
export function timedNode(
  argv: readonly string[],
  options: {
    readonly env?: Readonly<Record<string, string>>;
    readonly codes?: readonly number[];
    readonly stdoutTo?: string;
  } = {},
): NodeCost {
  const { env = {}, codes = [0], stdoutTo } = options;
  const command =
    stdoutTo === undefined
      ? [process.execPath, ...argv]
      : ['sh', '-c', 'exec "$@" > "$0"', stdoutTo, process.execPath, ...argv];
  const result = spawnSync('/usr/bin/time', ['-f', 'BENCH_RSS_KB=%M BENCH_CPU=%U+%S', ...command], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr = result.stderr.toString();
  const m = /BENCH_RSS_KB=(\d+) BENCH_CPU=([\d.]+)\+([\d.]+)/.exec(stderr);
  if (m === null || !codes.includes(result.status ?? -1))
    throw new Error(`node ${argv.join(' ')} exited ${String(result.status)}: ${stderr.slice(-400)}`);
  return { mb: Number(m[1]) / 1024, cpu: Number(m[2]) + Number(m[3]) };
}

/**
 * A memory section run alone (`node --import tsx bench/<file>.ts [--clients N] [--runs N]`):
 * `measure` with those numbers (`clients` by default) in a temporary directory, its figures
 * printed, the directory removed.
 */
export async function runAlone(
  name: string,
  clients: number,
  measure: (clients: number, runs: number, dir: string) => Promise<Figure[]>,
  line: (figure: Figure) => string = (f) => `${f.name.padEnd(80)} ${f.measured.padStart(10)}  ${f.reference}`,
): Promise<void> {
  const args = process.argv.slice(2);
  const at = (flag: string, fallback: number): number => {
    const i = args.indexOf(flag);
    return i === -1 ? fallback : Number(args[i + 1]);
  };
  const dir = await mkdtemp(join(tmpdir(), `provision-${name}-`));
  try {
    for (const figure of await measure(at('--clients', clients), at('--runs', 1), dir))
      process.stdout.write(`${line(figure)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
