/**
 * The mailbox figures (issue 32, item 8), two of them:
 *
 * - **plan**: `plan` of `clients` clients with `perClient` mailboxes each (a domain
 *   `c<i>.example` each, the mailboxes `m1@c<i>.example`..), converged, beside `plan` of the
 *   same manifest without its `mailboxes` sections, both against one simulator (its own
 *   process, latency 0, seeded with the clients, domains and mailboxes). Each round runs both,
 *   the order rotated; a side exits 0 under --detailed-exitcode and prints "No changes", or the
 *   section fails, and the one with mailboxes must send exactly one request more (GET /emails),
 *   counted at the panel. Figures: wall of the whole processes (the goal, 1.2x), the engine
 *   alone in process (bench/probe.ts: modules loaded before the clock; wall and CPU), and the
 *   requests.
 * - **apply**: `apply` creating `clients x perClient` mailboxes on clients and domains that exist
 *   (the simulator seeded with them, 20 ms latency, 8 at once), beside the minimal client
 *   (bench/minimal-client.ts's `mailboxes` job: one GET /clients, then each POST /emails, 8
 *   workers over 8 connections) sending the same POSTs, each side on a fresh panel, paired run
 *   by run (which goes first alternates). Goal: 1.15x, wall of whole processes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, seedFor } from './fixtures.js';
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
  probe,
  type SimHandle,
  startSim,
  type Whole,
  wholeProcess,
} from './lib.js';
import type { MinimalJob, MinimalResult } from './minimal-client.js';

export interface MailboxMode {
  readonly plan: { readonly clients: number; readonly perClient: number; readonly runs: number };
  readonly apply: { readonly clients: number; readonly perClient: number; readonly runs: number };
}

const username = (i: number): string => `c${i.toString().padStart(6, '0')}`;
const localParts = (perClient: number): string[] => Array.from({ length: perClient }, (_, k) => `m${k + 1}`);
const x = (n: number): string => (Number.isNaN(n) ? 'n/a' : `${n.toFixed(2)}x`);

/** A manifest of `clients` clients of one domain each, with `perClient` mailboxes on it (0: no `mailboxes` section). */
export function mailboxManifest(clients: number, perClient: number): string {
  const parts = ['version: 1\nclients:\n'];
  const boxes = localParts(perClient)
    .map((local) => `          - name: ${local}\n`)
    .join('');
  for (let i = 1; i <= clients; i++) {
    const name = username(i);
    parts.push(`  - username: ${name}\n    plan: Basic\n    email: ${name}@example.com\n    domains:\n`);
    parts.push(
      perClient === 0 ? `      - ${name}.example\n` : `      - name: ${name}.example\n        mailboxes:\n${boxes}`,
    );
  }
  return parts.join('');
}

/** fixtures.ts's seed of `clients` clients of one domain each, with `perClient` mailboxes on each domain. */
export function mailboxSeed(clients: number, perClient: number): unknown {
  const seed = seedFor({ clients, domainsPerClient: 1 });
  return {
    clients: (seed.clients ?? []).map((c) => ({
      ...c,
      domains: (c.domains ?? []).map((d) => ({ name: d, mailboxes: localParts(perClient) })),
    })),
  };
}

/** Requests the panel saw during `run`, failing ones refused. */
async function counted<T>(sim: SimHandle, run: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = await sim.stats();
  const result = await run();
  const after = await sim.stats();
  if (after.failed > before.failed) throw new Error(`${after.failed - before.failed} request(s) failed at the panel`);
  return { result, requests: after.requests - before.requests };
}

function expectNoChanges(what: string, whole: Whole): Whole {
  if (!whole.stdout.includes('No changes'))
    throw new Error(`${what}: expected "No changes" in its output: ${whole.stdout.slice(0, 300)}`);
  return whole;
}

interface PlanSide {
  readonly whole: Whole[];
  readonly probeWall: number[];
  readonly probeCpu: number[];
  readonly requests: number[];
}

