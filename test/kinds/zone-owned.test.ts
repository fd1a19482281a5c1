/**
 * Issue 30 in the zone's room: what a manifest names it owns (record sets, a CNAME's host), ACME
 * records kept, the zone after apply checked (each rule, listed and panel records), the apex NS
 * beside a delegation under prune, values at 65535, a TTL read as a string sent as a number,
 * dns.keep checked as prune.keep is, a relative CNAME target warned of, and the diff linear.
 */
import { describe, expect, it } from 'vitest';
import { checkValue } from '../../src/kinds/zone/values.js';
import { type LiveRecord, parseZone } from '../../src/kinds/zone/record.js';
import { type DesiredZone, recordsAfter, zoneDiff } from '../../src/kinds/zone/diff.js';
import { type DnsRecord } from '../../src/kinds/zone/record.js';
import { zoneIssues } from '../../src/kinds/zone/check.js';
import { zoneConflicts, zoneConflictText } from '../../src/kinds/zone/conflicts.js';
import { itemZone } from '../../src/kinds/zone/manifest.js';
import { recordPlaces } from '../../src/kinds/zone/places.js';
import { writableRecords } from '../../src/kinds/zone/export.js';
import { patternProblem } from '../../src/manifest/prune.js';

const live = (host: string, type: string, value: string, ttl = 3600): LiveRecord => ({
  host,
  type,
  value,
  ttl,
  raw: { host, ttl, type, value },
});
const rec = (host: string, type: string, value: string, ttl = 3600): DnsRecord => ({ host, type, value, ttl });
const want = (records: DnsRecord[], prune = false, keep: string[] = []): DesiredZone => ({ records, prune, keep });
const ops = (w: DesiredZone, zone: LiveRecord[]) =>
  zoneDiff(w, zone).ops.map((o) => `${o.op} ${o.host} ${o.type} ${o.value}`);

describe('what a manifest names, it owns', () => {
  it('a listed (host, type) replaces the set, SPF included; other pairs stay without prune', () => {
    const zone = [
      live('@', 'TXT', 'v=spf1 mx a ~all'),
      live('@', 'TXT', 'google-site-verification=x'),
      live('@', 'A', '192.0.2.1'),
      live('www', 'TXT', 'kept'),
    ];
    expect(ops(want([rec('@', 'TXT', 'v=spf1 -all')]), zone)).toEqual([
      'add @ TXT v=spf1 -all',
      'remove @ TXT v=spf1 mx a ~all',
      'remove @ TXT google-site-verification=x',
    ]);
  });

  it('a listed CNAME owns its whole host; a listed A at a host owns only the A there', () => {
    const zone = [live('www', 'A', '192.0.2.1'), live('www', 'AAAA', '2001:db8::1'), live('www', 'TXT', 't')];
    expect(ops(want([rec('www', 'CNAME', 'alice.example.')]), zone)).toEqual([
      'add www CNAME alice.example.',
      'remove www A 192.0.2.1',
      'remove www AAAA 2001:db8::1',
      'remove www TXT t',
    ]);
    expect(ops(want([rec('www', 'A', '192.0.2.9')]), zone)).toEqual(['add www A 192.0.2.9', 'remove www A 192.0.2.1']);
  });

  it('ACME records stay, prune or not, keep or not, unless the manifest lists a record at their host', () => {
    const zone = [
      live('_acme-challenge', 'TXT', 'token-1'),
      live('_acme-challenge.shop', 'TXT', 'token-2'),
      live('_acme-challengex', 'TXT', 'not-acme'),
    ];
    expect(ops(want([], true), zone)).toEqual(['remove _acme-challengex TXT not-acme']);
    // A record listed at the host: the manifest manages that host (its TXT set, here).
    expect(ops(want([rec('_acme-challenge', 'TXT', 'mine')], true), zone)).toEqual([
      'add _acme-challenge TXT mine',
      'remove _acme-challenge TXT token-1',
      'remove _acme-challengex TXT not-acme',
    ]);
    expect(ops(want([rec('_acme-challenge.shop', 'CNAME', 'acme.example.')]), zone)).toEqual([
      'add _acme-challenge.shop CNAME acme.example.',
      'remove _acme-challenge.shop TXT token-2',
    ]);
  });

  it('an NS delegation listed with prune: the unlisted apex NS stay (the zone stays on the internet)', () => {
    const zone = [
      live('@', 'NS', 'ns1.sim.keyhelp.test.'),
      live('@', 'NS', 'ns2.sim.keyhelp.test.'),
      live('sub', 'NS', 'ns.old.example.'),
      live('@', 'A', '192.0.2.1'),
    ];
    expect(ops(want([rec('sub', 'NS', 'ns1.other.example.')], true), zone)).toEqual([
      'add sub NS ns1.other.example.',
      'remove sub NS ns.old.example.',
      'remove @ A 192.0.2.1',
    ]);
  });

  it("sends a kept record's TTL read as a string back as the number it says", () => {
    const read = parseZone(
      { records: { soa: {}, other: [{ host: '@', ttl: '3600', type: 'A', value: '192.0.2.1', id: 4 }] } },
      'alice.example',
    );
    if (!('zone' in read)) throw new Error(read.problem);
    const { other } = zoneDiff(want([rec('www', 'A', '192.0.2.2')]), read.zone.records);
    expect(other).toEqual([
      { host: '@', ttl: 3600, type: 'A', value: '192.0.2.1', id: 4 },
      { host: 'www', ttl: 3600, type: 'A', value: '192.0.2.2' },
    ]);
  });

  it('makes the same record list of the same zone in any order (updates the first, removes the last alike)', () => {
    const a = (id: number, ttl = 60): LiveRecord => ({
      ...live('@', 'A', '192.0.2.1', ttl),
      raw: { host: '@', ttl, type: 'A', value: '192.0.2.1', id },
    });
    const zone = [a(1), a(2), a(3), live('x', 'A', '192.0.2.5')];
    const changes = [
      { op: 'update' as const, host: '@', type: 'A', value: '192.0.2.1', ttl: 300, ttl_before: 60 },
      { op: 'remove' as const, host: '@', type: 'A', value: '192.0.2.1', ttl: 60 },
    ];
    const forward = recordsAfter(zone, changes);
    const backward = recordsAfter([...zone].reverse(), changes);
    const sorted = (r: typeof forward) => ('other' in r ? r.other.map((o) => JSON.stringify(o)).sort() : r.problem);
    expect(sorted(forward)).toEqual(sorted(backward));
    expect(sorted(forward)).toEqual([
      JSON.stringify({ host: '@', ttl: 300, type: 'A', value: '192.0.2.1', id: 1 }),
      JSON.stringify({ host: '@', ttl: 60, type: 'A', value: '192.0.2.1', id: 2 }),
      JSON.stringify({ host: 'x', ttl: 3600, type: 'A', value: '192.0.2.5' }),
    ]);
  });
});

