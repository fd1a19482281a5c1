/**
 * Whole-object writes (docs/reliability.md, "Whole-object writes") against the simulator over real HTTP,
 * driven by its deterministic fault options: a write behind the tool's back between the plan and
 * the PUT (`writesBehind`), a PUT that lands and is then answered 503 (`failAfterWrite`), a PUT
 * that never reaches the panel. Each body is built from a read taken just before it, never resent
 * as it was, and what someone else wrote meanwhile stays.
 */
import { describe, expect, test } from 'vitest';
import { executeChanges } from '../../src/apply/execute.js';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import type { DesiredZone } from '../../src/kinds/zone.js';
import { readLive } from '../../src/panel/index.js';
import type { PanelClient } from '../../src/panel/index.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import type { PanelCall, Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { desired } from '../helpers/builders.js';
import { client, fakeClock, notesTo } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { wantZone } from '../helpers/zone-arbitraries.js';

/** The id the simulator gives the first seeded domain (the admin's own domain is 1). */
const ALICE = 2;
const ZONE = `/dns/${ALICE}`;
const ACME = { host: '_acme-challenge', type: 'TXT', value: 'token-from-lego', ttl: 120 };

interface SimRecord {
  readonly host: string;
  readonly type: string;
  readonly value: string;
}

/** alice with alice.example, whose zone is the panel's default (not custom: a new subdomain adds to it). */
const seed: SimulatorOptions['seed'] = { clients: [{ username: 'alice', domains: ['alice.example'] }] };

type Domains = NonNullable<Parameters<typeof desired>[0][string]['domains']>;

async function planned(panel: PanelClient, domains: Domains): Promise<Plan> {
  const d = desired({ alice: { domains } });
  const names = domains.map((x) => (typeof x === 'string' ? x : x.name));
  const zones = domains.flatMap((x) => (typeof x !== 'string' && x.dns !== undefined ? [x.name] : []));
  return diff(d, await readLive(panel, { domainNames: names, zones }));
}

function adapter(panel: PanelClient, notes?: string[]) {
  return panelAdapter(panel, {
    settleTimeoutMs: 0,
    secrets: undefined,
    panelUrl: panel.baseUrl,
    ...(notes === undefined ? {} : { onEvent: notesTo(notes) }),
  });
}

/** The zone's records as the simulator holds them, `host TYPE value`. */
function zoneOf(simulator: Simulator, id: number): string[] {
  const zone = simulator.state.zones.get(id) as { records: { other: readonly SimRecord[] } } | undefined;
  return (zone?.records.other ?? []).map((r) => `${r.host} ${r.type} ${r.value}`);
}

/** An ACME client writing its challenge into the zone through the panel's API, as lego does. */
function acmeWrites(call: PanelCall): void {
  const zone = call('GET', ZONE).json as { dkim_record?: unknown; records: { soa: unknown; other: unknown[] } };
  const put = call('PUT', ZONE, {
    dkim_record: zone.dkim_record,
    records: { soa: zone.records.soa, other: [...zone.records.other, ACME] },
  });
  expect(put.status).toBe(200);
}

const ADD: DesiredZone = wantZone([['www2', 'A', '192.0.2.7']]);
const dnsPuts = (simulator: Simulator): number =>
  simulator.requests.filter((r) => r.method === 'PUT' && r.path.startsWith('/dns/')).length;

