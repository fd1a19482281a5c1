/**
 * The lifecycle keys of the manifest (docs/manifest.md, "Prune" and "Deletes"): `prune`, a client's `state`
 * and `suspended`, and domain entries `{name, state}`. Valid examples give exactly this
 * Desired; bad ones give exactly these located diagnostics; the chunked read of a large
 * manifest gives the whole read's answer with every new key.
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import {
  CHUNKED_DIAGNOSTICS_ABOVE,
  parseManifestChunked,
  parseManifestWhole,
  validateManifest,
} from '../../src/manifest/load.js';
import { NO_PRUNE, type Desired } from '../../src/manifest/types.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

const FILE = 'm.yaml';
const at = (line: number, column: number) => ({ file: FILE, line, column });

/** The formatted diagnostics for manifest text, as the CLI prints them. */
function report(text: string): string[] {
  return parseManifest(text, FILE).diagnostics.map(formatDiagnostic);
}

const LIFECYCLE = `version: 1
prune:                        # optional
  domains: true
  clients: false
  keep: ["legacy-*"]
clients:
  - username: alice
    plan: Business
    email: alice@example.com
    suspended: true
    state: present
    domains:
      - alice.example
      - name: old.alice.example
        state: absent
  - username: bob
    state: absent
`;

describe('the lifecycle keys, valid', () => {
  it('give state, suspended, domain states and prune, each located', () => {
    expect(parseManifest(LIFECYCLE, FILE)).toEqual({
      diagnostics: [],
      desired: {
        file: FILE,
        clients: [
          {
            username: 'alice',
            state: 'present',
            plan: 'Business',
            planLoc: at(8, 11),
            email: 'alice@example.com',
            suspended: true,
            loc: at(7, 15),
            domains: [
              { name: 'alice.example', input: 'alice.example', state: 'present', loc: at(13, 9) },
              {
                name: 'old.alice.example',
                input: 'old.alice.example',
                state: 'absent',
                loc: at(14, 15),
              },
            ],
          },
          { username: 'bob', state: 'absent', loc: at(16, 15), domains: [] },
        ],
        prune: { domains: true, clients: false, keep: ['legacy-*'], loc: at(2, 1) },
      } satisfies Desired,
    });
  });

  it('default: no prune is NO_PRUNE; a prune without keys prunes nothing; state present by default', () => {
    const none = parseManifest(
      'version: 1\nclients:\n  - username: alice\n    suspended: false\n    domains: [{name: a.example}]\n',
      FILE,
    );
    expect(none.desired?.prune).toBe(NO_PRUNE);
    expect(none.desired?.clients).toEqual([
      {
        username: 'alice',
        state: 'present',
        suspended: false,
        loc: at(3, 15),
        domains: [{ name: 'a.example', input: 'a.example', state: 'present', loc: at(5, 22) }],
      },
    ]);
    expect(parseManifest('version: 1\nclients: []\nprune: {}\n', FILE).desired?.prune).toEqual({
      domains: false,
      clients: false,
      keep: [],
      loc: at(3, 1),
    });
  });

  it("normalizes a domain entry's name like a string item; keep patterns stay as written (ASCII, any case)", () => {
    const text =
      'version: 1\nprune:\n  clients: true\n  keep: ["*.xn--bcher-kva.example", "LEGACY-?"]\nclients:\n  - username: alice\n    domains: [{name: Shop.Bücher.Example, state: absent}]\n';
    const { desired, diagnostics } = parseManifest(text, FILE);
    expect(diagnostics).toEqual([]);
    expect(desired?.prune).toEqual({
      domains: false,
      clients: true,
      keep: ['*.xn--bcher-kva.example', 'LEGACY-?'],
      loc: at(2, 1),
    });
    expect(desired?.clients[0]?.domains).toEqual([
      {
        name: 'shop.xn--bcher-kva.example',
        input: 'Shop.Bücher.Example',
        state: 'absent',
        loc: at(7, 22),
      },
    ]);
  });

  it('an absent domain still counts for look-alike names', () => {
    const text =
      'version: 1\nclients:\n  - username: alice\n    domains:\n      - paypal.example\n      - {name: pаypal.example, state: absent}\n';
    expect(report(text)).toEqual([
      'm.yaml:6:16: warning: domain "pаypal.example" looks like domain "paypal.example" (line 5): they differ only by case, spacing or look-alike characters ("а" is U+0430)',
    ]);
  });
});