describe('the zone after apply, checked', () => {
  const Z = 'alice.example';
  const rules = (w: DnsRecord[], after: DnsRecord[]) =>
    zoneIssues({ records: w }, after, Z).map(
      (i) =>
        `${i.rule} ${i.record.host} ${i.record.type} ${i.other?.host ?? ''} ${i.other?.type ?? ''}${i.other?.listed === undefined ? '' : ' listed'}`,
    );

  it("a CNAME at the apex; a CNAME beside a listed record; a listed record beside the panel's CNAME", () => {
    const apex = rec('@', 'CNAME', 'x.example.');
    expect(rules([apex], [apex])).toEqual(['cname_at_apex @ CNAME  ']);
    const cname = rec('www', 'CNAME', 'x.example.');
    const a = rec('www', 'A', '192.0.2.1');
    expect(rules([cname, a], [cname, a])).toEqual(['cname_beside www CNAME www A listed']);
    expect(rules([a], [cname, a])).toEqual(['cname_beside www A www CNAME']);
    // The panel's own fault alone is not the manifest's.
    expect(rules([], [cname, a])).toEqual([]);
  });

  it('two SPF records at one host (TXT and the old SPF type); an MX or NS at a CNAME', () => {
    const spf = rec('@', 'TXT', 'v=spf1 -all');
    expect(rules([spf], [rec('@', 'SPF', 'v=spf1 mx ~all'), spf])).toEqual(['two_spf @ TXT @ SPF']);
    expect(rules([spf, rec('@', 'TXT', '"v=spf1 a -all"')], [spf, rec('@', 'TXT', '"v=spf1 a -all"')])).toEqual([
      'two_spf @ TXT @ TXT listed',
    ]);
    expect(rules([spf], [spf, rec('@', 'TXT', 'v=spf10 not-spf')])).toEqual([]);
    const mx = rec('@', 'MX', '65535 mail.alice.example.');
    const alias = rec('mail', 'CNAME', 'mx.provider.example.');
    expect(rules([mx], [mx, alias])).toEqual(['target_is_cname @ MX mail CNAME']);
    expect(rules([alias], [mx, alias])).toEqual(['target_is_cname mail CNAME @ MX']);
    const ns = rec('sub', 'NS', 'ns');
    expect(rules([ns], [ns, rec('ns', 'CNAME', 'x.example.')])).toEqual(['target_is_cname sub NS ns CNAME']);
    expect(rules([mx], [mx, rec('mail', 'CNAME', 'x.', 1)].slice(0, 1))).toEqual([]);
  });

  it("a plan's conflict names the record by its number, the panel's record and the fix", () => {
    const w: DesiredZone = {
      ...want([rec('www', 'A', '192.0.2.1')]),
      origin: recordPlaces([2], 1, () => ({ line: 9, column: 15 })),
    };
    const conflicts = zoneConflicts({ name: Z, client: 'alice' }, w, { records: [live('www', 'CNAME', 'x.example.')] });
    expect(conflicts.map(zoneConflictText)).toEqual([
      '"dns" record #3 (A www 192.0.2.1) of domain "alice.example" of client "alice" would stand at host "www" ' +
        "beside the panel's CNAME www x.example., which the manifest does not list: an alias has no other records " +
        '(RFC 1034); remove the CNAME (prune: true removes it, or delete it in the panel), or remove this record',
    ]);
    // With prune the unlisted CNAME goes: no conflict.
    expect(
      zoneConflicts(
        { name: Z, client: 'alice' },
        { ...w, prune: true },
        { records: [live('www', 'CNAME', 'x.example.')] },
      ),
    ).toEqual([]);
  });
});

