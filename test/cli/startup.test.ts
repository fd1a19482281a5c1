import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { API_KEY } from '../helpers/key.js';
import { modulesLoaded } from '../helpers/loaded.js';
import { tempDir } from '../helpers/sim-http.js';
import { startSim } from '../helpers/sim.js';

describe('start-up: what plan of a manifest loads', () => {
  let panel: Simulator;
  beforeAll(async () => {
    panel = await startSim({
      seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] },
    });
  });
  afterAll(() => panel.close());

  it('plan --format text loads the planner and the text renderer, and nothing of apply, saved plans, the secrets journal or the other formats', async () => {
    const dir = await tempDir();
    const file = join(dir, 'm.yaml');
    await writeFile(
      file,
      'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, shop.alice.example]\n',
    );
    const { src, packages, stdout, stderr } = await modulesLoaded(['plan', file, '--format', 'text'], {
      PROVISION_URL: panel.url,
      PROVISION_API_KEY: API_KEY,
    });
    expect(stderr).toBe('');
    // The run planned for real: one domain to create, shown as text.
    expect(stdout).toContain('shop.alice.example');
    expect(stdout).toMatch(/1 to create/);
    // The hook saw the run: the planner, the panel client and the text renderer are there.
    expect(src).toEqual(
      expect.arrayContaining([
        'cli/plan.ts',
        'cli/prepare.ts',
        'api/prepare.ts',
        'plan/diff.ts',
        'panel/index.ts',
        'render/text.ts',
      ]),
    );
    const unused = src.filter(
      (p) =>
        /^(apply|export|simulator|action)\//.test(p) ||
        // The library's stage of plan (api/prepare.ts, the rails it re-exports, and where it locates
        // conflicts) and nothing else of it: not its index, apply, export or reset.
        /^api\/(?!(prepare|rails|locate-conflicts)\.ts$)/.test(p) ||
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
