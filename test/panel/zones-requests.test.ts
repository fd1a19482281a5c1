/**
 * What reading DNS zones costs (issue 23, item 8): a converged plan of N domains that manage DNS
 * is 4 + N requests (GET /ping, /hosting-plans, /clients, /domains, then GET /dns/{id} once per
 * such domain), and a domain without `dns`, or one the panel does not have yet, costs none. Real
 * HTTP against the simulator, as `provision plan` reads (the library's readLive, then diff).
 */
import { describe, expect, test } from 'vitest';
import { readLive } from '../../src/api/panel.js';
import { NO_PRUNE, type Desired, type DesiredDomain } from '../../src/manifest/types.js';
import { diff } from '../../src/plan/diff.js';
import type { Simulator } from '../../src/simulator/index.js';
import { defaultRecords } from '../../src/simulator/zones.js';
import { client } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

const managed = (i: number): string => `z${i}.example`;
const plain = (i: number): string => `p${i}.example`;

/** A domain that manages DNS, listing the records the simulator gives a new zone (so nothing differs). */
const withDns = (name: string): DesiredDomain => ({
  name,
  input: name,
  state: 'present',
  dns: { records: defaultRecords(name, '@'), prune: true, keep: [] },
});
const withoutDns = (name: string): DesiredDomain => ({ name, input: name, state: 'present' });

/** Client `u<i>` with the domains `domains(i)` gives, for i in 1..n. */
function manifest(n: number, domains: (i: number) => DesiredDomain[]): Desired {
  const clients = Array.from({ length: n }, (_, k) => ({
    username: `u${k + 1}`,
    state: 'present' as const,
    domains: domains(k + 1),
  }));
  return { file: 'manifest.yaml', clients, prune: NO_PRUNE };
}

/** A panel with client u<i> holding z<i>.example and p<i>.example (default zones), for i in 1..n. */
function panel(n: number): Promise<Simulator> {
  return sim({
    seed: {
      clients: Array.from({ length: n }, (_, k) => ({
        username: `u${k + 1}`,
        domains: [managed(k + 1), plain(k + 1)],
      })),
    },
  });
}

/** Plans `desired` against `simulator` as plan does; the plan and the requests it cost. */
async function plan(simulator: Simulator, desired: Desired) {
  const live = await readLive(client(simulator), desired);
  return { plan: diff(desired, live), requests: simulator.requests };
}

const idOf = (simulator: Simulator, name: string): number | undefined =>
  [...simulator.state.domains.values()].find((d) => d.domain === name)?.id;

describe('the requests of a plan with DNS zones', () => {
  test.each([1, 50])('a converged plan of N = %i domains that manage DNS costs 4 + N requests', async (n) => {
    const simulator = await panel(n);
    const { plan: planned, requests } = await plan(
      simulator,
      manifest(n, (i) => [withDns(managed(i)), withoutDns(plain(i))]),
    );
    expect(planned.changes).toEqual([]);
    expect(planned.conflicts).toEqual([]);
    expect(requests).toHaveLength(4 + n);
    expect(requests.slice(0, 4).map((r) => r.path)).toEqual(['/ping', '/hosting-plans', '/clients', '/domains']);
    // One GET /dns/{id} for each domain that manages DNS, and for no other.
    const zoneReads = requests.slice(4);
    expect(zoneReads.every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
    const wanted = Array.from({ length: n }, (_, k) => `/dns/${String(idOf(simulator, managed(k + 1)))}`);
    expect(zoneReads.map((r) => r.path).sort()).toEqual(wanted.sort());
  });

  test.each([1, 50])('N = %i domains without dns cost no zone read', async (n) => {
    const simulator = await panel(n);
    const { plan: planned, requests } = await plan(
      simulator,
      manifest(n, (i) => [withoutDns(managed(i)), withoutDns(plain(i))]),
    );
    expect(planned.changes).toEqual([]);
    expect(requests.map((r) => r.path)).toEqual(['/ping', '/hosting-plans', '/clients', '/domains']);
  });

  test('a domain the panel does not have yet costs no read: its zone is read after its create', async () => {
    const simulator = await panel(1);
    const { plan: planned, requests } = await plan(
      simulator,
      manifest(1, () => [withDns(managed(1)), withoutDns(plain(1)), withDns('new.example')]),
    );
    expect(requests.map((r) => r.path)).toEqual([
      '/ping',
      '/hosting-plans',
      '/clients',
      '/domains',
      `/dns/${String(idOf(simulator, managed(1)))}`,
    ]);
    expect(planned.changes.map((c) => [c.type, c.action, c.name])).toEqual([
      ['domain', 'create', 'new.example'],
      ['dns_zone', 'update', 'new.example'],
    ]);
  });
});
