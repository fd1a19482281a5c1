/**
 * Manifest directories and scoped runs (src/manifest/parts.ts, plan's --clients): no cost of
 * either grows faster than the work. Each side is a whole `node bundle/bin.js ...` process
 * under /usr/bin/time (wall, CPU, peak RSS), as the user runs it; the sides of a figure are
 * measured side by side in one run, round by round (the order rotated every round), and each
 * ratio is the median of the rounds' ratios.
 *
 * - validate: the manifest of `validate` clients (bench/fixtures.ts) as one file, beside the
 *   same clients split into 20 parts, 500 parts, and one part per client, of a directory (each
 *   part is read by the chunked reader on its own, then the parts are checked across); and at
 *   `growth` clients in parts of 20 clients, as the 500 parts, beside its file. With parts of a
 *   constant size the work grows with the clients: the directory's ratio to the file must not
 *   grow with them (the growth row: a cost per part that grows with the clients is N^2).
 * - plan, no changes: the manifest of `plan` clients as 20 parts beside it as one file, one
 *   simulator (latency 0) seeded with the manifest's clients.
 * - scoped plan: `plan FILE --clients c000001` beside `plan FILE` at `scoped` clients: the same
 *   four list GETs (counted at the panel); the diff covers one client instead of all.
 *
 * Every run must succeed with what it should print (valid, with the client count; no changes,
 * --detailed-exitcode exit 0) and each plan must send exactly 4 requests, or the section fails.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_KEY, count, manifestYaml, type Size } from './fixtures.js';
import { BIN, type Figure, log, mb, median, ms, startSim, type Whole, wholeProcess } from './lib.js';

export interface PartsMode {
  /** Clients of the validate figures (100x: 10,000). */
  readonly validate: number;
  /** Clients of plan DIR vs plan FILE (10x: 1,000). */
  readonly plan: number;
  /** Clients of validate's growth row, in parts of 20 clients as the 500 parts of `validate` (1000x: 100,000). */
  readonly growth: number;
  /** Clients of the scoped plan (100x: 10,000). */
  readonly scoped: number;
  /** Rounds of each comparison. */
  readonly runs: number;
}

const HEAD = 'version: 1\nclients:\n';
/** The plan's four list GETs: ping, hosting plans, clients, domains. */
const PLAN_REQUESTS = 4;
/** The one client a scoped plan names (bench/fixtures.ts's first username). */
const SCOPED_CLIENT = 'c000001';

/**
 * The manifest of `size` as `parts` files of a directory (`part-0001.yaml`, ... in name order),
 * each `version: 1` and an equal share of the clients, cut from the one file's own text so both
 * hold the same bytes but for the heads.
 */
async function writeParts(size: Size, parts: number, path: string): Promise<void> {
  const text = manifestYaml(size);
  if (!text.startsWith(HEAD)) throw new Error('bench/fixtures.ts manifestYaml changed its head');
  const items = text.slice(HEAD.length).split(/(?=^ {2}- username: )/m);
  if (items.length !== size.clients) throw new Error(`split ${items.length} clients, expected ${size.clients}`);
  await mkdir(path, { recursive: true });
  const width = String(parts).length + 1;
  for (let p = 0; p < parts; p++) {
    const from = Math.floor((p * items.length) / parts);
    const to = Math.floor(((p + 1) * items.length) / parts);
    const body = from === to ? 'clients: []\n' : `clients:\n${items.slice(from, to).join('')}`;
    await writeFile(join(path, `part-${String(p + 1).padStart(width, '0')}.yaml`), `version: 1\n${body}`);
  }
}

/** One side's whole-process runs, one a round. */
interface Side {
  readonly runs: Whole[];
}

/** Runs each side once a round, `runs` times, the order rotated every round (which goes first too). */
async function rounds(sides: readonly (() => Promise<Whole>)[], runs: number): Promise<Side[]> {
  const out = sides.map(() => ({ runs: [] as Whole[] }));
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < sides.length; k++) {
      const i = (round + k) % sides.length;
      const side = sides[i];
      const into = out[i];
      if (side === undefined || into === undefined) continue;
      into.runs.push(await side());
    }
  }
  return out;
}

const ratios = (a: Side, b: Side, f: (w: Whole) => number): number[] =>
  a.runs.map((w, i) => {
    const y = b.runs[i];
    return y === undefined ? NaN : f(w) / f(y);
  });
