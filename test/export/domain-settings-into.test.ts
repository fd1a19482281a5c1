/**
 * export --into and a domain's settings, pure (src/kinds/domain/export-edits.ts,
 * src/export/values.ts): the keys a listed domain manages get the panel's values, in their own
 * style; a domain listed by name stays a name, a key not given is not added; comments and
 * order stay; what the manifest cannot hold, or the record does not show, stays as written.
 */
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/manifest/load.js';
import { live } from '../helpers/builders.js';
import { linesOf, outside } from './lines.js';
import { into, record, type Settings } from './settings-fixtures.js';

/** alice (id 1) and bob (id 2) with `domains` as `[name, owner id, settings]`. */
function panelOf(domains: [string, number, Settings | Record<string, unknown>][]): ReturnType<typeof live> {
  return live(
    [
      [1, 'alice', null, { email: null, suspended: false }],
      [2, 'bob', null, { email: null, suspended: false }],
    ],
    domains.map(([name, owner, s], i) => [
      i + 1,
      name,
      owner,
      false,
      'security' in s || 'target' in s || 'php_version' in s ? s : record(s as Settings),
    ]),
  );
}

const MANIFEST = `version: 1
clients:
  - username: alice   # our first
    domains:
      - alice.example          # name only: manages nothing
      - name: shop.alice.example
        php_version: '8.2'     # pinned
        https:
          force: false
          hsts:
            max_age: 300       # short for now
        redirect: {to: "https://old.example/"}
      - {name: blog.alice.example, https: {lets_encrypt: false, hsts: false}, redirect: false}
`;

const URL_MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        redirect:
          to: https://old.example/   # plain
          status: 301
`;

/** The first domain's redirect as the manifest \`text\` gives it. */
function redirectOf(text: string): unknown {
  return validateManifest(text, 'm.yaml').desired?.clients[0]?.domains[0]?.settings?.redirect;
}

describe("export --into: a domain's settings", () => {
  it("sets each managed key to the panel's value in its own style; names stay names, keys not given are not added", () => {
    const panel = panelOf([
      ['alice.example', 1, { php: '8.3', le: true, redirect: ['https://x.example/', 302] }],
      [
        'shop.alice.example',
        1,
        { php: '8.3', le: true, force: true, hsts: [600, false, false], redirect: ['https://new.example/', 301] },
      ],
      [
        'blog.alice.example',
        1,
        { le: true, hsts: [31536000, true, false], redirect: ["https://b.example/?a='1'#x,y", 302] },
      ],
    ]);
    const { text, warnings } = into(MANIFEST, panel);
    expect(warnings).toEqual([]);
    expect(text).toBe(`version: 1
clients:
  - username: alice   # our first
    domains:
      - alice.example          # name only: manages nothing
      - name: shop.alice.example
        php_version: '8.3'     # pinned
        https:
          force: true
          hsts:
            max_age: 600       # short for now
        redirect: {to: "https://new.example/"}
      - {name: blog.alice.example, https: {lets_encrypt: true, hsts: {max_age: 31536000, include_subdomains: true, preload: false}}, redirect: {to: "https://b.example/?a='1'#x,y", status: 302}}
`);
    expect(outside(MANIFEST, text, [linesOf(MANIFEST, "php_version: '8.2'", 'blog.alice.example')])).toEqual([]);
    // Once it describes the panel, a second run changes nothing.
    expect(into(text, panel).text).toBe(text);
  });

  it("a mapping turned off becomes false on its key's line (its lines go); a key left out for its default is added only by writing the value whole", () => {
    const panel = panelOf([
      ['alice.example', 1, {}],
      ['shop.alice.example', 1, { php: null, hsts: false, redirect: ['https://new.example/', 302] }],
      ['blog.alice.example', 1, {}],
    ]);
    const { text, warnings } = into(MANIFEST, panel);
    expect(warnings).toEqual([]);
    expect(text).toBe(`version: 1
