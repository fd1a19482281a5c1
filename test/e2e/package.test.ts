/**
 * The package as a user gets it: `npm pack`, then `npm install -g` of the tarball into a
 * temporary prefix and `npm install` of it into a temporary project, as on a fresh machine
 * (CI=true, no terminal). Then the bin (`provision --version`, `provision validate`), the
 * library example (examples/use-from-code.mjs) against the installed package, its types, and
 * the `exports` map: the schemas resolve, internal modules are refused, and a CommonJS project
 * can `require` the API (Node 20.19+ loads ESM with require) and type-check against it.
 *
 * It packs a copy of the working tree (its node_modules linked), never the tree itself:
 * prepack empties dist/ and bundle/, which the other test files of the run are using. Stale
 * files planted in the copy's dist/ and bundle/ must not ship.
 *
 * The `provision` bin is the bundle (bundle/bin.js and its chunks, each with its source map:
 * scripts/bundle.ts); the library API and provision-pr-comment are tsc's dist/.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};
/** What the build and the tarball need from the tree. */
const COPIED = [
  'package.json',
  'package-lock.json',
  'README.md',
  'LICENSE',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.types.json',
  'src',
  'schemas',
  'scripts',
];

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a fresh CI machine: this one's, without what an outer `npm test` set (npm_*). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  return {
    ...env,
    CI: 'true',
    NO_UPDATE_NOTIFIER: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** Runs a program (no shell, no terminal) and says how it ended. */