describe('the lifecycle keys, refused', () => {
  it('wrong types and values, with the value written and the closest state', () => {
    const text = [
      'version: 1',
      'clients:',
      '  - username: alice',
      '    suspended: "yes"',
      '    state: gone',
      '  - username: carol',
      '    suspended: 1',
      '    state: abzent',
    ].join('\n');
    expect(report(text)).toMatchInlineSnapshot(`
      [
        "m.yaml:4:16: error: "suspended" in client "alice" must be true or false, not "yes"",
        "m.yaml:5:12: error: "state" in client "alice" must be present or absent, not "gone": did you mean "absent"?",
        "m.yaml:7:16: error: "suspended" in client "carol" must be true or false, not 1",
        "m.yaml:8:12: error: "state" in client "carol" must be present or absent, not "abzent": did you mean "absent"?",
      ]
    `);
  });

  it('domain entries: no name, a bad state, an unknown key, a name that is not a string, neither string nor mapping', () => {
    const text = [
      'version: 1',
      'clients:',
      '  - username: alice',
      '    domains:',
      '      - {state: absent}',
      '      - {name: x.example, state: deleted}',
      '      - {nme: y.example}',
      '      - {name: 7}',
      '      - name: z.example',
      '        state: Absent',
      '        owner: me',
      '      - 7',
    ].join('\n');
    expect(report(text)).toMatchInlineSnapshot(`
      [
        "m.yaml:5:9: error: domain #1 in client "alice" has no "name": add the domain's name, like {name: old.example.com, state: absent}",
        "m.yaml:6:34: error: "state" of domain #2 in client "alice" must be present or absent, not "deleted": did you mean "absent"?",
        "m.yaml:7:10: error: unknown key "nme" in domain #3 of client "alice": did you mean "name"?",
        "m.yaml:8:16: error: "name" of domain #4 in client "alice" must be a string: a domain name",
        "m.yaml:10:16: error: "state" of domain #5 in client "alice" must be present or absent, not "Absent": did you mean "absent"?",
        "m.yaml:11:9: error: unknown key "owner" in domain #5 of client "alice": allowed keys are "name", "state", "php_version", "https", "redirect", "dns" and "mailboxes"",
        "m.yaml:12:9: error: domain #6 in client "alice" must be a domain name, or a mapping like {name: old.example.com, state: absent}",
      ]
    `);
  });

  it("a domain entry's name goes through the same checks: invalid, listed twice whatever its state", () => {
    const text = [
      'version: 1',
      'clients:',
      '  - username: alice',
      '    domains:',
      '      - alice.example',
      '      - name: Alice.Example',
      '        state: absent',
      '  - username: bob',
      '    domains: [{name: alice.example, state: absent}, {name: "bad domain"}]',
    ].join('\n');
    expect(report(text)).toMatchInlineSnapshot(`
      [
        "m.yaml:6:15: error: domain "Alice.Example" (same as "alice.example") is listed twice in client "alice" (first at line 5): remove one",
        "m.yaml:9:22: error: domain "alice.example" is already listed under client "alice" at line 5: a domain belongs to one client only",
        "m.yaml:9:60: error: domain "bad domain" in client "bob" contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name",
      ]
    `);
  });

  it('a client marked absent with other keys: one error at the first, naming them all and what to do', () => {
    const text =
      'version: 1\nclients:\n  - username: bob\n    state: absent\n    plan: ""\n    domains: [bob.example]\n    email: nope\n  - username: bob\n    state: absent\n';
    expect(report(text)).toMatchInlineSnapshot(`
      [
        "m.yaml:5:5: error: client "bob" has state: absent: remove "plan", "domains" and "email" (a client that is deleted has no other keys than "username" and "state"), or remove "state: absent" to keep the client",
        "m.yaml:8:15: error: username "bob" is used twice (first at line 3): each client needs its own username",
      ]
    `);
  });

  it('prune: wrong types, unknown keys, null', () => {
    expect(report('version: 1\nprune:\n  domains: yes\n  clients: 1\n  keep: legacy-*\n  keeep: []\nclients: []\n'))
      .toMatchInlineSnapshot(`
      [
        "m.yaml:3:12: error: "prune.domains" must be true or false, not "yes"",
        "m.yaml:4:12: error: "prune.clients" must be true or false, not 1",
        "m.yaml:5:9: error: "prune.keep" must be a list of name patterns: write ["legacy-*"]",
        "m.yaml:6:3: error: unknown key "keeep" in "prune": did you mean "keep"?",
      ]
    `);
    expect(report('version: 1\nprune:\nclients: []\n')).toEqual([
      'm.yaml:2:7: error: "prune" must be a mapping with "domains", "clients", "hosting_plans" or "keep", like prune: {domains: true} (remove "prune:" to delete nothing for being unlisted)',
    ]);
    expect(report('version: 1\nclients: []\nprune: {keep: [a, 3]}\nowner: me\n')).toEqual([
      'm.yaml:3:19: error: pattern #2 in "prune.keep" must be a string, like "legacy-*", or a hosting plan\'s pattern, like {hosting_plan: "Premium*"}',
      'm.yaml:4:1: error: unknown key "owner" at the top level: allowed keys are "version", "clients", "hosting_plans" and "prune"',
    ]);
  });

  it('keep patterns that would keep nothing: empty, spaces around, a wildcard beside international letters', () => {
    expect(report('version: 1\nprune: {keep: ["", "  ", " legacy-*", "bü*.example"]}\nclients: []\n'))
      .toMatchInlineSnapshot(`
      [
        "m.yaml:2:16: error: pattern "" in "prune.keep" is empty: write a username or domain name, with * or ? as wildcards (like "legacy-*"), or remove it",
        "m.yaml:2:20: error: pattern "  " in "prune.keep" is empty: write a username or domain name, with * or ? as wildcards (like "legacy-*"), or remove it",
        "m.yaml:2:26: error: pattern " legacy-*" in "prune.keep" has spaces around it: remove them (names have no spaces, so it would keep nothing)",
        "m.yaml:2:39: error: pattern "bü*.example" in "prune.keep" holds "ü" (U+00FC), a character outside ASCII; names are compared in their ASCII form, so it would keep nothing as written: write each label with international letters in its ASCII (punycode) form, with the wildcards in labels of their own",
      ]
    `);
  });
});

