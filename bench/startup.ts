/**
 * Start-up: whole processes of `provision --version`, `validate` and `plan` of a 1-client
 * manifest (plan against a simulator holding that client, no latency), each beside bare
 * `node -e 0`, interleaved run by run; the ratio is the median of each run's ratio. Then what
 * the pieces cost to import in a fresh process, and which packages each command loads.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, manifestYaml } from './fixtures.js';
import { BIN, type Figure, log, median, ms, ROOT, startSim, wholeProcess } from './lib.js';

const IMPORT_PROBES: Readonly<Record<string, string>> = {
  'cli/main.js': `await import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))});`,
  yaml: `await import('yaml');`,
  'manifest loader (yaml + standalone validator + checks)': `await import(${JSON.stringify(join(ROOT, 'dist/manifest/index.js'))});`,
  'undici (whole index)': `await import('undici');`,
  'panel/index.js (the panel client)': `await import(${JSON.stringify(join(ROOT, 'dist/panel/index.js'))});`,
  'cli/plan.js (plan and apply)': `await import(${JSON.stringify(join(ROOT, 'dist/cli/plan.js'))});`,
};

function importMs(code: string): number {
  const script = `const t = performance.now(); ${code} process.stdout.write(String(performance.now() - t));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`import probe failed: ${result.stderr}`);
  return Number(result.stdout);
}

/** Packages (CommonJS and ES modules under node_modules) a command loads, by running main() and asking the loader. */
function loadedPackages(argv: readonly string[], env: Readonly<Record<string, string>>): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const seen = new Set();
    const { main } = await import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))});
    const sink = { write() { return true; }, isTTY: false };
    await main(${JSON.stringify(argv)}, { stdout: sink, stderr: sink, env: ${JSON.stringify(env)}, untilStopped: () => new Promise(() => {}) });
    for (const k of Object.keys(createRequire(import.meta.url).cache)) seen.add(k);
    const names = [...seen].map((k) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(k)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`loaded-packages probe failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

export interface StartupDetail {
  readonly bareNodeMs: number;
  readonly imports: Readonly<Record<string, number>>;
  readonly loaded: Readonly<Record<string, readonly string[]>>;
}

export async function measureStartup(dir: string, runs: number): Promise<{ figures: Figure[]; detail: StartupDetail }> {
  log(`  start-up, ${runs} interleaved runs`);
  const small = join(dir, 'one-client.yaml');
  await writeFile(small, manifestYaml({ clients: 1, domainsPerClient: 2 }));
  const sim = await startSim({ clients: 1, domainsPerClient: 2, latencyMs: 0 });
  try {
    const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
    const subjects: Record<string, string[]> = {
      bare: ['-e', '0'],
      version: [BIN, '--version'],
      validate: [BIN, 'validate', small],
      plan: [BIN, 'plan', small],
    };
    // Warm the file cache before anything counts.
    for (const argv of Object.values(subjects)) await wholeProcess(argv, env);
    const walls: Record<string, number[]> = { bare: [], version: [], validate: [], plan: [] };
    for (let run = 0; run < runs; run++) {
      for (const [name, argv] of Object.entries(subjects)) walls[name]?.push((await wholeProcess(argv, env)).wallMs);
    }
    const bare = walls.bare ?? [];
    const figure = (name: string, label: string, goal: number): Figure => {
      const own = walls[name] ?? [];
      const ratios = own.map((w, i) => w / (bare[i] ?? NaN));
      return {
        section: 'startup',
        name: label,
        measured: ms(median(own)),
        reference: `node -e 0 ${ms(median(bare))}`,
        ratio: median(ratios),
        goal,
        runs: ratios,
      };
    };
    const imports: Record<string, number> = {};
    for (const [name, code] of Object.entries(IMPORT_PROBES))
      imports[name] = median(Array.from({ length: 5 }, () => importMs(code)));
    return {
      figures: [
        figure('plan', '`plan` of a 1-client manifest / bare node', 2.5),
        figure('validate', '`validate` of a 1-client manifest / bare node', 1.6),
        figure('version', '`--version` / bare node', 1.2),
      ],
      detail: {
        bareNodeMs: median(bare),
        imports,
        loaded: {
          '--version': loadedPackages(['--version'], {}),
          validate: loadedPackages(['validate', small], {}),
          plan: loadedPackages(['plan', small], env),
        },
      },
    };
  } finally {
    await sim.close();
  }
}
