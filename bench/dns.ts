/**
 * The DNS figure (issue 23, item 8): a converged plan of `zones` domains that manage DNS, at 20 ms
 * latency, beside a minimal client doing the same GETs at the same concurrency: both sides read
 * the zones DEFAULT_CONCURRENCY (apply's bound, src/panel/limits.ts: 4) at a time over as many
 * connections. That is the bound `provision plan` reads zones at without --concurrency, and the
 * only one the library's readLive has (it takes no bound), so the yardstick takes the plan's.
 * The panel is the simulator in its own process, seeded with `zones` clients of one domain each;
 * the Desired lists each zone's records as the panel holds them, so the plan finds no changes and
 * costs 4 + `zones` requests. Each side runs in a fresh process (bench/dns-probe.ts, plain
 * JavaScript), its modules loaded before its clock starts; runs are paired (alternating which
 * goes first) and the ratios are the pairs' medians: wall time (the goal), CPU time and peak RSS.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Desired } from '../src/manifest/types.js';
import { DEFAULT_CONCURRENCY } from '../src/panel/limits.js';
import { defaultRecords } from '../src/simulator/zones.js';
import type { DnsJob, DnsResult } from './dns-probe.js';
import { BENCH_KEY, count } from './fixtures.js';
import {
  type Figure,
  inTurn,
  LATENCY_MS,
  log,
  mb,
  median,
  ms,
  plainScript,
  ROOT,
  startSim,
  wholeProcess,
} from './lib.js';

/** bench/fixtures.ts's names: client `c<i>` with the domain `c<i>.example`. */
const domainOf = (i: number): string => `c${i.toString().padStart(6, '0')}.example`;

/** A Desired of `zones` clients, each domain's `dns` listing the simulator's default records (prune on: nothing unlisted). */
export function dnsDesired(zones: number): Desired {
  const clients = [];
  for (let i = 1; i <= zones; i++) {
    const name = domainOf(i);
    clients.push({
      username: name.slice(0, -'.example'.length),
      state: 'present' as const,
      plan: 'Basic',
      email: `${name.slice(0, -'.example'.length)}@example.com`,
      domains: [
        {
          name,
          input: name,
          state: 'present' as const,
          dns: { records: defaultRecords(name, '@'), prune: true, keep: [] },
        },
      ],
    });
  }
  return { file: 'bench-dns.json', clients, prune: { domains: false, clients: false, keep: [] } };
}

/** A side's run, with its zone reads as the panel saw them. */
interface Side extends DnsResult {
  readonly zoneSpanMs: number;
  readonly zoneInFlight: number;
  /** From the clock's start to the first zone read's arrival at the panel (the ping and the lists). */
  readonly beforeZonesMs: number;
  /** Of beforeZonesMs: from the clock's start until the ping and the three lists were answered and read. */
  readonly listsMs: number;
  /** From the last zone read's answer to the clock's stop (diff, render, close). */
  readonly afterZonesMs: number;
}

async function side(job: DnsJob): Promise<DnsResult> {
  const whole = await wholeProcess([await plainScript('dns-probe'), JSON.stringify(job)]);
  return JSON.parse(whole.stdout.trim()) as DnsResult;
}

/** Zone reads in flight at once, and connections, on both sides: apply's bound, as plan reads them. */
const BOUND = DEFAULT_CONCURRENCY;

