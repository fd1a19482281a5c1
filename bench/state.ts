/**
 * The simulator's `--state` file: what logging each mutation costs. The same creates (N
 * clients, each a POST /clients and two POST /domains, 8 at once: the minimal client) against
 * the simulator in its own process with a state file and without, at two sizes, in alternate
 * runs. The ratio with / without must not grow with N: each burst appends what it changed
 * (src/simulator/state-file.ts), where a rewrite of the whole state made the cost grow with the
 * square of the panel.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count } from './fixtures.js';
import { CONCURRENCY, type Figure, log, median, ms, startSim } from './lib.js';
import { runMinimal } from './minimal-client.js';

export interface StateRun {
  readonly clients: number;
  readonly withStateMs: number;
  readonly withoutStateMs: number;
}

/** One timed run: a fresh simulator (a fresh state file), N creates, the simulator stopped. */
async function timedCreates(clients: number, statePath: string | undefined): Promise<number> {
  const sim = await startSim({
    clients: 0,
    domainsPerClient: 0,
    latencyMs: 0,
    ...(statePath === undefined ? {} : { statePath }),
  });
  try {
    const result = await runMinimal({ url: sim.url, apiKey: BENCH_KEY, workers: CONCURRENCY, create: { clients } });
    return result.wallMs;
  } finally {
    await sim.close();
  }
}

export async function measureState(
  sizes: readonly number[],
  dir: string,
  runs: number,
): Promise<{ figures: Figure[]; runs: StateRun[] }> {
  const all: StateRun[] = [];
  for (const clients of sizes) {
    log(`  ${count(clients)} clients (${count(clients * 3)} POSTs), with --state and without, ${runs} run(s)`);
    for (let run = 0; run < runs; run++) {
      const runDir = await mkdtemp(join(dir, 'state-'));
      try {
        // Alternate which goes first, so that neither always meets a warmer machine.
        const statePath = join(runDir, 'panel-state.json');
        let withStateMs = NaN;
        let withoutStateMs = NaN;
        for (const withState of run % 2 === 0 ? [false, true] : [true, false]) {
          const wallMs = await timedCreates(clients, withState ? statePath : undefined);
          if (withState) withStateMs = wallMs;
          else withoutStateMs = wallMs;
        }
        all.push({ clients, withStateMs, withoutStateMs });
      } finally {
        await rm(runDir, { recursive: true, force: true });
      }
    }
  }
  const ratios = (n: number): number[] =>
    all.filter((r) => r.clients === n).map((r) => r.withStateMs / r.withoutStateMs);
  const figures: Figure[] = sizes.map((n) => {
    const at = all.filter((r) => r.clients === n);
    return {
      section: 'state',
      name: `simulator --state, ${count(n)} clients created (3 POSTs each)`,
      measured: ms(median(at.map((r) => r.withStateMs))),
      reference: `${ms(median(at.map((r) => r.withoutStateMs)))} without`,
      ratio: median(ratios(n)),
      goal: undefined,
      runs: ratios(n),
    };
  });
  const small = sizes[0] ?? NaN;
  const large = sizes.at(-1) ?? NaN;
  figures.push({
    section: 'state',
    name: `simulator --state: that ratio at ${count(large)} / at ${count(small)} clients (1 = linear)`,
    measured: `${median(ratios(large)).toFixed(2)}x`,
    reference: `${median(ratios(small)).toFixed(2)}x`,
    ratio: median(ratios(large)) / median(ratios(small)),
    // Linear: the cost of --state per create does not grow with the panel (a rewrite of the
    // whole state per burst made it grow about as the size did).
    goal: 1.5,
  });
  return { figures, runs: all };
}
