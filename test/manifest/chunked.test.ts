/**
 * The chunked manifest reader (src/manifest/chunked.ts) against the whole-document read: for
 * any text, `validateManifest` gives exactly what `parseManifestWhole` gives (Desired with every
 * location, and every diagnostic), and the chunked read, when it answers at all, answers the
 * same; valid manifests of the common shape do take the chunked read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseManifestChunked, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';

const FILE = 'm.yaml';

/** The three reads of `text` agree; returns whether the chunked read answered. */
function agree(text: string, batchChars?: number): boolean {
  const whole = parseManifestWhole(text, FILE);
  expect(validateManifest(text, FILE)).toEqual(whole);
  const chunked = parseManifestChunked(text, FILE, batchChars);
  if (chunked !== undefined) {
    expect(chunked).toEqual(whole);
    expect(whole.diagnostics).toEqual([]);
  }
  // Keeping the diagnostics of client items (large files), the chunked read, when it answers,
  // says exactly what the whole read says: the same problems, words and locations.
  const keeping = parseManifestChunked(text, FILE, batchChars, true);
  if (keeping !== undefined) expect(keeping).toEqual(whole);
  return chunked !== undefined;
}

// ---------------------------------------------------------------------------------------
// Random manifests, written as text in the shapes people write.

interface ClientSpec {
  username: string;
  plan: string | number | undefined;
  email: string | undefined;
  domains: string[] | string | undefined;
  flowDomains: boolean;
  extraKey: string | undefined;
  comment: string | undefined;
  blankAfter: boolean;
  keyOrder: number;
}

interface Shape {
  seqIndent: number;
  domainIndent: number;
  headerComment: boolean;
  version: string | undefined;
  versionLast: boolean;
  trailer: string | undefined;
  quote: 'plain' | 'double' | 'single';
  commentColumn: number;
}

function scalar(value: string, quote: Shape['quote']): string {
  if (quote === 'double') return JSON.stringify(value);
  if (quote === 'single') return `'${value.replaceAll("'", "''")}'`;
  return value;
}