clients:
  - username: alice   # our first
    domains:
      - alice.example          # name only: manages nothing
      - name: shop.alice.example
        php_version: 'default'     # pinned
        https:
          force: false
          hsts: false
        redirect: {to: https://new.example/, status: 302}
      - {name: blog.alice.example, https: {lets_encrypt: false, hsts: false}, redirect: false}
`);
  });

  it('a URL is data: set into a plain scalar in a block or a flow mapping, it stays on its line, quoted where it must be, and reads back the same', () => {
    const flow = URL_MANIFEST.replace(
      /redirect:\n.*# plain\n.*\n$/,
      'redirect: {to: https://old.example/, status: 301}   # plain\n',
    );
    for (const to of [
      'https://a.example/?q=1#frag',
      "https://a.example/'x'",
      'https://a.example/%22y%22',
      'https://a.example/:z',
      "https://a.example/?k='a'#%22b%22:c,(d)*e",
    ]) {
      for (const [manifest, line, shape] of [
        [URL_MANIFEST, 6, /^ {10}to: .+ {3}# plain$/],
        [flow, 5, /^ {8}redirect: \{to: .+, status: 301\} {3}# plain$/],
      ] as const) {
        // into() checks that the text validates and plans to no update: the URL reads back the same.
        const { text, warnings } = into(manifest, panelOf([['alice.example', 1, { redirect: [to, 301] }]]));
        expect(warnings).toEqual([]);
        expect(text.split('\n')[line]).toMatch(shape);
        expect(text.split('\n').length).toBe(manifest.split('\n').length);
        expect(redirectOf(text)).toEqual({ to, status: 301 });
      }
    }
  });

  it('a panel URL with white space or a line break is left as written, with a warning naming the domain; a domain it adds is written by its name', () => {
    for (const to of [
      'https://a.example/ #x',
      'https://a.example/?k=a: b',
      'https://a.example/a\nb',
      'https://a.example/\tc',
    ]) {
      const panel = panelOf([
        ['alice.example', 1, { redirect: [to, 301] }],
        ['www.alice.example', 1, { redirect: [to, 302] }],
      ]);
      const { text, warnings } = into(URL_MANIFEST, panel, { drift: true });
      expect(text).toBe(`${URL_MANIFEST}      - www.alice.example\n`);
      expect(redirectOf(text)).toEqual({ to: 'https://old.example/', status: 301 });
      const shown = JSON.stringify({ to, status: 301 });
      expect(warnings).toEqual([
        `domain "alice.example": the panel's redirect ${shown} is a target that is not an absolute http(s) URL: "redirect" left as written`,
        `domain "www.alice.example" of client "alice": the panel's redirect ${shown.replace('301', '302')} is a target that is not an absolute http(s) URL: "redirect" left out (not managed)`,
      ]);
    }
  });

  it('in a CRLF file the lines stay CRLF', () => {
    const crlf = MANIFEST.replaceAll('\n', '\r\n');
    const panel = panelOf([
      ['alice.example', 1, {}],
      ['shop.alice.example', 1, { php: '8.2', hsts: false, redirect: ['https://old.example/', 301] }],
      ['blog.alice.example', 1, { hsts: [300, false, false] }],
    ]);
    const { text } = into(crlf, panel);
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
    expect(text).toContain('          hsts: false\r\n        redirect:');
    expect(text).toContain('hsts: {max_age: 300, include_subdomains: false, preload: false}}');
  });

  it('a value the manifest cannot hold stays as written, with a warning; one the record does not show stays, silently', () => {
    const panel = panelOf([
      ['alice.example', 1, {}],
      [
        'shop.alice.example',
        1,
        { php: '8.3.1', force: true, hsts: [300, false, false], redirect: ['https://old.example/', 307] },
      ],
      ['blog.alice.example', 1, { php_version: '' }],
    ]);
    const { text, warnings } = into(MANIFEST, panel, { drift: true });
    expect(text).toBe(MANIFEST.replace('force: false', 'force: true'));
    expect(warnings).toEqual([
      'domain "shop.alice.example": the panel\'s php_version "8.3.1" is not a MAJOR.MINOR version: "php_version" left as written',
      'domain "shop.alice.example": the panel\'s redirect {"to":"https://old.example/","status":307} is forwarding type 307 (a manifest takes 301 or 302): "redirect" left as written',
    ]);
  });

  it('a domain the panel has under another client gets no setting edits (plan reports the conflict)', () => {
    const panel = panelOf([
      ['alice.example', 1, {}],
      ['shop.alice.example', 2, { php: '8.3' }],
      ['blog.alice.example', 1, { le: true }],
    ]);
    const { text, warnings } = into(MANIFEST, panel, { drift: true });
    expect(text).toBe(MANIFEST.replace('lets_encrypt: false', 'lets_encrypt: true'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      '"shop.alice.example" is listed under client "alice" but the panel has it under client "bob"',
    );
  });

  it('domains and clients it adds are written as export writes them, settings and all, in block and flow lists', () => {
    const manifest = `version: 1
prune: {clients: true}
clients:
  - username: alice
    domains:
      - alice.example
  - {username: carol, domains: [carol.example]}
  - username: dave
`;
    const panel = live(
      [
        [1, 'alice', null, { email: null, suspended: false }],
        [2, 'bob', null, { email: null, suspended: false }],
        [3, 'carol', null, { email: null, suspended: false }],
        [4, 'dave', null, { email: null, suspended: false }],
      ],
      [
        [1, 'alice.example', 1, false, record()],
        [2, 'shop.alice.example', 1, false, record({ php: '8.3', force: true })],
        [3, 'bob.example', 2, false, record({ redirect: ['https://alice.example/', 301] })],
        [4, 'carol.example', 3, false, record()],
        [5, 'www.carol.example', 3, false, record({ hsts: [31536000, true, true] })],
        [6, 'dave.example', 4, false, record({ le: true })],
        [7, 'bad.dave.example', 4, false, record({ redirect: ['/srv/', 301] })],
      ],
    );
    const { text, warnings } = into(manifest, panel);
    expect(text).toBe(`version: 1
prune: {clients: true}
clients:
  - username: alice
    domains:
      - alice.example
      - name: shop.alice.example
        php_version: "8.3"
        https:
          force: true
  - {username: carol, domains: [carol.example, {name: www.carol.example, https: {hsts: {max_age: 31536000, include_subdomains: true, preload: true}}}]}
  - username: dave
    domains:
      - name: dave.example
        https:
          lets_encrypt: true
      - bad.dave.example
  - username: bob
    domains:
      - name: bob.example
        redirect: {to: https://alice.example/, status: 301}
`);
    expect(warnings).toEqual([
      'domain "bad.dave.example" of client "dave": the panel\'s redirect {"to":"/srv/","status":301} is a target that is not an absolute http(s) URL: "redirect" left out (not managed)',
    ]);
  });
});
