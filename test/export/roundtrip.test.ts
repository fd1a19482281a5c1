/**
 * The round trip of provision export, over real HTTP against the simulator, on random panels:
 * clients with and without plans (names that need quoting among them), emails, suspensions,
 * domains with subdomains and IDNs, system domains or not, a client list with or without the
 * managed fields. The export validates, lists every client, and plan of it shows no changes.
 * Few runs: each starts a simulator.
 */
import fc from 'fast-check';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/manifest/load.js';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, startWorkspace } from '../helpers/cli.js';

const PLANS = ['Basic', 'Premium Plus', 'true', "O'Neil: #1, [gold]"] as const;
const DOMAINS = [
  'one.example',
  'www.one.example',
  'a.www.one.example',
  'bücher.example',
  'shop.bücher.example',
  'münchen.de',
  'two.test',
  'x.two.test',
] as const;

const seed = fc
  .record({
    plans: fc.subarray([...PLANS], { minLength: 1 }),
    clients: fc.uniqueArray(
      fc.record({
        username: fc.constantFrom('alice', 'bob', 'carol', 'dave', 'x_1', 'z-9'),
        plan: fc.nat(PLANS.length),
        email: fc.constantFrom(undefined, 'a@x.example', 'ü@bücher.example'),
        suspended: fc.constantFrom(undefined, true, false),
      }),
      { selector: (c) => c.username, minLength: 1, maxLength: 5 },
    ),
    domains: fc.subarray([...DOMAINS]),
    owners: fc.array(fc.nat(4), { minLength: DOMAINS.length, maxLength: DOMAINS.length }),
  })
  .map(({ plans, clients, domains, owners }): SimulatorSeed => ({
    hostingPlans: plans,
    clients: clients.map((c, i) => ({
      username: c.username,
      ...(plans[c.plan] === undefined ? {} : { plan: plans[c.plan] }),
      ...(c.email === undefined ? {} : { email: c.email }),
      ...(c.suspended === undefined ? {} : { suspended: c.suspended }),
      domains: domains.filter((_, j) => (owners[j] ?? 0) % clients.length === i),
    })),
  }));

describe('export round trip', () => {
  it('the export of a random panel validates, lists every client, and plan of it shows no changes', async () => {
    await fc.assert(
      fc.asyncProperty(seed, fc.boolean(), fc.boolean(), async (s, systemDomains, clientListFields) => {
        const w = await startWorkspace(undefined, { seed: s, systemDomains, clientListFields });
        try {
          const r = await run(['export'], w.env);
          expect(r.code, r.stderr).toBe(0);
          expect(r.stderr).not.toContain('warning');
          const desired = validateManifest(r.stdout, 'exported.yaml').desired;
          expect(desired?.clients.map((c) => c.username)).toEqual(s.clients?.map((c) => c.username).sort());
          await writeFile(w.file, r.stdout);
          const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
          expect(plan.stdout).toContain('No changes');
          expect(plan.code).toBe(0);
        } finally {
          await w.close();
        }
      }),
      { numRuns: 12 },
    );
  });
});
