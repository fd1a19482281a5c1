/**
 * A domain's `dns` block in the manifest (docs/manifest.md, "DNS records"; issue 23, item 1): it gives
 * DesiredDomain.dns (hosts in comparison form, types upper-case, values as written, TTLs
 * resolved); bad values give located errors, what a panel can hold gives located warnings; the
 * chunked read gives the whole read's answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DnsRecord, TTL_RANGE } from '../../src/kinds/zone.js';
import { parseManifest } from '../../src/manifest/index.js';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { at, domains, FILE, manifest, report } from '../helpers/domain-items.js';

/** The three reads of `text` agree (chunked.test.ts's rule), in batches of `batchChars`. */
function agree(text: string, batchChars: number): void {
  const whole = parseManifestWhole(text, FILE);
  expect(validateManifest(text, FILE)).toEqual(whole);
  const chunked = parseManifestChunked(text, FILE, batchChars);
  if (chunked !== undefined) expect(chunked).toEqual(whole);
  expect(parseManifestChunked(text, FILE, batchChars, true)).toEqual(whole);
}

const FULL = manifest(
  '- name: alice.example',
  '  dns:',
  '    ttl: 600',
  '    records:',
  '      - {host: "@", type: A, value: 192.0.2.10}',
  '      - {host: WWW, type: cname, value: alice.example.}',
  '      - {host: "@", type: MX, value: "10 mail.alice.example.", ttl: 300}',
  '      - host: _dmarc',
  '        type: TXT',
  '        value: "v=DMARC1; p=none"',
  '      - {host: _acme-challenge.shop, type: TXT, value: token}',
  '    prune: true',
  '    keep: ["_acme-challenge*"]',
  '- name: bob.example',
  '  dns: {records: [{host: "", type: AAAA, value: "2001:db8::10"}]}',
  '- shop.alice.example',
);

describe('dns, valid', () => {
  it('gives DesiredDomain.dns: hosts lowercase ("@" the apex), types upper-case, TTLs resolved', () => {
    expect(parseManifest(FULL, FILE).diagnostics).toEqual([]);
    expect(domains(FULL)).toEqual([
      {
        name: 'alice.example',
        input: 'alice.example',
        state: 'present',
        dns: {
          records: [
            { host: '@', type: 'A', value: '192.0.2.10', ttl: 600 },
            { host: 'www', type: 'CNAME', value: 'alice.example.', ttl: 600 },
            { host: '@', type: 'MX', value: '10 mail.alice.example.', ttl: 300 },
            { host: '_dmarc', type: 'TXT', value: 'v=DMARC1; p=none', ttl: 600 },
            { host: '_acme-challenge.shop', type: 'TXT', value: 'token', ttl: 600 },
          ],
          prune: true,
          keep: ['_acme-challenge*'],
          origin: expect.any(Array) as unknown[],
        },
        loc: at(5, 15),
      },
      {
        name: 'bob.example',
        input: 'bob.example',
        state: 'present',
        dns: {
          records: [{ host: '@', type: 'AAAA', value: '2001:db8::10', ttl: 3600 }],
          prune: false,
          keep: [],
          // Each record's place, for a conflict at its line: line and column, packed (places.ts).
          origin: [19, 25],
        },
        loc: at(18, 15),
      },
      { name: 'shop.alice.example', input: 'shop.alice.example', state: 'present', loc: at(20, 9) },
    ]);
  });

  it('the chunked read gives the whole read answer', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      [
        `  - username: u${i}`,
        '    domains:',
        `      - name: d${i}.example`,
        '        dns:',
        '          records:',
        '            - host: www',
        '              type: CNAME',
        `              value: d${i}.example.`,
        `            - {host: "@", type: A, value: 192.0.2.${i}, ttl: ${600 + i}}`,
        '          prune: false',
      ].join('\n'),
    );
    const text = `version: 1\nclients:\n${many.join('\n')}\n`;
    const whole = parseManifestWhole(text, FILE);
    expect(whole.diagnostics).toEqual([]);
    expect(whole.desired?.clients[29]?.domains[0]?.dns).toEqual({
      records: [
        { host: 'www', type: 'CNAME', value: 'd29.example.', ttl: 3600 },
        { host: '@', type: 'A', value: '192.0.2.29', ttl: 629 },
      ],
      prune: false,
      keep: [],
      origin: expect.any(Array) as unknown[],
    });
    expect(parseManifestChunked(text, FILE, 200)).toEqual(whole);
    for (const text of [FULL]) for (const batchChars of [1, 64, 4096]) agree(text, batchChars);
  });
});

