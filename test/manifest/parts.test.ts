/**
 * Manifest directories (docs/manifest.md, "Manifest directories"; src/manifest/parts.ts): which entries are
 * parts and their order, the parts merged into one manifest in that order, every duplicate across
 * parts an error at the second naming the first's file:line, look-alikes warned about over the
 * whole, and the digest a saved plan records (computed here again with node:crypto).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isPartName,
  type ManifestPart,
  manifestDigest,
  parseManifestFiles,
  parseManifestParts,
  partOrder,
} from '../../src/manifest/parts.js';
import { NO_CLIENTS } from '../../src/manifest/schema.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

const DIR = 'panels/fra1';
const part = (name: string, text: string | Uint8Array): ManifestPart => ({
  file: `${DIR}/${name}`,
  bytes: typeof text === 'string' ? new TextEncoder().encode(text) : text,
});

/** The diagnostics of `parts` as one directory, as the CLI prints them. */
function report(...parts: ManifestPart[]): string[] {
  return parseManifestParts(parts, DIR).diagnostics.map(formatDiagnostic);
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

const ALICE = `version: 1
clients:
  - username: alice
    plan: Basic
    domains: [alice.example, shop.alice.example]
`;
const BOB = `version: 1
hosting_plans:
  - name: Basic
    resources: {domains: 10}
clients:
  - username: bob
    domains: [bob.example]
`;

describe('partOrder', () => {
  it('takes *.yaml and *.yml entries, not hidden ones nor anything else', () => {
    expect(
      partOrder([
        'clients.yaml',
        'plans.yml',
        'README.md',
        '.hidden.yaml',
        '.#clients.yaml',
        'clients.yaml~',
        'clients.yaml.bak',
        'notes.txt',
        'yaml',
        '.yaml',
      ]),
    ).toEqual(['clients.yaml', 'plans.yml']);
    expect(isPartName('a.yaml')).toBe(true);
    expect(isPartName('.a.yaml')).toBe(false);
    expect(isPartName('a.json')).toBe(false);
  });

  it('sorts by code unit: the same order on every machine, whatever the locale', () => {
    const names = ['b.yaml', 'a.yml', 'B.yaml', '10.yaml', '2.yaml', 'é.yaml', 'f.yaml', '_.yaml'];
    expect(partOrder(names).join(' ')).toBe('10.yaml 2.yaml B.yaml _.yaml a.yml b.yaml f.yaml é.yaml');
    // A copy, not the caller's array sorted in place.
    expect(names[0]).toBe('b.yaml');
    // U+1F600 is two code units, the first 0xD83D: before U+FFFD by code unit (after it by code point).
    expect(partOrder(['\uFFFD.yaml', '\u{1F600}.yaml'])).toEqual(['\u{1F600}.yaml', '\uFFFD.yaml']);
  });
});

describe('parseManifestParts, merging', () => {
  it('makes one list of the clients and one of the hosting plans, in part order', () => {
    const result = parseManifestParts(
      [part('a.yaml', ALICE), part('b.yaml', BOB), part('c.yaml', 'version: 1\nclients:\n  - username: carol\n')],
      DIR,
    );
    expect(result.diagnostics).toEqual([]);
    const desired = result.desired;
    expect(desired?.file).toBe(DIR);
    expect(desired?.clients.map((c) => c.username)).toEqual(['alice', 'bob', 'carol']);
    expect(desired?.clients.map((c) => c.loc)).toEqual([
      { file: `${DIR}/a.yaml`, line: 3, column: 15 },
      { file: `${DIR}/b.yaml`, line: 6, column: 15 },
      { file: `${DIR}/c.yaml`, line: 3, column: 15 },
    ]);
    expect(desired?.clients[0]?.domains.map((d) => d.name)).toEqual(['alice.example', 'shop.alice.example']);
    // alice (in a.yaml) is on the plan b.yaml defines.
    expect(desired?.clients[0]?.plan).toBe('Basic');
    expect(desired?.hostingPlans?.map((p) => [p.name, p.loc?.file, p.loc?.line])).toEqual([
      ['Basic', `${DIR}/b.yaml`, 3],
    ]);
    expect(desired?.prune).toMatchObject({ clients: false, domains: false, keep: [] });
    expect(desired?.prune.loc).toBeUndefined();
  });

  it('takes the parts in the order given: the caller (cli/manifest-files.ts) orders them with partOrder', () => {
    const result = parseManifestParts([part('b.yaml', BOB), part('a.yaml', ALICE)], DIR);
    expect(result.desired?.clients.map((c) => c.username)).toEqual(['bob', 'alice']);
  });

  it('takes a part without clients (plans only), and a part of prune only', () => {
    const plans = part('00-plans.yaml', 'version: 1\nhosting_plans:\n  - name: Basic\n');
    const prune = part('99-prune.yaml', 'version: 1\nprune:\n  clients: true\n  keep: [admin-*]\n');
    const result = parseManifestParts([plans, part('clients.yaml', ALICE), prune], DIR);
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.clients.map((c) => c.username)).toEqual(['alice']);
    expect(result.desired?.hostingPlans?.map((p) => p.name)).toEqual(['Basic']);
    expect(result.desired?.prune).toMatchObject({
      clients: true,
      domains: false,
      loc: { file: `${DIR}/99-prune.yaml`, line: 2 },
    });
    expect(result.desired?.prune.keep).toEqual(['admin-*']);

    // A directory of a single part of nothing but the version is a manifest of nothing.
    const bare = parseManifestParts([part('a.yaml', 'version: 1\n')], DIR);
    expect(bare.diagnostics).toEqual([]);
    expect(bare.desired?.clients).toEqual([]);
    expect(bare.desired?.hostingPlans).toBeUndefined();
  });

  it('a single file still needs "clients" or "hosting_plans"; a part does not', () => {
    const prune = new TextEncoder().encode('version: 1\nprune:\n  clients: true\n');
    const file = parseManifestFiles({ name: 'm.yaml', directory: false, parts: [{ file: 'm.yaml', bytes: prune }] });
    expect(file.desired).toBeUndefined();
    expect(file.diagnostics.map(formatDiagnostic)).toEqual([`m.yaml:1:1: error: ${NO_CLIENTS}`]);
    const plansOnly = new TextEncoder().encode('version: 1\nhosting_plans: []\n');
    expect(
      parseManifestFiles({ name: 'm.yaml', directory: false, parts: [{ file: 'm.yaml', bytes: plansOnly }] })
        .diagnostics,
    ).toEqual([]);
    const dir = parseManifestFiles({ name: DIR, directory: true, parts: [part('m.yaml', prune)] });
    expect(dir.diagnostics).toEqual([]);
    expect(dir.desired?.prune.clients).toBe(true);
  });

  it('refuses a directory with no part, at the directory', () => {
    const result = parseManifestParts([], DIR);
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `${DIR}:1:1: error: the directory holds no manifest part: add a *.yaml file with "version: 1" and a "clients" list`,
    ]);
    expect(parseManifestFiles({ name: DIR, directory: true, parts: [] }).desired).toBeUndefined();
  });

  it('checks each part as a file: "version: 1" in each, its own problems at its own lines', () => {
    expect(report(part('a.yaml', ALICE), part('b.yaml', 'clients:\n  - username: bob\n'))).toEqual([
      `${DIR}/b.yaml:1:1: error: the manifest has no "version": add "version: 1" at the top`,
    ]);
    expect(report(part('a.yaml', 'version: 1\nclients:\n  - username: alice\n  - username: alice\n'))).toEqual([
      `${DIR}/a.yaml:4:15: error: username "alice" is used twice (first at line 3): each client needs its own username`,
    ]);
  });
});