const at = (s: Side, f: (w: Whole) => number): number => median(s.runs.map(f));
const x = (n: number): string => (Number.isNaN(n) ? 'n/a' : `${n.toFixed(2)}x`);

/** The three rows of a pair: wall (with `goal`), CPU and peak RSS of the whole process. */
function rows(name: string, a: Side, b: Side, goal: number | undefined): Figure[] {
  const wall = ratios(a, b, (w) => w.wallMs);
  const cpu = ratios(a, b, (w) => w.cpuMs);
  const rss = ratios(a, b, (w) => w.maxRssMb);
  return [
    {
      section: 'parts',
      name,
      measured: ms(at(a, (w) => w.wallMs)),
      reference: ms(at(b, (w) => w.wallMs)),
      ratio: median(wall),
      goal,
      runs: wall,
    },
    {
      section: 'parts',
      name: '  CPU time (whole process)',
      measured: ms(at(a, (w) => w.cpuMs)),
      reference: ms(at(b, (w) => w.cpuMs)),
      ratio: median(cpu),
      goal: undefined,
      runs: cpu,
    },
    {
      section: 'parts',
      name: '  peak RSS (whole process)',
      measured: mb(at(a, (w) => w.maxRssMb)),
      reference: mb(at(b, (w) => w.maxRssMb)),
      ratio: median(rss),
      goal: undefined,
      runs: rss,
    },
  ];
}

function expectOutput(what: string, whole: Whole, needle: string): Whole {
  if (!whole.stdout.includes(needle))
    throw new Error(`${what}: expected ${JSON.stringify(needle)} in its output: ${whole.stdout.slice(0, 300)}`);
  return whole;
}

/** validate of `clients` as one file and as directories of each of `partCounts` parts, side by side. */
async function validateSides(
  clients: number,
  partCounts: readonly number[],
  dir: string,
  runs: number,
): Promise<{ file: Side; dirs: Side[] }> {
  const size = { clients, domainsPerClient: 2 };
  log(
    `  validate of ${count(clients)} clients: one file; ${partCounts.map((n) => `${count(n)} parts`).join(', ')}; ` +
      `${runs} round(s)`,
  );
  const file = join(dir, `parts-validate-${clients}.yaml`);
  await writeFile(file, manifestYaml(size));
  const valid = `${clients} clients, ${clients * 2} domains)`;
  const validate = (path: string) => async (): Promise<Whole> =>
    expectOutput(`validate ${path}`, await wholeProcess([BIN, 'validate', path]), valid);
  const sides = [validate(file)];
  for (const parts of partCounts) {
    const path = join(dir, `parts-validate-${clients}-${parts}`);
    await writeParts(size, parts, path);
    sides.push(validate(path));
  }
  const [one, ...dirs] = await rounds(sides, runs);
  if (one === undefined || dirs.length !== partCounts.length) throw new Error('validate: a side is missing');
  return { file: one, dirs };
}

/** Clients a part holds in the growth rows: the 500 parts of the 100x size. */
const PART_CLIENTS = 20;

/**
 * validate DIR beside validate FILE at `clients` (20 parts, 500 parts, one part per client), and
 * at `large` clients in parts of PART_CLIENTS each: with parts of a constant size the work
 * grows with the clients, so the directory's ratio to the file must not grow with them.
 */
async function measureValidate(clients: number, large: number, dir: string, runs: number): Promise<Figure[]> {
  const base = await validateSides(clients, [20, clients / PART_CLIENTS, clients], dir, runs);
  const big = await validateSides(large, [large / PART_CLIENTS], dir, runs);
  const [twenty, many, each] = base.dirs;
  const [bigMany] = big.dirs;
  if (twenty === undefined || many === undefined || each === undefined || bigMany === undefined) return [];
  const of = (n: number): string => `${count(n)} clients (${count(n * 2)} domains)`;
  const wall = (w: Whole): number => w.wallMs;
  const atBase = ratios(many, base.file, wall);
  const atLarge = ratios(bigMany, big.file, wall);
  const growth = atLarge.map((r, i) => r / (atBase[i] ?? NaN));
  const parts = (n: number): string => `${count(n / PART_CLIENTS)} parts`;
  return [
    ...rows(`validate DIR of 20 parts / validate FILE, ${of(clients)}`, twenty, base.file, 1.15),
    ...rows(`validate DIR of ${parts(clients)} / validate FILE, ${of(clients)}`, many, base.file, undefined),
    ...rows(
      `validate DIR of ${count(clients)} parts (one client each) / validate FILE, ${of(clients)}`,
      each,
      base.file,
      undefined,
    ),
    ...rows(`validate DIR of ${parts(large)} / validate FILE, ${of(large)}`, bigMany, big.file, undefined),
    {
      section: 'parts',
      name: `  growth of DIR / FILE, parts of ${PART_CLIENTS} clients, ${count(clients)} -> ${count(large)} clients (wall)`,
      measured: x(median(atLarge)),
      reference: x(median(atBase)),
      ratio: median(growth),
      goal: 1.5,
      runs: growth,
    },
  ];
}

