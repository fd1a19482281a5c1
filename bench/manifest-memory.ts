/**
 * Peak memory per byte of manifest read, for each path a manifest takes through the reader
 * (src/manifest/load.ts, chunked.ts, chunked-json.ts, simple-items.ts) and each command that
 * reads one: the goal is at most about 10 bytes of memory per byte read (issue 30, 7f). Each
 * figure is a whole `node bundle/bin.js ...` process under /usr/bin/time: its peak RSS less the
 * same command's on an empty manifest (start-up), over the file's bytes; beside it the yardstick,
 * a process that only reads the file and decodes it (its peak RSS less an idle node's, per byte).
 * Both are measured in the same run; no absolute figure is compared with anything.
 *
 * Shapes, each of `clients` clients as users write them: plain block YAML (the fixtures' shape),
 * the same opening with `---`, quoted strings, one flow mapping per client, the whole manifest as
 * a YAML flow mapping, JSON (indented, compact), a scalar anchor used by some clients, a merge
 * key in every client, DNS records as flow mappings (ten a domain), one client holding every
 * domain, one client of `clients` domains each with a one-record zone written on one line, one
 * domain holding a zone of `clients` x 5 records (A records; CNAMEs, whose values are long enough
 * to be slices of the text), a manifest of errors, and a
 * directory of 20 parts. Then plan (no changes, the simulator seeded with the manifest: its
 * lists are read too) and export --into --check of the block shape, over the manifest's bytes
 * and over all the bytes they read (the manifest's and the panel's lists').
 *
 *   npm run build && node --import tsx bench/manifest-memory.ts [--clients 20000] [--runs 1]
 *
 * `BENCH_SHAPE=zone` measures only the shapes whose name holds that text (and not plan or export).
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, manifestYaml } from './fixtures.js';
import { BIN, type Figure, log, median, runAlone, startSim, timedNode } from './lib.js';

const u = (i: number): string => `c${String(i).padStart(6, '0')}`;

/** Manifest text of each shape, built as strings (generating must cost less than reading). */
const SHAPES: Readonly<Record<string, (n: number) => string>> = {
  'block YAML': (n) => manifestYaml({ clients: n, domainsPerClient: 2 }),
  'block YAML opening with ---': (n) => `---\n${manifestYaml({ clients: n, domainsPerClient: 2 })}`,
  'quoted strings': (n) =>
    lines(n, 'version: 1\nclients:\n', (i) => {
      const c = u(i);
      return `  - username: "${c}"\n    plan: "Basic"\n    email: "${c}@example.com"\n    domains:\n      - "${c}.example"\n`;
    }),
  'a flow mapping per client': (n) =>
    lines(n, 'version: 1\nclients:\n', (i) => {
      const c = u(i);
      return `  - {username: ${c}, plan: Basic, email: ${c}@example.com, domains: [${c}.example, s1.${c}.example]}\n`;
    }),
  'the whole manifest as a flow mapping': (n) =>
    `${lines(n, '{version: 1, clients: [\n', (i) => `  {username: ${u(i)}, domains: [${u(i)}.example]},\n`)}]}\n`,
  'JSON, indented': (n) => `${JSON.stringify(jsonData(n), null, 2)}\n`,
  'JSON, compact': (n) => `${JSON.stringify(jsonData(n))}\n`,
  'an anchor used by clients': (n) =>
    lines(n, 'version: 1\nclients:\n', (i) => {
      const plan = i === 1 ? '&plan Basic' : i <= 50 ? '*plan' : 'Basic';
      return `  - username: ${u(i)}\n    plan: ${plan}\n    domains:\n      - ${u(i)}.example\n`;
    }),
  'a merge key in every client': (n) =>
    lines(n, 'version: 1\nx-defaults: &d\n  plan: Basic\n  language: de\nclients:\n', (i) => {
      return `  - <<: *d\n    username: ${u(i)}\n    domains:\n      - ${u(i)}.example\n`;
    }),
  'DNS records as flow mappings, 10 a domain': (n) =>
    lines(Math.ceil(n / 5), 'version: 1\nclients:\n', (i) => {
      const records = Array.from(
        { length: 10 },
        (_, r) => `            - {host: h${r}, type: A, value: 192.0.2.${r + 1}}\n`,
      ).join('');
      return `  - username: ${u(i)}\n    domains:\n      - name: ${u(i)}.example\n        dns:\n          records:\n${records}`;
    }),
  'one client with every domain': (n) =>
    lines(n * 2, 'version: 1\nclients:\n  - username: big\n    domains:\n', (i) => `      - d${i}.example\n`),
  'one client, each domain with a zone on one line': (n) =>
    lines(
      n,
      'version: 1\nclients:\n  - username: big\n    domains:\n',
      (i) => `      - name: d${i}.example\n        dns:\n          records: [{host: www, type: A, value: 192.0.2.1}]\n`,
    ),
  'one domain with a zone of N x 5 records': (n) =>
    lines(
      n * 5,
      'version: 1\nclients:\n  - username: big\n    domains:\n      - name: big.example\n        dns:\n          records:\n',
      (r) => `            - {host: h${r}, type: A, value: 192.0.2.${(r % 250) + 1}}\n`,
    ),
  'one domain with a zone of N x 5 CNAMEs': (n) =>
    lines(
      n * 5,
      'version: 1\nclients:\n  - username: big\n    domains:\n      - name: big.example\n        dns:\n          records:\n',
      (r) => `            - {host: h${r}, type: CNAME, value: h${r}.cdn.example.net.}\n`,
    ),
  'errors in every client': (n) =>
    lines(n, 'version: 1\nclients:\n', (i) => `  - username: ${u(i)}\n    email: not-an-email-${i}\n`),
};

