/**
 * `npm run bench [-- --quick] [-- --json]`: the engine's figures beside their references,
 * each measured side by side in one run (the machine is shared and noisy: ratios, medians of
 * several runs). Everything runs on loopback; the simulator runs in its own process
 * (bench/sim-server.ts), the engine through the real CLI: in-process `main()` from dist/
 * (bench/probe.ts) for CPU splits, whole `node dist/cli/bin.js` processes for start-up and
 * peak RSS. See docs/benchmarks.md for what each figure means and what limits it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BENCH_KEY, count, manifestYaml, type Size } from './fixtures.js';
import type { ProbeRequest, ProbeResult } from './probe.js';
import type { SimServerConfig, SimStats } from './sim-server.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'dist/cli/bin.js');
const TIME = '/usr/bin/time';
const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const JSON_OUT = args.has('--json');

/** Sizes: `scale` multiplies the 1x sizes; the figures of the issue are the 100x column (--quick: 10x). */
const MODE = QUICK
  ? { runs: 2, startupRuns: 5, scales: [1, 10], headline: 10, memoryClients: 3_334 }
  : { runs: 3, startupRuns: 10, scales: [1, 10, 100], headline: 100, memoryClients: 33_334 };
const PLAN_1X: Size = { clients: 100, domainsPerClient: 2 };
const APPLY_1X: Size = { clients: 5, domainsPerClient: 2 };
const VALIDATE_1X: Size = { clients: 100, domainsPerClient: 2 };
const LATENCY_MS = 20;
const CONCURRENCY = 8;

const scaled = (size: Size, scale: number): Size => ({ clients: size.clients * scale, domainsPerClient: size.domainsPerClient });
const resources = (size: Size): number => size.clients * (1 + size.domainsPerClient);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

function log(text: string): void {
  process.stderr.write(`${text}\n`);
}

// ---------------------------------------------------------------------------------------
// Child processes: simulator, probe, whole CLI.

interface SimHandle {
  readonly url: string;
  stats(): Promise<SimStats>;
  close(): Promise<void>;
}

async function startSim(config: SimServerConfig): Promise<SimHandle> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/sim-server.ts'), JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line: IteratorResult<string> = await lines.next();
    if (line.done === true) throw new Error('the benchmark simulator exited');
    return line.value;
  };
  const { url } = JSON.parse(await next()) as { url: string };
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
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

function probe(request: ProbeRequest): Promise<ProbeResult> {
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
        if (result.code !== 0) reject(new Error(`probe ${request.argv.join(' ')} exited ${result.code}: ${result.stderr}`));
        else resolve(result);
      } catch {
        reject(new Error(`probe ${request.argv.join(' ')} printed no result`));
      }
    });
  });
}

