import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { API_KEY } from '../helpers/key.js';
import { tempDir } from '../helpers/sim-http.js';
import { startSim } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `provision ...args` from the sources (src/cli/bin.ts through tsx) in its own process,
 * with a module hook that writes down every module the ES module loader loads; returns those
 * modules (src/ files relative to src/, packages by name) and the run's output. As in
 * test/manifest/startup.test.ts, with the panel's URL and key in the environment.
 */
async function modulesLoaded(args: readonly string[], env: Readonly<Record<string, string>>): Promise<{ src: string[]; packages: string[]; stdout: string; stderr: string }> {
  const dir = await tempDir();
  const log = join(dir, 'loaded.txt');
  await writeFile(log, '');
  await writeFile(
    join(dir, 'hook.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`,
  );
  await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});`);
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', join(dir, 'register.mjs'), join(ROOT, 'src/cli/bin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '', PROVISION_SECRETS_FILE: '', ...env },
  });
  const urls = (await readFile(log, 'utf8')).split('\n').filter((u) => u.startsWith('file:'));
  const paths = urls.map((u) => relative(ROOT, fileURLToPath(u)));
  return {
    src: [...new Set(paths.filter((p) => p.startsWith('src/')).map((p) => p.slice('src/'.length)))].sort(),
    packages: [...new Set(paths.map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.[1]).filter((p) => p !== undefined))].sort(),
    stdout,
    stderr,
  };
}

describe('start-up: what plan of a manifest loads', () => {
  let panel: Simulator;
  beforeAll(async () => {
    panel = await startSim({ seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] } });
  });
  afterAll(() => panel.close());

  it('plan --format text loads the planner and the text renderer, and nothing of apply, saved plans, the secrets journal or the other formats', async () => {
    const dir = await tempDir();
    const file = join(dir, 'm.yaml');
    await writeFile(file, 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, shop.alice.example]\n');
    const { src, packages, stdout, stderr } = await modulesLoaded(['plan', file, '--format', 'text'], { PROVISION_URL: panel.url, PROVISION_API_KEY: API_KEY });
    expect(stderr).toBe('');
    // The run planned for real: one domain to create, shown as text.
    expect(stdout).toContain('shop.alice.example');
    expect(stdout).toMatch(/1 to create/);
    // The hook saw the run: the planner, the panel client and the text renderer are there.
    expect(src).toEqual(expect.arrayContaining(['cli/plan.ts', 'cli/prepare.ts', 'plan/diff.ts', 'panel/index.ts', 'render/text.ts']));
    const unused = src.filter(
      (p) =>
        /^(apply|export|simulator|api|action)\//.test(p) ||
        /^secrets\/(journal|recovery|sink)\.ts$/.test(p) ||
        /^render\/(json|markdown|outcome)\.ts$/.test(p) ||
        /^plan\/(saved|saved-changes|validator\.generated)\.ts$/.test(p) ||
        /^cli\/(apply|progress)\.ts$/.test(p),
    );
    expect(unused).toEqual([]);
    // p-limit (and its yocto-queue) is the panel reader's (src/panel/read.ts), not apply's; undici is
    // CommonJS, loaded through require (src/panel/transport.ts), which this hook does not see.
    expect(packages).toEqual(['p-limit', 'yaml', 'yocto-queue']);
  });
});
