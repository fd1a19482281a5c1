/**
 * A zone's change carried out against the simulator over real HTTP: read again before its PUT,
 * failed when it changed since the plan (naming what changed, nothing sent to it, the others
 * written), a new domain's zone read after its POST and diffed then, a lost answer read again
 * (never resent as it was), and an abort between the read and the PUT honoured.
 */
import { describe, expect, test } from 'vitest';
import { executeChanges } from '../../src/apply/execute.js';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import type { DesiredZone } from '../../src/kinds/zone.js';
import { readLive } from '../../src/panel/index.js';
import type { PanelClient } from '../../src/panel/index.js';
import { diff } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import type { Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { desired } from '../helpers/builders.js';
import { client, fakeClock, notesTo } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { wantZone } from '../helpers/zone-arbitraries.js';

const seed: SimulatorOptions['seed'] = {
  clients: [
    {
      username: 'alice',
      domains: [
        { name: 'alice.example', dns: { records: [{ host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 }] } },
        { name: 'bob.example', dns: { records: [{ host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 }] } },
      ],
    },
  ],
};

/** The id the simulator gives the first seeded domain (the admin's own domain is 1). */
const ALICE = 2;

const ADD = wantZone([['www', 'A', '192.0.2.7']]);

async function planned(panel: PanelClient, zones: Record<string, DesiredZone>): Promise<Plan> {
  const d = desired({ alice: { domains: Object.entries(zones).map(([name, dns]) => ({ name, dns })) } });
  const names = Object.keys(zones);
  return diff(d, await readLive(panel, { domainNames: names, zones: names }));
}

/** The domain id of a zone's change in `plan`. */
const idOf = (plan: Plan, name: string): number | null | undefined =>
  plan.changes.flatMap((c) => (c.type === 'dns_zone' && c.name === name ? [c.domainId] : []))[0];

const puts = (simulator: Simulator): string[] =>
  simulator.requests.filter((r) => r.method === 'PUT' && r.path.startsWith('/dns/')).map((r) => r.path);

function adapter(panel: PanelClient, extra: { signal?: AbortSignal; notes?: string[] } = {}) {
  return panelAdapter(panel, {
    settleTimeoutMs: 0,
    secrets: undefined,
    panelUrl: panel.baseUrl,
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
    ...(extra.notes === undefined ? {} : { onEvent: notesTo(extra.notes) }),
  });
}

describe('a zone change applied', () => {
  test('a zone changed since the plan fails naming what changed, gets no PUT, and the other zone is written', async () => {
    // After the plan's read (the first) alice.example's zone (the first seeded) changes: apply's read sees it.
    const simulator = await sim({ seed, onZoneRead: (id, reads) => id === ALICE && reads === 1 });
    const panel = client(simulator);
    const plan = await planned(panel, { 'alice.example': ADD, 'bob.example': ADD });
    expect(plan.changes.map((c) => c.id)).toEqual(['dns_zone:alice.example', 'dns_zone:bob.example']);
    const outcomes = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    const alice = outcomes.find((o) => o.change.name === 'alice.example');
    // The machine code apply's JSON carries (error_code), beside the sentence.
    expect(alice).toMatchObject({ status: 'failed', code: 'zone_changed' });
    const error = alice?.status === 'failed' ? alice.error : '';
    expect(error).toMatch(
      /^the zone of "alice\.example" changed on the panel since the plan read it \(\+ TXT _race-1 "/,
    );
    expect(error).toContain('nothing was sent to it');
    expect(outcomes.find((o) => o.change.name === 'bob.example')).toMatchObject({ status: 'succeeded' });
    expect(idOf(plan, 'alice.example')).toBe(ALICE);
    expect(puts(simulator)).toEqual([`/dns/${idOf(plan, 'bob.example')}`]);
  });

  test('names a record removed and a TTL changed since the plan, as data', async () => {
    const simulator = await sim({ seed });
    const panel = client(simulator);
    const plan = await planned(panel, { 'alice.example': ADD });
    // Someone else writes the zone between plan and apply: the apex A's TTL, and an odd TXT record.
    await panel.send('PUT', `/dns/${ALICE}`, {
      ...((await panel.get(`/dns/${ALICE}`)) as { dkim_record: string; records: { soa: object } }),
      records: {
        soa: ((await panel.get(`/dns/${ALICE}`)) as { records: { soa: object } }).records.soa,
        other: [
          { host: '@', type: 'A', value: '192.0.2.1', ttl: 60 },
          { host: 'x', type: 'TXT', value: 'a "b"\u001b[31m', ttl: 60 },
        ],
      },
    });
    const [outcome] = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    const error = outcome?.status === 'failed' ? outcome.error : '';
    expect(error).toContain('(~ A @ 192.0.2.1: ttl 3600 -> 60; ');
    expect(error).toContain('+ TXT x "a \\"b\\"\\u001b[31m" (ttl 60)');
    expect(puts(simulator)).toEqual([`/dns/${ALICE}`]); // the test's own PUT only
  });

  test("a new domain's zone is read after its POST, diffed with its records, then written", async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const panel = client(simulator);
    const dns = wantZone([['@', 'A', '192.0.2.10']], { prune: true, keep: ['mail'] });
    const plan = diff(
      desired({ alice: { domains: [{ name: 'new.example', dns }] } }),
      await readLive(panel, { domainNames: ['new.example'], zones: ['new.example'] }),
    );
    const before = simulator.requests.length;
    const outcomes = await executeChanges(plan, adapter(panel), { concurrency: 4 });
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    const sent = simulator.requests.slice(before).map((r) => `${r.method} ${r.path.replace(/[0-9]+$/, '{id}')}`);
    expect(sent).toEqual(['POST /domains', 'GET /dns/{id}', 'PUT /dns/{id}', 'GET /dns/{id}']);
    expect(outcomes[1]).toMatchObject({
      note: expect.stringContaining('the panel made, ') as unknown,
    });
    const zone = (await panel.get(`/dns/${outcomes[0]?.status === 'succeeded' ? outcomes[0].id : 0}`)) as {
      is_custom_dns: boolean;
      records: { other: { host: string; type: string; value: string }[] };
    };
    expect(zone.is_custom_dns).toBe(true);
    // The apex NS stay (the manifest lists none), mail stays (keep), the default A records go.
    expect(zone.records.other.map((r) => `${r.host} ${r.type} ${r.value}`)).toEqual([
      '@ NS ns1.sim.keyhelp.test.',
      '@ NS ns2.sim.keyhelp.test.',
      'mail A 192.0.2.1',
      '@ A 192.0.2.10',
    ]);
    // Converged.
    const again = diff(
      desired({ alice: { domains: [{ name: 'new.example', dns }] } }),
      await readLive(panel, { domainNames: ['new.example'], zones: ['new.example'] }),
    );
    expect(again.changes).toEqual([]);
  });

  test('a PUT whose answer is lost is read again, not resent: the zone holds the records sent, so it is done', async () => {
    const simulator = await sim({
      seed,
      ambiguousPutRate: 1,
      faultFilter: (r) => r.method === 'PUT' && r.path.startsWith('/dns/'),
    });
    const panel = client(simulator, { clock: fakeClock() });
    const plan = await planned(panel, { 'alice.example': ADD });
    const notes: string[] = [];
    const [outcome] = await executeChanges(plan, adapter(panel, { notes }), { concurrency: 4 });
    expect(outcome).toMatchObject({
      status: 'succeeded',
      note: expect.stringContaining('the write got no answer (') as unknown,
    });
    expect(outcome?.status === 'succeeded' ? outcome.note : '').toContain(
      'but the zone of "alice.example" holds what was sent',
    );
    expect(notes).toEqual([expect.stringContaining('reading the zone of "alice.example" again') as unknown]);
    expect(puts(simulator)).toEqual([`/dns/${ALICE}`]); // a whole-object write is never resent as it was
  });

  test('an abort between the read and the PUT sends no PUT', async () => {
    const controller = new AbortController();
    const simulator = await sim({
      seed,
      onZoneRead: (_id, reads) => {
        if (reads === 2) controller.abort(); // apply's read
        return false;
      },
    });
    const panel = client(simulator);
    const plan = await planned(panel, { 'alice.example': ADD });
    const [outcome] = await executeChanges(plan, adapter(panel, { signal: controller.signal }), {
      concurrency: 4,
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('interrupted') as unknown });
    expect(puts(simulator)).toEqual([]);
  });

  test('a change whose body was edited (a record the ops do not make) fails as edited and sends nothing', async () => {
    const simulator = await sim({ seed });
    const panel = client(simulator);
    const plan = await planned(panel, { 'alice.example': ADD });
    const edited: Plan = {
      ...plan,
      changes: plan.changes.map((c) =>
        c.type === 'dns_zone' && c.kept !== null
          ? {
              ...c,
              kept: {
                ...c.kept,
                records: [
                  ...c.kept.records,
                  {
                    host: 'evil',
                    type: 'A',
                    value: '203.0.113.1',
                    ttl: 60,
                    raw: { host: 'evil', ttl: 60, type: 'A', value: '203.0.113.1' },
                  },
                ],
              },
            }
          : c,
      ),
    };
    const [outcome] = await executeChanges(edited, adapter(panel), { concurrency: 4 });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('the plan file was edited') as unknown,
    });
    expect(puts(simulator)).toEqual([]);
  });
});
