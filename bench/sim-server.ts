/**
 * The simulator in its own process, for benchmarks: in the engine's process it would share
 * its two cores and distort every figure. Argument: JSON `SimServerConfig`. Prints
 * `{"url": ...}` on stdout once listening, then answers each `stats` line on stdin with a
 * JSON line (requests so far, by method; its own CPU time); stops when stdin closes.
 */
import { createInterface } from 'node:readline';
import { startSimulator } from '../src/simulator/index.js';
import { BENCH_KEY, seedFor, type Size } from './fixtures.js';

export interface SimServerConfig extends Size {
  readonly latencyMs: number;
}

export interface SimStats {
  readonly requests: number;
  readonly get: number;
  readonly post: number;
  readonly failed: number;
  /** This process's CPU time (user + system) since it started, ms. */
  readonly cpuMs: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as SimServerConfig;
const sim = await startSimulator({ apiKey: BENCH_KEY, seed: seedFor(config), latencyMs: config.latencyMs });
process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'stats') continue;
  let get = 0;
  let post = 0;
  let failed = 0;
  for (const r of sim.requests) {
    if (r.method === 'GET') get++;
    else if (r.method === 'POST') post++;
    if (r.status >= 400) failed++;
  }
  const cpu = process.cpuUsage();
  const stats: SimStats = { requests: sim.requests.length, get, post, failed, cpuMs: (cpu.user + cpu.system) / 1000 };
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}
await sim.close();
