/**
 * export --into and DNS zones, pure (src/kinds/zone/export-edits.ts, export-rewrite.ts): a
 * listed domain's dns block gets the panel's records (removed, added at the end, TTLs set) in its own
 * style, keeping ttl, prune, keep and comments; with --with dns a domain without dns gets the
 * block export writes when its zone is custom; without it, none.
 */
import { describe, expect, it } from 'vitest';
import { adopt } from '../../src/export/adopt.js';
import { LiveModel } from '../../src/export/model.js';
import { rewrite } from '../../src/export/rewrite.js';
import { validateManifest } from '../../src/manifest/load.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { panelWithZones, zone } from './dns-fixtures.js';
import { linesOf, outside } from './lines.js';

/** `text` rewritten to describe `panel`; it validates and then plans to no zone change. */
function into(text: string, panel: Live, withDns = false): { text: string; warnings: readonly string[] } {
  const before = validateManifest(text, 'm.yaml');
  if (before.desired === undefined) throw new Error(`test manifest invalid: ${JSON.stringify(before.diagnostics)}`);
  const { edits, warnings } = adopt(before.desired, new LiveModel(panel), withDns ? { with: new Set(['dns']) } : {});
  const out = rewrite(text, edits, 'm.yaml');
  const after = validateManifest(out, 'm.yaml');
  expect(after.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (after.desired === undefined) throw new Error('the rewrite does not validate');
  expect(diff(after.desired, panel).changes.filter((c) => c.type === 'dns_zone')).toEqual([]);
  return { text: out, warnings };
}

const PANEL = panelWithZones([
  [
    'alice.example',
    1,
    zone('alice.example', [
      ['@', 'A', '192.0.2.20'],
      ['www', 'CNAME', 'alice.example.', 300],
      ['@', 'TXT', 'v=spf1 mx -all # "new": yes', 600],
      ['_acme-challenge', 'TXT', 'token'],
    ]),
  ],
  ['blog.example', 1, zone('blog.example', [['@', 'A', '192.0.2.30', 120]])],
  ['plain.example', 1, zone('plain.example', [['@', 'A', '192.0.2.1']], { custom: false })],
  ['named.example', 1, zone('named.example', [['@', 'A', '192.0.2.40']])],
  ['mapped.example', 1, zone('mapped.example', [['www', 'A', '192.0.2.50']])],
]);

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          ttl: 3600            # the zone's default
          records:
            - {host: "@", type: A, value: 192.0.2.10}   # the old server
            - {host: www, type: CNAME, value: alice.example.}
            - host: "@"
              type: TXT
              value: 'v=spf1 mx -all # "new": yes'
          prune: true
          keep: ["_acme-challenge*"]
      - {name: blog.example, dns: {records: [{host: "@", type: A, value: 192.0.2.30, ttl: 60}]}}
      - plain.example
      - named.example          # by name
      - name: mapped.example
        php_version: "8.3"
`;

describe('export --into: dns blocks', () => {
  it("gives a listed block the panel's records in its own style; ttl, prune, keep and comments stay; other domains get none", () => {
    const { text, warnings } = into(MANIFEST, PANEL);
    expect(text).toBe(`version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          ttl: 3600            # the zone's default
          records:
            - {host: www, type: CNAME, value: alice.example., ttl: 300}
            - host: "@"
              type: TXT
              value: 'v=spf1 mx -all # "new": yes'
              ttl: 600
            - {host: "@", type: A, value: 192.0.2.20}
          prune: true
          keep: ["_acme-challenge*"]
      - {name: blog.example, dns: {records: [{host: "@", type: A, value: 192.0.2.30, ttl: 120}]}}
      - plain.example
      - named.example          # by name
      - name: mapped.example
        php_version: "8.3"
`);
    // Its ACME challenge's record is not written: a note counts it.
    expect(warnings).toEqual([
      'domain "alice.example" of client "alice": 1 ACME challenge\'s record (hosts _acme-challenge and _acme-challenge.*) left out of "dns": they are transient, and plan never removes them unless the manifest lists a record at their host',
    ]);
    expect(outside(MANIFEST, text, [linesOf(MANIFEST, 'records:', 'blog.example')])).toEqual([]);
    expect(into(text, PANEL).text).toBe(text);
  });

  it('with --with dns, a listed domain without dns whose zone is custom gets the block export writes, in its own style', () => {
    const { text } = into(MANIFEST, PANEL, true);
    expect(text.slice(text.indexOf('      - plain.example'))).toBe(`      - plain.example
      - name: named.example          # by name
        dns:
          ttl: 3600
          records:
            - {host: "@", type: A, value: 192.0.2.40}
      - name: mapped.example
        php_version: "8.3"
        dns:
          ttl: 3600
          records:
            - {host: www, type: A, value: 192.0.2.50}
`);
    const flow = `version: 1\nclients:\n  - {username: alice, domains: [plain.example, named.example, {name: mapped.example}]}\n`;
    expect(into(flow, PANEL, true).text).toBe(
      'version: 1\nclients:\n  - {username: alice, domains: [plain.example, ' +
        '{name: named.example, dns: {ttl: 3600, records: [{host: "@", type: A, value: 192.0.2.40}]}}, ' +
        '{name: mapped.example, dns: {ttl: 3600, records: [{host: www, type: A, value: 192.0.2.50}]}}, ' +
        // The domains it adds get the block export writes too.
        '{name: alice.example, dns: {ttl: 3600, records: [{host: "@", type: A, value: 192.0.2.20}, ' +
        '{host: www, type: CNAME, value: alice.example., ttl: 300}, ' +
        // An ACME challenge's record is transient: never written.
        `{host: "@", type: TXT, value: 'v=spf1 mx -all # "new": yes', ttl: 600}]}}, ` +
        '{name: blog.example, dns: {ttl: 120, records: [{host: "@", type: A, value: 192.0.2.30}]}}]}\n',
    );
  });

  it('records emptied become records: []; an empty list gets block items; a block without records gets the key', () => {
    const panel = panelWithZones([
      ['alice.example', 1, zone('alice.example', [])],
      [
        'blog.example',
        1,
        zone('blog.example', [
          ['@', 'A', '192.0.2.30'],
          ['www', 'A', '192.0.2.31', 60],
        ]),
      ],
    ]);
    const text = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.10}
      - name: blog.example
        dns:
          records: []
`;
    expect(into(text, panel).text).toBe(`version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        dns:
          records: []
      - name: blog.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.30}
            - {host: www, type: A, value: 192.0.2.31, ttl: 60}
`);
  });

  it('a disabled zone, or a listed record the panel holds only in a form the manifest refuses, is left as written; a record it cannot hold is not added; each with a warning', () => {
    const panel = panelWithZones([
      ['alice.example', 1, zone('alice.example', [['@', 'A', '192.0.2.10', 30]])],
      ['off.example', 1, zone('off.example', [['@', 'A', '192.0.2.1']], { disabled: true })],
      ['blog.example', 1, zone('blog.example', [['bad', 'A', 'nope']])],
      ['shop.example', 1, zone('shop.example', [['bad', 'A', 'nope']])],
    ]);
    const text = `version: 1
clients:
  - username: alice
    domains:
      - {name: alice.example, dns: {records: [{host: "@", type: A, value: 192.0.2.10}]}}
      - {name: off.example, dns: {records: []}}
      - {name: blog.example, dns: {records: []}}
      - {name: shop.example, dns: {records: [], prune: true}}
`;
    const before = validateManifest(text, 'm.yaml').desired;
    if (before === undefined) throw new Error('invalid');
    const { edits, warnings } = adopt(before, new LiveModel(panel));
    expect(edits).toEqual([]);
    expect(warnings).toEqual([
      'domain "alice.example" of client "alice": the panel\'s DNS record A "@" "192.0.2.10" (ttl 30) has a TTL outside 60-2592000 seconds: the record is left as written',
      'domain "off.example" of client "alice": the panel serves no DNS for it (is_dns_disabled): "dns" left as written (plan reports the conflict)',
      'domain "blog.example" of client "alice": the panel\'s DNS record A "bad" "nope" (ttl 3600) has a value that must be an IPv4 address, like 192.0.2.10: left out of "dns" (the panel keeps it)',
      'domain "shop.example" of client "alice": the panel\'s DNS record A "bad" "nope" (ttl 3600) has a value that must be an IPv4 address, like 192.0.2.10: left out of "dns" (prune: true, so plan removes it: list its host in keep to keep it)',
    ]);
  });
});
