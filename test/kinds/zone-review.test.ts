/**
 * The zone's room after issue 23's review: flags as panels spell them, a digest that does not
 * depend on the panel's record order, a saved change checked in comparison form, adds whose value
 * the panel holds written otherwise, a zone without a DKIM key, and the one place record changes
 * become the PUT's record list.
 */
import { describe, expect, it } from 'vitest';
import { refuseConflicts } from '../../src/api/prepare.js';
import { type DesiredZone, recordsAfter, zoneDiff } from '../../src/kinds/zone/diff.js';
import { updateZone, zoneBodyOf } from '../../src/kinds/zone/changes.js';
import { zoneProblems } from '../../src/kinds/zone/document.js';
import { zoneNotes } from '../../src/kinds/zone/phrases.js';
import { type LiveZone, parseZone, recordMultiset } from '../../src/kinds/zone/record.js';
import type { Plan } from '../../src/plan/types.js';
import { canonical } from '../../src/util.js';

const ZONE = 'alice.example';
const SOA = { ttl: 86400, primary_ns: 'ns1.example.', rname: 'hostmaster.example.' };

function read(other: unknown[], extra: Record<string, unknown> = { dkim_record: 'v=DKIM1; p=x' }): LiveZone {
  const parsed = parseZone({ ...extra, records: { soa: SOA, other } }, ZONE);
  if (!('zone' in parsed)) throw new Error(parsed.problem);
  return parsed.zone;
}

const want = (records: DesiredZone['records'], prune = false): DesiredZone => ({ records, prune, keep: [] });
const domain = { name: ZONE, id: 7, client: 'alice' };

describe('the review of issue 23', () => {
  it('reads is_dns_disabled and is_custom_dns as "true"/"false" strings', () => {
    const zone = read([], { is_dns_disabled: 'true', is_custom_dns: 'TRUE' });
    expect([zone.isDisabled, zone.isCustom]).toEqual([true, true]);
    expect(read([], { is_dns_disabled: 'false', is_custom_dns: 'false' })).toMatchObject({
      isDisabled: false,
      isCustom: false,
    });
  });

  it('gives the same digest whatever order the panel lists its records in', () => {
    const a = { host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 };
    const b = { host: 'www', type: 'A', value: '192.0.2.2', ttl: 3600 };
    expect(read([a, b]).digest).toBe(read([b, a]).digest);
    expect(read([a, b]).digest).not.toBe(read([a, { ...b, ttl: 60 }]).digest);
    expect(read([a, a]).digest).not.toBe(read([a]).digest); // a multiset: two equal records are two
  });

  it('checks a saved change\'s body in comparison form: the panel\'s "" and "WWW" are @ and www', () => {
    const zone = read([
      { host: '', type: 'a', value: '192.0.2.1', ttl: 3600 },
      { host: 'WWW', type: 'A', value: '192.0.2.2', ttl: 3600 },
      { host: 'mail.alice.example.', type: 'A', value: '192.0.2.3', ttl: 3600 },
    ]);
    const change = updateZone(
      domain,
      want([
        { host: '@', type: 'A', value: '192.0.2.1', ttl: 300 },
        { host: 'www', type: 'A', value: '192.0.2.2', ttl: 300 },
        { host: 'mail', type: 'A', value: '192.0.2.3', ttl: 300 },
      ]),
      zone,
      [],
    );
    expect(change?.records.map((r) => r.op)).toEqual(['update', 'update', 'update']);
    expect(change && zoneProblems(change, 'changes[0]')).toEqual([]);
    // An edited TTL in the body is still caught.
    const edited = change && {
      ...change,
      kept: change.kept && {
        ...change.kept,
        records: change.kept.records.map((r) => ({ ...r, ttl: 9, raw: { ...r.raw, ttl: 9 } })),
      },
    };
    expect(edited && zoneProblems(edited, 'changes[0]')).toHaveLength(3);
  });

  it('warns of an add whose value the panel holds with a trailing dot or in another case', () => {
    const zone = read([
      { host: 'blog', type: 'CNAME', value: 'alice.example.', ttl: 3600 },
      { host: '@', type: 'MX', value: '10 Mail.alice.example', ttl: 3600 },
    ]);
    const change = updateZone(
      domain,
      want([
        { host: 'blog', type: 'CNAME', value: 'alice.example', ttl: 3600 },
        { host: '@', type: 'MX', value: '10 mail.alice.example.', ttl: 3600 },
        { host: 'x', type: 'A', value: '192.0.2.9', ttl: 3600 },
      ]),
      zone,
      [],
    );
    const notes = change === undefined ? [] : zoneNotes(change);
    expect(notes.filter((n) => n.startsWith('warning:'))).toEqual([
      'warning: CNAME blog alice.example (ttl 3600): the panel holds alice.example.; write the value as the panel does (else the record is added again on every apply)',
      'warning: MX @ "10 mail.alice.example." (ttl 3600): the panel holds "10 Mail.alice.example"; write the value as the panel does (else the record is added again on every apply)',
    ]);
  });

  it('leaves dkim_record out of the body when the zone had none, and sends it back when it had one', () => {
    const a = { host: '@', type: 'A', value: '192.0.2.1', ttl: 3600 };
    const add = want([{ host: 'www', type: 'A', value: '192.0.2.2', ttl: 3600 }]);
    const without = updateZone(domain, add, read([a], {}), []);
    expect(without && 'dkim_record' in (zoneBodyOf(without) ?? {})).toBe(false);
    const withNull = updateZone(domain, add, read([a], { dkim_record: null }), []);
    expect(withNull && zoneBodyOf(withNull)).toMatchObject({ dkim_record: null });
  });

  it('recordsAfter makes of the ops what zoneDiff sent, in any read order, and refuses ops the zone cannot take', () => {
    const other = [
      { host: 'x', type: 'A', value: '192.0.2.1', ttl: 600, id: 1 },
      { host: 'x', type: 'A', value: '192.0.2.1', ttl: 300, id: 2 },
      { host: 'x', type: 'A', value: '192.0.2.1', ttl: 300, id: 3 },
      { host: 'y', type: 'TXT', value: 'old', ttl: 300, id: 4 },
    ];
    const zone = read(other);
    const w = want(
      [
        { host: 'x', type: 'A', value: '192.0.2.1', ttl: 300 },
        { host: 'z', type: 'A', value: '192.0.2.5', ttl: 60 },
      ],
      true,
    );
    const { ops, other: sent } = zoneDiff(w, zone.records);
    const shuffled = read([...other].reverse());
    const again = recordsAfter(shuffled.records, ops);
    expect('other' in again && canonical(recordMultiset(again.other))).toBe(canonical(recordMultiset(sent)));
    expect(sent.map((r) => r.id ?? r.host)).toEqual([2, 'z']); // the first by canonical JSON stays
    expect(recordsAfter(read([]).records, ops)).toMatchObject({ problem: expect.stringContaining('"x"') as unknown });
  });

  it('counts a dns conflict apart from ownership, with its own sentence and hint', () => {
    const plan = {
      conflicts: [{ domain: 'shop.alice.example', client: 'alice', owner: 'alice', dns: 'subdomain' }],
    } as unknown as Plan;
    let error: unknown;
    try {
      refuseConflicts(plan);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      message:
        '1 domain of the manifest manages "dns" the panel has no zone to write for: apply sends nothing until this is resolved',
      hint: expect.stringContaining('remove "dns"') as unknown,
    });
  });
});
