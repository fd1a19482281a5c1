/**
 * One side of the DNS figure (bench/dns.ts) in a fresh process, as plain JavaScript (bench/lib.ts
 * `plainScript`: no TypeScript loader in the process, so both sides' memory compares):
 *
 * - `plan`: the library API from dist/ (what `import ... from '@panel-provision/cli'` loads):
 *   connectPanel with `concurrency` connections, readLive of a Desired whose domains manage DNS
 *   (one GET /dns/{id} each, read at apply's bound DEFAULT_CONCURRENCY: the library's readLive
 *   takes no bound, so bench/dns.ts sets `concurrency` to that same number), diff, planView and
 *   renderPlanText, panel.close;
 * - `minimal`: the least a program can do for the same reads: undici's `request` through one
 *   Agent with `concurrency` connections; GET /ping, then /hosting-plans, /clients and /domains
 *   at once, then GET /dns/{id} of each domain named, `concurrency` workers each taking the
 *   next; every answer parsed as JSON.
 *
 * Modules (the library, undici's parts it loads at its first request) are loaded before the
 * clock starts: start-up is measured apart (the startup section). Prints one JSON line
 * (DnsResult): wall and CPU time of the work, the process's peak RSS, and what it read.
 *
 *   node dns-probe.mjs '<DnsJob JSON>'
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as Api from '../src/api/index.js';

export interface DnsJob {
  readonly mode: 'plan' | 'minimal';
  readonly url: string;
  readonly apiKey: string;
  /** Connections, and zone reads at once (minimal's workers; plan's is readLive's own bound). */
  readonly concurrency: number;
  /** A JSON file: `{desired, zones}`, the Desired planned (plan) and the domains whose zones are read (minimal). */
  readonly input: string;
  /** plan: the library's entry, dist/api/index.js (absolute). */
  readonly library?: string;
}

export interface DnsResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssMb: number;
  /** When the clock started and stopped, epoch ms (the simulator stamps the zone reads with the same clock). */
  readonly startedAt: number;
  readonly endedAt: number;
  /** When the last of the reads before the zones (ping, the three lists) was answered and read, epoch ms. */
  readonly listsReadAt: number;
  /** Requests this side sent. */
  readonly requests: number;
  /** Zones read (minimal), or changes planned (plan: 0 when converged). */
  readonly zones?: number;
  readonly changes?: number;
}

type Work = Omit<DnsResult, 'wallMs' | 'cpuMs' | 'maxRssMb' | 'startedAt' | 'endedAt'>;

/** Now, epoch ms on the clock the simulator stamps with. */
const now = (): number => performance.timeOrigin + performance.now();

/** The undici files the panel client requires at its first request (src/panel/transport.ts), loaded ahead. */
const UNDICI_PARTS = [
  'undici/lib/dispatcher/dispatcher.js',
  'undici/lib/api/api-request.js',
  'undici/lib/api/api-connect.js',
  'undici/lib/dispatcher/agent.js',
  'undici/lib/dispatcher/pool.js',
  'undici/lib/dispatcher/proxy-agent.js',
];

async function plan(job: DnsJob): Promise<() => Promise<Work>> {
  const library = job.library ?? '';
  const api = (await import(pathToFileURL(library).href)) as typeof Api;
  const require = createRequire(library);
  for (const part of UNDICI_PARTS) require(part);
  const { desired } = JSON.parse(await readFile(job.input, 'utf8')) as { desired: Api.Desired };
  return async () => {
    let requests = 0;
    let listsReadAt = NaN;
    let zoneSeen = false;
    const panel = api.connectPanel({
      url: job.url,
      apiKey: job.apiKey,
      connections: job.concurrency,
      // Told after each answer is read (a list's records scanned): the last before a zone's is the lists'.
      onRequest: ({ path }) => {
        requests++;
        if (path.includes('/dns/')) zoneSeen = true;
        else if (!zoneSeen) listsReadAt = now();
      },
    });
    try {
      const live = await api.readLive(panel, desired);
      const planned = api.diff(desired, live);
      api.renderPlanText(
        api.planView(planned, {
          panelUrl: panel.baseUrl,
          manifest: { file: desired.file, desired, sha256: '0'.repeat(64) },
          live,
        }),
      );
      return { requests, changes: planned.changes.length, listsReadAt };
    } finally {
      await panel.close();
    }
  };
}

async function minimal(job: DnsJob): Promise<() => Promise<Work>> {
  const { Agent, request } = await import('undici');
  const { zones } = JSON.parse(await readFile(job.input, 'utf8')) as { zones: string[] };
  return async () => {
    const agent = new Agent({ connections: job.concurrency });
    let requests = 0;
    const get = async (path: string): Promise<unknown> => {
      requests++;
      const answer = await request(`${job.url}${path}`, {
        dispatcher: agent,
        headers: { 'x-api-key': job.apiKey, accept: 'application/json' },
      });
      const text = await answer.body.text();
      if (answer.statusCode !== 200) throw new Error(`GET ${path}: ${answer.statusCode} ${text.slice(0, 200)}`);
      return JSON.parse(text);
    };
    await get('/ping');
    const [, , domains] = (await Promise.all([get('/hosting-plans'), get('/clients'), get('/domains')])) as [
      unknown,
      unknown,
      { id: number; domain: string }[],
    ];
    const listsReadAt = now();
    const wanted = new Set(zones);
    const ids = domains.filter((d) => wanted.has(d.domain)).map((d) => d.id);
    let next = 0;
    let read = 0;
    const worker = async (): Promise<void> => {
      while (next < ids.length) {
        const id = ids[next++];
        if (id !== undefined && (await get(`/dns/${id}`)) !== undefined) read++;
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, worker));
    await agent.close();
    return { requests, zones: read, listsReadAt };
  };
}

const job = JSON.parse(process.argv[2] ?? '{}') as DnsJob;
const work = job.mode === 'plan' ? await plan(job) : await minimal(job);
const cpu = process.cpuUsage();
const started = now();
const done = await work();
const ended = now();
const wallMs = ended - started;
const used = process.cpuUsage(cpu);
const result: DnsResult = {
  ...done,
  wallMs,
  startedAt: started,
  endedAt: ended,
  cpuMs: (used.user + used.system) / 1000,
  maxRssMb: process.resourceUsage().maxRSS / 1024,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
