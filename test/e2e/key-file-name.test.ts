/**
 * The path given to --api-key-file is not a secret: a key file named like a common word
 * (`prod`, `important`) blanks nothing in what the run prints or writes. It used to join the
 * redaction set, so "# production panel" in a manifest written by export --into became
 * "# [redacted]uction panel", a saved plan naming "prod-shop" no longer matched its hash, and
 * stdout read "[redacted]-shop". The CLI runs as a process in the directory that holds the key
 * file, so the path is the bare word, as a user types it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/manifest/load.js';
import { REDACTED } from '../../src/redact.js';
import { API_KEY, workspace } from '../helpers/cli.js';
import { type Run, runBin } from '../helpers/process.js';

/** The bundled provision, run in `cwd`. */
function provision(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return runBin(args, env, { cwd });
}

const MANIFEST = `# production panel: the shops
version: 1
clients:
  - username: prod-shop
    domains: [prod.example]
  - username: important-client
`;

describe('a key file named like a common word', () => {
  it.each(['prod', 'important'])(
    '--api-key-file %s: export --into and plan --out write intact files, apply carries out the plan, nothing printed is blanked',
    async (name) => {
      const w = await workspace(MANIFEST, {
        seed: { clients: [{ username: 'important-client', domains: ['important.example'] }] },
      });
      await writeFile(join(w.dir, name), `${API_KEY}\n`);
      const env = { PROVISION_URL: w.env.PROVISION_URL ?? '' };
      const key = ['--api-key-file', name];

      const exported = await provision(['export', '--into', 'manifest.yaml', ...key], w.dir, env);
      expect(exported.code, exported.stderr).toBe(0);
      const rewritten = await readFile(w.file, 'utf8');
      expect(rewritten).toContain('# production panel: the shops\n');
      expect(rewritten).toContain('important.example');
      expect(rewritten).not.toContain(REDACTED);
      expect(validateManifest(rewritten, 'manifest.yaml').diagnostics).toEqual([]);

      const planned = await provision(['plan', 'manifest.yaml', '--out', 'plan.json', ...key], w.dir, env);
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toContain('client "prod-shop"');
      const applied = await provision(['apply', 'plan.json', ...key], w.dir, {
        ...env,
        PROVISION_SECRETS_FILE: w.secrets,
      });
      expect(applied.code, applied.stderr).toBe(0);
      expect(w.sim.state.clientNamed('prod-shop')?.username).toBe('prod-shop');
      for (const r of [exported, planned, applied]) expect(r.stdout + r.stderr).not.toContain(REDACTED);
    },
  );
});
