/**
 * Random manifests for the chunked-read property tests (chunked.test.ts), written as text in
 * the shapes people write: valid ones of the common shape (with every key of the format:
 * prune, state, suspended, domain entries), ones with mistakes, and small edits that may break
 * the text in any way. Domain items may carry settings (`php_version`, `https`, `redirect`) and
 * a `dns` block (item-specs.ts). A top-level `hosting_plans` list may stand before or after
 * `clients:`, in block or flow style, valid or not.
 */
import fc from 'fast-check';
import { BAD_SETTINGS, type SettingSpec, VALID_SETTINGS } from './item-specs.js';
import { aliasLater, mergeInto } from './anchor-edits.js';
import { anyPlans, validPlans } from './plan-lines.js';

/** A domain item: a name, or `{name, state, settings}` (`state` may be left out, or wrong). */
type DomainSpec =
  string | { name: string | number | undefined; state: string | undefined; settings?: readonly SettingSpec[] };

interface ClientSpec {
  username: string;
  plan: string | number | undefined;
  email: string | undefined;
  suspended?: string | undefined;
  state?: string | undefined;
  domains: DomainSpec[] | string | undefined;
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
  /** The `prune:` block's lines, and whether it stands before `clients:` or at the end. */
  prune?: { lines: string[]; first: boolean } | undefined;
  /** The `hosting_plans:` list's lines, and whether it stands before `clients:` or at the end. */
  plans?: { lines: string[]; first: boolean } | undefined;
}

function scalar(value: string, quote: Shape['quote']): string {
  if (quote === 'double') return JSON.stringify(value);
  if (quote === 'single') return `'${value.replaceAll("'", "''")}'`;
  return value;
}

/** A domain item in flow style (`{name: x, state: absent}`) or as block lines at `pad`. */
function domainText(d: DomainSpec, quote: Shape['quote'], flow: boolean, pad: string): string {
  if (typeof d === 'string') return scalar(d, quote);
  const keys = [
    ...(d.name === undefined ? [] : [`name: ${typeof d.name === 'number' ? String(d.name) : scalar(d.name, quote)}`]),
    ...(d.state === undefined ? [] : [`state: ${scalar(d.state, quote)}`]),
    ...(d.settings ?? []).map(({ key, flow: value, block }) =>
      flow || block === undefined ? `${key}: ${value}` : [`${key}:`, ...block].join(`\n${pad}    `),
    ),
  ];
  if (flow || keys.length === 0) return `{${keys.join(', ')}}`;
  return keys.join(`\n${pad}  `);
}

