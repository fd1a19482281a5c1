/**
 * apply beside the minimal client (bench/minimal-client.ts), each against a fresh simulator in
 * its own process with 20 ms latency, 8 at once, paired run by run (alternating which goes
 * first): wall time of whole processes; apply's time to its first write beside `plan`'s wall
 * time (same manifest, same panel); apply's own CPU per request (apply's CPU minus plan's); the
 * in-process yardstick (node's start-up subtracted from apply, best of 3); and a lifecycle
 * plan (updates and deletes) beside the minimal client doing the same PUTs and DELETEs.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, manifestYaml } from './fixtures.js';
import {
  BIN,
  CONCURRENCY,
  inTurn,
  type Figure,
  LATENCY_MS,
  log,
  massCreateFlag,
  median,
  ms,
  plainScript,
  startSim,
  wholeProcess,
} from './lib.js';
import { type MinimalJob, type MinimalResult, runMinimal } from './minimal-client.js';

async function minimalProcess(
  job: MinimalJob,
): Promise<{ wallMs: number; cpuMs: number; startedAt: number; result: MinimalResult }> {
  const whole = await wholeProcess([await plainScript('minimal-client'), JSON.stringify(job)]);
  return {
    wallMs: whole.wallMs,
    cpuMs: whole.cpuMs,
    startedAt: whole.startedAt,
    result: JSON.parse(whole.stdout.trim()) as MinimalResult,
  };
}

export interface ApplyRun {
  readonly clients: number;
  readonly applyMs: number;
  readonly minimalMs: number;
  readonly firstWriteMs: number;
  readonly planMs: number;
  readonly ownCpuPerRequestMs: number;
  readonly simInFlight: number;
  /** The same two at the panel for the minimal client. */
  readonly minimalInFlight: number;
  readonly minimalFirstWriteMs: number;
}

/** One pair: plan then apply on one fresh panel, the minimal client on another. */
async function applyPair(clients: number, dir: string, run: number): Promise<ApplyRun> {
  const file = join(dir, `apply-${clients}.yaml`);
  await writeFile(file, manifestYaml({ clients, domainsPerClient: 2 }));
  type Minimal = Pick<ApplyRun, 'minimalMs' | 'minimalInFlight' | 'minimalFirstWriteMs'>;
  const apply = async (): Promise<Omit<ApplyRun, keyof Minimal>> => {
    const sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: LATENCY_MS });
    try {
      const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
      const plan = await wholeProcess([BIN, 'plan', file], env);
      await sim.stats();
      const secrets = join(dir, `secrets-${clients}-${run}.jsonl`);
      const argv = [
        BIN,
        'apply',
        file,
        '--auto-approve',
        '--concurrency',
        String(CONCURRENCY),
        '--secrets-file',
        secrets,
        ...massCreateFlag(),
      ];
      const applied = await wholeProcess(argv, env);
      const { writes, failed } = await sim.stats();
      if (failed > 0 || writes.count !== clients * 3)
        throw new Error(`apply of ${clients} clients: ${writes.count} writes, ${failed} failed`);
      return {
        clients,
        applyMs: applied.wallMs,
        firstWriteMs: writes.firstAt - applied.startedAt,
        planMs: plan.wallMs,
        // The reads (4 GETs) are plan's too: what is left is per write.
        ownCpuPerRequestMs: (applied.cpuMs - plan.cpuMs) / writes.count,
        simInFlight: writes.inFlight,
      };
    } finally {
      await sim.close();
    }
  };
  const minimal = async (): Promise<Minimal> => {
    const sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: LATENCY_MS });
    try {
      const run = await minimalProcess({
        url: sim.url,
        apiKey: BENCH_KEY,
        workers: CONCURRENCY,
        create: { clients },
      });
      const { writes } = await sim.stats();
      return {
        minimalMs: run.wallMs,
        minimalInFlight: writes.inFlight,
        minimalFirstWriteMs: writes.firstAt - run.startedAt,
      };
    } finally {
      await sim.close();
    }
  };
  const [a, m] = await inTurn(run, apply, minimal);
  return { ...a, ...m };
}

