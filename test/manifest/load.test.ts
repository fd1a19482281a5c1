import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import {
  CHUNKED_DIAGNOSTICS_ABOVE,
  parseManifestChunked,
  parseManifestWhole,
  validateManifest,
} from '../../src/manifest/load.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';
import { loadManifestFile as loadManifest } from '../helpers/manifest.js';
import type { Desired } from '../../src/manifest/index.js';
import { NO_PRUNE } from '../../src/manifest/types.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/manifests/', import.meta.url));

/** The formatted diagnostics for manifest text, as the CLI would print them. */
function report(text: string): string[] {
  return parseManifest(text, 'm.yaml').diagnostics.map(formatDiagnostic);
}

/** Formatted diagnostics of a fixture file, with the fixture folder left out of the path. */
async function reportFile(name: string): Promise<string[]> {
  const result = await loadManifest(join(FIXTURES, name));
  return result.diagnostics.map((d) => formatDiagnostic({ ...d, file: name }));
}

const USERNAME_RULE =
  'must be lowercase letters, digits, "-" or "_", starting with a letter (at most 32): usernames are not rewritten';

describe('a valid manifest', () => {
  it('loads into Desired with normalised domains and locations', async () => {
    const file = join(FIXTURES, 'valid.yaml');
    const result = await loadManifest(file);
    const at = (line: number, column: number) => ({ file, line, column });
    expect(result.diagnostics).toEqual([]);
    expect(result.desired).toEqual<Desired>({
      file,
      clients: [
        {
          username: 'alice',
          state: 'present',
          plan: 'Basic',
          planLoc: at(5, 11),
          email: 'alice@example.com',
          loc: at(4, 15),
          domains: [
            { name: 'alice.example', input: 'alice.example', state: 'present', loc: at(8, 9) },
            {
              name: 'shop.alice.example',
              input: 'Shop.Alice.Example',
              state: 'present',
              loc: at(9, 9),
            },
            {
              name: 'xn--bcher-kva.example',
              input: 'bücher.example',
              state: 'present',
              loc: at(10, 9),
            },
          ],
        },
        {
          username: 'bob',
          state: 'present',
          plan: 'Business Pro',
          planLoc: at(12, 11),
          loc: at(11, 15),
          domains: [{ name: 'bob.example', input: 'bob.example', state: 'present', loc: at(13, 15) }],
        },
        { username: 'carol_2', state: 'present', loc: at(14, 15), domains: [] },
      ],
      prune: NO_PRUNE,
    });
  });

  it('leaves optional fields out rather than setting them to undefined', () => {
    const { desired } = parseManifest('version: 1\nclients:\n  - username: dave\n', 'm.yaml');
    expect(Object.keys(desired?.clients[0] ?? {}).sort()).toEqual(['domains', 'loc', 'state', 'username']);
  });

  it('accepts an empty client list', () => {
    expect(parseManifest('version: 1\nclients: []\n', 'm.yaml')).toEqual({
      desired: { file: 'm.yaml', clients: [], prune: NO_PRUNE },
      diagnostics: [],
    });
  });

  it('keeps loading past a warning, and reports it', () => {
    const result = parseManifest('version: 1\nclients:\n  - username: eve\n    plan: !custom Basic\n', 'm.yaml');
    expect(result.diagnostics.map(formatDiagnostic)).toEqual(['m.yaml:4:11: warning: unresolved tag: !custom']);
    expect(result.desired?.clients[0]?.plan).toBe('Basic');
  });

  it('reads aliases, and points at the alias where it is used', () => {
    const result = parseManifest(
      'version: 1\nclients:\n  - username: frank\n    domains: &shared [frank.example]\n  - username: gina\n    domains: *shared\n',
      'm.yaml',
    );
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:6:14: error: domain "frank.example" is already listed under client "frank" at line 4: a domain belongs to one client only',
    ]);
  });
});