describe('a zone written whole', () => {
  test("a zone's change waits for the subdomain created in the same apply, and keeps the record its POST added", async () => {
    const simulator = await sim({ seed });
    const panel = client(simulator);
    const plan = await planned(panel, [{ name: 'alice.example', dns: ADD }, 'shop.alice.example']);
    const zone = plan.changes.find((c) => c.type === 'dns_zone');
    expect(zone?.dependsOn).toContain('domain:shop.alice.example');
    const outcomes = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcomes.map((o) => [o.change.id, o.status])).toEqual([
      ['domain:shop.alice.example', 'succeeded'],
      ['dns_zone:alice.example', 'succeeded'],
    ]);
    const written = outcomes[1];
    expect(written?.status === 'succeeded' ? written.note : '').toContain(
      'kept 1 record the subdomains created in this run added to it (+ A shop 192.0.2.1',
    );
    expect(zoneOf(simulator, ALICE)).toEqual(expect.arrayContaining(['shop A 192.0.2.1', 'www2 A 192.0.2.7']));
  });

  test("a new domain's zone under prune keeps the record its new subdomain's POST added", async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const panel = client(simulator);
    const dns = wantZone([['@', 'A', '192.0.2.10']], { prune: true });
    const plan = await planned(panel, [{ name: 'new.example', dns }, 'shop.new.example']);
    const outcomes = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcomes.map((o) => [o.change.id, o.status])).toEqual([
      ['domain:new.example', 'succeeded'],
      ['domain:shop.new.example', 'succeeded'],
      ['dns_zone:new.example', 'succeeded'],
    ]);
    const id = simulator.state.domainNamed('new.example')?.id ?? -1;
    expect(zoneOf(simulator, id)).toEqual(
      expect.arrayContaining(['@ A 192.0.2.10', 'shop A 192.0.2.1', '@ NS ns1.sim.keyhelp.test.']),
    );
    expect(zoneOf(simulator, id)).not.toContain('www A 192.0.2.1'); // pruned: the panel's default
  });

  test('a PUT answered 503 after it landed is not resent: the ACME record written since stays', async () => {
    const simulator = await sim({
      seed,
      failAfterWrite: [{ match: { method: 'PUT', path: ZONE } }],
      // Requests to the zone: the plan's read, apply's read, the PUT; before the next one, lego writes.
      writesBehind: [{ match: { path: ZONE }, nth: 4, write: acmeWrites }],
    });
    const panel = client(simulator, { clock: fakeClock() });
    const plan = await planned(panel, [{ name: 'alice.example', dns: ADD }]);
    const notes: string[] = [];
    const [outcome] = await executeChanges(plan, adapter(panel, notes), { concurrency: 4 });
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(outcome?.status === 'succeeded' ? outcome.note : '').toContain(
      'the write answered 503, but the zone of "alice.example" holds what was sent; 1 record written beside them since, kept (+ TXT _acme-challenge',
    );
    expect(notes).toEqual([
      expect.stringContaining('answered 503: reading the zone of "alice.example" again') as unknown,
    ]);
    expect(dnsPuts(simulator)).toBe(1);
    expect(zoneOf(simulator, ALICE)).toEqual(
      expect.arrayContaining(['_acme-challenge TXT token-from-lego', 'www2 A 192.0.2.7']),
    );
  });

  test('a PUT refused with 503 before it landed, the zone then written by an ACME client: stale, nothing resent', async () => {
    const simulator = await sim({
      seed,
      retryAfter: { seconds: 0, status: 503, first: 1 },
      faultFilter: (r) => r.method === 'PUT',
      writesBehind: [{ match: { path: ZONE }, nth: 4, write: acmeWrites }],
    });
    const panel = client(simulator, { clock: fakeClock() });
    const plan = await planned(panel, [{ name: 'alice.example', dns: ADD }]);
    const [outcome] = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcome).toMatchObject({ status: 'failed', code: 'zone_changed' });
    const error = outcome?.status === 'failed' ? outcome.error : '';
    expect(error).toMatch(
      /^PUT \/api\/v2\/dns\/2 answered 503, and then the zone of "alice\.example" changed on the panel/,
    );
    expect(error).toContain('(+ TXT _acme-challenge "token-from-lego"');
    expect(error).toContain('nothing more was sent to it');
    expect(dnsPuts(simulator)).toBe(1);
    expect(zoneOf(simulator, ALICE)).toContain('_acme-challenge TXT token-from-lego');
    expect(zoneOf(simulator, ALICE)).not.toContain('www2 A 192.0.2.7');
  });

  test('a PUT that never reaches the panel is reported failed, never claimed done', async () => {
    const simulator = await sim({ seed, resetRate: 1, faultFilter: (r) => r.method === 'PUT' });
    const panel = client(simulator, { clock: fakeClock() });
    const plan = await planned(panel, [{ name: 'alice.example', dns: ADD }]);
    const before = zoneOf(simulator, ALICE);
    const [outcome] = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcome).toMatchObject({ status: 'failed', code: 'panel_unreachable' });
    expect(outcome?.status === 'failed' ? outcome.error : '').toContain(
      '(3 writes, each built from a new read), and the zone of "alice.example" does not hold what was sent: not done',
    );
    expect(zoneOf(simulator, ALICE)).toEqual(before);
  });
});

const SECURITY = { id_certificate: 0, lets_encrypt: false, is_prefer_https: false, is_hsts: false };
const shopSeed: SimulatorOptions['seed'] = {
  clients: [{ username: 'alice', domains: [{ name: 'shop.example', security: SECURITY }] }],
};
const SHOP = 2;