export async function measureApply(
  sizes: readonly { clients: number; runs: number }[],
  dir: string,
): Promise<{ figures: Figure[]; runs: ApplyRun[] }> {
  const figures: Figure[] = [];
  const all: ApplyRun[] = [];
  const cpuAt = new Map<number, number>();
  for (const { clients, runs } of sizes) {
    log(`  apply vs the minimal client, ${count(clients)} clients, ${runs} pair(s)`);
    const pairs: ApplyRun[] = [];
    for (let run = 0; run < runs; run++) pairs.push(await applyPair(clients, dir, run));
    all.push(...pairs);
    const ratios = pairs.map((p) => p.applyMs / p.minimalMs);
    figures.push({
      section: 'apply',
      name: `apply / minimal client, ${count(clients)} clients (${count(clients * 3)} POSTs), whole processes`,
      measured: ms(median(pairs.map((p) => p.applyMs))),
      reference: ms(median(pairs.map((p) => p.minimalMs))),
      ratio: median(ratios),
      goal: clients >= 10_000 ? 1.15 : 1.1,
      runs: ratios,
    });
    const first = pairs.map((p) => p.firstWriteMs / p.planMs);
    figures.push({
      section: 'apply',
      name: `  apply's time to its first POST / plan's wall, ${count(clients)} clients`,
      measured: ms(median(pairs.map((p) => p.firstWriteMs))),
      reference: ms(median(pairs.map((p) => p.planMs))),
      ratio: median(first),
      goal: 1.1,
      runs: first,
    });
    figures.push({
      section: 'apply',
      name: `  apply's time to its first POST / the minimal client's, ${count(clients)} clients`,
      measured: ms(median(pairs.map((p) => p.firstWriteMs))),
      reference: ms(median(pairs.map((p) => p.minimalFirstWriteMs))),
      ratio: median(pairs.map((p) => p.firstWriteMs / p.minimalFirstWriteMs)),
      goal: undefined,
    });
    const inFlight = pairs.map((p) => p.simInFlight / p.minimalInFlight);
    figures.push({
      section: 'apply',
      name: `  POSTs in flight at the panel (mean, of ${CONCURRENCY}) / the minimal client's, ${count(clients)} clients`,
      measured: median(pairs.map((p) => p.simInFlight)).toFixed(2),
      reference: median(pairs.map((p) => p.minimalInFlight)).toFixed(2),
      ratio: median(inFlight),
      goal: undefined,
      runs: inFlight,
    });
    cpuAt.set(clients, median(pairs.map((p) => p.ownCpuPerRequestMs)));
  }
  const sizesByClients = [...cpuAt.keys()].sort((a, b) => a - b);
  const small = sizesByClients.find((n) => n >= 1_000) ?? sizesByClients[0];
  const large = sizesByClients.at(-1);
  if (small !== undefined && large !== undefined && large > small) {
    const a = cpuAt.get(small) ?? NaN;
    const b = cpuAt.get(large) ?? NaN;
    figures.push({
      section: 'apply',
      name: `apply's own CPU per request (apply CPU - plan CPU), ${count(large)} / ${count(small)} clients`,
      measured: `${b.toFixed(2)} ms`,
      reference: `${a.toFixed(2)} ms`,
      ratio: b / a,
      goal: 1.1,
    });
  }
  return { figures, runs: all };
}

/** node's own start-up: `node -e 0`, median of `runs`. */
export async function bareNodeMs(runs: number): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) walls.push((await wholeProcess(['-e', '0'])).wallMs);
  return median(walls);
}

