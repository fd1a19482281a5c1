/**
 * Apply of N new clients: peak RSS per manifest byte (issue 30, 7f: memory within about 10
 * times the bytes read, on every path). The manifest is the fixtures' block YAML (two domains a
 * client, the second a subdomain of the first), the panel a fresh empty simulator for each run:
 * every client and domain is a create, each client's password generated and written ahead to a
 * secrets file. Each figure is a whole `node bundle/bin.js apply ...` under /usr/bin/time: its
 * peak RSS less the same command's on an empty manifest (start-up), over the manifest's bytes.
 * With BENCH_BASE=<bundle/bin.js of another build>, the same figure of that build beside it,
 * the two run in turn; else the reference is the plan of the same manifest.
 *
 *   npm run build && node --import tsx bench/apply-memory.ts [--clients 10000] [--runs 1]
 */
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, manifestYaml } from './fixtures.js';
import { BIN, type Figure, log, median, runAlone, startSim, timedNode } from './lib.js';

/** The build measured beside this one, when given. */
const BASE = process.env.BENCH_BASE;

/** Peak RSS (MB) and CPU seconds of `node bin <command> file` against a fresh empty simulator. */
async function onEmptyPanel(bin: string, command: 'apply' | 'plan', file: string, dir: string) {
  const sim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: 0 });
  const secrets = join(dir, `secrets-${String(Date.now())}.json`);
  try {
    const args =
      command === 'plan'
        ? ['plan', file]
        : [
            'apply',
            file,
            '--auto-approve',
            '--generate-passwords',
            '--secrets-file',
            secrets,
            '--max-creates',
            '1000000',
          ];
    return timedNode([bin, ...args, '--max-manifest-mb', '500'], {
      env: { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY },
      stdoutTo: join(dir, 'stdout'),
    });
  } finally {
    await sim.close();
    await rm(secrets, { force: true });
  }
}

export async function measureApplyMemory(clients: number, runs: number, dir: string): Promise<Figure[]> {
  const file = join(dir, 'apply-clients.yaml');
  await writeFile(file, manifestYaml({ clients, domainsPerClient: 2 }));
  const empty = join(dir, 'apply-empty.yaml');
  await writeFile(empty, 'version: 1\nclients: []\n');
  const bytes = (await stat(file)).size;
  const perByte = (mb: number, startup: number): number => ((mb - startup) * 1024 * 1024) / bytes;
  const startup = (await onEmptyPanel(BIN, 'apply', empty, dir)).mb;
  const baseStartup = BASE === undefined ? 0 : (await onEmptyPanel(BASE, 'apply', empty, dir)).mb;
  log(
    `  apply memory: ${count(clients)} new clients (${(bytes / 1024 / 1024).toFixed(2)} MB), start-up ` +
      `${startup.toFixed(0)} MB${BASE === undefined ? '' : `, the base's ${baseStartup.toFixed(0)} MB`}`,
  );
  const now: number[] = [];
  const before: number[] = [];
  for (let run = 0; run < runs; run++) {
    // In turn, which goes first alternating: neither side always has the warmer machine.
    const sides = [
      async () => void now.push(perByte((await onEmptyPanel(BIN, 'apply', file, dir)).mb, startup)),
      ...(BASE === undefined
        ? []
        : [async () => void before.push(perByte((await onEmptyPanel(BASE, 'apply', file, dir)).mb, baseStartup))]),
    ];
    for (const side of run % 2 === 0 ? sides : [...sides].reverse()) await side();
  }
  const reference =
    BASE === undefined
      ? `plan ${perByte((await onEmptyPanel(BIN, 'plan', file, dir)).mb, startup).toFixed(1)} B/B`
      : `before ${median(before).toFixed(1)} B/B`;
  const measured = median(now);
  return [
    {
      section: 'applymem',
      name: `apply of ${count(clients)} new clients (passwords generated): peak RSS per manifest byte`,
      measured: `${measured.toFixed(1)} B/B`,
      reference,
      ratio: measured,
      goal: 10,
      runs: now,
    },
  ];
}

// Run alone: print the figures.
if (process.argv[1]?.endsWith('apply-memory.ts') === true) await runAlone('apply-memory', 10_000, measureApplyMemory);
