/**
 * A zone block's records as itemZone keeps them (issue 30, 7f): each record made once, its place
 * packed (places.ts), duplicates found through an Int32Array table (first-listed.ts) and CNAMEs
 * beside other records through a map of the CNAMEs' hosts only. Held to the former rule (a Map
 * of every record's key, a map of every host's first two records) on random blocks, and the
 * places read back where a refused record moves the others' indexes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemZone } from '../../src/kinds/zone/manifest.js';
import { originOfIndex, recordOrigin, recordPlaces } from '../../src/kinds/zone/places.js';
import { recordKey, type DnsRecord } from '../../src/kinds/zone/record.js';
import { checkValue, RECORD_TYPES, recordHost } from '../../src/kinds/zone/values.js';
import { zoneConflicts } from '../../src/kinds/zone/conflicts.js';

const DOMAIN = 'domain "alice.example" in client "alice"';
const ZONE = 'alice.example';
const lineOf = (path: readonly (string | number)[]): number => 100 + Number(path[2] ?? 0);
const at = (path: readonly (string | number)[]) => ({ line: 100 + Number(path[2] ?? 0), column: 7 });

/** The former rule: the records takeRecord keeps, a Map of each one's key, each host's first two. */
function formerRule(listed: readonly unknown[]): { records: DnsRecord[]; indexes: number[]; said: string[] } {
  const taken: { r: DnsRecord; index: number }[] = [];
  listed.forEach((item, index) => {
    const { host, type, value } = item as { host: string; type: string; value: string };
    const read = recordHost(host, ZONE);
    const upper = type.toUpperCase();
    const refused = RECORD_TYPES[upper] === undefined && checkValue(upper, '-')?.severity === 'error';
    if ('host' in read && !refused) taken.push({ r: { host: read.host, type: upper, value, ttl: 3600 }, index });
  });
  const said: string[] = [];
  const first = new Map<string, number>();
  const unique = taken.filter(({ r, index }) => {
    const earlier = first.get(recordKey(r));
    if (earlier === undefined) first.set(recordKey(r), index);
    else said.push(`twice ${index} first ${earlier} line ${lineOf(['dns', 'records', earlier])}`);
    return earlier === undefined;
  });
  const firstTwo = new Map<string, { r: DnsRecord; index: number }[]>();
  for (const t of unique) {
    const list = firstTwo.get(t.r.host) ?? [];
    if (list.length < 2) list.push(t);
    firstTwo.set(t.r.host, list);
  }
  for (const t of unique) {
    const other = t.r.type === 'CNAME' ? firstTwo.get(t.r.host)?.find((o) => o !== t) : undefined;
    if (other !== undefined) said.push(`cname ${t.index} beside ${other.index} ${other.r.type}`);
  }
  return { records: unique.map((t) => t.r), indexes: unique.map((t) => t.index), said };
}

