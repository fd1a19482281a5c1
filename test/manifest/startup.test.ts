import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sim-http.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `provision ...args` from the sources (src/cli/bin.ts through tsx) in its own process,
 * with a module hook that writes down every module the ES module loader loads; returns those
 * modules (src/ files relative to src/, packages by name) and the run's stdout.
 */
async function modulesLoaded(args: readonly string[]): Promise<{ src: string[]; packages: string[]; stdout: string }> {
  const dir = await tempDir();
  const log = join(dir, 'loaded.txt');
  await writeFile(log, '');
  await writeFile(
    join(dir, 'hook.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`,
  );
  await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});`);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', join(dir, 'register.mjs'), join(ROOT, 'src/cli/bin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', PROVISION_API_KEY: '', PROVISION_URL: '' },
  });
  const urls = (await readFile(log, 'utf8')).split('\n').filter((u) => u.startsWith('file:'));
  const paths = urls.map((u) => relative(ROOT, fileURLToPath(u)));
  return {
    src: [...new Set(paths.filter((p) => p.startsWith('src/')).map((p) => p.slice('src/'.length)))].sort(),
    packages: [...new Set(paths.map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.[1]).filter((p) => p !== undefined))].sort(),
    stdout,
  };
}

describe('start-up: what validate loads', () => {
  it('loads the manifest loader and what the command prints with, and nothing of the panel, planning, applying, secrets or --version', async () => {
    const dir = await tempDir();
    const file = join(dir, 'm.yaml');
    await writeFile(file, 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n');
    const { src, packages, stdout } = await modulesLoaded(['validate', file]);
    expect(stdout).toBe(`${file}: valid (1 client, 1 domain)\n`);
    // The hook saw the run: the loader and its look-alike table are there.
    expect(src).toEqual(expect.arrayContaining(['cli/validate.ts', 'manifest/load.ts', 'manifest/lookalike.ts', 'manifest/confusables.generated.ts']));
    const unused = src.filter((p) => /^(panel|plan|apply|secrets|export|simulator|api|action)\//.test(p) || /^render\/(?!diagnostics\.ts$)/.test(p) || p === 'version.ts');
    expect(unused).toEqual([]);
    expect(packages).toEqual(['yaml']);
  });
});
