/**
 * The chunked manifest reader (src/manifest/chunked.ts) against the whole-document read: for
 * any text, `validateManifest` gives exactly what `parseManifestWhole` gives (Desired with every
 * location, and every diagnostic), and the chunked read, when it answers at all, answers the
 * same; valid manifests of the common shape do take the chunked read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { anyClients, anyShape, edit, manifestText, shape, validClients } from './arbitraries.js';

const FILE = 'm.yaml';

/**
 * The three reads of `text` agree, the chunked one with batches of each size (undefined: the
 * default); returns whether the chunked read answered at every size. The whole read is made once.
 */
function agree(text: string, ...batchSizes: (number | undefined)[]): boolean {
  const whole = parseManifestWhole(text, FILE);
  expect(validateManifest(text, FILE)).toEqual(whole);
  let answered = true;
  for (const batchChars of batchSizes.length === 0 ? [undefined] : batchSizes) {
    const chunked = parseManifestChunked(text, FILE, batchChars);
    if (chunked !== undefined) {
      expect(chunked).toEqual(whole);
      expect(whole.diagnostics).toEqual([]);
    }
    // Keeping the diagnostics of client items (large files), the chunked read, when it answers,
    // says exactly what the whole read says: the same problems, words and locations.
    const keeping = parseManifestChunked(text, FILE, batchChars, true);
    if (keeping !== undefined) expect(keeping).toEqual(whole);
    answered &&= chunked !== undefined;
  }
  return answered;
}

/** The property tests make about 2,000 reads each: seconds alone, several times that on a loaded machine. */
const PROPERTY_TIMEOUT = 120_000;

