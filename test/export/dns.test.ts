/**
 * Export of DNS zones, pure (src/export/model.ts, write.ts, kinds/zone/export.ts): a custom
 * zone is written as a `dns` block (its most common TTL as the block's, records with their own
 * TTL only where it differs), a zone of the panel's defaults gets none; what the manifest cannot
 * hold is left out with a warning naming the domain and the record; values as data; and the text
 * validates and plans to no change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveModel } from '../../src/export/model.js';
import { manifestText } from '../../src/export/write.js';
import { commonTtl, zoneEntry } from '../../src/kinds/zone.js';
import { validateManifest } from '../../src/manifest/load.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { panelWithZones, type Rec, zone } from './dns-fixtures.js';

/** The export of `panel`: its text (from `clients:`), the warnings, the zone counts; it must validate and plan to no change. */
function exported(panel: Live): { text: string; warnings: string[]; counts: ReturnType<LiveModel['zoneCounts']> } {
  const warnings: string[] = [];
  const model = new LiveModel(panel);
  const entries = model.entries((w) => warnings.push(w));
  const text = manifestText(entries, []);
  const loaded = validateManifest(text, 'export.yaml');
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (loaded.desired === undefined) throw new Error('the export does not validate');
  expect(diff(loaded.desired, panel).changes).toEqual([]);
  return { text: text.slice(text.indexOf('clients:')), warnings, counts: model.zoneCounts(entries) };
}

