/**
 * One engine measurement in a fresh process: runs the real CLI's `main()` from dist/ (the
 * compiled code users run) in-process and prints one JSON line: exit code, wall time, the
 * process's own CPU time during the run (the engine's: the panel is another process), and
 * peak RSS. Modules are imported before the clock starts: start-up is measured apart.
 *
 * Argument: JSON `ProbeRequest`. `kind: 'yaml'` times the yaml library alone parsing the file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as CliMain from '../src/cli/main.js';

export interface ProbeRequest {
  /**
   * 'cli': main(argv). 'yaml': the yaml library alone parses argv[0]. 'executor': plan argv[0]
   * against env.PROVISION_URL and run executePlan directly (a secrets file in a temporary
   * directory, no output) at concurrency argv[1], reporting what the engine saw: per-request
   * latency and requests in flight.
   */
  readonly kind: 'cli' | 'yaml' | 'executor';
  /** For 'cli': the command line; for 'yaml': [file]. */
  readonly argv: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export interface ProbeResult {
  readonly code: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssKb: number;
  /** The last lines of stderr, for a failed run. */
  readonly stderr: string;
  /** 'executor' only: median time per request as the client saw it, and mean requests in flight. */
  readonly requestMs?: number;
  readonly inFlight?: number;
}

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const request = JSON.parse(process.argv[2] ?? '{}') as ProbeRequest;

let run: () => Promise<number>;
let stderr = '';
let executor: { requestMs: number; inFlight: number } | undefined;
if (request.kind === 'executor') {
  const load = (path: string): Promise<unknown> => import(pathToFileURL(DIST + path).href);
  const { parseManifestBytes } = (await load('manifest/index.js')) as typeof import('../src/manifest/index.js');
  const { PanelClient, readLive } = (await load('panel/index.js')) as typeof import('../src/panel/index.js');
  const { panelAdapter } = (await load('apply/panel-adapter.js')) as typeof import('../src/apply/panel-adapter.js');
  const { diff } = (await load('plan/diff.js')) as typeof import('../src/plan/diff.js');
  const { executeChanges } = (await load('apply/execute.js')) as typeof import('../src/apply/execute.js');
  const { SecretsFile } = (await load('secrets/file.js')) as typeof import('../src/secrets/file.js');
  run = async () => {
    const file = request.argv[0] ?? '';
    const { desired } = parseManifestBytes(await readFile(file), file);
    if (desired === undefined) return 1;
    const latencies: number[] = [];
    let inFlight = 0;
    let sampled = 0;
    let samples = 0;
    const panel = new PanelClient({
      baseUrl: request.env?.PROVISION_URL ?? '',
      apiKey: request.env?.PROVISION_API_KEY ?? '',
      connections: Number(request.argv[1] ?? 8),
      onEvent: (event) => {
        if (event.type === 'sent' && event.method === 'POST') latencies.push(event.ms);
      },
    });
    const plan = diff(desired, await readLive(panel, { domainNames: [] }));
    // A real secrets file (flushed per record, group commit), as apply writes: its flushes are part of the executor's work.
    const dir = await mkdtemp(join(tmpdir(), 'provision-probe-'));
    const secrets = await SecretsFile.open(join(dir, 'secrets.jsonl'));
    const adapter = panelAdapter(panel, { settleTimeoutMs: 0, secrets, panelUrl: panel.baseUrl });
    const sampler = setInterval(() => {
      sampled += inFlight;
      samples++;
    }, 5);
    const outcomes = await executeChanges(
      plan,
      {
        // Counted per request when the adapter takes a slot per request, else per change.
        ...(adapter.perRequest === true ? { perRequest: true } : {}),
        apply: async (change, slot) => {
          const counted = async <T>(work: () => Promise<T>): Promise<T> => {
            inFlight++;
            try {
              return await work();
            } finally {
              inFlight--;
            }
          };
          if (adapter.perRequest !== true || slot === undefined) return counted(() => adapter.apply(change, slot));
          return adapter.apply(change, { run: (work) => slot.run(() => counted(work)) });
        },
      },
      { concurrency: Number(request.argv[1] ?? 8) },
    );
    clearInterval(sampler);
    await panel.close();
    await secrets.close();
    await rm(dir, { recursive: true, force: true });
    latencies.sort((a, b) => a - b);
    executor = {
      requestMs: latencies[latencies.length >> 1] ?? NaN,
      inFlight: samples === 0 ? NaN : sampled / samples,
    };
    return outcomes.every((o) => o.status === 'succeeded') ? 0 : 1;
  };
} else if (request.kind === 'yaml') {
  const { parse } = await import('yaml');
  run = async () => {
    parse(await readFile(request.argv[0] ?? '', 'utf8'));
    return 0;
  };
} else {
  const { main } = (await import(pathToFileURL(`${DIST}cli/main.js`).href)) as typeof CliMain;
  // The command modules main() would import lazily: loaded now, so the clock sees the work only.
  for (const module of ['cli/validate.js', 'cli/plan.js']) await import(pathToFileURL(DIST + module).href);
  const discard = { write: () => undefined, isTTY: false };
  const io = {
    stdout: discard,
    stderr: { write: (text: string) => void (stderr = (stderr + text).slice(-2000)), isTTY: false },
    env: { NO_COLOR: '1', ...request.env },
    untilStopped: () => new Promise<void>(() => undefined),
  };
  run = () => main(request.argv, io);
}

const cpu = process.cpuUsage();
const started = performance.now();
const code = await run();
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
const result: ProbeResult = {
  code,
  wallMs,
  cpuMs: (used.user + used.system) / 1000,
  maxRssKb: process.resourceUsage().maxRSS,
  stderr,
  ...executor,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