/** Someone turns Let's Encrypt on in the panel: a key of `security` the manifest below does not manage. */
function letsEncryptOn(call: PanelCall): void {
  const domain = call('GET', `/domains/${SHOP}`).json as { security: object };
  expect(call('PUT', `/domains/${SHOP}`, { security: { ...domain.security, lets_encrypt: true } }).status).toBe(200);
}

describe("a domain's settings and a hosting plan written whole", () => {
  test('a key of security changed in the panel between plan and PUT stays after the PUT of another key', async () => {
    // Requests under /domains: the plan's list, then apply's read (or, without it, the PUT).
    const simulator = await sim({
      seed: shopSeed,
      writesBehind: [{ match: { path: /^\/domains/ }, nth: 2, write: letsEncryptOn }],
    });
    const panel = client(simulator);
    const plan = await planned(panel, [{ name: 'shop.example', settings: { 'https.force': true } }]);
    const [outcome] = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(simulator.state.domainNamed('shop.example')?.security).toMatchObject({
      lets_encrypt: true,
      is_prefer_https: true,
    });
  });

  test('a key the change writes, changed in the panel meanwhile: stale, nothing sent, exit 1 for it alone', async () => {
    // HSTS turned on in the panel with an age of its own: the manifest's HSTS is neither that nor the plan's (off).
    const hstsOn = (call: PanelCall): void => {
      const domain = call('GET', `/domains/${SHOP}`).json as { security: object };
      const security = {
        ...domain.security,
        is_hsts: true,
        hsts_max_age: 600,
        hsts_include: false,
        hsts_preload: false,
      };
      expect(call('PUT', `/domains/${SHOP}`, { security }).status).toBe(200);
    };
    const simulator = await sim({
      seed: shopSeed,
      writesBehind: [{ match: { path: /^\/domains/ }, nth: 2, write: hstsOn }],
    });
    const panel = client(simulator);
    const hsts = { max_age: 31536000, include_subdomains: true, preload: false };
    const plan = await planned(panel, [{ name: 'shop.example', settings: { 'https.hsts': hsts } }]);
    const [outcome] = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcome).toMatchObject({ status: 'failed', code: 'object_changed' });
    expect(outcome?.status === 'failed' ? outcome.error : '').toContain(
      'the settings of domain "shop.example" changed on the panel since the plan read it ' +
        '(https.hsts: false when planned, {"max_age":600,"include_subdomains":false,"preload":false} now): nothing was sent to it',
    );
    expect(simulator.requests.filter((r) => r.method === 'PUT')).toEqual([]); // the write behind is not a request
  });

  test('a PUT of security refused with 503 before it landed: read again, as planned, built again and sent once more', async () => {
    const simulator = await sim({
      seed: shopSeed,
      retryAfter: { seconds: 0, status: 503, first: 1 },
      faultFilter: (r) => r.method === 'PUT',
    });
    const panel = client(simulator, { clock: fakeClock() });
    const plan = await planned(panel, [{ name: 'shop.example', settings: { 'https.force': true } }]);
    const [outcome] = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcome).toMatchObject({ status: 'succeeded' });
    // Never claimed done on a read that lacks the write: the second PUT is what carried it.
    expect(simulator.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
    expect(simulator.state.domainNamed('shop.example')?.security).toMatchObject({ is_prefer_https: true });
  });

  test("a hosting plan's key changed in the panel between plan and PUT stays after the PUT of another key", async () => {
    const planId = (simulator: Simulator): number => simulator.state.planNamed('Business')?.id ?? -1;
    let id = -1;
    const sshOn = (call: PanelCall): void => {
      const plan = call('GET', `/hosting-plans/${id}`).json as { permissions: object };
      expect(call('PUT', `/hosting-plans/${id}`, { permissions: { ...plan.permissions, ssh: true } }).status).toBe(200);
    };
    const simulator = await sim({
      seed: { hostingPlans: ['Business'], clients: [] },
      writesBehind: [{ match: { path: /^\/hosting-plans/ }, nth: 2, write: sshOn }],
    });
    id = planId(simulator);
    const panel = client(simulator);
    const live = await readLive(panel, { domainNames: [] });
    const before = live.hosting_plan.find((p) => p.name === 'Business')?.objects?.permissions;
    expect(before).toMatchObject({ ssh: false, dns_editor: false });
    const plan = diff(
      {
        ...desired({}),
        hostingPlans: [{ name: 'Business', state: 'present', wants: { permissions: { dns_editor: true } } }],
      },
      live,
    );
    const [outcome] = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcome).toMatchObject({ status: 'succeeded' });
    expect(simulator.state.planNamed('Business')?.permissions).toMatchObject({ ssh: true, dns_editor: true });
  });
});