function lines(n: number, head: string, item: (i: number) => string): string {
  const parts = [head];
  for (let i = 1; i <= n; i++) parts.push(item(i));
  return parts.join('');
}

function jsonData(n: number): unknown {
  const clients = [];
  for (let i = 1; i <= n; i++)
    clients.push({ username: u(i), plan: 'Basic', email: `${u(i)}@example.com`, domains: [`${u(i)}.example`] });
  return { version: 1, clients };
}

/** Peak RSS (MB) of `node ...argv`, which must exit with one of `codes` (a manifest of errors exits 1). */
function peakRss(argv: readonly string[], env: Readonly<Record<string, string>> = {}, codes = [0]): number {
  return timedNode(argv, { env, codes }).mb;
}

const READ_ALONE = 'new TextDecoder().decode(require("node:fs").readFileSync(process.argv[1]))';

/** A figure: memory per byte read of a command beside the read alone's, medians of `runs`. */
function perByte(
  name: string,
  bytes: number,
  runs: number,
  command: () => number,
  startup: number,
  read: () => number,
  idle: number,
): Figure {
  const measured = median(Array.from({ length: runs }, () => ((command() - startup) * 1024 * 1024) / bytes));
  const reference = median(Array.from({ length: runs }, () => ((read() - idle) * 1024 * 1024) / bytes));
  return {
    section: 'manifest',
    name: `${name} (${(bytes / 1024 / 1024).toFixed(1)} MB)`,
    measured: `${measured.toFixed(1)} B/B`,
    reference: `${reference.toFixed(1)} B/B`,
    ratio: measured,
    goal: 10,
  };
}

export async function measureManifestMemory(clients: number, runs: number, dir: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  const empty = join(dir, 'empty.yaml');
  await writeFile(empty, 'version: 1\nclients: []\n');
  const idle = median(Array.from({ length: runs }, () => peakRss(['-e', '0'])));
  const startup = median(Array.from({ length: runs }, () => peakRss([BIN, 'validate', empty])));
  log(`  manifest memory: ${count(clients)} clients a shape; start-up ${startup.toFixed(0)} MB`);
  const only = process.env.BENCH_SHAPE;
  for (const [shape, text] of Object.entries(SHAPES)) {
    if (only !== undefined && !shape.includes(only)) continue;
    const file = join(dir, `shape-${Object.keys(SHAPES).indexOf(shape)}.yaml`);
    await writeFile(file, text(clients));
    const { size } = await stat(file);
    const read = (): number => peakRss(['-e', READ_ALONE, file]);
    const codes = shape.startsWith('errors') ? [1] : [0];
    const validate = (): number => peakRss([BIN, 'validate', file, '--max-manifest-mb', '500'], {}, codes);
    figures.push(perByte(`validate, ${shape}`, size, runs, validate, startup, read, idle));
  }
  if (only === undefined) figures.push(...(await partsAndCommands(clients, runs, dir, { idle, startup, empty })));
  return figures;
}

