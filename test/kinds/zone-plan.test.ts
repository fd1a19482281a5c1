/**
 * The planner over DNS zones, through diff() with Desired built directly: every record case
 * (add, remove with prune and keep, TTL updates, host and type in any case, values exact,
 * duplicates, SOA and DKIM sent back as read, the apex NS rule), new domains, the order after a
 * domain's own change, conflicts, --max-deletes, the saved plan's round trip and its fingerprint.
 */
import { describe, expect, it } from 'vitest';
import type { UpdateZone } from '../../src/kinds/zone.js';
import { zoneBodyOf, zoneRequest } from '../../src/kinds/zone.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { planFingerprint, staleReasons } from '../../src/plan/fingerprint.js';
import { massChanges, totals } from '../../src/plan/guards.js';
import { type ChangeJson, changeToJson, readChanges } from '../../src/plan/saved-changes.js';
import type { Plan } from '../../src/plan/types.js';
import { desired, live } from '../helpers/builders.js';
import { liveZone, type RecordSpec, wantZone } from '../helpers/zone-arbitraries.js';
import type { DesiredZone } from '../../src/kinds/zone.js';

const A = 'alice.example';

/** alice (id 1) owning alice.example (id 100) whose zone holds `records`, the manifest wanting `dns`. */
function planOf(
  dns: DesiredZone,
  records?: readonly RecordSpec[],
  options: { custom?: boolean; settings?: Parameters<typeof desired>[0][string]['domains'] } = {},
): { plan: Plan; panel: Live } {
  const panel = live([[1, 'alice', 1]], [[100, A, 1, false, { php_version: '8.1' }]], {
    zones: new Map([[A, liveZone(A, records, { custom: options.custom ?? false })]]),
  });
  const d = desired({ alice: { plan: 'Basic', domains: options.settings ?? [{ name: A, dns }] } });
  return { plan: diff(d, panel), panel };
}

const zoneChange = (plan: Plan): UpdateZone => {
  const found = plan.changes.filter((c): c is UpdateZone => c.type === 'dns_zone');
  expect(found).toHaveLength(1);
  return found[0] as UpdateZone;
};

const TWO: RecordSpec[] = [
  ['@', 'A', '192.0.2.1'],
  ['www', 'A', '192.0.2.1'],
];