describe('YAML problems', () => {
  it('reports a syntax error and stops before the schema', () => {
    expect(report('version: 1\nclients:\n  - {username: alice\nextra: x\n')).toEqual([
      'm.yaml:4:1: error: flow map in block collection must be sufficiently indented and end with a }',
    ]);
  });

  it('refuses a duplicate key, naming it', () => {
    expect(report('version: 1\nclients:\n  - username: alice\n    username: bob\n')).toEqual([
      'm.yaml:4:5: error: duplicate key "username": a key may appear only once in a mapping',
    ]);
  });

  it('refuses a second document', () => {
    expect(report('version: 1\nclients: []\n---\nversion: 1\n')).toEqual([
      'm.yaml:3:1: error: a manifest is a single YAML document: remove this "---" and merge what follows into the first',
    ]);
  });

  it('refuses tabs as indentation', () => {
    expect(report('version: 1\nclients:\n\t- username: alice\n')).toContain(
      'm.yaml:3:1: error: tabs are not allowed as indentation: indent with spaces',
    );
  });

  it('reports an empty file once', () => {
    expect(report('')).toEqual([
      'm.yaml:1:1: error: the manifest is empty: start it with "version: 1" and a "clients" list',
    ]);
    expect(report('# nothing yet\n')).toEqual([
      'm.yaml:1:1: error: the manifest is empty: start it with "version: 1" and a "clients" list',
    ]);
  });

  it('survives absurdly deep nesting', () => {
    const diagnostics = report(`version: 1\nclients: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(
      diagnostics.every((d) =>
        d.endsWith('error: the manifest nests too deeply to be read: a manifest needs only a few levels'),
      ),
    ).toBe(true);
  });

  it('locates an unknown alias', () => {
    expect(report('version: 1\nclients:\n  - username: alice\n    domains: *common\n')).toEqual([
      'm.yaml:4:14: error: unknown alias "*common": define the anchor "&common" before using it',
    ]);
  });

  it('refuses an alias bomb', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ].join('\n');
    expect(report(bomb)).toEqual([
      'm.yaml:2:8: error: aliases expand to too much data (more than 10,000 nodes): write the values out instead',
    ]);
  });
});

describe('shape problems (JSON Schema)', () => {
  it('suggests the key an unknown key was probably meant to be, at the key', () => {
    expect(report('version: 1\nclients:\n  - username: alice\n    domain: [alice.example]\n')).toEqual([
      'm.yaml:4:5: error: unknown key "domain" in client "alice": did you mean "domains"?',
    ]);
  });

  it('lists the allowed keys when nothing is close', () => {
    expect(report('version: 1\nclients: []\nowner: me\n')).toEqual([
      'm.yaml:3:1: error: unknown key "owner" at the top level: allowed keys are "version", "clients", "hosting_plans" and "prune"',
    ]);
  });

  it('does not also report the missing key a typo was meant to be', () => {
    expect(report('version: 1\nclients:\n  - usernme: alice\n')).toEqual([
      'm.yaml:3:5: error: unknown key "usernme" in client #1: did you mean "username"?',
    ]);
  });

  it('reports wrong types at their values', () => {
    expect(report('version: 1\nclients:\n  - username: alice\n    plan: 3\n    domains: alice.example\n')).toEqual([
      'm.yaml:4:11: error: "plan" in client "alice" must be a string: the hosting plan\'s name',
      'm.yaml:5:14: error: "domains" in client "alice" must be a list of domain names: write [alice.example]',
    ]);
    expect(report('version: 1\nclients:\n  - username: 42\n    domains: [7]\n  - just-a-name\n')).toEqual([
      'm.yaml:3:15: error: "username" in client #1 must be a string, like alice',
      'm.yaml:4:15: error: domain #1 in client #1 must be a domain name, or a mapping like {name: old.example.com, state: absent}',
      'm.yaml:5:5: error: client #2 must be a mapping with a "username" (and optionally "state", "plan", "email", "suspended", "language", "domains")',
    ]);
    expect(report('version: 1\nclients:\n')).toEqual([
      'm.yaml:2:9: error: "clients" must be a list of clients (write "clients: []" for none)',
    ]);
    expect(report('- version: 1\n')).toEqual([
      'm.yaml:1:1: error: the manifest must be a mapping with "version: 1" and a "clients" list',
    ]);
  });

  it('points a missing username at its client', () => {
    expect(report('version: 1\nclients:\n  - username: alice\n  - plan: Basic\n    domains: []\n')).toEqual([
      'm.yaml:4:5: error: client #2 has no "username": add one',
    ]);
  });

  it('wants version 1', () => {
    expect(report('version: 2\nclients: []\n')).toEqual(['m.yaml:1:10: error: "version" must be 1']);
    expect(report('version: "1"\nclients: []\n')).toEqual(['m.yaml:1:10: error: "version" must be 1']);
    expect(report('clients: []\n')).toEqual([
      'm.yaml:1:1: error: the manifest has no "version": add "version: 1" at the top',
    ]);
  });
});

describe('semantic problems', () => {
  it('refuses an uppercase username instead of rewriting it', () => {
    expect(report('version: 1\nclients:\n  - username: Alice\n')).toEqual([
      `m.yaml:3:15: error: username "Alice" ${USERNAME_RULE}`,
    ]);
    expect(report(`version: 1\nclients:\n  - username: ${'a'.repeat(33)}\n`)).toEqual([
      `m.yaml:3:15: error: username "${'a'.repeat(33)}" ${USERNAME_RULE}`,
    ]);
  });

  it('refuses a duplicate username at the second, naming the first line', () => {
    expect(report('version: 1\nclients:\n  - username: alice\n  - username: bob\n  - username: alice\n')).toEqual([
      'm.yaml:5:15: error: username "alice" is used twice (first at line 3): each client needs its own username',
    ]);
  });

  it('refuses one domain under two clients, compared case-insensitively and in punycode', () => {
    const text = [
      'version: 1',
      'clients:',
      '  - username: alice',
      '    domains: [bücher.example, alice.example]',
      '  - username: bob',
      '    domains:',
      '      - XN--BCHER-KVA.example',
      '      - Alice.Example',
    ].join('\n');
    expect(report(text)).toEqual([
      'm.yaml:7:9: error: domain "XN--BCHER-KVA.example" (same as "bücher.example") is already listed under client "alice" at line 4: a domain belongs to one client only',
      'm.yaml:8:9: error: domain "Alice.Example" (same as "alice.example") is already listed under client "alice" at line 4: a domain belongs to one client only',
    ]);
  });

  it('refuses a domain listed twice under one client', () => {
    expect(report('version: 1\nclients:\n  - username: alice\n    domains: [alice.example, alice.example]\n')).toEqual([
      'm.yaml:4:30: error: domain "alice.example" is listed twice in client "alice" (first at line 4): remove one',
    ]);
  });

  it('refuses invalid domains with the reason', () => {
    const text =
      'version: 1\nclients:\n  - username: alice\n    domains:\n      - localhost\n      - https://alice.example/\n      - alice.example.\n      - -bad.example\n';
    expect(report(text)).toEqual([
      'm.yaml:5:9: error: domain "localhost" in client "alice" needs at least two labels, like example.com',
      'm.yaml:6:9: error: domain "https://alice.example/" in client "alice" contains a space, "/", ":", "@", "*" or a bracket: write a bare domain name',
      'm.yaml:7:9: error: domain "alice.example." in client "alice" ends with a dot: write it without the trailing dot',
      'm.yaml:8:9: error: domain "-bad.example" in client "alice" has an invalid label "-bad": use 1-63 letters, digits or inner hyphens',
    ]);
  });

  it('checks the email shape and refuses an empty plan', () => {
    expect(
      report('version: 1\nclients:\n  - username: alice\n    plan: ""\n    email: alice at example.com\n'),
    ).toEqual([
      'm.yaml:4:11: error: "plan" in client "alice" is empty: give a hosting plan\'s name, or remove "plan" for the panel\'s default resources',
      'm.yaml:5:12: error: email "alice at example.com" in client "alice" is not an email address like name@example.com',
    ]);
  });
});

describe('several problems in one file', () => {
  it('reports them all together, sorted by line and column', async () => {
    expect(await reportFile('invalid-many.yaml')).toEqual([
      'invalid-many.yaml:2:10: error: "version" must be 1',
      `invalid-many.yaml:4:15: error: username "Alice" ${USERNAME_RULE}`,
      'invalid-many.yaml:5:5: error: unknown key "domain" in client "Alice": did you mean "domains"?',
      'invalid-many.yaml:7:11: error: "plan" in client "bob" must be a string: the hosting plan\'s name',
      'invalid-many.yaml:8:12: error: email "bob-at-example.com" in client "bob" is not an email address like name@example.com',
      'invalid-many.yaml:11:9: error: domain "BOB.example" (same as "bob.example") is listed twice in client "bob" (first at line 10): remove one',
      'invalid-many.yaml:12:9: error: domain "localhost" in client "bob" needs at least two labels, like example.com',
      'invalid-many.yaml:13:5: error: client #3 has no "username": add one',
      'invalid-many.yaml:14:15: error: username "bob" is used twice (first at line 6): each client needs its own username',
      'invalid-many.yaml:15:15: error: domain "bob.example" is already listed under client "bob" at line 10: a domain belongs to one client only',
    ]);
  });

  it('returns no Desired when there is an error', async () => {
    const result = await loadManifest(join(FIXTURES, 'invalid-many.yaml'));
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.every((d) => d.severity === 'error')).toBe(true);
  });
});

describe('a manifest full of problems', () => {
  it("a large one is read in chunks all the same, with exactly the whole read's first thousand and count", () => {
    const clients = Array.from({ length: 25_000 }, (_, i) => `  - username: Bad${i}\n    email: nope${i}\n`).join('');
    const text = `version: 1\nclients:\n${clients}`;
    expect(text.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
    const chunked = parseManifestChunked(text, 'm.yaml', undefined, true);
    expect(chunked).toBeDefined();
    expect(chunked).toEqual(parseManifestWhole(text, 'm.yaml'));
    expect(validateManifest(text, 'm.yaml')).toEqual(chunked);
    expect(chunked?.errorCount).toBe(50_000);
  });

  it('reports the first thousand, then how many more', () => {
    const clients = Array.from({ length: 1500 }, (_, i) => `  - username: Bad${i}\n`).join('');
    const { desired, diagnostics } = parseManifest(`version: 1\nclients:\n${clients}`, 'm.yaml');
    expect(desired).toBeUndefined();
    expect(diagnostics).toHaveLength(1001);
    expect(diagnostics[999]?.line).toBe(1002);
    expect(diagnostics[1000]).toMatchObject({
      line: 1003,
      severity: 'error',
      message: '… and 500 more problems from here on, not shown: fix the ones above first',
    });
    expect(parseManifest(`version: 1\nclients:\n${clients}`, 'm.yaml').errorCount).toBe(1500);
  });
});

describe('loadManifest and files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'manifest-test-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports the first invalid UTF-8 byte at its line and column', async () => {
    const file = join(dir, 'latin1.yaml');
    const before = Buffer.from('version: 1\nclients:\n  - username: bücher\n    plan: ', 'utf8');
    await writeFile(file, Buffer.concat([before, Buffer.from([0x42, 0xe4, 0x73, 0x69, 0x63, 0x0a])]));
    const result = await loadManifest(file);
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `${file}:4:12: error: invalid UTF-8 (byte 0xE4): save the manifest as UTF-8`,
    ]);
  });

  it('reads a UTF-8 file with a byte order mark', async () => {
    const file = join(dir, 'bom.yaml');
    await writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('version: 1\nclients: []\n')]));
    expect(await loadManifest(file)).toEqual({
      desired: { file, clients: [], prune: NO_PRUNE },
      diagnostics: [],
    });
  });
});

describe('formatDiagnostic', () => {
  it('writes file:line:column: severity: message', () => {
    expect(
      formatDiagnostic({
        file: 'a.yaml',
        line: 3,
        column: 7,
        severity: 'warning',
        message: 'careful',
      }),
    ).toBe('a.yaml:3:7: warning: careful');
  });
});