describe('the chunked read equals the whole-document read', () => {
  it(
    'valid manifests of the common shape: same Desired, through the chunked read',
    () => {
      fc.assert(
        fc.property(shape, validClients, fc.integer({ min: 1, max: 400 }), (s, clients, batchChars) => {
          const text = manifestText(s, clients);
          expect(agree(text, batchChars, undefined)).toBe(true);
        }),
        { numRuns: 400 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'manifests with mistakes: same diagnostics, same locations',
    () => {
      fc.assert(
        fc.property(anyShape, anyClients, fc.integer({ min: 1, max: 400 }), (s, clients, batchChars) => {
          agree(manifestText(s, clients), batchChars);
        }),
        { numRuns: 400 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'valid and broken manifests with YAML features the chunked read leaves to the whole read',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(shape, anyShape),
          fc.oneof(validClients, anyClients),
          edit,
          fc.integer({ min: 1, max: 400 }),
          (s, clients, change, batchChars) => {
            agree(change(manifestText(s, clients)), batchChars);
          },
        ),
        { numRuns: 400 },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('the chunked read', () => {
  it('never throws, whatever the text: it answers or leaves the text to the whole read (property)', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'version: 1',
        'clients:',
        '  - username: a',
        '    domains: [a.example]',
        '- ',
        '  ',
        '#',
        '&a',
        '*a',
      ),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.integer({ min: 1, max: 200 }), (lines, batchChars) => {
        const text = lines.join('\n');
        expect(() => parseManifestChunked(text, FILE, batchChars, false)).not.toThrow();
        expect(() => parseManifestChunked(text, FILE, batchChars, true)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  const valid = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n  - username: bob\n';

  it('reads a valid manifest of the common shape', () => {
    expect(parseManifestChunked(valid, FILE)).toEqual(parseManifestWhole(valid, FILE));
  });

  it('locates clients in later batches at their lines in the file', () => {
    const clients = Array.from(
      { length: 300 },
      (_, i) => `  - username: u${i}\n    plan: Basic\n    domains:\n      - d${i}.example\n`,
    );
    const text = `# many\nversion: 1\nclients:\n${clients.join('')}`;
    const result = parseManifestChunked(text, FILE, 100);
    expect(result).toEqual(parseManifestWhole(text, FILE));
    expect(result?.desired?.clients[299]).toEqual({
      username: 'u299',
      state: 'present',
      plan: 'Basic',
      planLoc: { file: FILE, line: 4 + 299 * 4 + 1, column: 11 },
      loc: { file: FILE, line: 4 + 299 * 4, column: 15 },
      domains: [
        {
          name: 'd299.example',
          input: 'd299.example',
          state: 'present',
          loc: { file: FILE, line: 4 + 299 * 4 + 3, column: 9 },
        },
      ],
    });
  });

  it('leaves duplicates across batches to the whole read, which names the first line', () => {
    const clients = Array.from({ length: 300 }, (_, i) => `  - username: u${i === 250 ? 3 : i}\n`);
    const text = `version: 1\nclients:\n${clients.join('')}`;
    expect(parseManifestChunked(text, FILE, 64)).toBeUndefined();
    expect(validateManifest(text, FILE).diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      '253:15: username "u3" is used twice (first at line 6): each client needs its own username',
    ]);
  });

  const fallBack: [string, string][] = [
    ['a carriage return without its line feed', valid.replace('username: bob\n', 'username: bob\r')],
    ['a tab', valid.replace('username: bob', 'username:\tbob')],
    ['tabs as indentation', valid.replace('\n    domains', '\n\tdomains')],
    ['an alias without its anchor', valid.replace('[alice.example]', '*common')],
    ['a second document start marker', `---\n---\n${valid}`],
    ['a document end marker', `${valid}...\n`],
    ['a directive', `%YAML 1.2\n---\n${valid}`],
    ['a flow sequence of clients', 'version: 1\nclients: [{username: alice}]\n'],
    ['a key that is a collection', valid.replace('username: bob', 'username: bob\n    ? [plan]\n    : Basic')],
    ['clients twice', `${valid}clients:\n  - username: carol\n`],
    ['a quoted scalar across an item boundary', valid.replace('username: alice', 'username: "alice\n  - username: x"')],
    ['a syntax error in an item', valid.replace('[alice.example]', '[alice.example')],
    ['a duplicate key in an item', valid.replace('username: bob', 'username: bob\n    username: bob')],
    ['a line that leaves the sequence indented', `${valid} owner: me\n`],
    ['a top-level line that is not `key: value`', `${valid}"owner": me\n`],
    ['an indented line after a top-level comment', `# note\n  owner: me\n${valid}`],
    ['prune with an error', `${valid}prune:\n  keep: [""]\n`],
    ['a schema error', valid.replace('username: bob', 'username: bob\n    plan: 3')],
    ['an unknown top-level key', `${valid}owner: me\n`],
    ['a semantic error', valid.replace('username: bob', 'username: alice')],
    ['no version', valid.replace('version: 1\n', '')],
    ['an empty clients list', 'version: 1\nclients: []\n'],
    ['clients with no items', 'version: 1\nclients:\nother: 1\n'],
    ['an item on the dash line only', 'version: 1\nclients:\n  -\n    username: alice\n'],
  ];

  it.each([
    ['CRLF line endings', valid.replaceAll('\n', '\r\n')],
    ['a byte order mark', `\uFEFF${valid}`],
    ['a byte order mark and CRLF', `\uFEFF# comment\r\n${valid.replaceAll('\n', '\r\n')}`],
    ['a document start marker', `---\n${valid}`],
  ])('reads a manifest with %s as the whole read does', (_, text) => {
    const result = parseManifestChunked(text, FILE);
    expect(result).toEqual(parseManifestWhole(text, FILE));
    expect(result?.desired?.clients[1]?.loc).toEqual({
      file: FILE,
      line: text.startsWith('\uFEFF#') || text.startsWith('---') ? 6 : 5,
      column: 15,
    });
  });

  it('reads anchors, aliases and merge keys part by part, as the whole read does, in batches of any size', () => {
    const anchored = [
      'version: 1',
      'x-defaults: &defaults',
      '  email: team@example.com',
      '  language: de',
      'x-https: &https',
      '  https: {lets_encrypt: true, force: true}',
      'x-lang: &lang {language: en, email: en@example.com}',
      'clients:',
      '  - <<: *defaults',
      '    username: alice',
      '    plan: &plan Basic',
      '    domains:',
      '      - name: alice.example',
      '        <<: *https',
      '  - <<: [*lang, *defaults]',
      '    username: bob',
      '    language: fr',
      '    plan: *plan',
      '  - username: carol',
      '    plan: &plan Premium',
      '  - username: dave',
      '    plan: *plan',
      '',
    ].join('\n');
    for (const batchChars of [1, 40, 4096]) {
      const chunked = parseManifestChunked(anchored, FILE, batchChars);
      expect(chunked).toEqual(parseManifestWhole(anchored, FILE));
      expect(chunked?.desired?.clients.map((c) => [c.username, c.plan, c.planLoc?.line])).toEqual([
        ['alice', 'Basic', 11],
        ['bob', 'Basic', 18],
        ['carol', 'Premium', 20],
        ['dave', 'Premium', 22],
      ]);
    }
  });

  it('locates what a merge or an alias brings in at the alias, in each client, as the whole read does', () => {
    const clients = Array.from({ length: 40 }, (_, i) => `  - <<: *d\n    username: u${i}\n    plan: *p\n`).join('');
    const text = `version: 1\nx-d: &d\n  emial: ops@example.com\nx-p: &p 3\nclients:\n${clients}`;
    const whole = parseManifestWhole(text, FILE);
    expect(whole.diagnostics.slice(0, 2).map((d) => `${d.line}:${d.column}`)).toEqual(['6:9', '8:11']);
    for (const batchChars of [1, 64, 4096]) expect(parseManifestChunked(text, FILE, batchChars, true)).toEqual(whole);
    expect(parseManifestChunked(text, FILE, 64, false)).toBeUndefined();
  });

  it('leaves aliases past the guard, an alias in its own anchor and aliases in the trailer to the whole read', () => {
    const laughs = Array.from({ length: 30 }, (_, i) => `  - username: u${i}\n    x: &a${i + 1} [*a${i}, *a${i}]\n`);
    const bomb = `version: 1\nx-0: &a0 [x]\nclients:\n${laughs.join('')}`;
    for (const text of [
      bomb,
      `${valid}  - username: carol\n    plan: &p [*p]\n`,
      `version: 1\nclients:\n  - username: &u alice\nx-u: *u\n`,
      `version: 1\nclients:\n  - username: alice\nx-u: &u b\n`,
    ]) {
      expect(parseManifestChunked(text, FILE, 64, true), text.slice(0, 60)).toBeUndefined();
      expect(validateManifest(text, FILE)).toEqual(parseManifestWhole(text, FILE));
    }
    expect(validateManifest(bomb, FILE).diagnostics[0]?.message).toMatch(/^aliases expand to too much data/);
  });

  it('reads tags and block scalars as the whole read does, in batches of any size', () => {
    const text = [
      'version: 1',
      'clients:',
      '  - username: !!str alice',
      '    plan: |',
      '      Basic',
      '  - username: bob',
      '    plan: >-',
      '      Premium',
      '      Plus',
      '    email: |+',
      '      ops@example.com',
      '',
      '  # between',
      '  - username: carol',
      '    plan: !!str 3',
      '',
    ].join('\n');
    for (const batchChars of [1, 30, 4096]) {
      const chunked = parseManifestChunked(text, FILE, batchChars, true);
      expect(chunked).toEqual(parseManifestWhole(text, FILE));
      // The kept line breaks make the email invalid: located at its block scalar, as the whole read does.
      expect(chunked?.diagnostics.map((d) => `${d.line}:${d.column}`)).toEqual(['10:12']);
      expect(chunked?.partial?.clients.map((c) => c.plan)).toEqual(['Basic\n', 'Premium Plus', '3']);
    }
  });

  it('reads an explicit scalar key (`? key`) as the whole read does: it is inside the item', () => {
    const text = valid.replace('username: bob', '? username\n    : bob');
    expect(parseManifestChunked(text, FILE)).toEqual(parseManifestWhole(text, FILE));
    expect(parseManifestWhole(text, FILE).diagnostics).toEqual([]);
  });

  it.each(fallBack)('leaves %s to the whole read', (_, text) => {
    expect(parseManifestChunked(text, FILE)).toBeUndefined();
    expect(validateManifest(text, FILE)).toEqual(parseManifestWhole(text, FILE));
  });
});
