/**
 * Properties through the real CLI (fast-check): apply then plan converges against the simulator
 * over loopback, the whole lifecycle included (it runs few cases: the planner's own properties,
 * with many, are in test/plan/properties.test.ts); and no manifest makes validate crash or hang.
 * Seeds are printed by fast-check on failure, so a failure can be replayed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseManifest } from '../../src/manifest/index.js';
import { loadManifestFile as loadManifest } from '../helpers/manifest.js';
import { ProvisionError } from '../../src/errors.js';
import { run, startWorkspace } from '../helpers/cli.js';

// Small name pools, so that random manifests and panels overlap often.
const username = fc.constantFrom('alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina');
const domainName = fc
  .tuple(
    fc.constantFrom('', 'www.', 'shop.', 'a.b.'),
    fc.constantFrom('one', 'two', 'three', 'four'),
    fc.constantFrom('.example', '.test'),
  )
  .map(([sub, name, tld]) => `${sub}${name}${tld}`);
const planName = fc.constantFrom(undefined, 'Basic', 'Standard', 'Premium Plus');

/** A valid manifest: unique usernames, each domain under one client at most, some marked absent. */
const manifestClients = fc
  .uniqueArray(
    fc.record({
      username,
      absent: fc.constantFrom(false, false, false, true),
      plan: planName,
      suspended: fc.constantFrom(undefined, true, false),
      domains: fc.uniqueArray(fc.record({ name: domainName, absent: fc.constantFrom(false, false, true) }), {
        selector: (d) => d.name,
        maxLength: 5,
      }),
    }),
    { selector: (c) => c.username, maxLength: 6 },
  )
  .map((clients) => {
    const seen = new Set<string>();
    return clients.map((c) => ({
      ...c,
      domains: c.domains.filter((d) => !seen.has(d.name) && seen.add(d.name)),
    }));
  });

/** The manifest's YAML: absent clients with no other keys, domains as names or {name, state: absent}. */
function manifestYaml(
  clients: readonly {
    username: string;
    absent: boolean;
    plan: string | undefined;
    suspended: boolean | undefined;
    domains: readonly { name: string; absent: boolean }[];
  }[],
  prune: boolean,
): string {
  return stringify({
    version: 1,
    ...(prune ? { prune: { domains: true, clients: true, keep: ['g*'] } } : {}),
    clients: clients.map((c) =>
      c.absent
        ? { username: c.username, state: 'absent' }
        : {
            username: c.username,
            ...(c.plan === undefined ? {} : { plan: c.plan }),
            ...(c.suspended === undefined ? {} : { suspended: c.suspended }),
            domains: c.domains.map((d) => (d.absent ? { name: d.name, state: 'absent' } : d.name)),
          },
    ),
  });
}

describe('apply then plan, through the CLI and the simulator', () => {
  it('converges: after apply, plan shows no changes (or apply refused conflicts and sent nothing)', async () => {
    await fc.assert(
      fc.asyncProperty(
        manifestClients,
        fc.uniqueArray(fc.record({ username, domains: fc.uniqueArray(domainName, { maxLength: 4 }) }), {
          selector: (c) => c.username,
          maxLength: 5,
        }),
        fc.boolean(),
        async (clients, seedClients, prune) => {
          const seen = new Set<string>();
          const seed = seedClients.map((c) => ({
            username: c.username,
            domains: c.domains.filter((d) => !seen.has(d) && seen.add(d)),
          }));
          const p = await startWorkspace(undefined, { seed: { clients: seed } });
          try {
            const file = join(p.dir, 'manifest.yaml');
            await writeFile(file, manifestYaml(clients, prune));
            const env = { ...p.env, PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl') };
            const applied = await run(['apply', file, '--auto-approve', '--allow-mass-delete'], env);
            if (applied.code !== 0) {
              expect(applied.stderr).toMatch(/belong(s)? to another client|subdomains that stay/);
              expect(p.posts()).toEqual([]);
              return;
            }
            const planned = await run(['plan', file, '--detailed-exitcode'], env);
            expect(planned.code, planned.stdout + planned.stderr).toBe(0);
          } finally {
            await p.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('no manifest makes validate crash or hang', () => {
  const check = (text: string): void => {
    const result = parseManifest(text, 'm.yaml');
    if (result.desired === undefined) {
      expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    }
    for (const d of result.diagnostics) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
      expect(d.message).not.toBe('');
      expect(d.message).not.toContain('\n');
    }
  };

  it('random text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400, unit: 'binary' }), check), { numRuns: 400 });
  });

  it('random YAML of any shape, near and far from a manifest', () => {
    const value = fc.jsonValue({ maxDepth: 5 });
    const nearManifest = fc.record({
      version: fc.oneof(fc.constant(1), value),
      clients: fc.array(
        fc.oneof(value, fc.dictionary(fc.constantFrom('username', 'plan', 'email', 'domains', 'x'), value)),
        { maxLength: 5 },
      ),
    });
    fc.assert(
      fc.property(fc.oneof(value, nearManifest), (v) => {
        check(stringify(v));
      }),
      { numRuns: 400 },
    );
  });

  it('deep nesting, huge documents, alias bombs', () => {
    for (const text of [
      '['.repeat(5000),
      `${'- '.repeat(2000)}x`,
      `version: 1\nclients:\n${'  - username: u\n'.repeat(3)}`,
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
      `version: 1\nclients:\n  - username: ${'a'.repeat(200_000)}\n`,
    ]) {
      check(text);
    }
  });

  it('invalid UTF-8 bytes anywhere', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provision-utf8-'));
    try {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
          const file = join(dir, 'm.yaml');
          await writeFile(file, bytes);
          try {
            const result = await loadManifest(file);
            for (const d of result.diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
          } catch (error) {
            expect(error).toBeInstanceOf(ProvisionError);
          }
        }),
        { numRuns: 200 },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
