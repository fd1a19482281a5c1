/**
 * What a plan reads of DNS zones, counted at the simulator: GET /dns/{id} only for existing
 * domains whose manifest entry has `dns` (never a subdomain's: that is a conflict), within apply's
 * bound (DEFAULT_CONCURRENCY), so that a converged plan of N such domains costs 4 + N requests.
 */
import { describe, expect, it } from 'vitest';
import { planManifest } from '../../src/api/prepare.js';
import { DEFAULT_CONCURRENCY } from '../../src/apply/execute.js';
import type { DesiredZone } from '../../src/kinds/zone.js';
import { Redactions } from '../../src/redact.js';
import type { SimulatorSeedDomain } from '../../src/simulator/index.js';
import { desired } from '../helpers/builders.js';
import { client } from '../helpers/panel.js';
import { inFlight, sim } from '../helpers/sim.js';
import { wantZone } from '../helpers/zone-arbitraries.js';

const RECORD = { host: '@', type: 'A', value: '192.0.2.10', ttl: 3600 };
const DNS: DesiredZone = wantZone([['@', 'A', '192.0.2.10', 3600]]);

const names = (n: number, prefix = 'd'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}.example`);

async function plan(
  domains: { name: string; dns?: DesiredZone }[],
  seedDomains: (string | SimulatorSeedDomain)[],
  extra: Parameters<typeof sim>[0] = {},
  concurrency?: number,
) {
  const simulator = await sim({ seed: { clients: [{ username: 'alice', domains: seedDomains }] }, ...extra });
  const panel = client(simulator);
  const prepared = await planManifest(
    panel,
    {
      desired: desired({ alice: { domains } }),
      name: 'manifest.yaml',
      files: { name: 'manifest.yaml', directory: false, parts: [{ file: 'manifest.yaml', bytes: new Uint8Array() }] },
    },
    { showUnmanaged: false, redactions: new Redactions(), concurrency },
  );
  return { simulator, prepared };
}

describe('zone reads', () => {
  it('costs 4 + N requests for a converged plan of N domains that manage DNS; a domain without dns costs none', async () => {
    const dns = names(6);
    const plain = names(3, 'p');
    const { simulator, prepared } = await plan(
      [...dns.map((name) => ({ name, dns: DNS })), ...plain.map((name) => ({ name }))],
      [...dns.map((name) => ({ name, dns: { records: [RECORD] } })), ...plain],
    );
    expect(prepared.view.plan.changes).toEqual([]);
    expect(simulator.requests.map((r) => `${r.method} ${r.path}`).slice(0, 4)).toEqual([
      'GET /ping',
      'GET /hosting-plans',
      'GET /clients',
      'GET /domains',
    ]);
    expect(simulator.requests).toHaveLength(4 + dns.length);
    expect(simulator.requests.slice(4).every((r) => r.method === 'GET' && r.path.startsWith('/dns/'))).toBe(true);
    expect(prepared.view.notes).toEqual([expect.stringMatching(/^Read 6 DNS zones \(GET .*\/dns\/\{id\} each\)\.$/)]);
  });

  it("reads zones within apply's bound", async () => {
    const dns = names(3 * DEFAULT_CONCURRENCY);
    const held = inFlight((path) => path.startsWith('/dns/'));
    const { prepared } = await plan(
      dns.map((name) => ({ name, dns: DNS })),
      dns.map((name) => ({ name, dns: { records: [RECORD] } })),
      { intercept: held.intercept },
    );
    expect(prepared.view.plan.changes).toEqual([]);
    expect(held.max()).toBe(DEFAULT_CONCURRENCY);
  });

  it("reads zones within apply's --concurrency when given", async () => {
    const dns = names(6);
    const held = inFlight((path) => path.startsWith('/dns/'));
    const { prepared } = await plan(
      dns.map((name) => ({ name, dns: DNS })),
      dns.map((name) => ({ name, dns: { records: [RECORD] } })),
      { intercept: held.intercept },
      2,
    );
    expect(prepared.view.plan.changes).toEqual([]);
    expect(held.max()).toBe(2);
  });

  it("never reads a subdomain's zone nor a new domain's: the one is a conflict, the other read after its create", async () => {
    const { simulator, prepared } = await plan(
      [{ name: 'alice.example' }, { name: 'shop.alice.example', dns: DNS }, { name: 'new.example', dns: DNS }],
      ['alice.example', 'shop.alice.example'],
    );
    expect(simulator.requests.filter((r) => r.path.startsWith('/dns/'))).toEqual([]);
    expect(prepared.view.plan.conflicts).toEqual([
      { domain: 'shop.alice.example', client: 'alice', owner: 'alice', dns: 'subdomain' },
    ]);
    expect(prepared.view.plan.changes.map((c) => c.id)).toEqual(['domain:new.example', 'dns_zone:new.example']);
  });
});