function manifestText(shape: Shape, clients: readonly ClientSpec[]): string {
  const lines: string[] = [];
  if (shape.headerComment) lines.push('# clients of the panel', '');
  if (shape.version !== undefined && !shape.versionLast) lines.push(`version: ${shape.version}`);
  lines.push('clients:');
  const pad = ' '.repeat(shape.seqIndent);
  const inner = ' '.repeat(shape.seqIndent + 2);
  for (const c of clients) {
    const fields: string[] = [];
    fields.push(`username: ${scalar(c.username, shape.quote)}`);
    if (c.plan !== undefined) fields.push(`plan: ${typeof c.plan === 'number' ? String(c.plan) : scalar(c.plan, shape.quote)}`);
    if (c.email !== undefined) fields.push(`email: ${scalar(c.email, shape.quote)}${c.comment === undefined ? '' : ` # ${c.comment}`}`);
    if (c.extraKey !== undefined) fields.push(`${c.extraKey}: x`);
    if (c.domains !== undefined) {
      if (typeof c.domains === 'string') fields.push(`domains: ${c.domains}`);
      else if (c.flowDomains || c.domains.length === 0) fields.push(`domains: [${c.domains.map((d) => scalar(d, shape.quote)).join(', ')}]`);
      else {
        const dpad = ' '.repeat(shape.seqIndent + 2 + shape.domainIndent);
        fields.push(['domains:', ...c.domains.map((d) => `${dpad}- ${scalar(d, shape.quote)}`)].join('\n'));
      }
    }
    // Rotate the key order: username need not come first.
    const k = c.keyOrder % fields.length;
    const ordered = [...fields.slice(k), ...fields.slice(0, k)];
    lines.push(`${pad}- ${ordered.join(`\n${inner}`)}`);
    if (c.comment !== undefined) lines.push(`${' '.repeat(shape.commentColumn)}# ${c.comment}`);
    if (c.blankAfter) lines.push('');
  }
  if (shape.version !== undefined && shape.versionLast) lines.push(`version: ${shape.version}`);
  if (shape.trailer !== undefined) lines.push(shape.trailer);
  return `${lines.join('\n')}\n`;
}

const shape: fc.Arbitrary<Shape> = fc.record({
  seqIndent: fc.constantFrom(0, 2, 4),
  domainIndent: fc.constantFrom(0, 2, 4),
  headerComment: fc.boolean(),
  version: fc.constant<string | undefined>('1'),
  versionLast: fc.boolean(),
  trailer: fc.constantFrom<string | undefined>(undefined, undefined, '# the end', ''),
  quote: fc.constantFrom('plain' as const, 'double' as const, 'single' as const),
  commentColumn: fc.constantFrom(0, 2, 4, 8),
});

const label = fc.constantFrom('one', 'two', 'shop', 'bücher', 'a-b', 'x1');
const tld = fc.constantFrom('example', 'test', 'co.uk');

/** Valid clients: unique usernames, each domain under one client, real emails. */
const validClients: fc.Arbitrary<ClientSpec[]> = fc
  .uniqueArray(
    fc.record({
      username: fc.stringMatching(/^[a-z0-9_-]{0,8}$/).map((name) => `u${name}`),
      plan: fc.constantFrom<string | number | undefined>(undefined, 'Basic', 'Business Pro', 'Premium Plus'),
      email: fc.constantFrom<string | undefined>(undefined, 'ops@example.com', 'a.b+c@mail.example.org'),
      domains: fc.constantFrom<string[] | string | undefined>(undefined, [], ['x']),
      domainLabels: fc.array(fc.tuple(fc.constantFrom('', 'www.', 'shop.'), label, tld, fc.boolean()), { maxLength: 4 }),
      flowDomains: fc.boolean(),
      extraKey: fc.constant<string | undefined>(undefined),
      comment: fc.constantFrom<string | undefined>(undefined, 'note', '- username: not-an-item'),
      blankAfter: fc.boolean(),
      keyOrder: fc.nat(5),
    }),
    { selector: (c) => c.username, minLength: 1, maxLength: 12 },
  )
  .map((clients) =>
    clients.map(({ domainLabels, ...c }, i) => ({
      ...c,
      // Unique by construction: the client's index is in every name.
      domains:
        c.domains === undefined
          ? undefined
          : domainLabels.map(([sub, l, t, upper], j) => {
              const name = `${sub}${l}${i}-${j}.${t}`;
              return upper ? name.toUpperCase() : name;
            }),
    })),
  );

/** Clients with mistakes: duplicates, bad names, unknown keys, wrong types. */
const anyClients: fc.Arbitrary<ClientSpec[]> = fc.array(
  fc.record({
    username: fc.constantFrom('alice', 'bob', 'Alice', 'carol_2', '', '42', 'a'.repeat(33)),
    plan: fc.constantFrom<string | number | undefined>(undefined, 'Basic', '', 'Business Pro', 3),
    email: fc.constantFrom<string | undefined>(undefined, 'ops@example.com', 'not an email', 'x@y'),
    domains: fc.oneof(
      fc.constantFrom<string[] | string | undefined>(undefined, 'alice.example', '[]', '~', '[7, alice.example]'),
      fc.array(fc.constantFrom('alice.example', 'Alice.Example', 'bob.example', 'localhost', 'https://x.example/', 'bücher.example', 'xn--bcher-kva.example', '-bad.example'), { maxLength: 3 }),
    ),
    flowDomains: fc.boolean(),
    extraKey: fc.constantFrom<string | undefined>(undefined, undefined, 'domain', 'usernme', 'owner'),
    comment: fc.constantFrom<string | undefined>(undefined, 'note'),
    blankAfter: fc.boolean(),
    keyOrder: fc.nat(5),
  }),
  { maxLength: 8 },
);

const anyShape: fc.Arbitrary<Shape> = fc.record({
  seqIndent: fc.constantFrom(0, 2, 4),
  domainIndent: fc.constantFrom(0, 2),
  headerComment: fc.boolean(),
  version: fc.constantFrom<string | undefined>('1', '1', '2', '"1"', undefined),
  versionLast: fc.boolean(),
  trailer: fc.constantFrom<string | undefined>(undefined, 'owner: me', 'version: 1', 'clients: []', '---', '  stray: x'),
  quote: fc.constantFrom('plain' as const, 'double' as const, 'single' as const),
  commentColumn: fc.constantFrom(0, 2, 6),
});

/** Small edits that may break the text in any way: the reads must still agree. */
const edit = fc.constantFrom(
  (t: string) => t,
  (t: string) => t.replace('username:', 'username: &a'),
  (t: string) => t.replace(/plan: .*/, 'plan: !custom Basic'),
  (t: string) => t.replace(/domains:/, 'domains: &d'),
  (t: string) => `${t}alias: *d\n`,
  (t: string) => t.replace(/plan: .*/, 'plan: *nope'),
  (t: string) => t.replace(/username: (.*)/, 'username: &u $1\n    email: *u'),
  (t: string) => t.replaceAll('\n', '\r\n'),
  (t: string) => `\uFEFF${t}`,
  (t: string) => t.replace('\n  ', '\n\t'),
  (t: string) => `%YAML 1.2\n---\n${t}`,
  (t: string) => `${t}...\n`,
  (t: string) => t.replace(/plan: .*/, 'plan: |\n      Basic'),
  (t: string) => t.replace(/email: .*/, 'email: "ops@\n  example.com"'),
  (t: string) => t.replace('username:', '? username\n    :'),
  (t: string) => t.replace(/(\n *- )/, '$1[ '),
  (t: string) => `${t}clients: []\n`,
  (t: string) => t.replace('clients:', 'clients: [\n]\nx:'),
);

describe('the chunked read equals the whole-document read', () => {
  it('valid manifests of the common shape: same Desired, through the chunked read', () => {
    fc.assert(
      fc.property(shape, validClients, fc.integer({ min: 1, max: 400 }), (s, clients, batchChars) => {
        const text = manifestText(s, clients);
        expect(parseManifestWhole(text, FILE).diagnostics).toEqual([]);
        expect(agree(text, batchChars)).toBe(true);
        expect(agree(text)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('manifests with mistakes: same diagnostics, same locations', () => {
    fc.assert(
      fc.property(anyShape, anyClients, fc.integer({ min: 1, max: 400 }), (s, clients, batchChars) => {
        agree(manifestText(s, clients), batchChars);
      }),
      { numRuns: 400 },
    );
  });

  it('valid and broken manifests with YAML features the chunked read leaves to the whole read', () => {
    fc.assert(
      fc.property(fc.oneof(shape, anyShape), fc.oneof(validClients, anyClients), edit, fc.integer({ min: 1, max: 400 }), (s, clients, change, batchChars) => {
        agree(change(manifestText(s, clients)), batchChars);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the chunked read', () => {
  const valid = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n  - username: bob\n';

  it('reads a valid manifest of the common shape', () => {
    expect(parseManifestChunked(valid, FILE)).toEqual(parseManifestWhole(valid, FILE));
  });

  it('locates clients in later batches at their lines in the file', () => {
    const clients = Array.from({ length: 300 }, (_, i) => `  - username: u${i}\n    plan: Basic\n    domains:\n      - d${i}.example\n`);
    const text = `# many\nversion: 1\nclients:\n${clients.join('')}`;
    const result = parseManifestChunked(text, FILE, 100);
    expect(result).toEqual(parseManifestWhole(text, FILE));
    expect(result?.desired?.clients[299]).toEqual({
      username: 'u299',
      plan: 'Basic',
      planLoc: { file: FILE, line: 4 + 299 * 4 + 1, column: 11 },
      loc: { file: FILE, line: 4 + 299 * 4, column: 15 },
      domains: [{ name: 'd299.example', input: 'd299.example', loc: { file: FILE, line: 4 + 299 * 4 + 3, column: 9 } }],
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
    ['an anchor and an alias', `${valid}  - username: carol\n    domains: *d\n`.replace('domains: [', 'domains: &d [')],
    ['a tag', valid.replace('username: bob', 'username: !!str bob')],
    ['a document start marker', `---\n${valid}`],
    ['a document end marker', `${valid}...\n`],
    ['a directive', `%YAML 1.2\n---\n${valid}`],
    ['a flow sequence of clients', 'version: 1\nclients: [{username: alice}]\n'],
    ['a key that is a collection', valid.replace('username: bob', 'username: bob\n    ? [plan]\n    : Basic')],
    ['clients twice', `${valid}clients:\n  - username: carol\n`],
    ['a block scalar', valid.replace('username: bob', 'username: bob\n    plan: |\n      Basic')],
    ['a quoted scalar across an item boundary', valid.replace('username: alice', 'username: "alice\n  - username: x"')],
    ['a syntax error in an item', valid.replace('[alice.example]', '[alice.example')],
    ['a duplicate key in an item', valid.replace('username: bob', 'username: bob\n    username: bob')],
    ['a line that leaves the sequence indented', `${valid} owner: me\n`],
    ['a top-level line that is not `key: value`', `${valid}owner: [me]\n`],
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
  ])('reads a manifest with %s as the whole read does', (_, text) => {
    const result = parseManifestChunked(text, FILE);
    expect(result).toEqual(parseManifestWhole(text, FILE));
    expect(result?.desired?.clients[1]?.loc).toEqual({ file: FILE, line: text.startsWith('\uFEFF#') ? 6 : 5, column: 15 });
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