export async function measureDns(zones: number, dir: string, runs: number): Promise<Figure[]> {
  log(
    `  plan of ${count(zones)} zones (no changes) vs the minimal client's GETs, ` +
      `${BOUND} at once on both sides (apply's DEFAULT_CONCURRENCY), ${runs} pair(s)`,
  );
  const input = join(dir, `dns-${zones}.json`);
  const desired = dnsDesired(zones);
  await writeFile(input, JSON.stringify({ desired, zones: desired.clients.map((c) => c.domains[0]?.name) }));
  const sim = await startSim({ clients: zones, domainsPerClient: 1, latencyMs: LATENCY_MS });
  const plans: Side[] = [];
  const minimals: Side[] = [];
  try {
    const job = { url: sim.url, apiKey: BENCH_KEY, concurrency: BOUND, input };
    const expected = 4 + zones;
    const one = async (mode: DnsJob['mode']): Promise<Side> => {
      const before = await sim.stats();
      const result = await side({
        ...job,
        mode,
        ...(mode === 'plan' ? { library: join(ROOT, 'dist/api/index.js') } : {}),
      });
      const after = await sim.stats();
      const sent = after.requests - before.requests;
      if (sent !== expected || result.requests !== expected || after.failed > before.failed)
        throw new Error(`dns ${mode}: ${sent} requests at the panel, ${result.requests} sent, expected ${expected}`);
      if (mode === 'plan' && result.changes !== 0)
        throw new Error(`dns plan: ${result.changes} changes, expected none`);
      if (mode === 'minimal' && result.zones !== zones) throw new Error(`dns minimal: ${result.zones} zones read`);
      const { zoneReads } = after;
      return {
        ...result,
        zoneSpanMs: zoneReads.lastAt - zoneReads.firstAt,
        zoneInFlight: zoneReads.inFlight,
        beforeZonesMs: zoneReads.firstAt - result.startedAt,
        listsMs: result.listsReadAt - result.startedAt,
        afterZonesMs: result.endedAt - zoneReads.lastAt,
      };
    };
    for (let run = 0; run < runs; run++) {
      const [plan, minimal] = await inTurn(
        run,
        () => one('plan'),
        () => one('minimal'),
      );
      plans.push(plan);
      minimals.push(minimal);
    }
  } finally {
    await sim.close();
  }
  const pair = (f: (r: Side) => number): number[] => plans.map((p, i) => f(p) / f(minimals[i] as Side));
  const at = (list: Side[], f: (r: Side) => number): number => median(list.map(f));
  const walls = pair((r) => r.wallMs);
  const cpus = pair((r) => r.cpuMs);
  const rss = pair((r) => r.maxRssMb);
  const spans = pair((r) => r.zoneSpanMs);
  const inFlight = pair((r) => r.zoneInFlight);
  const size = `${count(zones)} zones (${count(4 + zones)} GETs), ${LATENCY_MS} ms latency, ${BOUND} at once`;
  const gap = (r: Side): number => r.beforeZonesMs - r.listsMs;
  return [
    {
      section: 'dns',
      name: `plan (library API, no changes) / minimal client's same GETs, ${size}`,
      measured: ms(at(plans, (r) => r.wallMs)),
      reference: ms(at(minimals, (r) => r.wallMs)),
      ratio: median(walls),
      goal: 1.15,
      runs: walls,
    },
    {
      section: 'dns',
      name: `  zone reads at the panel, first arrival to last answer`,
      measured: ms(at(plans, (r) => r.zoneSpanMs)),
      reference: ms(at(minimals, (r) => r.zoneSpanMs)),
      ratio: median(spans),
      goal: undefined,
      runs: spans,
    },
    {
      section: 'dns',
      name: `  before the first zone read (ping, lists) + after the last (diff, render, close)`,
      measured: `${ms(at(plans, (r) => r.beforeZonesMs))} + ${ms(at(plans, (r) => r.afterZonesMs))}`,
      reference: `${ms(at(minimals, (r) => r.beforeZonesMs))} + ${ms(at(minimals, (r) => r.afterZonesMs))}`,
      ratio: median(pair((r) => r.beforeZonesMs + r.afterZonesMs)),
      goal: undefined,
      runs: pair((r) => r.beforeZonesMs + r.afterZonesMs),
    },
    {
      section: 'dns',
      name: `    of which: ping and lists answered and read + from then to the first zone read's arrival`,
      measured: `${ms(at(plans, (r) => r.listsMs))} + ${ms(at(plans, gap))}`,
      reference: `${ms(at(minimals, (r) => r.listsMs))} + ${ms(at(minimals, gap))}`,
      ratio: median(pair((r) => r.beforeZonesMs)),
      goal: undefined,
      runs: pair((r) => r.beforeZonesMs),
    },
    {
      section: 'dns',
      name: `  zone GETs in flight at the panel (mean, of ${BOUND})`,
      measured: at(plans, (r) => r.zoneInFlight).toFixed(2),
      reference: at(minimals, (r) => r.zoneInFlight).toFixed(2),
      ratio: median(inFlight),
      goal: undefined,
      runs: inFlight,
    },
    {
      section: 'dns',
      name: `  CPU time of the work (clock started after the modules loaded)`,
      measured: ms(at(plans, (r) => r.cpuMs)),
      reference: ms(at(minimals, (r) => r.cpuMs)),
      ratio: median(cpus),
      goal: undefined,
      runs: cpus,
    },
    {
      section: 'dns',
      name: `  peak RSS (whole process)`,
      measured: mb(at(plans, (r) => r.maxRssMb)),
      reference: mb(at(minimals, (r) => r.maxRssMb)),
      ratio: median(rss),
      goal: undefined,
      runs: rss,
    },
  ];
}