describe('parseManifestParts, duplicates across parts', () => {
  it('a username: at the second, naming the first part and line; a third names the first too', () => {
    const result = parseManifestParts(
      [
        part('a.yaml', ALICE),
        part('b.yaml', 'version: 1\nclients:\n  - username: bob\n  - username: alice\n'),
        part('c.yaml', 'version: 1\nclients:\n  - username: alice\n'),
      ],
      DIR,
    );
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `${DIR}/b.yaml:4:15: error: username "alice" is used twice (first at ${DIR}/a.yaml:3): each client needs its own username`,
      `${DIR}/c.yaml:3:15: error: username "alice" is used twice (first at ${DIR}/a.yaml:3): each client needs its own username`,
    ]);
    expect(result.errorCount).toBeUndefined();
  });

  it('a domain, under another client or under the same username, as its normal form', () => {
    expect(
      report(
        part('a.yaml', ALICE),
        part('b.yaml', 'version: 1\nclients:\n  - username: bob\n    domains: [bob.example, Shop.Alice.Example]\n'),
      ),
    ).toEqual([
      `${DIR}/b.yaml:4:28: error: domain "Shop.Alice.Example" (same as "shop.alice.example") is already listed ` +
        `under client "alice" at ${DIR}/a.yaml:5: a domain belongs to one client only`,
    ]);
    expect(
      report(
        part('a.yaml', 'version: 1\nclients:\n  - username: bob\n    domains: [xn--bcher-kva.example]\n'),
        part('b.yaml', 'version: 1\nclients:\n  - username: carol\n    domains:\n      - name: bücher.example\n'),
      ),
    ).toEqual([
      `${DIR}/b.yaml:5:15: error: domain "bücher.example" (same as "xn--bcher-kva.example") is already listed ` +
        `under client "bob" at ${DIR}/a.yaml:4: a domain belongs to one client only`,
    ]);
    // The same username in two parts: both errors, the domain's worded as listed twice in that client.
    expect(
      report(
        part('a.yaml', ALICE),
        part('b.yaml', 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n'),
      ),
    ).toEqual([
      `${DIR}/b.yaml:3:15: error: username "alice" is used twice (first at ${DIR}/a.yaml:3): each client needs its own username`,
      `${DIR}/b.yaml:4:15: error: domain "alice.example" is listed twice in client "alice" (first at ${DIR}/a.yaml:5): remove one`,
    ]);
  });

  it('a hosting plan name (as written: names are compared exactly)', () => {
    const plans = (name: string): string =>
      `version: 1\nclients: []\nhosting_plans:\n  - name: Gold\n  - name: ${name}\n`;
    expect(report(part('a.yaml', BOB), part('b.yaml', plans('Basic')))).toEqual([
      `${DIR}/b.yaml:5:11: error: hosting plan "Basic" is listed twice (first at ${DIR}/a.yaml:3): remove one`,
    ]);
    const cased = parseManifestParts([part('a.yaml', BOB), part('b.yaml', plans('basic'))], DIR);
    expect(cased.desired?.hostingPlans?.map((p) => p.name)).toEqual(['Basic', 'Gold', 'basic']);
    expect(cased.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a second prune, in a part of its own or beside clients', () => {
    const prune = 'version: 1\nprune:\n  clients: true\n';
    expect(report(part('a.yaml', prune), part('b.yaml', `${BOB}prune:\n  domains: true\n`))).toEqual([
      `${DIR}/b.yaml:8:1: error: "prune" is given again (first at ${DIR}/a.yaml:2): ` +
        'prune applies to the whole directory and stands in one part only; merge the two',
    ]);
    const three = parseManifestParts([part('a.yaml', prune), part('b.yaml', ALICE), part('c.yaml', prune)], DIR);
    expect(three.desired).toBeUndefined();
    expect(three.diagnostics.map((d) => `${d.file}:${d.line}`)).toEqual([`${DIR}/c.yaml:2`]);
  });

  it('a client on a plan another part marks absent: at the client\'s "plan", naming the plan\'s part and line', () => {
    const absent = 'version: 1\nhosting_plans:\n  - name: Old\n    state: absent\n';
    const client = 'version: 1\nclients:\n  - username: bob\n    plan: Old\n';
    const says = (at: string, planAt: string): string =>
      `${at}: error: "plan" of client "bob" names hosting plan "Old", which is marked state: absent at ${planAt}: ` +
      'give the client another plan, or remove "state: absent" from the plan';
    expect(report(part('a.yaml', absent), part('b.yaml', client))).toEqual([
      says(`${DIR}/b.yaml:4:11`, `${DIR}/a.yaml:3`),
    ]);
    // The client's part first: the error stays at the client's "plan".
    expect(report(part('a.yaml', client), part('b.yaml', absent))).toEqual([
      says(`${DIR}/a.yaml:4:11`, `${DIR}/b.yaml:3`),
    ]);
    // Within one part, as in a file: the plan's line only.
    expect(report(part('a.yaml', `${absent}clients:\n  - username: bob\n    plan: Old\n`))).toEqual([
      says(`${DIR}/a.yaml:7:11`, 'line 3'),
    ]);
  });

  it('still reports the other parts when one part is not even YAML, or not UTF-8', () => {
    const bad = part('a.yaml', 'version: 1\nclients: [\n');
    const result = parseManifestParts(
      [
        bad,
        part('b.yaml', 'version: 1\nclients:\n  - username: Bob\n'),
        part('c.yaml', ALICE),
        part('d.yaml', 'version: 1\nclients:\n  - username: alice\n'),
      ],
      DIR,
    );
    expect(result.desired).toBeUndefined();
    const lines = result.diagnostics.map(formatDiagnostic);
    expect(lines.map((l) => l.slice(0, l.indexOf(': error:')))).toEqual([
      `${DIR}/a.yaml:3:1`,
      `${DIR}/b.yaml:3:15`,
      `${DIR}/d.yaml:3:15`,
    ]);
    expect(lines[1]).toContain('username "Bob" must be lowercase');
    // Across the valid parts (c and d), the duplicate is still found.
    expect(lines[2]).toContain(`username "alice" is used twice (first at ${DIR}/c.yaml:3)`);

    const latin1 = part('a.yaml', Uint8Array.from([...new TextEncoder().encode('version: 1\n# caf'), 0xe9, 0x0a]));
    const both = report(latin1, part('b.yaml', 'version: 1\nclients:\n  - username: Bob\n'));
    expect(both[0]).toBe(`${DIR}/a.yaml:2:6: error: invalid UTF-8 (byte 0xE9): save the manifest as UTF-8`);
    expect(both[1]).toMatch(/^panels\/fra1\/b\.yaml:3:15: error: username "Bob" must be lowercase/);
    expect(both).toHaveLength(2);
  });

  it('sorts the diagnostics by part, then line, whatever order they were found in', () => {
    // c.yaml's cross-part errors are found in the client loop (line 7) before the plans (line 3);
    // a.yaml's only error (its client on c.yaml's absent plan) is found last of all.
    const result = parseManifestParts(
      [
        part('a.yaml', 'version: 1\nclients:\n  - username: dave\n    plan: Old\n'),
        part('b.yaml', `${BOB}  - username: Bob\n`),
        part(
          'c.yaml',
          'version: 1\nhosting_plans:\n  - name: Old\n    state: absent\n  - name: Gold\nclients:\n  - username: carol\n',
        ),
        part('d.yaml', 'version: 1\nhosting_plans:\n  - name: Gold\nclients:\n  - username: carol\n'),
      ],
      DIR,
    );
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}`)).toEqual([
      `${DIR}/a.yaml:4`,
      `${DIR}/b.yaml:8`,
      `${DIR}/d.yaml:3`,
      `${DIR}/d.yaml:5`,
    ]);
  });
});

describe('parseManifestParts, look-alike names', () => {
  it('warns over the whole directory, at the later name, naming the earlier part and line', () => {
    const result = parseManifestParts(
      [
        part('a.yaml', 'version: 1\nclients:\n  - username: alice\n    domains: [paypal.example]\n'),
        part('b.yaml', 'version: 1\nclients:\n  - username: a1ice\n    domains: [pаypal.example]\n  - username: bob\n'),
        part('c.yaml', 'version: 1\nclients:\n  - username: b0b\n'),
      ],
      DIR,
    );
    // Warnings do not stop the load.
    expect(result.desired?.clients).toHaveLength(4);
    const tail = ': they differ only by case, spacing or look-alike characters';
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `${DIR}/b.yaml:3:15: warning: username "a1ice" looks like username "alice" (${DIR}/a.yaml:3)${tail}`,
      `${DIR}/b.yaml:4:15: warning: domain "pаypal.example" looks like domain "paypal.example" (${DIR}/a.yaml:4)${tail} ("а" is U+0430)`,
      // Within one part: the line only, as in a file.
      `${DIR}/c.yaml:3:15: warning: username "b0b" looks like username "bob" (${DIR}/b.yaml:5)${tail}`,
    ]);
    expect(
      report(part('a.yaml', 'version: 1\nclients:\n  - username: alice\n  - username: a1ice\n')).map((l) =>
        l.replace(tail, ''),
      ),
    ).toEqual([`${DIR}/a.yaml:4:15: warning: username "a1ice" looks like username "alice" (line 3)`]);
  });

  it('says nothing about look-alikes when the directory has an error', () => {
    const result = parseManifestParts(
      [
        part('a.yaml', 'version: 1\nclients:\n  - username: alice\n'),
        part('b.yaml', 'version: 1\nclients:\n  - username: a1ice\n  - username: Bob\n'),
      ],
      DIR,
    );
    expect(result.diagnostics.map((d) => `${d.file}:${d.line} ${d.severity}`)).toEqual([`${DIR}/b.yaml:4 error`]);
  });
});

describe('manifestDigest', () => {
  it('of a file: the sha256 of its bytes, with no parts', () => {
    const bytes = new TextEncoder().encode(ALICE);
    expect(manifestDigest({ name: 'm.yaml', directory: false, parts: [{ file: 'm.yaml', bytes }] })).toEqual({
      sha256: sha256(ALICE),
    });
  });

  it('of a directory: each part\'s sha256, and the sha256 of the "<sha256>  <name>" lines sha256sum prints in it', () => {
    const parts = [part('a.yaml', ALICE), part('b.yml', BOB)];
    const digest = manifestDigest({ name: DIR, directory: true, parts });
    const lines = `${sha256(ALICE)}  a.yaml\n${sha256(BOB)}  b.yml\n`;
    expect(digest).toEqual({
      sha256: sha256(lines),
      parts: [
        { file: `${DIR}/a.yaml`, sha256: sha256(ALICE) },
        { file: `${DIR}/b.yml`, sha256: sha256(BOB) },
      ],
    });
    // A directory of one part is still a directory: not the part's own digest.
    const one = manifestDigest({ name: DIR, directory: true, parts: [part('a.yaml', ALICE)] });
    expect(one.sha256).toBe(sha256(`${sha256(ALICE)}  a.yaml\n`));
    // The same however the directory's path was typed.
    const typed = manifestDigest({
      name: `./${DIR}/`,
      directory: true,
      parts: [{ ...part('a.yaml', ALICE), file: `./${DIR}//a.yaml` }],
    });
    expect(typed.sha256).toBe(one.sha256);
    expect(one.sha256).not.toBe(sha256(ALICE));
    // An empty directory: the digest of no lines.
    expect(manifestDigest({ name: DIR, directory: true, parts: [] })).toEqual({ sha256: sha256(''), parts: [] });
  });

  it("changes with a part's bytes, its name, and the parts' order", () => {
    const of = (...parts: ManifestPart[]): string => manifestDigest({ name: DIR, directory: true, parts }).sha256;
    const base = of(part('a.yaml', ALICE), part('b.yaml', BOB));
    expect(of(part('a.yaml', ALICE), part('b.yaml', `${BOB}\n`))).not.toBe(base);
    expect(of(part('a.yaml', ALICE), part('c.yaml', BOB))).not.toBe(base);
    expect(of(part('b.yaml', BOB), part('a.yaml', ALICE))).not.toBe(base);
    expect(of(part('a.yaml', ALICE), part('b.yaml', BOB))).toBe(base);
  });
});