/** A directory of 20 parts (validate), then plan and export --into --check of the block shape. */
async function partsAndCommands(
  clients: number,
  runs: number,
  dir: string,
  base: { idle: number; startup: number; empty: string },
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const size = { clients, domainsPerClient: 2 };
  const text = manifestYaml(size);
  const file = join(dir, 'block.yaml');
  await writeFile(file, text);
  const bytes = (await stat(file)).size;
  const read = (): number => peakRss(['-e', READ_ALONE, file]);
  const parts = join(dir, 'parts');
  await mkdir(parts, { recursive: true });
  const items = text.slice('version: 1\nclients:\n'.length).split(/(?=^ {2}- username: )/m);
  for (let p = 0; p < 20; p++) {
    const share = items.slice(Math.floor((p * items.length) / 20), Math.floor(((p + 1) * items.length) / 20));
    await writeFile(join(parts, `part-${String(p).padStart(2, '0')}.yaml`), `version: 1\nclients:\n${share.join('')}`);
  }
  const validateDir = (): number => peakRss([BIN, 'validate', parts]);
  figures.push(perByte('validate, a directory of 20 parts', bytes, runs, validateDir, base.startup, read, base.idle));
  const sim = await startSim({ ...size, latencyMs: 0 });
  try {
    const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
    const planOf = (path: string) => (): number => peakRss([BIN, 'plan', path], env);
    const emptySim = await startSim({ clients: 0, domainsPerClient: 0, latencyMs: 0 });
    const planStartup = await (async () => {
      try {
        return median(
          Array.from({ length: runs }, () =>
            peakRss([BIN, 'plan', base.empty], { PROVISION_URL: emptySim.url, PROVISION_API_KEY: BENCH_KEY }),
          ),
        );
      } finally {
        await emptySim.close();
      }
    })();
    figures.push(
      perByte('plan, block YAML (and the panel lists)', bytes, runs, planOf(file), planStartup, read, base.idle),
    );
    const into = (): number => peakRss([BIN, 'export', '--into', file, '--check'], env, [0, 2]);
    figures.push(perByte('export --into --check, block YAML', bytes, runs, into, planStartup, read, base.idle));
    // The bytes read by plan and export are the manifest's and the panel's answers (its lists).
    const answers = await panelBytes(sim.url);
    const both = bytes + answers;
    log(`  the panel's lists: ${(answers / 1024 / 1024).toFixed(1)} MB`);
    figures.push(
      perByte('plan, per byte of manifest and panel lists', both, runs, planOf(file), planStartup, read, base.idle),
    );
    figures.push(perByte('export --into --check, the same', both, runs, into, planStartup, read, base.idle));
  } finally {
    await sim.close();
  }
  return figures;
}

/** The bytes of the lists plan reads from the panel (clients, domains, hosting plans). */
async function panelBytes(url: string): Promise<number> {
  const base = url.replace(/\/+$/, '').endsWith('/api/v2')
    ? url.replace(/\/+$/, '')
    : `${url.replace(/\/+$/, '')}/api/v2`;
  let total = 0;
  for (const path of ['/clients', '/domains', '/hosting-plans']) {
    const answer = await fetch(`${base}${path}`, { headers: { 'X-API-Key': BENCH_KEY } });
    if (!answer.ok) throw new Error(`GET ${path} answered ${String(answer.status)}`);
    total += (await answer.arrayBuffer()).byteLength;
  }
  return total;
}

// Run alone: print the figures.
if (process.argv[1]?.endsWith('manifest-memory.ts') === true)
  await runAlone(
    'manifest-memory',
    20_000,
    measureManifestMemory,
    (f) => `${f.name.padEnd(70)} ${f.measured.padStart(10)}  read alone ${f.reference}`,
  );
