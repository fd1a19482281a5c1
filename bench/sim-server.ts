/**
 * The simulator in its own process, for benchmarks: in the engine's process it would share
 * its two cores and distort every figure. Argument: JSON `SimServerConfig`. Prints
 * `{"url": ...}` on stdout once listening, then answers each `stats` line on stdin with a
 * JSON line (requests so far, by method; its own CPU time; when the writes arrived); stops
 * when stdin closes.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type SimulatorSeed, startSimulator } from '../src/simulator/index.js';
import { BENCH_KEY, seedFor, type Size } from './fixtures.js';

export interface SimServerConfig extends Size {
  readonly latencyMs: number;
  /** Keep the state in this file (`--state`); default: none. */
  readonly statePath?: string;
  /**
   * Seed from this JSON file (a `SimulatorSeed`) instead of `seedFor` of the size: for a seed
   * with more than fixtures.ts makes (a file, as a seed of thousands of items is too long for
   * an argument).
   */
  readonly seedPath?: string;
}

export interface SimStats {
  readonly requests: number;
  readonly get: number;
  readonly post: number;
  /** PUT and DELETE. */
  readonly otherWrites: number;
  readonly failed: number;
  /** This process's CPU time (user + system) since it started, ms. */
  readonly cpuMs: number;
  /**
   * Writes (POST, PUT, DELETE) since the last `stats`: when the first arrived (epoch ms,
   * Date.now of this process), when the last was answered, and the mean number in flight
   * between the two (each counted from its arrival to its answer).
   */
  readonly writes: {
    readonly count: number;
    readonly firstAt: number;
    readonly lastAt: number;
    readonly inFlight: number;
  };
  /** The same for the zone reads (GET /dns/{id}) since the last `stats`. */
  readonly zoneReads: SimStats['writes'];
}

const config = JSON.parse(process.argv[2] ?? '{}') as SimServerConfig;

/** Arrival and end of each write since the last stats line (the latency is waited before `intercept` runs). */
let spans: [number, number][] = [];
let zoneSpans: [number, number][] = [];
const latencyMs = config.latencyMs;
const sim = await startSimulator({
  apiKey: BENCH_KEY,
  seed:
    config.seedPath === undefined
      ? seedFor(config)
      : (JSON.parse(readFileSync(config.seedPath, 'utf8')) as SimulatorSeed),
  latencyMs,
  ...(config.statePath === undefined ? {} : { statePath: config.statePath }),
  intercept: (req) => {
    if (req.method !== 'GET' || req.path.startsWith('/dns/')) {
      const now = performance.timeOrigin + performance.now();
      (req.method === 'GET' ? zoneSpans : spans).push([now - latencyMs, now]);
    }
    return undefined;
  },
});
process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);

/** When the first of `list` arrived, when the last was answered, and the mean number in flight between. */
function timing(list: readonly [number, number][]): SimStats['writes'] {
  if (list.length === 0) return { count: 0, firstAt: NaN, lastAt: NaN, inFlight: NaN };
  let firstAt = Infinity;
  let lastAt = -Infinity;
  let busy = 0;
  for (const [a, b] of list) {
    firstAt = Math.min(firstAt, a);
    lastAt = Math.max(lastAt, b);
    busy += b - a;
  }
  return { count: list.length, firstAt, lastAt, inFlight: busy / (lastAt - firstAt) };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'stats') continue;
  let get = 0;
  let post = 0;
  let otherWrites = 0;
  let failed = 0;
  for (const r of sim.requests) {
    if (r.method === 'GET') get++;
    else if (r.method === 'POST') post++;
    else otherWrites++;
    if (r.status >= 400) failed++;
  }
  const writes = timing(spans);
  const zoneReads = timing(zoneSpans);
  spans = [];
  zoneSpans = [];
  const cpu = process.cpuUsage();
  const stats: SimStats = {
    requests: sim.requests.length,
    get,
    post,
    otherWrites,
    failed,
    cpuMs: (cpu.user + cpu.system) / 1000,
    writes,
    zoneReads,
  };
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}
await sim.close();