/** Runs `plan` with --detailed-exitcode (exit 0: no changes) and counts its requests at the panel. */
function planRun(
  sim: Awaited<ReturnType<typeof startSim>>,
  argv: readonly string[],
  requests: number[],
): () => Promise<Whole> {
  const env = { PROVISION_URL: sim.url, PROVISION_API_KEY: BENCH_KEY };
  return async () => {
    const before = await sim.stats();
    const whole = await wholeProcess([BIN, 'plan', ...argv, '--detailed-exitcode'], env);
    const after = await sim.stats();
    const sent = after.requests - before.requests;
    if (sent !== PLAN_REQUESTS || after.failed > before.failed)
      throw new Error(`plan ${argv.join(' ')}: ${sent} requests at the panel, expected ${PLAN_REQUESTS}`);
    requests.push(sent);
    return expectOutput(`plan ${argv.join(' ')}`, whole, 'No changes');
  };
}

async function measurePlanDir(clients: number, dir: string, runs: number): Promise<Figure[]> {
  const size = { clients, domainsPerClient: 2 };
  log(`  plan (no changes) of ${count(clients)} clients: 20 parts vs one file; ${runs} round(s)`);
  const file = join(dir, `parts-plan-${clients}.yaml`);
  const parts = join(dir, `parts-plan-${clients}-20`);
  await writeFile(file, manifestYaml(size));
  await writeParts(size, 20, parts);
  const sim = await startSim({ ...size, latencyMs: 0 });
  try {
    const requests: number[] = [];
    const [one, twenty] = await rounds([planRun(sim, [file], requests), planRun(sim, [parts], requests)], runs);
    if (one === undefined || twenty === undefined) return [];
    return rows(
      `plan DIR of 20 parts / plan FILE, no changes, ${count(clients)} clients, ${PLAN_REQUESTS} GETs each`,
      twenty,
      one,
      undefined,
    );
  } finally {
    await sim.close();
  }
}

async function measureScoped(clients: number, dir: string, runs: number): Promise<Figure[]> {
  const size = { clients, domainsPerClient: 2 };
  log(`  plan --clients ${SCOPED_CLIENT} vs plan, no changes, ${count(clients)} clients; ${runs} round(s)`);
  const file = join(dir, `parts-scoped-${clients}.yaml`);
  await writeFile(file, manifestYaml(size));
  const sim = await startSim({ ...size, latencyMs: 0 });
  try {
    const full: number[] = [];
    const scoped: number[] = [];
    const [all, one] = await rounds(
      [planRun(sim, [file], full), planRun(sim, [file, '--clients', SCOPED_CLIENT], scoped)],
      runs,
    );
    if (all === undefined || one === undefined) return [];
    const requestRatios = scoped.map((n, i) => n / (full[i] ?? NaN));
    return [
      ...rows(`plan FILE --clients ${SCOPED_CLIENT} / plan FILE, no changes, ${count(clients)} clients`, one, all, 1.0),
      {
        section: 'parts',
        name: '  requests at the panel (scoped / full)',
        measured: String(median(scoped)),
        reference: String(median(full)),
        ratio: median(requestRatios),
        goal: 1.0,
        runs: requestRatios,
      },
    ];
  } finally {
    await sim.close();
  }
}

/** The section's figures: validate of a directory, plan of a directory, a scoped plan. */
export async function measureParts(mode: PartsMode, dir: string): Promise<Figure[]> {
  return [
    ...(await measureValidate(mode.validate, mode.growth, dir, mode.runs)),
    ...(await measurePlanDir(mode.plan, dir, mode.runs)),
    ...(await measureScoped(mode.scoped, dir, mode.runs)),
  ];
}