describe('a zone planned', () => {
  it('adds a missing record in one PUT of the records as read, the SOA and the DKIM record as read', () => {
    const { plan, panel } = planOf(wantZone([['@', 'TXT', 'v=spf1 -all', 300]]), TWO);
    const change = zoneChange(plan);
    const zone = panel.dns_zone.get(A);
    expect(change).toMatchObject({
      id: 'dns_zone:alice.example',
      action: 'update',
      domainId: 100,
      dependsOn: [],
      makesCustom: true,
      zoneDigest: zone?.digest,
      records: [{ op: 'add', host: '@', type: 'TXT', value: 'v=spf1 -all', ttl: 300 }],
    });
    expect(zoneRequest(change)).toEqual({
      method: 'PUT',
      path: '/dns/100',
      body: {
        dkim_record: zone?.dkim,
        records: {
          soa: zone?.soa,
          other: [
            { host: '@', ttl: 86400, type: 'A', value: '192.0.2.1' },
            { host: 'www', ttl: 86400, type: 'A', value: '192.0.2.1' },
            { host: '@', ttl: 300, type: 'TXT', value: 'v=spf1 -all' },
          ],
        },
      },
    });
    expect(plan.changes).toHaveLength(1);
  });

  it('plans nothing for a zone that holds what the manifest lists, and keeps unlisted records without prune', () => {
    expect(planOf(wantZone([['@', 'A', '192.0.2.1', 86400]]), TWO).plan.changes).toEqual([]);
    expect(planOf(wantZone([]), TWO).plan.changes).toEqual([]);
  });

  it('with prune removes unlisted records except keep matches, each counted as a delete', () => {
    const records: RecordSpec[] = [...TWO, ['_acme-challenge', 'TXT', 'token'], ['mail', 'A', '192.0.2.1']];
    const { plan } = planOf(wantZone([['@', 'A', '192.0.2.1', 86400]], { prune: true, keep: ['_acme*'] }), records);
    const change = zoneChange(plan);
    expect(change.records).toEqual([
      { op: 'remove', host: 'www', type: 'A', value: '192.0.2.1', ttl: 86400 },
      { op: 'remove', host: 'mail', type: 'A', value: '192.0.2.1', ttl: 86400 },
    ]);
    expect(zoneBodyOf(change)?.records.other.map((r) => r.host)).toEqual(['@', '_acme-challenge']);
    expect(totals(plan)).toEqual({ creates: 0, deletes: 2, uncounted: 0 });
  });

  it('updates a TTL that differs, sending the panel record with the new TTL', () => {
    const { plan } = planOf(wantZone([['www', 'A', '192.0.2.1', 300]]), TWO);
    const change = zoneChange(plan);
    expect(change.records).toEqual([
      { op: 'update', host: 'www', type: 'A', value: '192.0.2.1', ttl: 300, ttl_before: 86400 },
    ]);
    expect(zoneBodyOf(change)?.records.other[1]).toEqual({ host: 'www', ttl: 300, type: 'A', value: '192.0.2.1' });
  });

  it('compares host and type in any case and spelling, the value exactly', () => {
    const records: RecordSpec[] = [
      ['WWW.Alice.Example.', 'a', '192.0.2.1', '3600'],
      ['', 'txt', 'V=SPF1 -ALL', 3600],
    ];
    const { plan } = planOf(
      wantZone([
        ['www', 'A', '192.0.2.1'],
        ['@', 'TXT', 'v=spf1 -all'],
      ]),
      records,
    );
    // The listed TXT set replaces the panel's TXT at the apex: the value in another case goes.
    expect(zoneChange(plan).records).toEqual([
      { op: 'add', host: '@', type: 'TXT', value: 'v=spf1 -all', ttl: 3600 },
      { op: 'remove', host: '@', type: 'TXT', value: 'V=SPF1 -ALL', ttl: 3600 },
    ]);
    // The matched record goes back as the panel spelled it, its TTL read as a string sent as a number.
    expect(zoneBodyOf(zoneChange(plan))?.records.other[0]).toEqual({
      host: 'WWW.Alice.Example.',
      ttl: 3600,
      type: 'a',
      value: '192.0.2.1',
    });
  });

  it('counts equal records on the panel as two: one matches, the other goes (the listed set owns it)', () => {
    const records: RecordSpec[] = [
      ['@', 'A', '192.0.2.1'],
      ['@', 'A', '192.0.2.1'],
    ];
    expect(zoneChange(planOf(wantZone([['@', 'A', '192.0.2.1', 86400]]), records).plan).records).toEqual([
      { op: 'remove', host: '@', type: 'A', value: '192.0.2.1', ttl: 86400 },
    ]);
    const change = zoneChange(planOf(wantZone([['@', 'A', '192.0.2.1', 86400]], { prune: true }), records).plan);
    expect(change.records).toEqual([{ op: 'remove', host: '@', type: 'A', value: '192.0.2.1', ttl: 86400 }]);
    expect(zoneBodyOf(change)?.records.other).toHaveLength(1);
    // Of equal records with other TTLs, the one with the listed TTL stays: a remove, no update.
    const ttls: RecordSpec[] = [
      ['@', 'A', '192.0.2.1', 60],
      ['@', 'A', '192.0.2.1', 86400],
    ];
    expect(zoneChange(planOf(wantZone([['@', 'A', '192.0.2.1', 86400]], { prune: true }), ttls).plan).records).toEqual([
      { op: 'remove', host: '@', type: 'A', value: '192.0.2.1', ttl: 60 },
    ]);
  });

  it('prunes the apex NS records only when the manifest lists apex NS records of its own', () => {
    const records: RecordSpec[] = [
      ['@', 'NS', 'ns1.sim.keyhelp.test.'],
      ['@', 'NS', 'ns2.sim.keyhelp.test.'],
      ['www', 'A', '192.0.2.1'],
    ];
    const kept = zoneChange(planOf(wantZone([], { prune: true }), records).plan);
    expect(kept.records.map((r) => `${r.op} ${r.host} ${r.type}`)).toEqual(['remove www A']);
    const listed = zoneChange(
      planOf(wantZone([['@', 'NS', 'ns1.sim.keyhelp.test.', 86400]], { prune: true }), records).plan,
    );
    expect(listed.records.map((r) => `${r.op} ${r.host} ${r.type} ${r.value}`)).toEqual([
      'remove @ NS ns2.sim.keyhelp.test.',
      'remove www A 192.0.2.1',
    ]);
  });

  it('says the first PUT makes the zone custom, and not again once it is', () => {
    expect(zoneChange(planOf(wantZone([['mail', 'A', '192.0.2.9']]), TWO).plan).makesCustom).toBe(true);
    expect(zoneChange(planOf(wantZone([['mail', 'A', '192.0.2.9']]), TWO, { custom: true }).plan).makesCustom).toBe(
      false,
    );
  });

  it("writes the zone after the domain's own settings update", () => {
    const dns = wantZone([['mail', 'A', '192.0.2.9']]);
    const { plan } = planOf(dns, TWO, { settings: [{ name: A, settings: { php_version: '8.3' }, dns }] });
    expect(plan.changes.map((c) => c.id)).toEqual(['domain:alice.example', 'dns_zone:alice.example']);
    expect(zoneChange(plan).dependsOn).toEqual(['domain:alice.example']);
  });

  it("writes a new domain's zone after its create: its records as adds, the zone read after the POST", () => {
    const panel = live([[1, 'alice', 1]]);
    const dns = wantZone([['@', 'A', '192.0.2.10']], { prune: true, keep: ['mail'] });
    const plan = diff(desired({ alice: { plan: 'Basic', domains: [{ name: A, dns }] } }), panel);
    expect(plan.changes.map((c) => c.id)).toEqual(['domain:alice.example', 'dns_zone:alice.example']);
    const change = zoneChange(plan);
    expect(change).toMatchObject({
      domainId: null,
      zoneDigest: null,
      kept: null,
      prune: true,
      keep: ['mail'],
      makesCustom: true,
      dependsOn: ['domain:alice.example'],
      records: [{ op: 'add', host: '@', type: 'A', value: '192.0.2.10', ttl: 3600 }],
    });
    expect(zoneRequest(change)).toEqual({ method: 'PUT', path: '/dns/{id}', body: { records: null } });
    // A new domain's zone that lists nothing and prunes nothing has nothing to do.
    const idle = diff(desired({ alice: { domains: [{ name: A, dns: wantZone([]) }] } }), panel);
    expect(idle.changes.map((c) => c.id)).toEqual(['domain:alice.example']);
  });

  it('is a conflict on a panel subdomain and on a zone the panel serves no DNS for, with no change', () => {
    const dns = wantZone([['@', 'A', '192.0.2.10']]);
    const sub = live([[1, 'alice', 1]], [[100, `shop.${A}`, 1]], { subdomains: [`shop.${A}`] });
    const planSub = diff(desired({ alice: { domains: [{ name: `shop.${A}`, dns }] } }), sub);
    expect(planSub.conflicts).toEqual([{ domain: `shop.${A}`, client: 'alice', owner: 'alice', dns: 'subdomain' }]);
    expect(planSub.changes).toEqual([]);
    const off = live([[1, 'alice', 1]], [[100, A, 1]], { zones: new Map([[A, liveZone(A, TWO, { disabled: true })]]) });
    const planOff = diff(desired({ alice: { domains: [{ name: A, dns }] } }), off);
    expect(planOff.conflicts).toEqual([{ domain: A, client: 'alice', owner: 'alice', dns: 'disabled' }]);
    expect(planOff.changes).toEqual([]);
  });

  it('refuses past --max-deletes a prune that removes more records than the limit', () => {
    const many: RecordSpec[] = Array.from({ length: 12 }, (_, i) => [`h${i}`, 'A', '192.0.2.1'] as const);
    const { plan } = planOf(wantZone([], { prune: true }), many);
    const limits = { maxCreates: 100, allowMassCreate: false, maxDeletes: 10, allowMassDelete: false };
    expect(massChanges(plan, limits)).toEqual([expect.stringContaining('deletes 12 resources') as unknown]);
    expect(massChanges(plan, { ...limits, allowMassDelete: true })).toEqual([]);
    expect(massChanges(plan, { ...limits, maxDeletes: 12 })).toEqual([]);
  });
});