describe('the manifest', () => {
  it('takes MX and SRV numbers at 65535, and refuses 65536', () => {
    expect(checkValue('MX', '65535 mail.alice.example.')).toBeUndefined();
    expect(checkValue('MX', '65536 mail.alice.example.')?.severity).toBe('error');
    expect(checkValue('SRV', '65535 65535 65535 sip.alice.example.')).toBeUndefined();
    expect(checkValue('SRV', '0 0 65536 sip.alice.example.')?.severity).toBe('error');
    expect(checkValue('SRV', '65536 0 5060 sip.alice.example.')?.severity).toBe('error');
  });

  const domain = 'domain "alice.example" in client "alice"';
  const read = (dns: unknown) =>
    itemZone({ name: 'alice.example', dns }, domain, 'alice.example', () => 1, { keepProblem: patternProblem });

  it('checks dns.keep as prune.keep: a trailing dot keeps nothing', () => {
    const { dns, problems } = read({ records: [], prune: true, keep: ['_acme-challenge.', 'ok*'] });
    expect(problems.filter((p) => p.path.join('.') === 'dns.keep.0').map((p) => `${p.severity}: ${p.message}`)).toEqual(
      [
        'error: pattern #1 in "dns.keep" of domain "alice.example" in client "alice" ends with a dot, which no name ' +
          'has (names are compared without it), so it would keep nothing: write "_acme-challenge"',
      ],
    );
    expect(problems.filter((p) => p.path.join('.') === 'dns.keep.1')).toEqual([]);
    expect(dns?.keep).toEqual(['_acme-challenge.', 'ok*']);
  });

  it('warns of a CNAME target without a trailing dot, saying what DNS reads', () => {
    const { problems } = read({
      records: [
        { host: 'www', type: 'CNAME', value: 'alice.example' },
        { host: 'blog', type: 'CNAME', value: 'www' },
        { host: 'shop', type: 'CNAME', value: 'shops.example.' },
      ],
    });
    expect(problems.map((p) => `${p.severity} ${p.path.join('.')} ${p.message}`)).toEqual([
      'warning dns.records.0.value "value" of "dns" record #1 of domain "alice.example" in client "alice" "alice.example" has no trailing dot: DNS reads it relative to the zone, as "alice.example.alice.example."; write "alice.example." for the name as written',
      'warning dns.records.1.value "value" of "dns" record #2 of domain "alice.example" in client "alice" "www" has no trailing dot: DNS reads it relative to the zone, as "www.alice.example."; write "www.alice.example." to say so',
    ]);
  });
});

describe('export of a zone', () => {
  it('leaves out ACME records, and what a listing would break or remove: a broken host, a set beside an unwritable record', () => {
    const zone = {
      records: [
        live('@', 'A', '192.0.2.1'),
        live('www', 'CNAME', 'alice.example.'),
        live('www', 'A', '192.0.2.1'),
        live('@', 'TXT', 'v=spf1 -all'),
        live('@', 'TXT', 'v=spf1 mx -all'),
        live('_acme-challenge', 'TXT', 'token'),
        live('x', 'TXT', 'ok'),
        live('x', 'TXT', 'bad\n'),
      ],
    };
    const { records, unwritable, transient } = writableRecords(zone, 'alice.example');
    expect(records.map((r) => `${r.host} ${r.type}`)).toEqual(['@ A']);
    expect(transient.map((r) => r.host)).toEqual(['_acme-challenge']);
    expect(unwritable.map((u) => `${u.record.host} ${u.record.type} ${u.record.value}`)).toEqual([
      'x TXT bad\n',
      'www CNAME alice.example.',
      'www A 192.0.2.1',
      '@ TXT v=spf1 -all',
      '@ TXT v=spf1 mx -all',
      'x TXT ok',
    ]);
    // What is written plans to no change: nothing it lists breaks the zone or owns a record left out.
    const want: DesiredZone = { records: [...records], prune: false, keep: [] };
    expect(zoneDiff(want, zone.records).ops).toEqual([]);
    expect(zoneConflicts({ name: 'alice.example', client: 'alice' }, want, zone)).toEqual([]);
  });
});
