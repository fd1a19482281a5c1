/**
 * plan's memory alone (docs/benchmarks.md): peak RSS of `provision plan` (no changes) at
 * 100,000 clients (a domain and a subdomain each: 300,000 resources), as a whole process under
 * /usr/bin/time, beside the yardstick of issue 14: one process doing only `yaml.parse` of the
 * manifest and `JSON.parse` of the panel's two lists (fetched once beforehand), all held at once;
 * and beside `yaml.parse` of the file alone. Interleaved run by run; the ratio to the
 * yardstick is taken pair by pair (wall and CPU time too: user + system, the whole process's).
 * With `--against <bin.js>`, also another build of the CLI (for instance a copy of an earlier
 * commit built with `npx tsc -p tsconfig.build.json --outDir ...`), its ratio paired the same way.
 *
 *   npm run build && node --import tsx bench/memory.ts [--runs 3] [--clients 100000] [--bin bundle/bin.js] [--against ../old/bundle/bin.js]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_KEY, count, manifestYaml } from './fixtures.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    clients: { type: 'string', default: '100000' },
    bin: { type: 'string', default: 'bundle/bin.js' },
    against: { type: 'string' },
  },
});
const runs = Number(values.runs);
const clients = Number(values.clients);
const size = { clients, domainsPerClient: 2 };

/** Peak RSS (MB), wall and CPU time (user + system, ms) of `node ...argv`. */
function measure(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): { rssMb: number; wallMs: number; cpuMs: number } {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', 'BENCH_RSS_KB=%M BENCH_CPU_S=%U+%S', process.execPath, ...argv], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = performance.now() - started;
  const stderr = result.stderr.toString();
  if (result.status !== 0)
    throw new Error(`node ${argv.join(' ')} exited ${String(result.status)}: ${stderr.slice(-500)}`);
  const cpu = /BENCH_CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
  return {
    rssMb: Number(/BENCH_RSS_KB=(\d+)/.exec(stderr)?.[1]) / 1024,
    wallMs,
    cpuMs: (Number(cpu?.[1]) + Number(cpu?.[2])) * 1000,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

const dir = await mkdtemp(join(tmpdir(), 'provision-memory-'));
const sim = spawn(
  process.execPath,
  ['--import', 'tsx', join(ROOT, 'bench/sim-server.ts'), JSON.stringify({ ...size, latencyMs: 0 })],
  {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
try {
  const file = join(dir, 'plan.yaml');
  await writeFile(file, manifestYaml(size));
  const first = await createInterface({ input: sim.stdout })[Symbol.asyncIterator]().next();
  const { url } = JSON.parse(String(first.value)) as { url: string };
  const env = { PROVISION_URL: url, PROVISION_API_KEY: BENCH_KEY };
  const lists = { clients: join(dir, 'clients.json'), domains: join(dir, 'domains.json') };
  for (const [name, path] of Object.entries(lists)) {
    const answer = await fetch(`${url}/${name}`, { headers: { 'x-api-key': BENCH_KEY } });
    await writeFile(path, await answer.text());
  }
  const read = (path: string): string => `readFileSync(${JSON.stringify(path)}, 'utf8')`;
  const YARDSTICK = 'yaml.parse + JSON.parse of the lists';
  const subjects: [string, string[]][] = [
    ['provision plan (this build)', [resolve(ROOT, values.bin), 'plan', file]],
    ...(values.against === undefined
      ? []
      : [[`provision plan (${values.against})`, [values.against, 'plan', file]] as [string, string[]]]),
    [
      YARDSTICK,
      [
        '--input-type=module',
        '-e',
        `import { parse } from 'yaml'; import { readFileSync } from 'node:fs'; globalThis.kept = [parse(${read(file)}), JSON.parse(${read(lists.clients)}), JSON.parse(${read(lists.domains)})];`,
      ],
    ],
    [
      'yaml.parse of the file alone',
      [
        '--input-type=module',
        '-e',
        `import { parse } from 'yaml'; import { readFileSync } from 'node:fs'; parse(${read(file)});`,
      ],
    ],
  ];
  const results = new Map<string, { rss: number[]; wall: number[]; cpu: number[] }>();
  for (let run = 0; run < runs; run++) {
    for (const [name, argv] of subjects) {
      const { rssMb, wallMs, cpuMs } = measure(argv, env);
      const entry = results.get(name) ?? { rss: [], wall: [], cpu: [] };
      entry.rss.push(rssMb);
      entry.wall.push(wallMs);
      entry.cpu.push(cpuMs);
      results.set(name, entry);
    }
  }
  process.stdout.write(`plan at ${count(clients * 3)} resources (${count(clients)} clients), median of ${runs}\n`);
  const yardstick = results.get(YARDSTICK)?.rss ?? [];
  for (const [name, { rss, wall, cpu }] of results) {
    const ratios = rss.map((r, i) => r / (yardstick[i] ?? NaN));
    process.stdout.write(
      `  ${name.padEnd(40)} peak RSS ${median(rss).toFixed(0)} MB (${rss.map((v) => v.toFixed(0)).join(', ')}), ` +
        `/ yardstick ${median(ratios).toFixed(2)} (${ratios.map((v) => v.toFixed(2)).join(', ')})  wall ${median(wall).toFixed(0)} ms  CPU ${median(cpu).toFixed(0)} ms\n`,
    );
  }
} finally {
  sim.stdin.end();
  await rm(dir, { recursive: true, force: true });
}