describe('a zone in a saved plan', () => {
  const records: RecordSpec[] = [...TWO, ['old', 'TXT', 'x']];
  const dns = wantZone(
    [
      ['@', 'A', '192.0.2.1', 300],
      ['mail', 'A', '192.0.2.9'],
    ],
    { prune: true },
  );

  it('reads back as planned; a body edited to send other records is refused', () => {
    const { plan } = planOf(dns, records);
    const json = JSON.parse(JSON.stringify(plan.changes.map(changeToJson))) as ChangeJson[];
    const problems: string[] = [];
    expect(readChanges(json, problems)).toEqual(plan.changes);
    expect(problems).toEqual([]);

    const edited = JSON.parse(JSON.stringify(json)) as { request: { body: { records: { other: unknown[] } } } }[];
    const other = edited[0]?.request.body.records.other ?? [];
    other.splice(other.length - 1, 1); // the added record's line removed
    const refused: string[] = [];
    expect(readChanges(edited as unknown as ChangeJson[], refused)).toEqual([]);
    expect(refused).toEqual([
      expect.stringContaining('changes[0].records[1]: the request does not send it') as unknown,
    ]);
  });

  it('refuses an add edited alike in its record change and in the body, as the zone reader reads it', () => {
    const { plan } = planOf(dns, records);
    const json = JSON.parse(JSON.stringify(plan.changes.map(changeToJson))) as ChangeJson[];
    type Op = { host: string; type: string; ttl: number };
    const cases: [string, (r: Op) => void, string][] = [
      ['host in upper case', (r) => (r.host = 'MAIL'), 'changes[0].records[1]: the request does not send it'],
      ['type in lower case', (r) => (r.type = 'a'), 'changes[0].records[1]: the request does not send it'],
      ['type empty', (r) => (r.type = ''), "changes[0].request.body.records: a record the zone's reader refuses"],
      [
        'TTL past a safe integer',
        (r) => (r.ttl = 1e20),
        "changes[0].request.body.records: a record the zone's reader refuses",
      ],
    ];
    for (const [, edit, problem] of cases) {
      const edited = JSON.parse(JSON.stringify(json)) as {
        records: Op[];
        request: { body: { records: { other: Op[] } } };
      }[];
      const [zone] = edited;
      const other = zone?.request.body.records.other ?? [];
      edit(zone?.records[1] as Op); // the add of mail
      edit(other[other.length - 1] as Op); // its line in the body, last
      const refused: string[] = [];
      expect(readChanges(edited as unknown as ChangeJson[], refused)).toEqual([]);
      expect(refused).toEqual([expect.stringContaining(problem) as unknown]);
    }
  });

  it('writes its request again byte for byte when read back: the body derived from what it keeps and its changes', () => {
    // A TTL read as a string, two equal records, an update, a remove and adds: the request as saved.
    const panel: RecordSpec[] = [
      ['WWW.Alice.Example.', 'a', '192.0.2.1', '3600'],
      ['@', 'A', '192.0.2.1', 60],
      ['@', 'A', '192.0.2.1', 60],
      ['old', 'TXT', 'x'],
    ];
    const want = wantZone(
      [
        ['www', 'A', '192.0.2.1', 3600],
        ['@', 'A', '192.0.2.1', 300],
        ['@', 'A', '192.0.2.1', 300],
        ['@', 'A', '192.0.2.1', 300],
        ['mail', 'A', '192.0.2.9'],
      ],
      { prune: true },
    );
    const { plan } = planOf(want, panel);
    const text = JSON.stringify(plan.changes.map(changeToJson));
    const problems: string[] = [];
    const read = readChanges(JSON.parse(text) as ChangeJson[], problems);
    expect(problems).toEqual([]);
    expect(JSON.stringify(read.map(changeToJson))).toBe(text);
    const change = zoneChange(plan);
    expect(zoneRequest(change).body).toEqual(zoneBodyOf(change));
    expect(zoneBodyOf(change)?.records.other).toHaveLength(5);
  });

  it('reads a body whose add an edit moved as saved: the add taken out where it stands', () => {
    const { plan } = planOf(dns, records);
    const json = JSON.parse(JSON.stringify(plan.changes.map(changeToJson))) as ChangeJson[];
    const edited = JSON.parse(JSON.stringify(json)) as { request: { body: { records: { other: unknown[] } } } }[];
    const other = edited[0]?.request.body.records.other ?? [];
    other.unshift(...other.splice(other.length - 1, 1)); // the added record's line first
    const problems: string[] = [];
    const [change] = readChanges(edited as unknown as ChangeJson[], problems);
    expect(problems).toEqual([]);
    // As saved, the add first: apply checks it against the zone it reads, as any body.
    expect(change?.type === 'dns_zone' && zoneBodyOf(change)?.records.other).toEqual(other);
    expect(other[0]).toEqual({ host: 'mail', ttl: 3600, type: 'A', value: '192.0.2.9' });
  });

  it("goes stale when the zone changes on the panel, and when the domain's id does", () => {
    const { plan, panel } = planOf(dns, records);
    expect(staleReasons(plan, panel)).toEqual([]);
    const raced = { ...panel, dns_zone: new Map([[A, liveZone(A, [...records, ['_acme-challenge', 'TXT', 't']])]]) };
    expect(planFingerprint(plan, raced)).not.toBe(planFingerprint(plan, panel));
    expect(staleReasons(plan, raced)).toEqual([
      expect.stringContaining('the zone of "alice.example" changed') as unknown,
    ]);
    const ttl = { ...panel, dns_zone: new Map([[A, liveZone(A, [...TWO, ['old', 'TXT', 'x', 60]])]]) };
    expect(staleReasons(plan, ttl)).toHaveLength(1);
    const moved = live([[1, 'alice', 1]], [[101, A, 1]], { zones: panel.dns_zone });
    expect(staleReasons(plan, moved)).toEqual([expect.stringContaining('now has id 101') as unknown]);
  });
});