/** A whole process: wall time (ms) and, with /usr/bin/time, peak RSS (KB). */
function wholeProcess(argv: readonly string[], env: Readonly<Record<string, string>> = {}): { wallMs: number; maxRssKb: number | undefined } {
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : process.execPath;
  const commandArgs = useTime ? ['-f', 'BENCH_RSS_KB=%M', process.execPath, ...argv] : [...argv];
  const started = performance.now();
  const result = spawnSync(command, commandArgs, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const wallMs = performance.now() - started;
  const stderr = result.stderr.toString();
  if (result.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${String(result.status)}: ${stderr.slice(-500)}`);
  const rss = /BENCH_RSS_KB=(\d+)/.exec(stderr)?.[1];
  return { wallMs, maxRssKb: rss === undefined ? undefined : Number(rss) };
}

// ---------------------------------------------------------------------------------------
// The measurements.

interface PlanFigures {
  readonly size: Size;
  readonly requests: number;
  readonly wallMs: number;
  readonly engineCpuMs: number;
  readonly waitMs: number;
  readonly panelCpuMs: number;
  readonly maxRssMb: number | undefined;
}

/** Plan with no changes: the panel already holds everything the manifest lists. */
async function measurePlan(size: Size, dir: string, runs: number, latencyMs = 0): Promise<PlanFigures> {
  const file = join(dir, `plan-${size.clients}.yaml`);
  await writeFile(file, manifestYaml(size));
  const sim = await startSim({ ...size, latencyMs });
  try {
    const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
    const requests: number[] = [];
    const walls: number[] = [];
    const cpus: number[] = [];
    const panel: number[] = [];
    const rss: number[] = [];
    for (let run = 0; run < runs; run++) {
      const before = await sim.stats();
      const result = await probe({ kind: 'cli', argv: ['plan', file], env });
      const after = await sim.stats();
      requests.push(after.requests - before.requests);
      walls.push(result.wallMs);
      cpus.push(result.cpuMs);
      panel.push(after.cpuMs - before.cpuMs);
      const whole = wholeProcess([BIN, 'plan', file], env);
      if (whole.maxRssKb !== undefined) rss.push(whole.maxRssKb / 1024);
    }
    const wallMs = median(walls);
    const engineCpuMs = median(cpus);
    return {
      size,
      requests: median(requests),
      wallMs,
      engineCpuMs,
      waitMs: Math.max(0, wallMs - engineCpuMs),
      panelCpuMs: median(panel),
      maxRssMb: rss.length === 0 ? undefined : median(rss),
    };
  } finally {
    await sim.close();
  }
}

interface ApplyFigures {
  readonly size: Size;
  readonly posts: number;
  readonly readsMs: number;
  readonly idealMs: number;
  readonly wallMs: number;
  readonly engineCpuMs: number;
  readonly sequentialMs: number | undefined;
  /** executePlan alone (no CLI, no secrets file): wall, the client's median time per POST, mean POSTs in flight. */
  readonly executorMs: number;
  readonly requestMs: number;
  readonly inFlight: number;
}

/**
 * Apply onto an empty panel with added latency. Each run gets a fresh simulator: the reads
 * (a plan on that panel) first, then the apply. `sequential`: the same work at --concurrency 1.
 */
async function measureApply(size: Size, dir: string, runs: number, sequential: boolean): Promise<ApplyFigures> {
  const file = join(dir, `apply-${size.clients}.yaml`);
  await writeFile(file, manifestYaml(size));
  const once = async (concurrency: number, run: number): Promise<{ result: ProbeResult; readsMs: number; posts: number }> => {
    const sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: LATENCY_MS });
    try {
      const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
      const reads = await probe({ kind: 'cli', argv: ['plan', file], env });
      const before = await sim.stats();
      const secrets = join(dir, `secrets-${size.clients}-${concurrency}-${run}.jsonl`);
      const argv = ['apply', file, '--auto-approve', '--concurrency', String(concurrency), '--secrets-file', secrets, ...massCreateFlag()];
      const result = await probe({ kind: 'cli', argv, env });
      const after = await sim.stats();
      if (after.failed > before.failed) throw new Error(`apply: ${after.failed - before.failed} requests failed`);
      return { result, readsMs: reads.wallMs, posts: after.post - before.post };
    } finally {
      await sim.close();
    }
  };
  const executorOnce = async (): Promise<ProbeResult> => {
    const sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: LATENCY_MS });
    try {
      return await probe({ kind: 'executor', argv: [file, String(CONCURRENCY)], env: { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY } });
    } finally {
      await sim.close();
    }
  };
  const walls: number[] = [];
  const cpus: number[] = [];
  const reads: number[] = [];
  const seq: number[] = [];
  const executor: ProbeResult[] = [];
  let posts = 0;
  for (let run = 0; run < runs; run++) {
    executor.push(await executorOnce());
    const parallel = await once(CONCURRENCY, run);
    walls.push(parallel.result.wallMs);
    cpus.push(parallel.result.cpuMs);
    reads.push(parallel.readsMs);
    posts = parallel.posts;
    if (sequential) seq.push((await once(1, run)).result.wallMs);
  }
  const readsMs = median(reads);
  return {
    size,
    posts,
    readsMs,
    idealMs: (posts * LATENCY_MS) / CONCURRENCY + readsMs,
    wallMs: median(walls),
    engineCpuMs: median(cpus),
    sequentialMs: seq.length === 0 ? undefined : median(seq),
    executorMs: median(executor.map((e) => e.wallMs)),
    requestMs: median(executor.map((e) => e.requestMs ?? NaN)),
    inFlight: median(executor.map((e) => e.inFlight ?? NaN)),
  };
}

let massCreate: string[] | undefined;
/** Benchmarks create on purpose: pass --allow-mass-create where apply has that guard. */
function massCreateFlag(): string[] {
  massCreate ??= spawnSync(process.execPath, [BIN, 'apply', '--help'], { encoding: 'utf8' }).stdout.includes('--allow-mass-create') ? ['--allow-mass-create'] : [];
  return massCreate;
}

interface ValidateFigures {
  readonly size: Size;
  readonly wallMs: number;
  readonly yamlMs: number;
  readonly maxRssMb: number | undefined;
}

/** validate vs the yaml library alone parsing the same file, alternating, fresh process each. */
async function measureValidate(size: Size, dir: string, runs: number): Promise<ValidateFigures> {
  const file = join(dir, `validate-${size.clients}.yaml`);
  await writeFile(file, manifestYaml(size));
  const walls: number[] = [];
  const yaml: number[] = [];
  const rss: number[] = [];
  for (let run = 0; run < runs; run++) {
    walls.push((await probe({ kind: 'cli', argv: ['validate', file] })).wallMs);
    yaml.push((await probe({ kind: 'yaml', argv: [file] })).wallMs);
    const whole = wholeProcess([BIN, 'validate', file]);
    if (whole.maxRssKb !== undefined) rss.push(whole.maxRssKb / 1024);
  }
  return { size, wallMs: median(walls), yamlMs: median(yaml), maxRssMb: rss.length === 0 ? undefined : median(rss) };
}

interface StartupFigures {
  readonly bareNodeMs: number;
  readonly versionMs: number;
  readonly validateMs: number;
  /** Milliseconds to import each piece in a fresh process (median). */
  readonly imports: Readonly<Record<string, number>>;
  /** Packages (CommonJS, from require.cache) each command loaded. */
  readonly loaded: Readonly<Record<string, readonly string[]>>;
}

const IMPORT_PROBES: Readonly<Record<string, string>> = {
  'cli/main.js (what --version loads)': `await import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))});`,
  'yaml': `await import('yaml');`,
  'manifest loader (yaml + standalone validator + checks)': `await import(${JSON.stringify(join(ROOT, 'dist/manifest/index.js'))});`,
  'standalone validator alone': `await import(${JSON.stringify(join(ROOT, 'dist/manifest/validator.generated.js'))});`,
  'ajv + compiling the schema at run time (before)': `const { Ajv2020 } = await import('ajv/dist/2020.js'); const fs = await import('node:fs'); new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(${JSON.stringify(join(ROOT, 'schemas/manifest.schema.json'))}, 'utf8')));`,
  'undici (plan and apply only)': `await import('undici');`,
  'cli/plan.js (plan and apply: undici, p-limit, renderers)': `await import(${JSON.stringify(join(ROOT, 'dist/cli/plan.js'))});`,
};

function importMs(code: string): number {
  const script = `const t = performance.now(); ${code} process.stdout.write(String(performance.now() - t));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`import probe failed: ${result.stderr}`);
  return Number(result.stdout);
}