describe('dns, where it may stand', () => {
  it('is refused on a domain marked absent and on a subdomain of a domain the client lists', () => {
    const text = manifest(
      '- name: alice.example',
      '  dns: {records: []}',
      '- name: Shop.Alice.Example',
      '  dns: {records: [{host: "@", type: A, value: 192.0.2.10}]}',
      '- {name: old.example, state: absent, dns: {records: []}}',
      '- name: x.shop.alice.example',
      '  dns: {records: []}',
    );
    expect(report(text)).toEqual([
      'm.yaml:8:9: error: domain "Shop.Alice.Example" in client "alice" is a subdomain of "alice.example" (line 5): ' +
        'its records live in the zone of "alice.example"; write them in the "dns" of "alice.example" with hosts ' +
        'relative to it: host "shop" for this domain\'s "@", "_acme-challenge.shop" for its "_acme-challenge"',
      'm.yaml:9:44: error: domain "old.example" in client "alice" has state: absent and "dns": ' +
        'a domain that is deleted has no zone; remove "dns", or the state',
      'm.yaml:11:9: error: domain "x.shop.alice.example" in client "alice" is a subdomain of "alice.example" (line 5): ' +
        'its records live in the zone of "alice.example"; write them in the "dns" of "alice.example" with hosts ' +
        'relative to it: host "x.shop" for this domain\'s "@", "_acme-challenge.x.shop" for its "_acme-challenge"',
    ]);
    expect(parseManifest(text, FILE).desired).toBeUndefined();
    for (const batchChars of [1, 64, 4096]) agree(text, batchChars);
  });
});

const ERRORS = manifest(
  '- name: a.example',
  '  dns:',
  '    ttl: 30',
  '    records:',
  '      - {host: www.a.example., type: A, value: 192.0.2.1}',
  '      - {host: mail.b.example., type: A, value: 192.0.2.1}',
  '      - {host: www.a.example, type: A, value: 192.0.2.1}',
  '      - {host: "a b", type: A, value: 192.0.2.1}',
  '      - {host: www, type: A, value: 192.0.2.300}',
  '      - {host: www, type: MX, value: 10}',
  '      - {host: www, type: "A-B", value: x}',
  '      - {host: www, type: TXT, value: "", ttl: 3000000}',
  '      - {host: "@", type: mx, value: "10 mail.a.example."}',
  '      - {host: "@", type: MX, value: "10 mail.a.example.", ttl: 60}',
  '      - {host: www, typ: A, value: 192.0.2.1, tll: 60}',
  '      - {host: www, value: 192.0.2.1}',
  '      - www A 192.0.2.1',
  '      - {host: 7, type: [A], value: true, ttl: 2.5}',
  '    prune: yes',
  '    keep: ["a b", 3]',
  '    purne: true',
  '- {name: b.example, dns: {ttl: 60}}',
  '- {name: c.example, dns: [{host: "@"}]}',
  '- {name: d.example, dns: {records: {host: "@"}, keep: _acme*}}',
);

const WARNINGS = manifest(
  '- name: a.example',
  '  dns:',
  '    records:',
  '      - {host: www, type: CNAME, value: a.example.}',
  '      - {host: WWW, type: TXT, value: hello}',
  '      - {host: "@", type: txt, value: "' + 'x'.repeat(300) + '"}',
  '      - {host: "@", type: tlsa, value: "3 1 1 abcdef"}',
  '      - {host: "@", type: CAA, value: "0 issues \\"letsencrypt.org\\""}',
  '    keep: ["_acme-challenge*", "x.a.example"]',
  '- {name: b.example, dns: {records: [], prune: true}}',
);