/** What itemZone said of duplicates and CNAMEs, in the former rule's words. */
function saidOf(problems: readonly { path: readonly unknown[]; message: string }[]): string[] {
  return problems.flatMap(({ path, message }) => {
    const twice = /is listed twice: record #(\d+) \(line (\d+)\)/.exec(message);
    if (twice !== null) return [`twice ${String(path[2])} first ${Number(twice[1]) - 1} line ${twice[2]}`];
    const cname = /beside another record there \(record #(\d+), (\S+), line/.exec(message);
    if (cname !== null) return [`cname ${String(path[2])} beside ${Number(cname[1]) - 1} ${cname[2]}`];
    return [];
  });
}

describe("a zone block's records, read", () => {
  it('finds duplicates and CNAMEs beside others as the former rule did, and keeps each place', () => {
    const record = fc.record({
      host: fc.constantFrom('@', 'www', 'WWW', 'mail', 'a.b', 'bad host', 'alice.example.'),
      type: fc.constantFrom('A', 'a', 'CNAME', 'TXT', 'MX', 'B@D'),
      value: fc.constantFrom('192.0.2.1', '192.0.2.2', 'x.example.', '10 mail.example.', 'v=spf1 -all'),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), (listed) => {
        const { dns, problems } = itemZone({ name: ZONE, dns: { records: listed } }, DOMAIN, ZONE, lineOf, { at });
        const former = formerRule(listed);
        expect(saidOf(problems)).toEqual(former.said);
        expect(dns?.records).toEqual(former.records);
        if (dns?.origin === undefined) throw new Error('no origin');
        former.indexes.forEach((index, listedAt) => {
          const place = { index, line: 100 + index, column: 7 };
          expect(recordOrigin(dns, listedAt)).toEqual(place);
          expect(originOfIndex(dns, index)).toEqual(place);
        });
        expect(recordOrigin(dns, former.indexes.length)).toBeUndefined();
        // An index no record kept stands at has no place.
        for (let index = 0; index < listed.length; index++)
          if (!former.indexes.includes(index)) expect(originOfIndex(dns, index)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('finds each duplicate in a zone of 20,000 records, named by the first', () => {
    const listed = Array.from({ length: 20_000 }, (_, i) => ({
      host: `h${i % 7000}`,
      type: 'A',
      value: `192.0.2.${(i % 2) + 1}`,
    }));
    const { dns, problems } = itemZone({ name: ZONE, dns: { records: listed } }, DOMAIN, ZONE, lineOf, { at });
    const former = formerRule(listed);
    expect(former.said.length).toBeGreaterThan(0);
    expect(saidOf(problems)).toEqual(former.said);
    expect(dns?.records).toEqual(former.records);
  });

  it('keeps no index while every record stands at its own place, and reads packed places back', () => {
    const records = (n: number) => ({ length: n });
    const places = recordPlaces([0, 1, 2], 3, (index) => ({ line: 10 + index, column: index }));
    expect(places).toEqual([10, 0, 11, 1, 12, 2]);
    const moved = recordPlaces([1, 4, 9], 2, (index) => ({ line: 10 + index, column: 3 }));
    expect(moved).toEqual([1, 11, 3, 4, 14, 3]);
    const zone = { records: records(2), origin: moved };
    expect(recordOrigin(zone, 1)).toEqual({ index: 4, line: 14, column: 3 });
    expect(originOfIndex(zone, 4)).toEqual({ index: 4, line: 14, column: 3 });
    expect([0, 2, 3, 5, -1, 0.5].map((i) => originOfIndex(zone, i))).toEqual(Array(6).fill(undefined));
    expect([-1, 2, 0.5].map((i) => recordOrigin(zone, i))).toEqual([undefined, undefined, undefined]);
    expect(recordOrigin({ records: records(2) }, 0)).toBeUndefined();
    // A long list is an Int32Array: 4 bytes a number.
    const many = Array.from({ length: 40 }, (_, i) => i);
    const long = recordPlaces(many, 40, (index) => ({ line: 10 + index, column: 5 }));
    expect(long).toBeInstanceOf(Int32Array);
    expect(recordOrigin({ records: records(40), origin: long }, 39)).toEqual({ index: 39, line: 49, column: 5 });
  });

  it("names a conflict's record by its index in the block when a refused record stands before it", () => {
    const { dns } = itemZone(
      {
        name: ZONE,
        dns: {
          records: [
            { host: 'bad host', type: 'A', value: '192.0.2.1' },
            { host: 'www', type: 'A', value: '192.0.2.1' },
          ],
        },
      },
      DOMAIN,
      ZONE,
      lineOf,
      { at },
    );
    if (dns === undefined) throw new Error('no zone');
    const live = { host: 'www', type: 'CNAME', value: 'x.example.', ttl: 3600, raw: {} };
    const [conflict] = zoneConflicts({ name: ZONE, client: 'alice' }, dns, { records: [live] });
    expect(conflict?.record.index).toBe(1);
  });
});