/** Figure (1): the converged plan with mailboxes beside the same plan without them. */
export async function measureMailboxPlan(
  mode: MailboxMode['plan'],
  dir: string,
): Promise<{ figures: Figure[]; requests: { with: number; without: number } }> {
  const { clients, perClient, runs } = mode;
  const boxes = clients * perClient;
  log(`  plan (no changes) of ${count(clients)} clients with ${count(boxes)} mailboxes vs without; ${runs} round(s)`);
  const withFile = join(dir, `mailboxes-plan-${clients}-${perClient}.yaml`);
  const withoutFile = join(dir, `mailboxes-plan-${clients}-0.yaml`);
  const seedPath = join(dir, `mailboxes-seed-${clients}-${perClient}.json`);
  await writeFile(withFile, mailboxManifest(clients, perClient));
  await writeFile(withoutFile, mailboxManifest(clients, 0));
  await writeFile(seedPath, JSON.stringify(mailboxSeed(clients, perClient)));
  const sim = await startSim({ clients, domainsPerClient: 1, latencyMs: 0, seedPath });
  const sides: PlanSide[] = [0, 1].map(() => ({ whole: [], probeWall: [], probeCpu: [], requests: [] }));
  try {
    const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
    const files = [withFile, withoutFile];
    for (let round = 0; round < runs; round++) {
      for (let k = 0; k < 2; k++) {
        const i = (round + k) % 2;
        const file = files[i] ?? '';
        const side = sides[i];
        if (side === undefined) continue;
        const argv = [BIN, 'plan', file, '--detailed-exitcode'];
        const { result, requests } = await counted(sim, () => wholeProcess(argv, env));
        side.whole.push(expectNoChanges(`plan ${file}`, result));
        side.requests.push(requests);
        const inProcess = await probe({ kind: 'cli', argv: ['plan', file, '--detailed-exitcode'], env });
        side.probeWall.push(inProcess.wallMs);
        side.probeCpu.push(inProcess.cpuMs);
      }
    }
  } finally {
    await sim.close();
  }
  const [mine, theirs] = sides as [PlanSide, PlanSide];
  const withRequests = median(mine.requests);
  const withoutRequests = median(theirs.requests);
  if (mine.requests.some((n, i) => n !== (theirs.requests[i] ?? NaN) + 1))
    throw new Error(
      `plan with mailboxes sent ${mine.requests.join(', ')} requests, without ${theirs.requests.join(', ')}: expected one more`,
    );
  const pair = (f: (s: PlanSide) => number[]): number[] => f(mine).map((v, i) => v / (f(theirs)[i] ?? NaN));
  const wall = pair((s) => s.whole.map((w) => w.wallMs));
  const cpu = pair((s) => s.whole.map((w) => w.cpuMs));
  const rss = pair((s) => s.whole.map((w) => w.maxRssMb));
  const engineWall = pair((s) => s.probeWall);
  const engineCpu = pair((s) => s.probeCpu);
  const name = `plan, ${count(clients)} clients with ${count(boxes)} mailboxes / without, no changes`;
  const figure = (
    label: string,
    values: number[],
    goal: number | undefined,
    show: (s: PlanSide) => string,
  ): Figure => ({
    section: 'mailboxes',
    name: label,
    measured: show(mine),
    reference: show(theirs),
    ratio: median(values),
    goal,
    runs: values,
  });
  return {
    requests: { with: withRequests, without: withoutRequests },
    figures: [
      figure(`${name}, wall (whole processes)`, wall, 1.2, (s) => ms(median(s.whole.map((w) => w.wallMs)))),
      figure('  the same, CPU time', cpu, undefined, (s) => ms(median(s.whole.map((w) => w.cpuMs)))),
      figure('  the same, peak RSS', rss, undefined, (s) => `${Math.round(median(s.whole.map((w) => w.maxRssMb)))} MB`),
      figure('  the same, the engine in process (probe), wall', engineWall, undefined, (s) => ms(median(s.probeWall))),
      figure('  the same, the engine in process (probe), CPU', engineCpu, undefined, (s) => ms(median(s.probeCpu))),
      {
        section: 'mailboxes',
        name: '  the same, requests at the panel (checked: exactly one more, GET /emails)',
        measured: String(withRequests),
        reference: String(withoutRequests),
        ratio: withRequests / withoutRequests,
        goal: undefined,
      },
    ],
  };
}

interface ApplyPair {
  readonly applyMs: number;
  readonly minimalMs: number;
  readonly applyFirstWriteMs: number;
  readonly minimalFirstWriteMs: number;
  readonly applyInFlight: number;
  readonly minimalInFlight: number;
  readonly applyCpuMs: number;
  readonly minimalCpuMs: number;
}

