/**
 * Scaling of plan (no changes) and validate at 1x, 10x, 100x sizes: plan's requests (a
 * constant), wall and engine CPU (in-process probe, modules loaded before the clock), the
 * panel's CPU, and whole-process peak RSS; validate beside `yaml.parse` of the same file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, manifestYaml, type Size } from './fixtures.js';
import { BIN, log, median, probe, startSim, wholeProcess } from './lib.js';

export interface PlanScale {
  readonly size: Size;
  readonly requests: number;
  readonly wallMs: number;
  readonly engineCpuMs: number;
  readonly panelCpuMs: number;
  readonly maxRssMb: number;
}

export interface ValidateScale {
  readonly size: Size;
  readonly wallMs: number;
  readonly yamlMs: number;
  readonly maxRssMb: number;
}

export async function measurePlanScale(size: Size, dir: string, runs: number): Promise<PlanScale> {
  log(`  plan, no changes, ${size.clients} clients`);
  const file = join(dir, `plan-${size.clients}.yaml`);
  await writeFile(file, manifestYaml(size));
  const sim = await startSim({ ...size, latencyMs: 0 });
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
      rss.push((await wholeProcess([BIN, 'plan', file], env)).maxRssMb);
    }
    return {
      size,
      requests: median(requests),
      wallMs: median(walls),
      engineCpuMs: median(cpus),
      panelCpuMs: median(panel),
      maxRssMb: median(rss),
    };
  } finally {
    await sim.close();
  }
}

export async function measureValidateScale(size: Size, dir: string, runs: number): Promise<ValidateScale> {
  log(`  validate vs yaml.parse, ${size.clients} clients`);
  const file = join(dir, `validate-${size.clients}.yaml`);
  await writeFile(file, manifestYaml(size));
  const walls: number[] = [];
  const yaml: number[] = [];
  const rss: number[] = [];
  for (let run = 0; run < runs; run++) {
    walls.push((await probe({ kind: 'cli', argv: ['validate', file] })).wallMs);
    yaml.push((await probe({ kind: 'yaml', argv: [file] })).wallMs);
    rss.push((await wholeProcess([BIN, 'validate', file])).maxRssMb);
  }
  return { size, wallMs: median(walls), yamlMs: median(yaml), maxRssMb: median(rss) };
}
