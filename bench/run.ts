/**
 * `npm run bench [-- --quick] [-- --json] [-- <section>...]`: the engine's figures, each a
 * ratio to a yardstick measured in the same run (the machine is shared and noisy: paired runs,
 * medians). Sections (all by default): apply, inprocess, lifecycle, startup, memory, export,
 * scale, state, dns, parts, zones, manifest, mailboxes, planmem, applymem. Everything runs on loopback; the simulator runs in its own process
 * (bench/sim-server.ts). See docs/benchmarks.md for what each figure means and what limits it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApplyRun, measureApply, measureInProcess, measureLifecycle } from './apply.js';
import { measureBig } from './big.js';
import { measureDns } from './dns.js';
import { count } from './fixtures.js';
import { BIN, type Figure, LATENCY_MS, log, mb, median, ms } from './lib.js';
import { measureMailboxes } from './mailboxes.js';
import { measureManifestMemory } from './manifest-memory.js';
import { measureParts } from './parts.js';
import { measurePlanMemory } from './plan-memory.js';
import { measureApplyMemory } from './apply-memory.js';
import { measurePlanScale, measureValidateScale, type PlanScale, type ValidateScale } from './scale.js';
import { measureStartup, type StartupDetail } from './startup.js';
import { measureZones } from './zones.js';
import { measureState, type StateRun } from './state.js';

const SECTIONS = [
  'apply',
  'inprocess',
  'lifecycle',
  'startup',
  'memory',
  'export',
  'scale',
  'state',
  'dns',
  'parts',
  'zones',
  'manifest',
  'mailboxes',
  'planmem',
  'applymem',
] as const;
type Section = (typeof SECTIONS)[number];

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const JSON_OUT = argv.includes('--json');
const named = argv.filter((a) => !a.startsWith('--'));
for (const name of named) {
  if (!(SECTIONS as readonly string[]).includes(name)) {
    process.stderr.write(`bench: unknown section ${JSON.stringify(name)}; sections: ${SECTIONS.join(', ')}\n`);
    process.exit(2);
  }
}
const chosen = new Set<Section>(named.length === 0 ? SECTIONS : (named as Section[]));

const MODE = QUICK
  ? {
      apply: [
        { clients: 150, runs: 2 },
        { clients: 1_000, runs: 1 },
      ],
      inprocess: 2,
      lifecycle: { half: 1_000, runs: 1 },
      startup: 5,
      big: { clients: 10_000, runs: 1 },
      scale: { sizes: [100, 1_000], runs: 2 },
      state: { sizes: [1_000, 4_000], runs: 1 },
      dns: { zones: 1_000, runs: 3 },
      parts: { validate: 10_000, growth: 100_000, plan: 1_000, scoped: 10_000, runs: 3 },
      zones: 3,
      manifest: { clients: 5_000, runs: 1 },
      planmem: { clients: 5_000, runs: 1 },
      applymem: { clients: 2_000, runs: 1 },
      mailboxes: { plan: { clients: 1_000, perClient: 5, runs: 3 }, apply: { clients: 200, perClient: 5, runs: 2 } },
    }
  : {
      apply: [
        { clients: 150, runs: 3 },
        { clients: 1_000, runs: 3 },
        { clients: 10_000, runs: 1 },
      ],
      inprocess: 3,
      lifecycle: { half: 1_000, runs: 3 },
      startup: 10,
      big: { clients: 100_000, runs: 2 },
      scale: { sizes: [100, 1_000, 10_000], runs: 3 },
      state: { sizes: [1_000, 9_000], runs: 3 },
      dns: { zones: 1_000, runs: 5 },
      parts: { validate: 10_000, growth: 100_000, plan: 1_000, scoped: 10_000, runs: 7 },
      zones: 7,
      manifest: { clients: 20_000, runs: 3 },
      planmem: { clients: 60_000, runs: 1 },
      applymem: { clients: 10_000, runs: 1 },
      mailboxes: { plan: { clients: 1_000, perClient: 5, runs: 7 }, apply: { clients: 200, perClient: 5, runs: 5 } },
    };

const x = (n: number): string => (Number.isNaN(n) ? 'n/a' : `${n.toFixed(2)}x`);

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function verdict(f: Figure): string {
  if (f.goal === undefined) return '';
  return f.ratio <= f.goal ? 'met' : 'NOT met';
}

function scalingRows(
  plans: readonly PlanScale[],
  validates: readonly ValidateScale[],
  applies: readonly ApplyRun[],
): string[][] {
  const rows: string[][] = [];
  const growth = (values: readonly number[]): string => x((values.at(-1) ?? NaN) / (values[0] ?? NaN));
  if (plans.length > 0) {
    rows.push(['plan (no changes): clients', ...plans.map((p) => count(p.size.clients)), 'last / first']);
    rows.push(['  requests', ...plans.map((p) => String(p.requests)), growth(plans.map((p) => p.requests))]);
    rows.push(['  wall (in-process)', ...plans.map((p) => ms(p.wallMs)), growth(plans.map((p) => p.wallMs))]);
    rows.push(['  engine CPU', ...plans.map((p) => ms(p.engineCpuMs)), growth(plans.map((p) => p.engineCpuMs))]);
    rows.push(['  panel CPU', ...plans.map((p) => ms(p.panelCpuMs)), growth(plans.map((p) => p.panelCpuMs))]);
    rows.push([
      '  peak RSS (whole process)',
      ...plans.map((p) => mb(p.maxRssMb)),
      growth(plans.map((p) => p.maxRssMb)),
    ]);
  }
  if (validates.length > 0) {
    rows.push(['validate: clients', ...validates.map((v) => count(v.size.clients)), '']);
    rows.push([
      '  wall / yaml.parse',
      ...validates.map((v) => `${ms(v.wallMs)} / ${ms(v.yamlMs)}`),
      growth(validates.map((v) => v.wallMs)),
    ]);
    rows.push(['  peak RSS', ...validates.map((v) => mb(v.maxRssMb)), growth(validates.map((v) => v.maxRssMb))]);
  }
  const sizes = [...new Set(applies.map((a) => a.clients))];
  if (sizes.length > 0) {
    const at = (n: number, f: (a: ApplyRun) => number): number => median(applies.filter((a) => a.clients === n).map(f));
    rows.push(['apply: clients (3 POSTs each)', ...sizes.map((n) => count(n)), 'last / first']);
    rows.push([
      '  wall',
      ...sizes.map((n) => ms(at(n, (a) => a.applyMs))),
      growth(sizes.map((n) => at(n, (a) => a.applyMs))),
    ]);
    rows.push(['  / minimal client', ...sizes.map((n) => x(at(n, (a) => a.applyMs / a.minimalMs))), '']);
    rows.push([
      '  own CPU per request',
      ...sizes.map((n) => `${at(n, (a) => a.ownCpuPerRequestMs).toFixed(2)} ms`),
      growth(sizes.map((n) => at(n, (a) => a.ownCpuPerRequestMs))),
    ]);
    rows.push([
      '  POSTs in flight (of 8): apply / minimal',
      ...sizes.map((n) => `${at(n, (a) => a.simInFlight).toFixed(2)} / ${at(n, (a) => a.minimalInFlight).toFixed(2)}`),
      '',
    ]);
    rows.push(['  first POST / plan wall', ...sizes.map((n) => x(at(n, (a) => a.firstWriteMs / a.planMs))), '']);
  }
  return rows;
}

async function runAll(): Promise<void> {
  if (!existsSync(BIN)) throw new Error(`the build (${BIN}) is missing: run npm run build (npm run bench does)`);
  const dir = await mkdtemp(join(tmpdir(), 'provision-bench-'));
  const started = performance.now();
  const figures: Figure[] = [];
  let applies: ApplyRun[] = [];
  const plans: PlanScale[] = [];
  const validates: ValidateScale[] = [];
  let startup: StartupDetail | undefined;
  let states: StateRun[] = [];
  try {
    log(`bench: ${QUICK ? 'quick' : 'full'} run of ${[...chosen].join(', ')}`);
    if (chosen.has('startup')) {
      log('start-up');
      const measured = await measureStartup(dir, MODE.startup);
      figures.push(...measured.figures);
      startup = measured.detail;
    }
    if (chosen.has('apply')) {
      log('apply, 20 ms latency, 8 at once');
      const measured = await measureApply(MODE.apply, dir);
      figures.push(...measured.figures);
      applies = measured.runs;
    }
    if (chosen.has('inprocess')) figures.push(await measureInProcess(150, dir, MODE.inprocess));
    if (chosen.has('lifecycle')) figures.push(await measureLifecycle(MODE.lifecycle.half, dir, MODE.lifecycle.runs));
    if (chosen.has('memory') || chosen.has('export')) {
      figures.push(
        ...(await measureBig(MODE.big.clients, dir, MODE.big.runs, {
          memory: chosen.has('memory'),
          export: chosen.has('export'),
        })),
      );
    }
    if (chosen.has('scale')) {
      log('scaling: plan and validate');
      for (const clients of MODE.scale.sizes)
        plans.push(await measurePlanScale({ clients, domainsPerClient: 2 }, dir, MODE.scale.runs));
      for (const clients of MODE.scale.sizes)
        validates.push(await measureValidateScale({ clients, domainsPerClient: 2 }, dir, MODE.scale.runs));
    }
    if (chosen.has('state')) {
      log('simulator --state: creates with a state file and without');
      const measured = await measureState(MODE.state.sizes, dir, MODE.state.runs);
      figures.push(...measured.figures);
      states = measured.runs;
    }
    if (chosen.has('dns')) {
      log(`DNS: plan of zones, ${LATENCY_MS} ms latency, at apply's bound (measureDns says it)`);
      figures.push(...(await measureDns(MODE.dns.zones, dir, MODE.dns.runs)));
    }
    if (chosen.has('parts')) {
      log('manifest directories and scoped plans (whole processes, side by side)');
      figures.push(...(await measureParts(MODE.parts, dir)));
    }
    if (chosen.has('zones')) {
      log('zones of 10,000 records: the diff and the check beside the parse (in process)');
      figures.push(...measureZones(MODE.zones));
    }
    if (chosen.has('manifest')) {
      log('memory per byte of manifest read, each path and command (whole processes)');
      figures.push(...(await measureManifestMemory(MODE.manifest.clients, MODE.manifest.runs, dir)));
    }
    if (chosen.has('mailboxes')) {
      log('mailboxes: a converged plan with them beside one without; apply creating them beside the minimal client');
      figures.push(...(await measureMailboxes(MODE.mailboxes, dir)));
    }
    if (chosen.has('planmem')) {
      log('plan of new clients: peak RSS per manifest byte, each output (whole processes)');
      figures.push(...(await measurePlanMemory(MODE.planmem.clients, MODE.planmem.runs, dir)));
    }
    if (chosen.has('applymem')) {
      log('apply of new clients: peak RSS per manifest byte (whole processes, a fresh simulator each)');
      figures.push(...(await measureApplyMemory(MODE.applymem.clients, MODE.applymem.runs, dir)));
    }
    const totalSeconds = Math.round((performance.now() - started) / 1000);
    if (JSON_OUT) {
      process.stdout.write(
        `${JSON.stringify({ mode: QUICK ? 'quick' : 'full', node: process.version, totalSeconds, figures, startup, scaling: { plans, validates, applies, states } }, null, 2)}\n`,
      );
      return;
    }
    const out: string[] = [
      `panel-provision benchmarks (${QUICK ? 'quick' : 'full'}, Node ${process.version}, ${totalSeconds} s; ratios are medians of paired runs unless a figure says otherwise)`,
      '',
    ];
    out.push(
      table([
        ['figure', 'measured', 'yardstick', 'ratio', 'goal', '', 'runs'],
        ...figures.map((f) => [
          f.name,
          f.measured,
          f.reference,
          x(f.ratio),
          f.goal === undefined ? '-' : `<= ${f.goal}`,
          verdict(f),
          f.runs?.map((r) => r.toFixed(2)).join(' ') ?? '',
        ]),
      ]),
    );
    if (startup !== undefined) {
      out.push(
        '',
        `Start-up detail: import cost in a fresh process (median of 5); node -e 0 is ${ms(startup.bareNodeMs)}`,
      );
      out.push(table(Object.entries(startup.imports).map(([name, value]) => [`  ${name}`, ms(value)])));
      for (const [command, packages] of Object.entries(startup.loaded))
        out.push(`  packages loaded by ${command}: ${packages.join(', ') || 'none'}`);
    }
    const rows = scalingRows(plans, validates, applies);
    if (rows.length > 0) out.push('', 'Scaling', table(rows));
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await runAll();
