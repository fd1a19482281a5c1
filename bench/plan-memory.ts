/**
 * Plan of N new clients: peak RSS per manifest byte (issue 30, 7f), for each output of a plan: the
 * text on stdout, `--format json`, `--format markdown` and `--out plan.json`. The manifest is
 * the fixtures' block YAML (two domains a client), the panel an empty simulator: every client
 * and domain is a create, and the outputs are several times the manifest's size (the JSON about
 * 13 times). Each figure is a whole `node bundle/bin.js plan ...` under /usr/bin/time: its peak RSS
 * less the same command's on an empty manifest (start-up), over the manifest's bytes; the goal
 * is about 10. With BENCH_BASE=<bundle/bin.js of another build>, the same figures of that build
 * beside them, the two run in turn ("before" and "after" in one run); else the reference column
 * is the validate of the same manifest (what reading it costs alone).
 *
 *   npm run build && node --import tsx bench/plan-memory.ts [--clients 20000] [--runs 1]
 */
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, manifestYaml } from './fixtures.js';
import { BIN, type Figure, log, median, runAlone, startSim, timedNode } from './lib.js';

/** The build measured beside this one, when given. */
const BASE = process.env.BENCH_BASE;

/** Peak RSS (MB) and CPU seconds of `node bin plan ...`; stdout to a file, as a redirect writes it. */
function planRun(bin: string, args: readonly string[], env: Readonly<Record<string, string>>, out: string) {
  return timedNode([bin, 'plan', ...args], { env, stdoutTo: out });
}

/** The outputs of a plan, as flags of `plan FILE`. */
const OUTPUTS: readonly { readonly name: string; readonly args: (dir: string) => string[] }[] = [
  { name: 'text', args: () => [] },
  { name: '--format json', args: () => ['--format', 'json'] },
  { name: '--format markdown', args: () => ['--format', 'markdown'] },
  { name: '--out plan.json', args: (dir) => ['--out', join(dir, 'plan.json')] },
];

export async function measurePlanMemory(clients: number, runs: number, dir: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  const file = join(dir, 'new-clients.yaml');
  await writeFile(file, manifestYaml({ clients, domainsPerClient: 2 }));
  const empty = join(dir, 'empty.yaml');
  await writeFile(empty, 'version: 1\nclients: []\n');
  const bytes = (await stat(file)).size;
  const out = join(dir, 'stdout');
  const sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: 0 });
  try {
    const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
    const perByte = (bin: string, args: string[], startup: number) => {
      const one = planRun(bin, [file, '--max-manifest-mb', '500', ...args], env, out);
      return { perByte: ((one.mb - startup) * 1024 * 1024) / bytes, cpu: one.cpu };
    };
    const startupOf = (bin: string): number =>
      median(Array.from({ length: runs }, () => planRun(bin, [empty], env, out).mb));
    const startup = startupOf(BIN);
    const baseStartup = BASE === undefined ? 0 : startupOf(BASE);
    log(
      `  plan memory: ${count(clients)} new clients (${(bytes / 1024 / 1024).toFixed(1)} MB), ` +
        `start-up ${startup.toFixed(0)} MB${BASE === undefined ? '' : `, the base's ${baseStartup.toFixed(0)} MB`}`,
    );
    const validateMb = timedNode([BIN, 'validate', file]).mb;
    for (const output of OUTPUTS) {
      const now: number[] = [];
      const before: number[] = [];
      const cpu: number[] = [];
      for (let run = 0; run < runs; run++) {
        // In turn, which goes first alternating: neither side always has the warmer machine.
        const sides = [
          () => {
            const r = perByte(BIN, output.args(dir), startup);
            now.push(r.perByte);
            return r.cpu;
          },
          ...(BASE === undefined
            ? []
            : [
                () => {
                  const r = perByte(BASE, output.args(dir), baseStartup);
                  before.push(r.perByte);
                  return r.cpu;
                },
              ]),
        ];
        const order = run % 2 === 0 ? sides : [...sides].reverse();
        const [first = NaN, second = NaN] = order.map((side) => side());
        // A's CPU over B's (the base's), whichever ran first.
        if (BASE !== undefined) cpu.push(run % 2 === 0 ? first / second : second / first);
      }
      const measured = median(now);
      const reference =
        BASE === undefined
          ? `validate ${(((validateMb - startup) * 1024 * 1024) / bytes).toFixed(1)} B/B`
          : `before ${median(before).toFixed(1)} B/B, CPU ${median(cpu).toFixed(2)}x`;
      figures.push({
        section: 'planmem',
        name: `plan of ${count(clients)} new clients, ${output.name}: peak RSS per manifest byte`,
        measured: `${measured.toFixed(1)} B/B`,
        reference,
        ratio: measured,
        goal: 10,
        runs: now,
      });
    }
  } finally {
    await sim.close();
  }
  return figures;
}

// Run alone: print the figures.
if (process.argv[1]?.endsWith('plan-memory.ts') === true) await runAlone('plan-memory', 20_000, measurePlanMemory);
