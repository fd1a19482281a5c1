/**
 * Apply of N new clients: peak RSS per byte read (issue 30, 7f: memory within about 10 times
 * the bytes read, on every path). The manifest is the fixtures' block YAML (two domains a
 * client, the second a subdomain of the first), the panel a fresh empty simulator for each run:
 * every client and domain is a create, each client's password generated and written ahead to a
 * secrets file. Each figure is a whole `node bundle/bin.js apply ...` under /usr/bin/time: its
 * peak RSS less the same command's on an empty manifest (start-up), over what it read: the
 * manifest's bytes and the panel's answers to every request it sent (counted in a run of its
 * own); and, second, over the manifest's bytes alone. With BENCH_BASE=<bundle/bin.js of another
 * build>, the same figures of that build beside them, the two run in turn; else the reference
 * of the second is the plan of the same manifest.
 *
 *   npm run build && node --import tsx bench/apply-memory.ts [--clients 10000] [--runs 1]
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, manifestYaml } from './fixtures.js';
import { BIN, type Figure, log, median, runAlone, startSim, timedNode } from './lib.js';

/** The build measured beside this one, when given. */
const BASE = process.env.BENCH_BASE;

/**
 * What a process reads from the panel: every socket it opens counted (`net.Socket`'s connect,
 * which undici's connections go through), the sum of their bytes read written to `file` at exit.
 * Loaded by `--import` in a run of its own, not in a run whose memory is measured.
 */
const countBytesRead = (file: string): string =>
  'data:text/javascript,' +
  encodeURIComponent(
    "import net from 'node:net'; import { writeFileSync } from 'node:fs';" +
      'const sockets = []; const connect = net.Socket.prototype.connect;' +
      'net.Socket.prototype.connect = function (...args) { sockets.push(this); return connect.apply(this, args); };' +
      `process.on('exit', () => writeFileSync(${JSON.stringify(file)}, String(sockets.reduce((n, s) => n + s.bytesRead, 0))));`,
  );

/** Peak RSS (MB) and CPU seconds of `node bin <command> file` against a fresh empty simulator. */
async function onEmptyPanel(
  bin: string,
  command: 'apply' | 'plan',
  file: string,
  dir: string,
  nodeArgs: readonly string[] = [],
) {
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
    return timedNode([...nodeArgs, bin, ...args, '--max-manifest-mb', '500'], {
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
  // Peak RSS of each run, MB.
  const now: number[] = [];
  const before: number[] = [];
  for (let run = 0; run < runs; run++) {
    // In turn, which goes first alternating: neither side always has the warmer machine.
    const sides = [
      async () => void now.push((await onEmptyPanel(BIN, 'apply', file, dir)).mb),
      ...(BASE === undefined ? [] : [async () => void before.push((await onEmptyPanel(BASE, 'apply', file, dir)).mb)]),
    ];
    for (const side of run % 2 === 0 ? sides : [...sides].reverse()) await side();
  }
  // What the apply reads besides the manifest: the panel's answers (headers and bodies), counted
  // in a run of its own; the same requests, so the same count, for the base.
  const counted = join(dir, 'bytes-read');
  await onEmptyPanel(BIN, 'apply', file, dir, ['--import', countBytesRead(counted)]);
  const answers = Number(await readFile(counted, 'utf8'));
  const read = bytes + answers;
  log(`  apply memory: the panel's answers ${(answers / 1024 / 1024).toFixed(2)} MB`);
  const perRead = (mb: number, at: number): number => ((mb - at) * 1024 * 1024) / read;
  const reference =
    BASE === undefined
      ? `plan ${perByte((await onEmptyPanel(BIN, 'plan', file, dir)).mb, startup).toFixed(1)} B/B`
      : `before ${median(before.map((mb) => perByte(mb, baseStartup))).toFixed(1)} B/B`;
  const perManifestByte = now.map((mb) => perByte(mb, startup));
  const perByteRead = now.map((mb) => perRead(mb, startup));
  return [
    {
      section: 'applymem',
      name: `apply of ${count(clients)} new clients (passwords generated): peak RSS per byte read (manifest, answers)`,
      measured: `${median(perByteRead).toFixed(1)} B/B`,
      reference:
        BASE === undefined
          ? `${(read / 1024 / 1024).toFixed(2)} MB read`
          : `before ${median(before.map((mb) => perRead(mb, baseStartup))).toFixed(1)} B/B`,
      ratio: median(perByteRead),
      goal: 10,
      runs: perByteRead,
    },
    {
      section: 'applymem',
      name: '  the same per manifest byte',
      measured: `${median(perManifestByte).toFixed(1)} B/B`,
      reference,
      ratio: median(perManifestByte),
      goal: undefined,
      runs: perManifestByte,
    },
  ];
}

// Run alone: print the figures.
if (process.argv[1]?.endsWith('apply-memory.ts') === true) await runAlone('apply-memory', 10_000, measureApplyMemory);