describe('the lifecycle keys in a large manifest (the chunked read)', () => {
  const clients = Array.from({ length: 12_000 }, (_, i) =>
    [
      `  - username: u${i}`,
      i % 3 === 0
        ? '    state: absent'
        : `    suspended: ${i % 2 === 0}\n    domains:\n      - d${i}.example\n      - name: old${i}.example\n        state: absent`,
    ].join('\n'),
  ).join('\n');

  it.each([
    [
      'a prune block before the clients',
      `version: 1\nprune:\n  domains: true\n  # kept\n  keep:\n    - legacy-*\nclients:\n${clients}\n`,
    ],
    [
      'a prune block after the clients',
      `version: 1\nclients:\n${clients}\nprune:\n  clients: true\n  keep: [legacy-*, "*.example.org"]\n`,
    ],
    ['a flow prune over two lines', `version: 1\nprune: {domains: true,\n  keep: [legacy-*]}\nclients:\n${clients}\n`],
  ])("reads %s in chunks, with the whole read's answer", (_, text) => {
    expect(text.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
    const chunked = parseManifestChunked(text, FILE);
    expect(chunked).toBeDefined();
    expect(chunked).toEqual(parseManifestWhole(text, FILE));
    expect(chunked?.desired?.prune.loc).toEqual(at(text.split('\n').findIndex((l) => l.startsWith('prune:')) + 1, 1));
    expect(chunked?.desired?.clients[5]?.domains[1]).toMatchObject({
      name: 'old5.example',
      state: 'absent',
    });
    expect(chunked?.desired?.clients[6]).toMatchObject({
      username: 'u6',
      state: 'absent',
      domains: [],
    });
  });

  it('reports a bad keep pattern of a large manifest as the whole read does', () => {
    const text = `version: 1\nprune:\n  keep: ["", legacy-*]\nclients:\n${clients}\n  - username: u1\n`;
    const expected = [
      'm.yaml:3:10: error: pattern "" in "prune.keep" is empty: write a username or domain name, with * or ? as wildcards (like "legacy-*"), or remove it',
      `m.yaml:${text.split('\n').length - 1}:15: error: username "u1" is used twice (first at line 7): each client needs its own username`,
    ];
    expect(parseManifestChunked(text, FILE, undefined, true)?.diagnostics.map(formatDiagnostic)).toEqual(expected);
    expect(validateManifest(text, FILE)).toEqual(parseManifestWhole(text, FILE));
    expect(validateManifest(text, FILE).diagnostics.map(formatDiagnostic)).toEqual(expected);
  });
});

describe('editor support', () => {
  it('accepts a "$schema" key (a JSON manifest names its schema so), and never suggests it', () => {
    const json = parseManifest(
      '{"$schema": "https://example.invalid/manifest.schema.json", "version": 1, "clients": [{"username": "alice"}]}',
      'm.json',
    );
    expect(json.diagnostics).toEqual([]);
    expect(json.desired?.clients.map((c) => c.username)).toEqual(['alice']);
    const typo = parseManifest('version: 1\nclients: []\nschema: x\n', 'm.yaml');
    expect(typo.diagnostics.map((d) => d.message)).toEqual([
      'unknown key "schema" at the top level: allowed keys are "version", "clients", "hosting_plans" and "prune"',
    ]);
  });
});