describe('export --with dns', () => {
  it('a custom zone as a dns block: the common TTL, records in the panel order, own TTL only where it differs', () => {
    const { text, warnings, counts } = exported(
      panelWithZones([
        [
          'alice.example',
          1,
          zone('alice.example', [
            ['@', 'A', '192.0.2.10'],
            ['WWW', 'cname', 'alice.example.'],
            ['@', 'MX', '10 mail.alice.example.'],
            ['@', 'TXT', 'v=spf1 mx -all', 300],
            ['*', 'A', '192.0.2.11'],
            ['alice.example.', 'AAAA', '2001:db8::1', '86400'],
          ]),
        ],
        ['plain.example', 1, zone('plain.example', [['@', 'A', '192.0.2.1', 86400]], { custom: false })],
        ['bob.example', 2, zone('bob.example', [], { custom: true })],
        ['off.example', 2, zone('off.example', [['@', 'A', '192.0.2.1']], { disabled: true })],
        ['unsaid.example', 2, zone('unsaid.example', [['@', 'A', '192.0.2.1']], { custom: null })],
      ]),
    );
    expect(warnings).toEqual([]);
    expect(text).toBe(`clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          ttl: 3600
          records:
            - {host: "@", type: A, value: 192.0.2.10}
            - {host: www, type: CNAME, value: alice.example.}
            - {host: "@", type: MX, value: 10 mail.alice.example.}
            - {host: "@", type: TXT, value: v=spf1 mx -all, ttl: 300}
            - {host: "*", type: A, value: 192.0.2.11}
            - {host: "@", type: AAAA, value: 2001:db8::1, ttl: 86400}
      - plain.example
  - username: bob
    domains:
      - name: bob.example
        dns:
          records: []
      - off.example
      - unsaid.example
`);
    expect(counts).toEqual({ read: 5, written: 2, disabled: 1, unsaid: 1 });
  });

  it('without zones read (no --with dns) nothing changes: names alone', () => {
    const panel = panelWithZones([['alice.example', 1]]);
    expect(exported(panel).text).toBe(
      'clients:\n  - username: alice\n    domains:\n      - alice.example\n  - username: bob\n',
    );
  });

  it('a record the manifest cannot hold is left out with a warning naming the domain and the record as data', () => {
    const { text, warnings } = exported(
      panelWithZones([
        [
          'alice.example',
          1,
          zone('alice.example', [
            ['@', 'A', '192.0.2.10'],
            ['www', 'A', '192.0.2.10'],
            ['x', 'A', 'not-an-address'],
            ['bad host', 'TXT', 'a'],
            ['www.other.example.', 'A', '192.0.2.1'],
            ['@', 'TXT', 'two\nlines\u202e'],
            ['short', 'A', '192.0.2.2', 30],
            ['long', 'A', '192.0.2.3', 2_592_001],
            ['@', 'a', '192.0.2.10', 60],
          ]),
        ],
      ]),
    );
    expect(text).toContain(
      '          records:\n            - {host: www, type: A, value: 192.0.2.10}\n  - username: bob',
    );
    expect(text.match(/host:/g)).toHaveLength(1);
    const at = 'domain "alice.example" of client "alice": the panel\'s DNS record';
    const out = ': left out of "dns" (the panel keeps it)';
    expect(warnings).toEqual([
      `${at} A "x" "not-an-address" (ttl 3600) has a value that must be an IPv4 address, like 192.0.2.10${out}`,
      `${at} TXT "bad host" "a" (ttl 3600) has a host that must be "@" or labels of letters, digits, "-" and "_" (a leading "*." for a wildcard)${out}`,
      `${at} A "www.other.example." "192.0.2.1" (ttl 3600) has a host that is a name in another zone than "alice.example": its records belong in that zone${out}`,
      `${at} TXT "@" "two\\nlines\\u202e" (ttl 3600) has a value that holds a control character (a newline, a tab): remove it${out}`,
      `${at} A "short" "192.0.2.2" (ttl 30) has a TTL outside 60-2592000 seconds${out}`,
      `${at} A "long" "192.0.2.3" (ttl 2592001) has a TTL outside 60-2592000 seconds${out}`,
      `${at} A "@" "192.0.2.10" (ttl 60) is on the panel twice (a manifest lists a record once)${out}`,
      // A manifest listing the rest of a record set owns it: the record it cannot hold would go.
      `${at} A "@" "192.0.2.10" (ttl 3600) stands beside a record of its host the manifest cannot hold (listed, it would own that one and remove it)${out}`,
    ]);
  });

  it('no GET of a subdomain: zoneDomains passes over subdomains (said, or under a parent of the same client, or unsaid under any), system domains', () => {
    const panel = panelWithZones([
      ['alice.example', 1],
      ['shop.alice.example', 1, undefined, false],
      ['blog.alice.example', 1, undefined, true],
      ['x.bob.example', 1, undefined, false],
      ['y.bob.example', 1],
      ['bob.example', 2],
      ['sub.bob.example', 2],
      ['own.bob.example', 2, undefined, false],
    ]);
    const model = new LiveModel({
      ...panel,
      domain: {
        ...panel.domain,
        records: [...panel.domain.records, { id: 99, name: 'sys.example', idUser: 1, isSystem: true }],
      },
    });
    expect(model.zoneDomains().map((d) => d.name)).toEqual(['alice.example', 'x.bob.example', 'bob.example']);
    expect(model.zoneDomains((u) => u === 'bob').map((d) => d.name)).toEqual(['bob.example']);
  });

  it('values are data: quotes, " #", ": ", a leading "@" or "*", YAML words and numbers read back the same', () => {
    const values = [
      '"quoted"',
      "it's",
      'a #b',
      'k: v',
      '@start',
      '*star',
      'true',
      'null',
      '1e3',
      '0x10',
      '- dash',
      '{x}',
      '[y]',
      ' lead',
      'trail ',
      '%p',
      '`t',
      'ünï',
      'x'.repeat(300),
    ];
    const { text } = exported(
      panelWithZones([
        [
          'alice.example',
          1,
          zone(
            'alice.example',
            values.map((v): Rec => ['@', 'TXT', v]),
          ),
        ],
      ]),
    );
    expect(text.match(/type: TXT/g)).toHaveLength(values.length);
  });

  it('random TXT values (any characters) and TTLs: the export validates and plans to no change (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('@', 'www', '_dmarc', '*.shop', 'a-b'),
            fc.string({ unit: 'binary', maxLength: 40 }),
            fc.constantFrom(60, 300, 3600, 86400, 2_592_000),
          ),
          { maxLength: 8 },
        ),
        (list) => {
          // Values the manifest refuses (empty, a control character) are left out: the rest still validates.
          const recs = list.map(([h, v, t]): Rec => [h, 'TXT', v, t]);
          exported(panelWithZones([['alice.example', 1, zone('alice.example', recs)]]));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the block TTL', () => {
  it('is the most common TTL, the first met among equals; none when there are no records', () => {
    expect(commonTtl([{ ttl: 300 }, { ttl: 60 }, { ttl: 60 }])).toBe(60);
    expect(commonTtl([{ ttl: 300 }, { ttl: 60 }])).toBe(300);
    expect(commonTtl([])).toBeUndefined();
    expect(zoneEntry([])).toEqual({ records: [] });
    expect(zoneEntry([{ host: 'www', type: 'A', value: '192.0.2.1', ttl: 60 }])).toEqual({
      ttl: 60,
      records: [{ host: 'www', type: 'A', value: '192.0.2.1' }],
    });
  });
});