/** apply (whole process, node's start-up subtracted) beside the minimal client in this process, best of `runs` each. */
export async function measureInProcess(clients: number, dir: string, runs: number): Promise<Figure> {
  log(`  apply vs the minimal client in this process, ${count(clients)} clients, best of ${runs}`);
  const file = join(dir, `inproc-${clients}.yaml`);
  await writeFile(file, manifestYaml({ clients, domainsPerClient: 2 }));
  const applies: number[] = [];
  const minimals: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < runs; run++) {
    bare.push(await bareNodeMs(3));
    let sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: LATENCY_MS });
    try {
      const secrets = join(dir, `inproc-secrets-${run}.jsonl`);
      const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
      applies.push(
        (
          await wholeProcess(
            [
              BIN,
              'apply',
              file,
              '--auto-approve',
              '--concurrency',
              String(CONCURRENCY),
              '--secrets-file',
              secrets,
              ...massCreateFlag(),
            ],
            env,
          )
        ).wallMs,
      );
    } finally {
      await sim.close();
    }
    sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: LATENCY_MS });
    try {
      minimals.push(
        (
          await runMinimal({
            url: sim.url,
            apiKey: BENCH_KEY,
            workers: CONCURRENCY,
            create: { clients },
          })
        ).wallMs,
      );
    } finally {
      await sim.close();
    }
  }
  const node = median(bare);
  const applyBest = Math.min(...applies) - node;
  const minimalBest = Math.min(...minimals);
  return {
    section: 'apply',
    name: `apply - node start-up / minimal client in-process, ${count(clients)} clients, best of ${runs}`,
    measured: `${ms(applyBest)} (${ms(Math.min(...applies))} - node ${ms(node)})`,
    reference: ms(minimalBest),
    ratio: applyBest / minimalBest,
    goal: 1.3,
    runs: applies.map((a, i) => (a - node) / (minimals[i] ?? NaN)),
  };
}

/** A manifest that updates the first `half` clients' email and deletes the next `half` (state: absent). */
function lifecycleYaml(half: number): { yaml: string; update: string[]; remove: string[] } {
  const name = (i: number): string => `c${i.toString().padStart(6, '0')}`;
  const parts = ['version: 1\nclients:\n'];
  const update: string[] = [];
  const remove: string[] = [];
  for (let i = 1; i <= half; i++) {
    update.push(name(i));
    parts.push(
      `  - username: ${name(i)}\n    plan: Basic\n    email: new-${name(i)}@example.com\n    domains: [${name(i)}.example]\n`,
    );
  }
  for (let i = half + 1; i <= 2 * half; i++) {
    remove.push(name(i));
    parts.push(`  - username: ${name(i)}\n    state: absent\n`);
  }
  return { yaml: parts.join(''), update, remove };
}

/** A plan of `half` updates and `half` client deletes applied, beside the minimal client's same PUTs and DELETEs. */
export async function measureLifecycle(half: number, dir: string, runs: number): Promise<Figure> {
  log(`  lifecycle: ${count(half)} updates and ${count(half)} deletes, ${runs} pair(s)`);
  const { yaml, update, remove } = lifecycleYaml(half);
  const file = join(dir, `lifecycle-${half}.yaml`);
  await writeFile(file, yaml);
  const seeded = { clients: 2 * half, domainsPerClient: 1, latencyMs: LATENCY_MS };
  const applies: number[] = [];
  const minimals: number[] = [];
  const apply = async (): Promise<void> => {
    const sim = await startSim(seeded);
    try {
      const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
      await sim.stats();
      const argv = [BIN, 'apply', file, '--auto-approve', '--allow-mass-delete', '--concurrency', String(CONCURRENCY)];
      applies.push((await wholeProcess(argv, env)).wallMs);
      const { writes, failed } = await sim.stats();
      if (failed > 0 || writes.count !== 2 * half)
        throw new Error(`lifecycle apply: ${writes.count} writes, ${failed} failed`);
    } finally {
      await sim.close();
    }
  };
  const minimal = async (): Promise<void> => {
    const sim = await startSim(seeded);
    try {
      minimals.push(
        (
          await minimalProcess({
            url: sim.url,
            apiKey: BENCH_KEY,
            workers: CONCURRENCY,
            lifecycle: { update, remove },
          })
        ).wallMs,
      );
    } finally {
      await sim.close();
    }
  };
  for (let run = 0; run < runs; run++) await inTurn(run, apply, minimal);
  const ratios = applies.map((a, i) => a / (minimals[i] ?? NaN));
  await rm(file, { force: true });
  return {
    section: 'lifecycle',
    name: `apply of ${count(half)} updates + ${count(half)} deletes / minimal client's same PUTs and DELETEs`,
    measured: ms(median(applies)),
    reference: ms(median(minimals)),
    ratio: median(ratios),
    goal: undefined,
    runs: ratios,
  };
}