function loadedPackages(argv: readonly string[]): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const { main } = await import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))});
    const sink = { write() {}, isTTY: false };
    await main(${JSON.stringify(argv)}, { stdout: sink, stderr: sink, env: {}, untilStopped: () => new Promise(() => {}) });
    const names = Object.keys(createRequire(import.meta.url).cache).map((k) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(k)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`loaded-packages probe failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

async function measureStartup(dir: string, runs: number): Promise<StartupFigures> {
  const small = join(dir, 'small.yaml');
  await writeFile(small, manifestYaml({ clients: 3, domainsPerClient: 2 }));
  const bare: number[] = [];
  const version: number[] = [];
  const validate: number[] = [];
  wholeProcess(['-e', '0']); // warm the file cache before anything counts
  wholeProcess([BIN, 'validate', small]);
  for (let run = 0; run < runs; run++) {
    bare.push(wholeProcess(['-e', '0']).wallMs);
    version.push(wholeProcess([BIN, '--version']).wallMs);
    validate.push(wholeProcess([BIN, 'validate', small]).wallMs);
  }
  const imports: Record<string, number> = {};
  for (const [name, code] of Object.entries(IMPORT_PROBES)) {
    imports[name] = median(Array.from({ length: Math.max(3, Math.ceil(runs / 2)) }, () => importMs(code)));
  }
  return {
    bareNodeMs: median(bare),
    versionMs: median(version),
    validateMs: median(validate),
    imports,
    loaded: { '--version': loadedPackages(['--version']), validate: loadedPackages(['validate', small]) },
  };
}

// ---------------------------------------------------------------------------------------
// Report.

const ms = (n: number): string => (n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
const mb = (n: number | undefined): string => (n === undefined ? 'n/a' : `${Math.round(n)} MB`);
const x = (n: number): string => `${n.toFixed(2)}x`;
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ').trimEnd()).join('\n');
}

async function runAll(): Promise<void> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run npm run build (npm run bench does)');
  const dir = await mkdtemp(join(tmpdir(), 'provision-bench-'));
  const started = performance.now();
  try {
    log(`bench: ${QUICK ? 'quick' : 'full'} run, ${MODE.runs} runs per figure (medians), ${MODE.scales.map((s) => `${s}x`).join(' / ')} sizes`);

    log('1/5 plan, no changes');
    const planReference = await measurePlan({ clients: 10, domainsPerClient: 2 }, dir, MODE.runs);
    const plans: PlanFigures[] = [];
    for (const scale of MODE.scales) plans.push(await measurePlan(scaled(PLAN_1X, scale), dir, MODE.runs));

    log('2/5 apply, 20 ms latency, concurrency 8');
    const applies: ApplyFigures[] = [];
    for (const scale of MODE.scales) applies.push(await measureApply(scaled(APPLY_1X, scale), dir, MODE.runs, true));

    log('3/5 validate vs yaml');
    const validates: ValidateFigures[] = [];
    for (const scale of MODE.scales) validates.push(await measureValidate(scaled(VALIDATE_1X, scale), dir, MODE.runs));

    log('4/5 start-up');
    const startup = await measureStartup(dir, MODE.startupRuns);

    log('5/5 memory at 100,000 resources');
    const memory = await measurePlan({ clients: MODE.memoryClients, domainsPerClient: 2 }, dir, Math.min(2, MODE.runs));

    const plan = plans.at(-1);
    const apply = applies.at(-1);
    const validate = validates.at(-1);
    if (plan === undefined || apply === undefined || validate === undefined) throw new Error('no sizes');
    const applyRatio = apply.wallMs / apply.idealMs;
    const idealObservedMs = (apply.posts * apply.requestMs) / CONCURRENCY + apply.readsMs;
    const speedup = (apply.sequentialMs ?? NaN) / apply.wallMs;
    const validateRatio = validate.wallMs / validate.yamlMs;
    const versionRatio = startup.versionMs / startup.bareNodeMs;
    const validateStartRatio = startup.validateMs / startup.bareNodeMs;

    const report = {
      mode: QUICK ? 'quick' : 'full',
      runsPerFigure: MODE.runs,
      node: process.version,
      totalSeconds: 0,
      figures: {
        plan: { reference: planReference, measured: plan, goalMet: plan.requests === planReference.requests },
        apply: { ...apply, idealObservedMs, latencyMs: LATENCY_MS, concurrency: CONCURRENCY, ratioToIdeal: applyRatio, speedupOverSequential: speedup, goalMet: applyRatio <= 1.15 && speedup >= 6 },
        validate: { ...validate, ratioToYaml: validateRatio, goalMet: validateRatio <= 1.5 },
        startup: { ...startup, versionRatio, validateRatio: validateStartRatio, goalMet: versionRatio <= 1.5 && validateStartRatio <= 3 },
        memory: { ...memory, resources: resources(memory.size), goalMet: memory.maxRssMb !== undefined && memory.maxRssMb < 300 },
      },
      scaling: { plans, applies, validates },
    };
    report.totalSeconds = Math.round((performance.now() - started) / 1000);

    if (JSON_OUT) {
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    const size = (s: Size): string => `${count(s.clients)} clients / ${count(s.clients * s.domainsPerClient)} domains`;
    const out: string[] = [];
    out.push(`panel-provision benchmarks (${report.mode}, median of ${MODE.runs}, Node ${process.version}, ${report.totalSeconds} s)`, '');
    out.push(
      table([
        ['#', 'figure', 'measured', 'reference', 'ratio', 'goal', ''],
        ['1', `plan, no changes, ${size(plan.size)}: requests`, String(plan.requests), `${planReference.requests} (10 clients)`, x(plan.requests / planReference.requests), 'same constant', verdict(plan.requests === planReference.requests)],
        ['', '  wall / engine CPU / waiting on the panel', `${ms(plan.wallMs)} / ${ms(plan.engineCpuMs)} / ${ms(plan.waitMs)}`, `panel CPU ${ms(plan.panelCpuMs)}`, `CPU ${Math.round((100 * plan.engineCpuMs) / plan.wallMs)}% of wall`, '', ''],
        ['', '  peak RSS (whole process)', mb(plan.maxRssMb), `${mb(planReference.maxRssMb)} (10 clients)`, '', '', ''],
        ['2', `apply, ${size(apply.size)}, ${LATENCY_MS} ms, concurrency ${CONCURRENCY}`, ms(apply.wallMs), `ideal ${ms(apply.idealMs)} (${apply.posts} POSTs; reads ${ms(apply.readsMs)})`, x(applyRatio), '<= 1.15x', verdict(applyRatio <= 1.15)],
        ['', '  at the latency the engine observed', ms(apply.wallMs), `ideal ${ms(idealObservedMs)} (${apply.requestMs} ms per POST)`, x(apply.wallMs / idealObservedMs), '', ''],
        ['', '  executor alone: POSTs in flight', apply.inFlight.toFixed(2), `of ${CONCURRENCY}`, x(apply.inFlight / CONCURRENCY), '', ''],
        ['', '  beside one request at a time', ms(apply.wallMs), `sequential ${ms(apply.sequentialMs ?? NaN)}`, `${speedup.toFixed(1)}x faster`, '>= 6x', verdict(speedup >= 6)],
        ['3', `validate, ${size(validate.size)}`, ms(validate.wallMs), `yaml.parse ${ms(validate.yamlMs)}`, x(validateRatio), '<= 1.5x', verdict(validateRatio <= 1.5)],
        ['', '  peak RSS (whole process)', mb(validate.maxRssMb), '', '', '', ''],
        ['4', 'start-up: provision --version', ms(startup.versionMs), `node -e 0 ${ms(startup.bareNodeMs)}`, x(versionRatio), '<= 1.5x', verdict(versionRatio <= 1.5)],
        ['', '  provision validate (small file)', ms(startup.validateMs), `node -e 0 ${ms(startup.bareNodeMs)}`, x(validateStartRatio), '<= 3x', verdict(validateStartRatio <= 3)],
        ['5', `plan at ${count(resources(memory.size))} resources: peak RSS`, mb(memory.maxRssMb), `wall ${ms(memory.wallMs)}`, '', '< 300 MB', verdict(report.figures.memory.goalMet)],
      ]),
    );
    out.push('', 'Start-up: import cost in a fresh process (median)');
    out.push(table(Object.entries(startup.imports).map(([name, value]) => [`  ${name}`, ms(value)])));
    out.push(`  packages loaded by --version: ${startup.loaded['--version']?.join(', ') || 'none'}; by validate: ${startup.loaded.validate?.join(', ') || 'none'}`);

    out.push('', 'Scaling (each column 10x the one before)');
    const scaleRows: string[][] = [['figure', ...MODE.scales.map((s) => `${s}x`), `growth ${MODE.scales.at(-1) ?? 1}x / 1x`]];
    const growth = (values: readonly number[]): string => x((values.at(-1) ?? NaN) / (values[0] ?? NaN));
    scaleRows.push(['plan: size', ...plans.map((p) => `${count(p.size.clients)} c / ${count(p.size.clients * p.size.domainsPerClient)} d`), '']);
    scaleRows.push(['plan: requests', ...plans.map((p) => String(p.requests)), growth(plans.map((p) => p.requests))]);
    scaleRows.push(['plan: wall', ...plans.map((p) => ms(p.wallMs)), growth(plans.map((p) => p.wallMs))]);
    scaleRows.push(['plan: engine CPU', ...plans.map((p) => ms(p.engineCpuMs)), growth(plans.map((p) => p.engineCpuMs))]);
    scaleRows.push(['plan: panel CPU', ...plans.map((p) => ms(p.panelCpuMs)), growth(plans.map((p) => p.panelCpuMs))]);
    scaleRows.push(['plan: peak RSS', ...plans.map((p) => mb(p.maxRssMb)), growth(plans.map((p) => p.maxRssMb ?? NaN))]);
    scaleRows.push(['apply: size', ...applies.map((a) => `${count(a.size.clients)} c / ${count(a.size.clients * a.size.domainsPerClient)} d`), '']);
    scaleRows.push(['apply: wall', ...applies.map((a) => ms(a.wallMs)), growth(applies.map((a) => a.wallMs))]);
    scaleRows.push(['apply: / ideal', ...applies.map((a) => x(a.wallMs / a.idealMs)), '']);
    scaleRows.push(['apply: POSTs in flight (executor)', ...applies.map((a) => a.inFlight.toFixed(2)), '']);
    scaleRows.push(['apply: sequential / parallel', ...applies.map((a) => x((a.sequentialMs ?? NaN) / a.wallMs)), '']);
    scaleRows.push(['apply: engine CPU', ...applies.map((a) => ms(a.engineCpuMs)), growth(applies.map((a) => a.engineCpuMs))]);
    scaleRows.push(['validate: size', ...validates.map((v) => `${count(v.size.clients)} c / ${count(v.size.clients * v.size.domainsPerClient)} d`), '']);
    scaleRows.push(['validate: wall', ...validates.map((v) => ms(v.wallMs)), growth(validates.map((v) => v.wallMs))]);
    scaleRows.push(['validate: / yaml.parse', ...validates.map((v) => x(v.wallMs / v.yamlMs)), '']);
    scaleRows.push(['validate: peak RSS', ...validates.map((v) => mb(v.maxRssMb)), growth(validates.map((v) => v.maxRssMb ?? NaN))]);
    out.push(table(scaleRows));
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await runAll();
