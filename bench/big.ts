/**
 * The large panel: `clients` clients with a domain and a subdomain each, in one simulator (no
 * latency). plan of the matching manifest (no changes): peak RSS beside one process doing
 * only `yaml.parse` of the manifest plus `JSON.parse` of the panel's two lists (fetched once
 * beforehand and read from files), all held at once. export of the panel: wall and peak RSS
 * beside one process that fetches the two lists, `JSON.parse`s them and dumps the manifest's
 * shape with `yaml.stringify`. Whole processes under /usr/bin/time, interleaved run by run.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, manifestYaml } from './fixtures.js';
import { BIN, type Figure, log, mb, median, ms, startSim, wholeProcess } from './lib.js';

/** yaml.parse of the manifest and JSON.parse of both lists, all alive at the end. */
const parseAll = (manifest: string, clients: string, domains: string): string => `
  import { parse } from 'yaml';
  import { readFileSync } from 'node:fs';
  globalThis.kept = [parse(readFileSync(${JSON.stringify(manifest)}, 'utf8')), JSON.parse(readFileSync(${JSON.stringify(clients)}, 'utf8')), JSON.parse(readFileSync(${JSON.stringify(domains)}, 'utf8'))];`;

/** What export does at the least: the two lists over HTTP, parsed, dumped as the manifest's shape. */
const dumpAll = (url: string, out: string): string => `
  import { stringify } from 'yaml';
  import { writeFileSync } from 'node:fs';
  const get = async (path) => (await fetch(${JSON.stringify(url)} + path, { headers: { 'x-api-key': process.env.PROVISION_API_KEY } })).json();
  const [plans, clients, domains] = await Promise.all([get('/hosting-plans'), get('/clients'), get('/domains')]);
  const planName = new Map(plans.map((p) => [p.id, p.name]));
  const byUser = new Map();
  for (const d of domains) (byUser.get(d.id_user) ?? byUser.set(d.id_user, []).get(d.id_user)).push(d.domain);
  const manifest = { version: 1, clients: clients.map((c) => ({ username: c.username, plan: planName.get(c.id_hosting_plan), email: c.email, domains: byUser.get(c.id) ?? [] })) };
  writeFileSync(${JSON.stringify(out)}, stringify(manifest));`;

export async function measureBig(
  clients: number,
  dir: string,
  runs: number,
  which: { memory: boolean; export: boolean },
): Promise<Figure[]> {
  log(`  ${count(clients)} clients (${count(clients * 3)} resources): seeding the simulator`);
  const manifest = join(dir, `big-${clients}.yaml`);
  await writeFile(manifest, manifestYaml({ clients, domainsPerClient: 2 }));
  const sim = await startSim({ clients, domainsPerClient: 2, latencyMs: 0 });
  const figures: Figure[] = [];
  try {
    const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
    const lists = { clients: join(dir, 'clients.json'), domains: join(dir, 'domains.json') };
    for (const [name, path] of Object.entries(lists)) {
      const answer = await fetch(`${sim.url}/${name}`, { headers: { 'x-api-key': BENCH_KEY } });
      await writeFile(path, await answer.text());
    }
    const plan: { rss: number[]; wall: number[] } = { rss: [], wall: [] };
    const parsed: number[] = [];
    const exported: { rss: number[]; wall: number[] } = { rss: [], wall: [] };
    const dumped: { rss: number[]; wall: number[] } = { rss: [], wall: [] };
    for (let run = 0; run < runs; run++) {
      if (which.memory) {
        log(`  plan at ${count(clients)} clients, run ${run + 1}`);
        const p = await wholeProcess([BIN, 'plan', manifest], env);
        plan.rss.push(p.maxRssMb);
        plan.wall.push(p.wallMs);
        parsed.push(
          (await wholeProcess(['--input-type=module', '-e', parseAll(manifest, lists.clients, lists.domains)]))
            .maxRssMb,
        );
      }
      if (which.export) {
        log(`  export of ${count(clients)} clients, run ${run + 1}`);
        const e = await wholeProcess([BIN, 'export', '--out', join(dir, 'exported.yaml')], env);
        exported.rss.push(e.maxRssMb);
        exported.wall.push(e.wallMs);
        const d = await wholeProcess(['--input-type=module', '-e', dumpAll(sim.url, join(dir, 'dumped.yaml'))], env);
        dumped.rss.push(d.maxRssMb);
        dumped.wall.push(d.wallMs);
      }
    }
    if (which.memory) {
      const ratios = plan.rss.map((r, i) => r / (parsed[i] ?? NaN));
      figures.push({
        section: 'memory',
        name: `plan at ${count(clients)} clients (no changes): peak RSS / yaml.parse + JSON.parse of the same data`,
        measured: `${mb(median(plan.rss))} (wall ${ms(median(plan.wall))})`,
        reference: mb(median(parsed)),
        ratio: median(ratios),
        goal: 0.5,
        runs: ratios,
      });
    }
    if (which.export) {
      const walls = exported.wall.map((w, i) => w / (dumped.wall[i] ?? NaN));
      const rss = exported.rss.map((r, i) => r / (dumped.rss[i] ?? NaN));
      figures.push({
        section: 'export',
        name: `export of ${count(clients)} clients: wall / lists fetched + JSON.parse + yaml.stringify`,
        measured: ms(median(exported.wall)),
        reference: ms(median(dumped.wall)),
        ratio: median(walls),
        goal: undefined,
        runs: walls,
      });
      figures.push({
        section: 'export',
        name: '  the same: peak RSS',
        measured: mb(median(exported.rss)),
        reference: mb(median(dumped.rss)),
        ratio: median(rss),
        goal: undefined,
        runs: rss,
      });
    }
  } finally {
    await sim.close();
  }
  return figures;
}
