import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modulesLoaded } from '../helpers/loaded.js';
import { tempDir } from '../helpers/sim-http.js';

describe('start-up: what validate loads', () => {
  it('loads the manifest loader and what the command prints with, and nothing of the panel, planning, applying, secrets or --version', async () => {
    const dir = await tempDir();
    const file = join(dir, 'm.yaml');
    await writeFile(file, 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n');
    const { src, packages, stdout } = await modulesLoaded(['validate', file]);
    expect(stdout).toBe(`${file}: valid (1 client, 1 domain)\n`);
    // The hook saw the run: the loader and its look-alike table are there.
    expect(src).toEqual(
      expect.arrayContaining([
        'cli/validate.ts',
        'manifest/load.ts',
        'manifest/lookalike.ts',
        'manifest/confusables.generated.ts',
      ]),
    );
    const unused = src.filter(
      (p) =>
        /^(panel|plan|apply|secrets|export|simulator|api|action)\//.test(p) ||
        /^render\/(?!diagnostics\.ts$)/.test(p) ||
        p === 'version.ts',
    );
    expect(unused).toEqual([]);
    expect(packages).toEqual(['yaml']);
  });
});
