/**
 * The bundled CLI's start-up, by the built-in modules of Node each command loads (each costs
 * milliseconds of every run: docs/benchmarks.md): validate loads no crypto or readline (v8 for
 * the heap flags of the commands that read a manifest, and `--version` not even that); a
 * command that connects sets its process's choices (v8) and never loads node:http2, which
 * undici would load for an HTTP/2 client nothing here asks for. The library API leaves undici
 * as it is: a host process may use HTTP/2 through the same copy.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { API_KEY } from '../helpers/key.js';
import { runBin } from '../helpers/process.js';
import { tempDir } from '../helpers/sim-http.js';
import { startSim } from '../helpers/sim.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A preload that writes, at exit, the public built-in modules the process loaded after it. */
async function recorder(dir: string): Promise<{ preload: string; log: string }> {
  const log = join(dir, 'builtins.txt');
  const preload = join(dir, 'record.cjs');
  await writeFile(
    preload,
    `const before = new Set(process.moduleLoadList);
process.on('exit', () => {
  const names = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => m.slice('NativeModule '.length));
  require('node:fs').writeFileSync(${JSON.stringify(log)}, names.join('\\n'));
});`,
  );
  return { preload, log };
}

describe('built-in modules loaded at start-up', () => {
  let panel: Simulator;
  beforeAll(async () => {
    panel = await startSim({
      seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] },
    });
  });
  afterAll(() => panel.close());

  /** The built-ins `provision <command> m.yaml ...rest` loads. */
  async function builtins(command: string, rest: string[], env: Record<string, string> = {}): Promise<string[]> {
    const dir = await tempDir();
    const manifest = join(dir, 'm.yaml');
    await writeFile(
      manifest,
      'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, shop.alice.example]\n',
    );
    const { preload, log } = await recorder(dir);
    const run = await runBin([command, manifest, ...rest], {
      NODE_OPTIONS: `--require=${preload}`,
      ...env,
    });
    expect(run.code, run.stderr).toBe(env.PROVISION_URL === undefined ? 0 : 2);
    return (await readFile(log, 'utf8')).split('\n');
  }

  it('--version: not even v8 (the heap flags are for the commands that read a manifest)', async () => {
    const { preload, log } = await recorder(await tempDir());
    const run = await runBin(['--version'], { NODE_OPTIONS: `--require=${preload}` });
    expect(run.code, run.stderr).toBe(0);
    expect((await readFile(log, 'utf8')).split('\n').filter((m) => /^(v8|crypto|readline)$/.test(m))).toEqual([]);
  });

  it('validate: no crypto, readline or HTTP', async () => {
    const loaded = await builtins('validate', []);
    expect(loaded).toContain('fs/promises');
    expect(loaded.filter((m) => /^(crypto|readline|readline\/promises|http|http2|tls)$/.test(m))).toEqual([]);
  });

  it("plan: HTTP/1.1 only (no node:http2), with the process's V8 flag set through node:v8", async () => {
    const loaded = await builtins('plan', ['--detailed-exitcode'], {
      PROVISION_URL: panel.url,
      PROVISION_API_KEY: API_KEY,
    });
    expect(loaded).toEqual(expect.arrayContaining(['http', 'v8']));
    expect(loaded).not.toContain('http2');
  });

  it('the library API leaves undici whole: its HTTP/2 client is loaded as undici loads it', async () => {
    const script = `
      const api = await import(${JSON.stringify(join(ROOT, 'dist/api/index.js'))});
      const panel = api.connectPanel({ url: process.env.URL, apiKey: process.env.KEY });
      await api.readLive(panel, api.loadManifest('version: 1\\nclients: []\\n').desired);
      await panel.close();
      process.stdout.write(String(process.moduleLoadList.includes('NativeModule http2')));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', URL: panel.url, KEY: API_KEY },
    });
    expect(stdout).toBe('true');
  });
});