/** One pair: apply creating the mailboxes on a fresh panel, the minimal client on another. */
async function applyPair(mode: MailboxMode['apply'], file: string, dir: string, run: number): Promise<ApplyPair> {
  const { clients, perClient } = mode;
  const boxes = clients * perClient;
  const seeded = { clients, domainsPerClient: 1, latencyMs: LATENCY_MS };
  const check = (who: string, writes: number, failed: number): void => {
    if (failed > 0 || writes !== boxes)
      throw new Error(`${who} of ${boxes} mailboxes: ${writes} writes, ${failed} failed`);
  };
  const apply = async (): Promise<
    Pick<ApplyPair, 'applyMs' | 'applyFirstWriteMs' | 'applyInFlight' | 'applyCpuMs'>
  > => {
    const sim = await startSim(seeded);
    try {
      const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
      await sim.stats();
      const secrets = join(dir, `mailboxes-secrets-${run}.jsonl`);
      const argv = [BIN, 'apply', file, '--auto-approve', '--concurrency', String(CONCURRENCY)];
      const applied = await wholeProcess([...argv, '--secrets-file', secrets, ...massCreateFlag()], env);
      const { writes, failed } = await sim.stats();
      check('apply', writes.count, failed);
      return {
        applyMs: applied.wallMs,
        applyFirstWriteMs: writes.firstAt - applied.startedAt,
        applyInFlight: writes.inFlight,
        applyCpuMs: applied.cpuMs,
      };
    } finally {
      await sim.close();
    }
  };
  const minimal = async (): Promise<
    Pick<ApplyPair, 'minimalMs' | 'minimalFirstWriteMs' | 'minimalInFlight' | 'minimalCpuMs'>
  > => {
    const sim = await startSim(seeded);
    try {
      await sim.stats();
      const job: MinimalJob = {
        url: sim.url,
        apiKey: BENCH_KEY,
        workers: CONCURRENCY,
        mailboxes: { clients, perClient },
      };
      const whole = await wholeProcess([await plainScript('minimal-client'), JSON.stringify(job)]);
      const result = JSON.parse(whole.stdout.trim()) as MinimalResult;
      const { writes, failed } = await sim.stats();
      check('the minimal client', writes.count, failed);
      if (result.requests !== boxes + 1) throw new Error(`the minimal client sent ${result.requests} requests`);
      return {
        minimalMs: whole.wallMs,
        minimalFirstWriteMs: writes.firstAt - whole.startedAt,
        minimalInFlight: writes.inFlight,
        minimalCpuMs: whole.cpuMs,
      };
    } finally {
      await sim.close();
    }
  };
  const [a, m] = await inTurn(run, apply, minimal);
  return { ...a, ...m };
}

/** Figure (2): apply creating the mailboxes beside the minimal client's same POSTs. */
export async function measureMailboxApply(mode: MailboxMode['apply'], dir: string): Promise<Figure[]> {
  const boxes = mode.clients * mode.perClient;
  log(
    `  apply of ${count(boxes)} mailboxes (${count(mode.clients)} clients existing) vs the minimal client, ` +
      `${LATENCY_MS} ms latency, ${CONCURRENCY} at once, ${mode.runs} pair(s)`,
  );
  const file = join(dir, `mailboxes-apply-${mode.clients}-${mode.perClient}.yaml`);
  await writeFile(file, mailboxManifest(mode.clients, mode.perClient));
  const pairs: ApplyPair[] = [];
  for (let run = 0; run < mode.runs; run++) pairs.push(await applyPair(mode, file, dir, run));
  const of = (f: (p: ApplyPair) => number): number => median(pairs.map(f));
  const wall = pairs.map((p) => p.applyMs / p.minimalMs);
  const first = pairs.map((p) => p.applyFirstWriteMs / p.minimalFirstWriteMs);
  const inFlight = pairs.map((p) => p.applyInFlight / p.minimalInFlight);
  const cpu = pairs.map((p) => p.applyCpuMs / p.minimalCpuMs);
  return [
    {
      section: 'mailboxes',
      name: `apply / minimal client, ${count(boxes)} POST /emails (${count(mode.clients)} clients existing), whole processes`,
      measured: ms(of((p) => p.applyMs)),
      reference: ms(of((p) => p.minimalMs)),
      ratio: median(wall),
      goal: 1.15,
      runs: wall,
    },
    {
      section: 'mailboxes',
      name: `  apply's time to its first POST / the minimal client's`,
      measured: ms(of((p) => p.applyFirstWriteMs)),
      reference: ms(of((p) => p.minimalFirstWriteMs)),
      ratio: median(first),
      goal: undefined,
      runs: first,
    },
    {
      section: 'mailboxes',
      name: `  POSTs in flight at the panel (mean, of ${CONCURRENCY}) / the minimal client's`,
      measured: of((p) => p.applyInFlight).toFixed(2),
      reference: of((p) => p.minimalInFlight).toFixed(2),
      ratio: median(inFlight),
      goal: undefined,
      runs: inFlight,
    },
    {
      section: 'mailboxes',
      // On a busy machine CPU waits for a core: the steadier figure beside the wall.
      name: `  CPU time (whole processes, start-up included) / the minimal client's`,
      measured: ms(of((p) => p.applyCpuMs)),
      reference: ms(of((p) => p.minimalCpuMs)),
      ratio: median(cpu),
      goal: undefined,
      runs: cpu,
    },
    {
      section: 'mailboxes',
      name: `  apply's CPU per POST (whole process)`,
      measured: `${(of((p) => p.applyCpuMs) / boxes).toFixed(2)} ms`,
      reference: '-',
      ratio: NaN,
      goal: undefined,
    },
  ];
}

/** Both figures, for bench/run.ts. */
export async function measureMailboxes(mode: MailboxMode, dir: string): Promise<Figure[]> {
  const plan = await measureMailboxPlan(mode.plan, dir);
  log(
    `  requests: ${plan.requests.with} with mailboxes, ${plan.requests.without} without (${x(plan.requests.with / plan.requests.without)})`,
  );
  return [...plan.figures, ...(await measureMailboxApply(mode.apply, dir))];
}