/** The manifest's text: header (version, prune), clients in the shape's style, trailer. */
export function manifestText(shape: Shape, clients: readonly ClientSpec[]): string {
  const lines: string[] = [];
  if (shape.headerComment) lines.push('# clients of the panel', '');
  if (shape.version !== undefined && !shape.versionLast) lines.push(`version: ${shape.version}`);
  if (shape.prune?.first === true) lines.push(...shape.prune.lines);
  if (shape.plans?.first === true) lines.push(...shape.plans.lines);
  lines.push('clients:');
  const pad = ' '.repeat(shape.seqIndent);
  const inner = ' '.repeat(shape.seqIndent + 2);
  for (const c of clients) {
    const fields: string[] = [];
    fields.push(`username: ${scalar(c.username, shape.quote)}`);
    if (c.plan !== undefined)
      fields.push(`plan: ${typeof c.plan === 'number' ? String(c.plan) : scalar(c.plan, shape.quote)}`);
    if (c.email !== undefined)
      fields.push(`email: ${scalar(c.email, shape.quote)}${c.comment === undefined ? '' : ` # ${c.comment}`}`);
    if (c.suspended !== undefined) fields.push(`suspended: ${c.suspended}`);
    if (c.state !== undefined) fields.push(`state: ${scalar(c.state, shape.quote)}`);
    if (c.extraKey !== undefined) fields.push(`${c.extraKey}: x`);
    if (c.domains !== undefined) {
      if (typeof c.domains === 'string') fields.push(`domains: ${c.domains}`);
      else if (c.flowDomains || c.domains.length === 0)
        fields.push(`domains: [${c.domains.map((d) => domainText(d, shape.quote, true, '')).join(', ')}]`);
      else {
        const dpad = ' '.repeat(shape.seqIndent + 2 + shape.domainIndent);
        fields.push(
          ['domains:', ...c.domains.map((d) => `${dpad}- ${domainText(d, shape.quote, false, dpad)}`)].join('\n'),
        );
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
  if (shape.prune?.first === false) lines.push(...shape.prune.lines);
  if (shape.plans?.first === false) lines.push(...shape.plans.lines);
  if (shape.trailer !== undefined) lines.push(shape.trailer);
  return `${lines.join('\n')}\n`;
}

/** `prune:` as a block (`indent` spaces per level, comments between) or on one line in flow style. */
function pruneLines(
  entries: readonly (readonly [string, string])[],
  keep: readonly string[] | undefined,
  style: 'block' | 'flow',
  indent: number,
): string[] {
  if (style === 'flow' || (entries.length === 0 && keep === undefined)) {
    const all = [
      ...entries.map(([k, v]) => `${k}: ${v}`),
      ...(keep === undefined ? [] : [`keep: [${keep.join(', ')}]`]),
    ];
    return [`prune: {${all.join(', ')}}`];
  }
  const pad = ' '.repeat(indent);
  const lines = ['prune:  # deletes', ...entries.map(([k, v]) => `${pad}${k}: ${v}`)];
  if (keep?.length === 0) lines.push(`${pad}keep: []`);
  else if (keep !== undefined) lines.push(`${pad}keep:`, '# kept forever', ...keep.map((p) => `${pad}${pad}- ${p}`));
  return lines;
}

const validPrune: fc.Arbitrary<Shape['prune']> = fc.option(
  fc
    .record({
      domains: fc.constantFrom(undefined, 'true', 'false'),
      clients: fc.constantFrom(undefined, 'true', 'false'),
      hostingPlans: fc.constantFrom(undefined, 'true', 'false'),
      keep: fc.option(
        fc.array(
          fc.constantFrom(
            'legacy-*',
            '"*.example.org"',
            "'u?'",
            'xn--bcher-kva.example',
            '"*.XN--BCHER-KVA.*"',
            '{hosting_plan: "Premium *"}',
            '{hosting_plan: Legacy}',
          ),
          {
            maxLength: 3,
          },
        ),
        { nil: undefined },
      ),
      style: fc.constantFrom('block' as const, 'flow' as const),
      indent: fc.constantFrom(1, 2, 4),
      first: fc.boolean(),
    })
    .map(({ domains, clients, hostingPlans, keep, style, indent, first }) => ({
      lines: pruneLines(
        [
          ...(domains === undefined ? [] : [['domains', domains] as const]),
          ...(clients === undefined ? [] : [['clients', clients] as const]),
          ...(hostingPlans === undefined ? [] : [['hosting_plans', hostingPlans] as const]),
        ],
        keep,
        style,
        indent,
      ),
      first,
    })),
  { nil: undefined },
);

const anyPrune: fc.Arbitrary<Shape['prune']> = fc.option(
  fc.record({
    lines: fc.constantFrom(
      ['prune:'],
      ['prune: {domains: yes}'],
      ['prune:', '  domains: "true"', '  keep: legacy-*'],
      ['prune:', '  keep: ["", " x ", 3, "bü*.example"]'],
      ['prune:', '  domains: true', '  keep: ["", " x ", "bü*.example", "bücher.*"]'],
      ['prune:', '  domain: true'],
      ['prune: [domains]'],
      ['prune:', '  clients: true', '  keep: [legacy-*]'],
      ['prune:', '  keep:', '  - a', '  -', '  - b*'],
      ['prune: {domains: true,', '  clients: true}'],
      ['prune:', 'domains: true'],
      ['prune:', '  hosting_plans: yes', '  keep: [{hosting_plan: ""}, {hosting_plans: x}, {}, {hosting_plan: 3}]'],
      ['prune:', '  keep: [{hosting_plan: " Basic"}, "Premium Plus"]'],
    ),
    first: fc.boolean(),
  }),
  { nil: undefined },
);

/** Layouts of valid manifests: indentation, quoting, comments, an optional valid `prune`. */
export const shape: fc.Arbitrary<Shape> = fc.record({
  seqIndent: fc.constantFrom(0, 2, 4),
  domainIndent: fc.constantFrom(0, 2, 4),
  headerComment: fc.boolean(),
  version: fc.constant<string | undefined>('1'),
  versionLast: fc.boolean(),
  trailer: fc.constantFrom<string | undefined>(undefined, undefined, '# the end', ''),
  quote: fc.constantFrom('plain' as const, 'double' as const, 'single' as const),
  commentColumn: fc.constantFrom(0, 2, 4, 8),
  prune: validPrune,
  plans: validPlans,
});

const label = fc.constantFrom('one', 'two', 'shop', 'bücher', 'a-b', 'x1');
const tld = fc.constantFrom('example', 'test', 'co.uk');

/**
 * Valid clients: unique usernames, each domain under one client, real emails; `suspended`, a
 * `state`, domain entries `{name, state}`; a client marked absent has no other keys.
 */
export const validClients: fc.Arbitrary<ClientSpec[]> = fc
  .uniqueArray(
    fc.record({
      username: fc.stringMatching(/^[a-z0-9_-]{0,8}$/).map((name) => `u${name}`),
      plan: fc.constantFrom<string | number | undefined>(undefined, 'Basic', 'Business Pro', 'Premium Plus'),
      email: fc.constantFrom<string | undefined>(undefined, 'ops@example.com', 'a.b+c@mail.example.org'),
      suspended: fc.constantFrom<string | undefined>(undefined, 'true', 'false'),
      state: fc.constantFrom<string | undefined>(undefined, undefined, 'present', 'absent'),
      domains: fc.constantFrom<string[] | string | undefined>(undefined, [], ['x']),
      domainLabels: fc.array(
        fc.tuple(
          fc.constantFrom('', 'www.', 'shop.'),
          label,
          tld,
          fc.boolean(),
          fc.constantFrom<string | null | undefined>(null, null, undefined, 'present', 'absent'),
          fc.uniqueArray(fc.constantFrom(...VALID_SETTINGS), { selector: (x) => x.key, maxLength: 3 }),
        ),
        { maxLength: 4 },
      ),
      flowDomains: fc.boolean(),
      extraKey: fc.constant<string | undefined>(undefined),
      comment: fc.constantFrom<string | undefined>(undefined, 'note', '- username: not-an-item'),
      blankAfter: fc.boolean(),
      keyOrder: fc.nat(5),
    }),
    { selector: (c) => c.username, minLength: 1, maxLength: 12 },
  )
  .map((clients) =>
    clients.map(({ domainLabels, ...c }, i): ClientSpec => {
      // A client marked absent has no other keys.
      if (c.state === 'absent')
        return {
          ...c,
          plan: undefined,
          email: undefined,
          suspended: undefined,
          domains: undefined,
        };
      return {
        ...c,
        // Unique by construction: the client's index is in every name. A domain is a name
        // (null) or {name, state}.
        domains:
          c.domains === undefined
            ? undefined
            : domainLabels.map(([sub, l, t, upper, state, settings], j) => {
                const name = `${sub}${l}${i}-${j}.${t}`;
                const input = upper ? name.toUpperCase() : name;
                // A domain marked absent has no settings.
                if (state === null) return input;
                return state === 'absent' ? { name: input, state } : { name: input, state, settings };
              }),
      };
    }),
  );

/** Clients with mistakes: duplicates, bad names, unknown keys, wrong types, bad states, absent clients with keys. */
export const anyClients: fc.Arbitrary<ClientSpec[]> = fc.array(
  fc.record({
    username: fc.constantFrom('alice', 'bob', 'Alice', 'carol_2', '', '42', 'a'.repeat(33)),
    plan: fc.constantFrom<string | number | undefined>(undefined, 'Basic', '', 'Business Pro', 3),
    email: fc.constantFrom<string | undefined>(undefined, 'ops@example.com', 'not an email', 'x@y'),
    suspended: fc.constantFrom<string | undefined>(undefined, undefined, 'true', 'yes', '"false"', '1'),
    state: fc.constantFrom<string | undefined>(undefined, undefined, 'present', 'absent', 'absent', 'gone', 'Absent'),
    domains: fc.oneof(
      fc.constantFrom<DomainSpec[] | string | undefined>(
        undefined,
        'alice.example',
        '[]',
        '~',
        '[7, alice.example]',
        '[{state: absent}]',
      ),
      fc.array(
        fc.oneof(
          fc.constantFrom(
            'alice.example',
            'Alice.Example',
            'bob.example',
            'localhost',
            'https://x.example/',
            'bücher.example',
            'xn--bcher-kva.example',
            '-bad.example',
          ),
          fc.record({
            name: fc.constantFrom<string | number | undefined>(
              'alice.example',
              'old.alice.example',
              'Bob.Example',
              'localhost',
              undefined,
              7,
            ),
            state: fc.constantFrom<string | undefined>(undefined, 'present', 'absent', 'deleted', 'abzent'),
            settings: fc.uniqueArray(fc.constantFrom(...VALID_SETTINGS, ...BAD_SETTINGS), {
              selector: (x) => x.key,
              maxLength: 3,
            }),
          }),
        ),
        { maxLength: 3 },
      ),
    ),
    flowDomains: fc.boolean(),
    extraKey: fc.constantFrom<string | undefined>(undefined, undefined, 'domain', 'usernme', 'owner'),
    comment: fc.constantFrom<string | undefined>(undefined, 'note'),
    blankAfter: fc.boolean(),
    keyOrder: fc.nat(5),
  }),
  { maxLength: 8 },
);

/** Layouts with mistakes: a wrong or missing version, stray trailers, a `prune` valid or not. */
export const anyShape: fc.Arbitrary<Shape> = fc.record({
  seqIndent: fc.constantFrom(0, 2, 4),
  domainIndent: fc.constantFrom(0, 2),
  headerComment: fc.boolean(),
  version: fc.constantFrom<string | undefined>('1', '1', '2', '"1"', undefined),
  versionLast: fc.boolean(),
  trailer: fc.constantFrom<string | undefined>(
    undefined,
    'owner: me',
    'version: 1',
    'clients: []',
    '---',
    '  stray: x',
  ),
  quote: fc.constantFrom('plain' as const, 'double' as const, 'single' as const),
  commentColumn: fc.constantFrom(0, 2, 6),
  prune: fc.oneof(validPrune, anyPrune),
  plans: fc.oneof(validPlans, anyPlans),
});

/** Small edits that may break the text in any way: the reads must still agree. */
export const edit = fc.constantFrom(
  (t: string) => t,
  (t: string) => t.replace('username:', 'username: &a'),
  (t: string) => t.replace(/plan: .*/, 'plan: !custom Basic'),
  (t: string) => t.replace(/domains:/, 'domains: &d'),
  (t: string) => `${t}alias: *d\n`,
  (t: string) => t.replace(/plan: .*/, 'plan: *nope'),
  (t: string) => t.replace(/username: (.*)/, 'username: &u $1\n    email: *u'),
  // Anchors in the header merged into every client (read part by part): valid, with a typo, a list, not a mapping.
  (t: string) => mergeInto(t, 'x-d: &d\n  plan: Basic\n  language: de', '*d'),
  (t: string) => mergeInto(t, 'x-d: &d\n  emial: ops@example.com', '*d'),
  (t: string) => mergeInto(t, 'x-a: &a {plan: Basic}\nx-b: &b\n  <<: *a\n  language: de\n  plan: Premium', '[*b, *a]'),
  (t: string) => mergeInto(t, 'x-p: &p Basic', '*p'),
  // The first client's plan and domains anchored, every later client's an alias to them.
  (t: string) => aliasLater(aliasLater(t, 'plan'), 'domains'),
  // An anchor redefined in a later client: later aliases take the last one before them.
  (t: string) =>
    aliasLater(t, 'email').replace(/(email: \*email[^\n]*\n)([^]*?)email: \*email/, '$1$2email: &email x@y.example'),
  (t: string) => t.replaceAll('\n', '\r\n'),
  (t: string) => `\uFEFF${t}`,
  (t: string) => t.replace('\n  ', '\n\t'),
  (t: string) => `%YAML 1.2\n---\n${t}`,
  (t: string) => `${t}...\n`,
  (t: string) => t.replace(/plan: .*/, 'plan: |\n      Basic'),
  (t: string) => t.replace(/email: (.*)/g, 'email: !!str $1').replace(/plan: (.*)/, 'plan: >-\n        $1\n        x'),
  (t: string) => t.replace(/plan: (.*)/g, 'plan: |+\n        $1\n\n  # c\n'),
  (t: string) => t.replace(/email: .*/, 'email: "ops@\n  example.com"'),
  (t: string) => t.replace('username:', '? username\n    :'),
  (t: string) => t.replace(/(\n *- )/, '$1[ '),
  (t: string) => `${t}clients: []\n`,
  (t: string) => t.replace('clients:', 'clients: [\n]\nx:'),
);
