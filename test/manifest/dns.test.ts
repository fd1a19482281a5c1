/**
 * A domain's `dns` block in the manifest (design.md, "DNS records"; issue 23, item 1): it gives
 * DesiredDomain.dns (hosts in comparison form, types upper-case, values as written, TTLs
 * resolved); bad values give located errors, what a panel can hold gives located warnings; the
 * chunked read gives the whole read's answer.
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import type { DesiredDomain } from '../../src/manifest/types.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

const FILE = 'm.yaml';
const at = (line: number, column: number) => ({ file: FILE, line, column });

/** A manifest of one client, alice, whose domains are the lines given (indented under `domains:`). */
function manifest(...lines: string[]): string {
  return `version: 1\nclients:\n  - username: alice\n    domains:\n${lines.map((l) => `      ${l}\n`).join('')}`;
}

/** The formatted diagnostics, as the CLI prints them. */
function report(text: string): string[] {
  return parseManifest(text, FILE).diagnostics.map(formatDiagnostic);
}

/** The domains of the first client, when the manifest is valid. */
function domains(text: string): readonly DesiredDomain[] | undefined {
  const result = parseManifest(text, FILE);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.desired?.clients[0]?.domains;
}

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
        },
        loc: at(5, 15),
      },
      {
        name: 'bob.example',
        input: 'bob.example',
        state: 'present',
        dns: { records: [{ host: '@', type: 'AAAA', value: '2001:db8::10', ttl: 3600 }], prune: false, keep: [] },
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
