/**
 * A manifest that lists a CNAME at the host of a subdomain created in the same apply: the
 * subdomain's POST adds its own record there (the simulator: `A <host>`), which the plan could
 * not see. The CNAME owns its whole host, as it owns a new domain's default records: on a new
 * parent's zone the subdomain's record is replaced and named; on an existing parent's zone,
 * whose change the plan made without it, the zone is not written with a CNAME beside another
 * record (that breaks DNS): its change fails naming both, and the next apply converges.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: parent.example
        dns:
          records:
            - {host: shop, type: CNAME, value: elsewhere.example.}
      - shop.parent.example
`;

type Zone = { records: { other: { host: string; type: string; value: string }[] } };

async function setUp(seed: SimulatorSeed) {
  const w = await workspace(MANIFEST, { seed });
  const atShop = () =>
    (
      (w.sim.state.zones.get(w.sim.state.domainNamed('parent.example')?.id ?? -1) as Zone | undefined)?.records.other ??
      []
    )
      .filter((r) => r.host === 'shop')
      .map((r) => `${r.type} ${r.value}`);
  return { ...w, atShop };
}

describe('a CNAME at the host of a subdomain created in the same apply', () => {
  it("on a new parent: the subdomain's record is replaced, named in the outcome; converged", async () => {
    const w = await setUp({ clients: [{ username: 'alice' }] });
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain('A shop 192.0.2.1');
    expect(w.atShop()).toEqual(['CNAME elsewhere.example.']);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout).toBe(0);
  });

  it("on an existing parent: the subdomain's record is replaced too, named in the outcome; converged", async () => {
    const w = await setUp({ clients: [{ username: 'alice', domains: ['parent.example'] }] });
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain('replaced 1 record');
    expect(done.stdout).toContain('A shop 192.0.2.1');
    expect(w.atShop()).toEqual(['CNAME elsewhere.example.']);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout).toBe(0);
  });

  it('an A listed at the new host of an existing parent replaces the one the create added: one address, from a saved plan too', async () => {
    const w = await setUp({ clients: [{ username: 'alice', domains: ['parent.example'] }] });
    await writeFile(
      w.file,
      MANIFEST.replace(
        '{host: shop, type: CNAME, value: elsewhere.example.}',
        '{host: shop, type: A, value: 192.0.2.50}',
      ),
    );
    // From a saved plan: the zone change waits for the create all the same.
    const planned = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    const done = await run(['apply', w.planFile, '--auto-approve'], w.env);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(w.atShop()).toEqual(['A 192.0.2.50']);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout).toBe(0);
  });

  it("a CNAME the panel holds at the new host beside the create's record: the zone change fails naming both, nothing sent", async () => {
    const w = await setUp({
      clients: [
        {
          username: 'alice',
          domains: [
            {
              name: 'parent.example',
              // Not custom: the panel still adds a new subdomain's record to it.
              dns: { is_custom_dns: false, records: [{ host: 'shop', type: 'CNAME', value: 'elsewhere.example.' }] },
            },
          ],
        },
      ],
    });
    await writeFile(
      w.file,
      MANIFEST.replace(
        '{host: shop, type: CNAME, value: elsewhere.example.}',
        '{host: www2, type: A, value: 192.0.2.50}',
      ),
    );
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stdout + done.stderr).toBe(1);
    expect(done.stdout).toContain('A shop 192.0.2.1 and CNAME shop elsewhere.example.: an alias has no other records');
    expect(w.sim.state.domainNamed('shop.parent.example')).toBeDefined();
    expect(w.atShop()).toEqual(['CNAME elsewhere.example.', 'A 192.0.2.1']);
  });
});

describe('a zone change that waits for a subdomain create that fails', () => {
  it('is still written (it only waited): the zone gets its record, the create alone fails', async () => {
    const w = await workspace(
      MANIFEST.replace(
        '{host: shop, type: CNAME, value: elsewhere.example.}',
        '{host: www2, type: A, value: 192.0.2.50}',
      ),
      {
        seed: { clients: [{ username: 'alice', domains: ['parent.example'] }] },
        // Every POST refused with a 500 (not ambiguous): the subdomain is not created.
        errorRate: 1,
        errorStatuses: [500],
        faultFilter: (request) => request.method === 'POST',
      },
    );
    const done = await run(['apply', w.file, '--auto-approve'], w.env);
    expect(done.code, done.stdout + done.stderr).toBe(1);
    expect(done.stdout).toMatch(/✗ failed to create domain "shop\.parent\.example"/);
    expect(done.stdout).toMatch(/✓ updated dns "parent\.example"/);
    expect(done.stdout).toContain('1 succeeded, 1 failed, 0 skipped');
  });
});