describe('dns, refused', () => {
  it('each bad value is an error at its value, in words that say what to write', () => {
    expect(report(ERRORS)).toMatchInlineSnapshot(`
      [
        "m.yaml:7:16: error: "dns.ttl" of domain "a.example" in client "alice" must be a whole number of seconds from 60 to 2592000 (one minute to 30 days), like 3600 (one hour), not 30",
        "m.yaml:9:22: error: "host" of "dns" record #1 of domain "a.example" in client "alice" is absolute: write it relative to the zone, as "www"",
        "m.yaml:10:22: error: "host" of "dns" record #2 of domain "a.example" in client "alice" is a name in another zone than "a.example": its records belong in that zone",
        "m.yaml:11:22: error: "host" of "dns" record #3 of domain "a.example" in client "alice" ends with the zone's name: hosts are relative, so it would mean "www.a.example.a.example"; write "www"",
        "m.yaml:12:22: error: "host" of "dns" record #4 of domain "a.example" in client "alice" must be "@" or labels of letters, digits, "-" and "_" (a leading "*." for a wildcard)",
        "m.yaml:13:43: error: "value" of "dns" record #5 of domain "a.example" in client "alice" must be an IPv4 address, like 192.0.2.10",
        "m.yaml:14:44: error: "value" of "dns" record #6 of domain "a.example" in client "alice" must be a string: YAML reads an unquoted 10 as a number; quote it, like value: "10 mail.example.com."",
        "m.yaml:15:33: error: "dns" record #7 of domain "a.example" in client "alice" has the type "A-B": a record type is letters and digits, like A, AAAA, CNAME, NS, MX, SRV, CAA, TXT",
        "m.yaml:16:45: error: "value" of "dns" record #8 of domain "a.example" in client "alice" is empty: give the record a value",
        "m.yaml:16:54: error: "ttl" of "dns" record #8 of domain "a.example" in client "alice" must be a whole number of seconds from 60 to 2592000 (one minute to 30 days), like 3600 (one hour), not 3000000",
        "m.yaml:18:15: error: "dns" record #10 of domain "a.example" in client "alice" is listed twice: record #9 (line 17) has the same host "@", type MX and value "10 mail.a.example."; remove one",
        "m.yaml:19:27: error: unknown key "typ" in "dns" record #11 of domain "a.example" in client "alice": did you mean "type"?",
        "m.yaml:19:53: error: unknown key "tll" in "dns" record #11 of domain "a.example" in client "alice": did you mean "ttl"?",
        "m.yaml:20:15: error: "dns" record #12 of domain "a.example" in client "alice" has no "type": add one, like type: A",
        "m.yaml:21:15: error: "dns" record #13 of domain "a.example" in client "alice" must be a mapping with "host", "type" and "value", like {host: "@", type: A, value: 192.0.2.10}, not "www A 192.0.2.1"",
        "m.yaml:22:22: error: "host" of "dns" record #14 of domain "a.example" in client "alice" must be a string: "@" for the domain itself, or a name relative to it, like www",
        "m.yaml:22:31: error: "type" of "dns" record #14 of domain "a.example" in client "alice" must be a string: a record type like A, AAAA, CNAME, MX or TXT",
        "m.yaml:22:43: error: "value" of "dns" record #14 of domain "a.example" in client "alice" must be a string: YAML reads an unquoted true as a boolean; quote it, like value: "10 mail.example.com."",
        "m.yaml:22:54: error: "ttl" of "dns" record #14 of domain "a.example" in client "alice" must be a whole number of seconds from 60 to 2592000 (one minute to 30 days), like 3600 (one hour), not 2.5",
        "m.yaml:23:18: error: "dns.prune" of domain "a.example" in client "alice" must be true or false, not "yes"",
        "m.yaml:24:11: warning: "dns.keep" of domain "a.example" in client "alice" keeps nothing without prune: true (only prune removes unlisted records); add prune: true, or remove "keep"",
        "m.yaml:24:18: error: pattern #1 in "dns.keep" of domain "a.example" in client "alice" holds a space (U+0020), which no username or domain name has, so it would keep nothing: write "ab"",
        "m.yaml:24:25: error: pattern #2 in "dns.keep" of domain "a.example" in client "alice" must be a string, like "_acme-challenge*"",
        "m.yaml:25:11: error: unknown key "purne" in "dns" of domain "a.example" in client "alice": did you mean "prune"?",
        "m.yaml:26:32: error: "dns" of domain "b.example" in client "alice" has no "records": add the list, like records: [{host: "@", type: A, value: 192.0.2.10}] (records: [] for none)",
        "m.yaml:27:32: error: "dns" of domain "c.example" in client "alice" must be a mapping with "records" (and optionally "ttl", "prune", "keep"), like dns: {records: [{host: "@", type: A, value: 192.0.2.10}]}",
        "m.yaml:28:42: error: "dns.records" of domain "d.example" in client "alice" must be a list of records, like [{host: "@", type: A, value: 192.0.2.10}]",
        "m.yaml:28:61: error: "dns.keep" of domain "d.example" in client "alice" must be a list of host patterns: write ["_acme*"]",
      ]
    `);
    expect(parseManifest(ERRORS, FILE).desired).toBeUndefined();
  });

  it('what a panel can hold is a warning at its value: the manifest stays valid', () => {
    expect(report(WARNINGS)).toMatchInlineSnapshot(`
      [
        "m.yaml:8:33: warning: "dns" record #1 of domain "a.example" in client "alice" is a CNAME at host "www" beside another record there (record #2, TXT, line 9): DNS forbids it (RFC 1034: an alias has no other records), and resolvers answer one or the other; keep the CNAME alone at its host",
        "m.yaml:10:45: warning: "value" of "dns" record #3 of domain "a.example" in client "alice" is 300 characters long: a DNS string holds 255; the panel splits it into several (check the result with dig)",
        "m.yaml:11:33: warning: "dns" record #4 of domain "a.example" in client "alice" is of type TLSA, whose values panel-provision does not check (it checks A, AAAA, CNAME, NS, MX, SRV, CAA, TXT)",
        "m.yaml:12:45: warning: "value" of "dns" record #5 of domain "a.example" in client "alice" has the CAA tag "issues", which certificate authorities do not know",
        "m.yaml:13:11: warning: "dns.keep" of domain "a.example" in client "alice" keeps nothing without prune: true (only prune removes unlisted records); add prune: true, or remove "keep"",
        "m.yaml:13:38: warning: pattern #2 in "dns.keep" of domain "a.example" in client "alice" ends with the zone's name: hosts are relative, so it matches no record; write "x"",
        "m.yaml:14:42: warning: "dns.records" of domain "b.example" in client "alice" is empty with prune: true: every record of the zone goes (but the apex NS records and the hosts "keep" matches); list the records to keep",
      ]
    `);
    expect(domains(WARNINGS)?.map((d) => d.dns?.records.map((r) => `${r.host} ${r.type}`))).toEqual([
      ['www CNAME', 'www TXT', '@ TXT', '@ TLSA', '@ CAA'],
      [],
    ]);
  });

  it('the chunked read, keeping diagnostics or not, says exactly what the whole read says', () => {
    for (const text of [ERRORS, WARNINGS]) for (const batchChars of [1, 64, 4096]) agree(text, batchChars);
  });
});