function exec(file: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { cwd, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A command that must succeed; its output otherwise. */
async function ok(file: string, args: readonly string[], cwd: string): Promise<string> {
  const ran = await exec(file, args, cwd);
  if (ran.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${ran.code}:\n${ran.stderr}\n${ran.stdout}`);
  return ran.stdout;
}

let dir: string;
let tarball: string;
let packed: string[];
let bin: string;
let project: string;
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-package-'));
  const tree = join(dir, 'tree');
  for (const name of COPIED) await cp(join(ROOT, name), join(tree, name), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
  // An old build's leftover (as dist/demo.js once was): prepack must clear it.
  await mkdir(join(tree, 'dist'), { recursive: true });
  await writeFile(join(tree, 'dist', 'stale-leftover.js'), 'throw new Error("stale");\n');
  await mkdir(join(tree, 'bundle'), { recursive: true });
  await writeFile(join(tree, 'bundle', 'chunk-STALE000.js'), 'throw new Error("stale");\n');

  const pack = JSON.parse(await ok('npm', ['pack', '--json', '--pack-destination', dir, '--loglevel=error'], tree)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(dir, pack[0]?.filename ?? '');
  packed = (pack[0]?.files ?? []).map((f) => f.path).sort();

  const prefix = join(dir, 'prefix');
  await ok('npm', ['install', '--global', '--prefix', prefix, tarball, ...NPM_FLAGS], dir);
  bin = join(prefix, 'bin', 'provision');

  project = join(dir, 'project');
  await mkdir(project);
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'uses-provision', private: true, type: 'module' })}\n`,
  );
  await ok('npm', ['install', tarball, ...NPM_FLAGS], project);
  await cp(join(ROOT, 'examples', 'use-from-code.mjs'), join(project, 'use-from-code.mjs'));
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Each step runs npm, node or tsc as a process: slow on a busy machine.
describe(`the package ${PACKAGE.name}, packed and installed`, { timeout: 90_000 }, () => {
  it('ships the build, the schemas, README and LICENSE, and nothing else (no sources, no stale build files)', () => {
    expect(packed).toContain('bundle/bin.js');
    expect(packed).toContain('bundle/bin.js.map');
    expect(packed).toContain('dist/api/index.js');
    expect(packed).toContain('dist/api/index.d.ts');
    expect(packed).toContain('dist/action/pr-comment.js');
    expect(packed).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'schemas/manifest.schema.json',
        'schemas/plan.schema.json',
        'schemas/apply-result.schema.json',
      ]),
    );
    const outside = packed.filter(
      (path) =>
        !/^(dist\/.+\.(js|d\.ts)|bundle\/(bin|chunk-\w+)\.js(\.map)?|schemas\/[^/]+\.schema\.json|LICENSE|README\.md|package\.json|npm-shrinkwrap\.json)$/.test(
          path,
        ),
    );
    expect(outside).toEqual([]);
    expect(packed).not.toContain('dist/stale-leftover.js');
    expect(packed).not.toContain('bundle/chunk-STALE000.js');
    // The CLI ships once: as the bundle, not also as tsc's dist/cli/.
    expect(packed.filter((path) => path.startsWith('dist/cli/'))).toEqual([]);
  });

  it('ships the bundle whole: every chunk with its source map, and each map beside its chunk', async () => {
    const installed = join(dir, 'prefix', 'lib', 'node_modules', PACKAGE.name);
    const scripts = packed.filter((path) => /^bundle\/.+\.js$/.test(path));
    expect(scripts.length).toBeGreaterThan(1);
    for (const script of scripts) {
      const text = await readFile(join(installed, script), 'utf8');
      const name = script.slice('bundle/'.length);
      expect(text.trimEnd().endsWith(`//# sourceMappingURL=${name}.map`), script).toBe(true);
      expect(packed).toContain(`${script}.map`);
      // Every chunk a shipped file imports is shipped.
      for (const [, imported] of text.matchAll(/"\.\/(chunk-\w+\.js)"/g))
        expect(packed, `${script} imports ${imported ?? ''}`).toContain(`bundle/${imported ?? ''}`);
    }
    expect(packed.filter((path) => path.endsWith('.map')).length).toBe(scripts.length);
  });

  it('pins the whole dependency tree: npm-shrinkwrap.json (the lockfile) ships, and the install holds exactly its versions', async () => {
    expect(packed).toContain('npm-shrinkwrap.json');
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; dev?: boolean }>;
    };
    const installed = join(dir, 'prefix', 'lib', 'node_modules', PACKAGE.name);
    const runtime = Object.entries(lock.packages).filter(
      ([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true,
    );
    expect(runtime.length).toBeGreaterThan(6);
    for (const [path, entry] of runtime) {
      const version = (
        JSON.parse(await readFile(join(installed, path, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
      expect(version, path).toBe(entry.version);
    }
  });

  it('the installed provision bin is the bundle', async () => {
    expect(PACKAGE.bin.provision).toBe('bundle/bin.js');
    expect(await realpath(bin)).toBe(
      await realpath(join(dir, 'prefix', 'lib', 'node_modules', PACKAGE.name, 'bundle', 'bin.js')),
    );
  });

  it('provision --version, from the global install, is the package version', async () => {
    const ran = await exec(bin, ['--version'], dir);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.trim()).toBe(PACKAGE.version);
  });

  it("the action's comment script is installed in the package, by its path, and not put on PATH", async () => {
    expect(await readdir(join(dir, 'prefix', 'bin'))).toEqual(['provision']);
    const script = join(dir, 'prefix', 'lib', 'node_modules', PACKAGE.name, 'dist', 'action', 'pr-comment.js');
    const ran = await exec(process.execPath, [script, '--help'], dir);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('provision-pr-comment');
  });

  it('provision validate checks the quick start example', async () => {
    const ran = await exec(bin, ['validate', join(ROOT, 'examples', 'quickstart.yaml')], dir);
    expect(ran.code, ran.stderr).toBe(0);
  });

  it('the library example runs against the installed package: plan, then apply', async () => {
    const ran = await exec(process.execPath, ['use-from-code.mjs'], project);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('Plan: 5 to create (2 clients, 3 domains).');
    expect(ran.stdout).toContain('Apply: 5 succeeded, 0 failed, 0 skipped.');
  });

  it('exports only the API, the schemas and package.json: a deep import of dist/ is refused', async () => {
    const deep = await exec(
      process.execPath,
      ['--input-type=module', '-e', `await import('${PACKAGE.name}/dist/plan/diff.js')`],
      project,
    );
    expect(deep.code).not.toBe(0);
    expect(deep.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const script = `
      import { readFileSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';
      const schema = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('${PACKAGE.name}/schemas/plan.schema.json')), 'utf8'));
      const { VERSION } = await import('${PACKAGE.name}');
      const pkg = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('${PACKAGE.name}/package.json')), 'utf8'));
      console.log(JSON.stringify({ id: schema.$id, version: VERSION, pkg: pkg.version }));`;
    const resolved = await exec(process.execPath, ['--input-type=module', '-e', script], project);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(JSON.parse(resolved.stdout)).toEqual({
      id: 'https://raw.githubusercontent.com/panel-provision/panel-provision/main/schemas/plan.schema.json',
      version: PACKAGE.version,
      pkg: PACKAGE.version,
    });
  });

  it('a CommonJS consumer can require the API and use it: plan against the simulator; deep requires are refused', async () => {
    await writeFile(
      join(project, 'consumer.cjs'),
      `'use strict';
const { connectPanel, diff, loadManifest, planView, ProvisionError, readLive, renderPlanText, startSimulator, VERSION } = require('${PACKAGE.name}');
const pkg = require('${PACKAGE.name}/package.json');
let refused = '';
try {
  require('${PACKAGE.name}/dist/plan/diff.js');
} catch (err) {
  refused = err.code;
}
let invalid = '';
try {
  loadManifest('version: 2\\n', 'bad.yaml');
} catch (err) {
  invalid = err instanceof ProvisionError ? err.code : 'not a ProvisionError';
}
(async () => {
  const apiKey = 'cjs-consumer-key';
  const simulator = await startSimulator({ apiKey });
  const panel = connectPanel({ url: simulator.url, apiKey });
  try {
    const manifest = loadManifest('version: 1\\nclients:\\n  - username: alice\\n    domains: [alice.example]\\n', 'm.yaml');
    const live = await readLive(panel, manifest.desired);
    const plan = diff(manifest.desired, live);
    const text = renderPlanText(planView(plan, { panelUrl: panel.baseUrl, manifest, live }));
    console.log(JSON.stringify({ version: VERSION, pkg: pkg.version, refused, invalid, summary: text.split('\\n').find((l) => l.startsWith('Plan:')) }));
  } finally {
    await panel.close();
    await simulator.close();
  }
})().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
`,
    );
    const ran = await exec(process.execPath, ['consumer.cjs'], project);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toEqual({
      version: PACKAGE.version,
      pkg: PACKAGE.version,
      refused: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      invalid: 'manifest_invalid',
      summary: 'Plan: 2 to create (1 client, 1 domain).',
    });
  });

  // TypeScript reads the same ESM types from CommonJS under module node20 or nodenext (TS 5.8+);
  // node16 and node18 refuse any ESM package from CommonJS (TS1479), whatever `exports` says.
  it('a CommonJS TypeScript consumer (a .cts file, module nodenext) type-checks against the API, and its output runs', async () => {
    await writeFile(
      join(project, 'tsconfig.cjs.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2023',
          strict: true,
          outDir: 'out-cjs',
          skipLibCheck: true,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer-cjs.cts'],
      }),
    );
    await writeFile(
      join(project, 'consumer-cjs.cts'),
      `import { diff, loadManifest, ProvisionError, type Live, type Plan } from '${PACKAGE.name}';
import pkg = require('${PACKAGE.name}');
const none = { read: false, records: [] };
const live: Live = { hosting_plan: [], client: [], domain: { records: [], complete: true }, dns_zone: new Map(), mailbox: none, database: none, ftp_user: none };
const plan: Plan = diff(loadManifest('version: 1\\nclients:\\n  - username: alice\\n').desired, live);
const code: ProvisionError['code'] = 'usage';
console.log(JSON.stringify({ changes: plan.changes.length, code, version: pkg.VERSION }));
`,
    );
    const typed = await exec(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.cjs.json'],
      project,
    );
    expect(typed.code, typed.stdout).toBe(0);
    const compiled = await readFile(join(project, 'out-cjs', 'consumer-cjs.cjs'), 'utf8');
    expect(compiled).toContain(`require("${PACKAGE.name}")`);
    const ran = await exec(process.execPath, [join('out-cjs', 'consumer-cjs.cjs')], project);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ changes: 1, code: 'usage', version: PACKAGE.version });
  });

  it('has types: a TypeScript consumer type-checks against the API, and a deep import has none', async () => {
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2023',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'];
    await writeFile(
      join(project, 'consumer.ts'),
      `import { diff, loadManifest, ProvisionError, type Live, type Plan } from '${PACKAGE.name}';
const none = { read: false, records: [] };
const live: Live = { hosting_plan: [], client: [], domain: { records: [], complete: true }, dns_zone: new Map(), mailbox: none, database: none, ftp_user: none };
const plan: Plan = diff(loadManifest('version: 1\\nclients: []\\n').desired, live);
const code: ProvisionError['code'] = 'usage';
export const counted: number = plan.changes.length + code.length;
`,
    );
    const typed = await exec(process.execPath, tsc, project);
    expect(typed.code, typed.stdout).toBe(0);
    await writeFile(
      join(project, 'consumer.ts'),
      `import { diff } from '${PACKAGE.name}/dist/plan/diff.js';\nexport const d = diff;\n`,
    );
    const deep = await exec(process.execPath, tsc, project);
    expect(deep.code).not.toBe(0);
    expect(deep.stdout).toContain('TS2307');
  });
});
