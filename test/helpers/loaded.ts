import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from './sim-http.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What one run of the CLI loaded: src/ files (relative to src/), packages by name, and its output. */
export interface Loaded {
  readonly src: string[];
  readonly packages: string[];
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `provision ...args` from the sources (src/cli/bin.ts through tsx) in its own process,
 * with a module hook that writes down every module the ES module loader loads (packages loaded
 * with require, such as undici's parts, are not seen). The environment is this one's with no
 * panel, no secrets file and no GitHub Actions, then `env`.
 */
export async function modulesLoaded(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<Loaded> {
  const dir = await tempDir();
  const log = join(dir, 'loaded.txt');
  await writeFile(log, '');
  await writeFile(
    join(dir, 'hook.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`,
  );
  await writeFile(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});`,
  );
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', join(dir, 'register.mjs'), join(ROOT, 'src/cli/bin.ts'), ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NO_COLOR: '1',
        PROVISION_API_KEY: '',
        PROVISION_URL: '',
        GITHUB_ACTIONS: '',
        GITHUB_STEP_SUMMARY: '',
        PROVISION_SECRETS_FILE: '',
        ...env,
      },
    },
  );
  const urls = (await readFile(log, 'utf8')).split('\n').filter((u) => u.startsWith('file:'));
  const paths = urls.map((u) => relative(ROOT, fileURLToPath(u)));
  return {
    src: [...new Set(paths.filter((p) => p.startsWith('src/')).map((p) => p.slice('src/'.length)))].sort(),
    packages: [
      ...new Set(paths.map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.[1]).filter((p) => p !== undefined)),
    ].sort(),
    stdout,
    stderr,
  };
}