describe('validation never refuses what a panel can hold', () => {
  const label = fc.stringMatching(/^[a-z0-9_](?:[a-z0-9_-]{0,8}[a-z0-9_])?$/);
  const name = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.'));
  const port = fc.integer({ min: 0, max: 65535 });
  const value: fc.Arbitrary<[string, string]> = fc.oneof(
    fc.ipV4().map((v): [string, string] => ['A', v]),
    fc.ipV6().map((v): [string, string] => ['AAAA', v]),
    name.map((v): [string, string] => ['CNAME', `${v}.example.`]),
    name.map((v): [string, string] => ['NS', v]),
    fc.tuple(port, name).map(([p, h]): [string, string] => ['MX', `${p} ${h}.example.`]),
    fc.tuple(port, port, port, name).map(([a, b, c, h]): [string, string] => ['SRV', `${a} ${b} ${c} ${h}.`]),
    fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.constantFrom('issue', 'iodef', 'frob'), name)
      .map(([f, t, v]): [string, string] => ['CAA', `${f} ${t} "${v}"`]),
    fc
      .string({
        unit: fc.oneof(fc.string({ minLength: 1, maxLength: 1 }), fc.constantFrom('ü', '€', '"', '\\')),
        minLength: 1,
        maxLength: 400,
      })
      .map((v): [string, string] => ['TXT', v]),
    fc
      .tuple(fc.constantFrom('TLSA', 'SSHFP', 'spf', 'Ds'), fc.string({ minLength: 1 }))
      .map(([t, v]): [string, string] => [t, v]),
  );
  const record = fc.record({
    host: fc.oneof(fc.constantFrom('@', 'WWW', '*.shop', '_acme-challenge.shop'), name),
    typed: value,
    ttl: fc.option(fc.integer({ min: TTL_RANGE.min, max: TTL_RANGE.max }), { nil: undefined }),
  });

  it('every record with a value its type takes loads as itself (warnings at most), through both reads', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(record, {
          selector: (r) => `${r.host === '@' ? '@' : r.host.toLowerCase()} ${r.typed[0].toUpperCase()} ${r.typed[1]}`,
          maxLength: 6,
        }),
        fc.option(fc.integer({ min: TTL_RANGE.min, max: TTL_RANGE.max }), { nil: undefined }),
        (records, ttl) => {
          // As export writes them: flow mappings, strings quoted.
          const lines = records.map(
            (r) =>
              `      - {host: ${JSON.stringify(r.host)}, type: ${JSON.stringify(r.typed[0])}, ` +
              `value: ${JSON.stringify(r.typed[1])}${r.ttl === undefined ? '' : `, ttl: ${r.ttl}`}}`,
          );
          const text = manifest(
            '- name: alice.example',
            '  dns:',
            ...(ttl === undefined ? [] : [`    ttl: ${ttl}`]),
            `    records:${records.length === 0 ? ' []' : ''}`,
            ...lines,
          );
          const result = parseManifestWhole(text, FILE);
          expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          const want: DnsRecord[] = records.map((r) => ({
            host: r.host.toLowerCase(),
            type: r.typed[0].toUpperCase(),
            value: r.typed[1],
            ttl: r.ttl ?? ttl ?? 3600,
          }));
          expect(result.desired?.clients[0]?.domains[0]?.dns).toEqual({
            records: want,
            prune: false,
            keep: [],
            origin: expect.any(Array) as unknown[],
          });
          agree(text, 64);
        },
      ),
      { numRuns: 200 },
    );
  });
});
