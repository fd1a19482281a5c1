/**
 * export --into without a panel: adopt (what changes) and rewrite (the text), pure. The text of
 * the manifest stays byte for byte outside the entries that change: comments, odd indentation,
 * flow lists, quoting, blank lines, CRLF and a byte-order mark.
 */
import { describe, expect, it } from 'vitest';
import { adopt, type AdoptOptions } from '../../src/export/adopt.js';
import { LiveModel } from '../../src/export/model.js';
import { rewrite } from '../../src/export/rewrite.js';
import { validateManifest } from '../../src/manifest/load.js';
import type { Live } from '../../src/panel/types.js';
import { diff } from '../../src/plan/diff.js';
import { live } from '../helpers/builders.js';
import { linesOf, outside } from './lines.js';

/** The manifest `text` rewritten to describe `panel`; it must still validate. */
function into(text: string, panel: Live, options: AdoptOptions = {}): { text: string; warnings: readonly string[] } {
  const desired = validateManifest(text, 'm.yaml').desired;
  if (desired === undefined)
    throw new Error(`test manifest invalid: ${JSON.stringify(validateManifest(text, 'm.yaml').diagnostics)}`);
  const { edits, warnings } = adopt(desired, new LiveModel(panel), options);
  const out = rewrite(text, edits, 'm.yaml');
  const after = validateManifest(out, 'm.yaml');
  expect(after.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  // What it lists now plans to no update.
  if (after.desired !== undefined)
    expect(diff(after.desired, panel).changes.filter((c) => c.action === 'update')).toEqual([]);
  return { text: out, warnings };
}

const ODD = `# Our hosting customers.   
# Edited by hand; keep the comments!

version: 1
prune:
    domains: false
    keep: ['legacy*']      # never touch these
clients:
# --- agency ---
-   username: alice          # the first one
    plan:   "Basic"
    email: 'alice@example.com'
    domains:
    - alice.example    # main site

    - shop.alice.example
-   {username: bob, plan: Standard, domains: [bob.example,   'www.bob.example']}   # flow

    # carol is new
-   username: carol
    suspended: false
    domains: [carol.example]
-   username: dave
    state: absent
-   username: erin    # nothing changes here
    plan: Premium Plus
    domains:
      - erin.example
`;

/** The panel of ODD, with drift: alice's plan and email, a domain each for alice and bob, bob's plan, carol suspended. */
const DRIFTED = live(
  [
    [2, 'alice', 2, { email: 'alice@new.example', suspended: false }],
    [3, 'bob', 3, { email: null, suspended: false }],
    [4, 'carol', 1, { email: null, suspended: true }],
    [5, 'erin', 3, { email: null, suspended: false }],
    [6, 'legacy-1', 1, { email: null, suspended: false }],
  ],
  [
    [10, 'alice.example', 2],
    [11, 'shop.alice.example', 2],
    [12, 'blog.alice.example', 2],
    [13, 'bob.example', 3],
    [14, 'www.bob.example', 3],
    [15, 'xn--bcher-kva.example', 3],
    [16, 'carol.example', 4],
    [17, 'erin.example', 5],
    [18, 'erin.sim.keyhelp.test', 5, true],
    [19, 'legacy.alice.example', 2],
  ],
);

describe('export --into, in the text', () => {
  it('changes only the entries that differ, each in its own style; every other line stays byte for byte', () => {
    const { text, warnings } = into(ODD, DRIFTED);
    expect(warnings).toEqual([]);
    expect(text).toMatchInlineSnapshot(`
      "# Our hosting customers.   
      # Edited by hand; keep the comments!

      version: 1
      prune:
          domains: false
          keep: ['legacy*']      # never touch these
      clients:
      # --- agency ---
      -   username: alice          # the first one
          plan:   "Standard"
          email: 'alice@new.example'
          domains:
          - alice.example    # main site

          - shop.alice.example
          - blog.alice.example
      -   {username: bob, plan: Premium Plus, domains: [bob.example,   'www.bob.example', bücher.example]}   # flow

          # carol is new
      -   username: carol
          suspended: true
          domains: [carol.example]
      -   username: dave
          state: absent
      -   username: erin    # nothing changes here
          plan: Premium Plus
          domains:
            - erin.example
      "
    `);
    const changed = [
      linesOf(ODD, 'username: alice', 'shop.alice.example'),
      linesOf(ODD, 'username: bob'),
      linesOf(ODD, 'username: carol', 'carol.example'),
    ];
    expect(outside(ODD, text, changed)).toEqual([]);
  });

  it('keeps CRLF line endings and a byte-order mark', () => {
    const crlf = `\uFEFF${ODD.replaceAll('\n', '\r\n')}`;
    const { text } = into(crlf, DRIFTED);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
    expect(text).toContain('    - blog.alice.example\r\n');
    expect(text.replaceAll('\r\n', '\n').slice(1)).toBe(into(ODD, DRIFTED).text);
  });

  it('a manifest that describes the panel is left as it is, byte for byte', () => {
    const once = into(ODD, DRIFTED).text;
    expect(into(once, DRIFTED).text).toBe(once);
  });

  it('a field the manifest leaves out stays out, even a suspension; a value the panel says is none goes', () => {
    const text = `version: 1
clients:
  - email: a@x.example     # first key on the dash line
    username: alice
  - {plan: Basic, username: bob}
  - username: carol
    domains: [carol.example]
`;
    const panel = live(
      [
        [2, 'alice', null, { email: null, suspended: true }],
        [3, 'bob', null, { email: 'b@x.example', suspended: true }],
        [4, 'carol', null, { email: 'c@x.example', suspended: true }],
      ],
      [[10, 'carol.example', 4]],
    );
    expect(into(text, panel).text).toMatchInlineSnapshot(`
      "version: 1
      clients:
        - username: alice
        - {username: bob}
        - username: carol
          domains: [carol.example]
      "
    `);
  });

  it('a client without a domains key gets one, in block or flow style; an empty flow list gets its items', () => {
    const text = `version: 1
clients:
  - username: alice
    plan: Basic
  - {username: bob}
  - username: carol
    domains: []
`;
    const panel = live(
      [
        [2, 'alice', 1, {}],
        [3, 'bob', null, {}],
        [4, 'carol', null, {}],
      ],
      [
        [10, 'alice.example', 2],
        [11, 'shop.alice.example', 2],
        [12, 'bob.example', 3],
        [13, 'carol.example', 4],
      ],
    );
    expect(into(text, panel).text).toMatchInlineSnapshot(`
      "version: 1
      clients:
        - username: alice
          plan: Basic
          domains:
            - alice.example
            - shop.alice.example
        - {username: bob, domains: [bob.example]}
        - username: carol
          domains: [carol.example]
      "
    `);
  });
});

describe('other clients: only where the manifest claims them', () => {
  const panel = live(
    [
      [2, 'alice', 1, { email: null, suspended: false }],
      [3, 'bob', 2, { email: 'bob@x.example', suspended: true }],
      [4, 'legacy-1', null, {}],
      [5, 'team-b-1', null, {}],
    ],
    [
      [10, 'alice.example', 2],
      [11, 'bob.example', 3],
      [12, 'legacy.example', 4],
      [13, 'b1.example', 5],
    ],
  );

  it('without prune.clients or --clients, a shared panel adds nobody else', () => {
    const text = 'version: 1\nclients:\n  - username: alice\n';
    expect(into(text, panel).text).toBe(
      'version: 1\nclients:\n  - username: alice\n    domains:\n      - alice.example\n',
    );
  });

  it('prune.clients adds every unlisted client but a keep match, sorted, as export writes them', () => {
    const text =
      'version: 1\nprune: {clients: true, keep: [legacy-*]}\nclients:\n  - username: alice\n    domains: [alice.example]\n';
    expect(into(text, panel).text).toMatchInlineSnapshot(`
      "version: 1
      prune: {clients: true, keep: [legacy-*]}
      clients:
        - username: alice
          domains: [alice.example]
        - username: bob
          plan: Standard
          email: bob@x.example
          suspended: true
          domains:
            - bob.example
        - username: team-b-1
          domains:
            - b1.example
      "
    `);
  });

  it('--clients adds the matching ones; under an empty flow clients: [] they become a block list; in a flow list, flow entries', () => {
    const claim = (u: string): boolean => u.startsWith('team-');
    expect(into('version: 1\nclients: []   # none yet\n', panel, { claim }).text).toBe(
      'version: 1\nclients:   # none yet\n  - username: team-b-1\n    domains:\n      - b1.example\n',
    );
    expect(
      into('{"version": 1, "clients": [{"username": "alice", "domains": ["alice.example"]}]}', panel, { claim }).text,
    ).toBe(
      '{"version": 1, "clients": [{"username": "alice", "domains": ["alice.example"]}, {username: team-b-1, domains: [b1.example]}]}',
    );
  });
});

describe('--drop-missing', () => {
  const panel = live([[2, 'alice', null, {}]], [[10, 'alice.example', 2]]);

  it('removes the present entries the panel lacks; absent entries and pending entries without it stay', () => {
    const text = `version: 1
clients:
  - username: alice
    domains:
      - gone.example   # was here
      - alice.example
      - {name: old.example, state: absent}
  - username: bob      # never created
    domains: [bob.example]
  - username: carol
    state: absent
`;
    expect(into(text, panel).text).toBe(text);
    expect(into(text, panel, { dropMissing: true }).text).toMatchInlineSnapshot(`
      "version: 1
      clients:
        - username: alice
          domains:
            - alice.example
            - {name: old.example, state: absent}
        - username: carol
          state: absent
      "
    `);
  });

  it('a list left empty becomes [], block or flow; runs of flow items go with their commas', () => {
    const text = `version: 1
clients:
  - username: alice
    domains: [a1.example, alice.example, a2.example, a3.example]
  - username: bob
    domains:
      - bob.example
`;
    expect(into(text, panel, { dropMissing: true }).text).toBe(
      'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n',
    );
    const empty = live([[2, 'alice', null, {}]], []);
    expect(
      into('version: 1\nclients:\n  - username: alice\n    domains:\n      - alice.example\n', empty, {
        dropMissing: true,
      }).text,
    ).toBe('version: 1\nclients:\n  - username: alice\n    domains: []\n');
    expect(into('version: 1\nclients:\n  - username: bob\n', empty, { dropMissing: true }).text).toBe(
      'version: 1\nclients: []\n',
    );
    expect(
      into('version: 1\nclients: [{username: x}, {username: alice}, {username: y}, {username: z}]\n', empty, {
        dropMissing: true,
      }).text,
    ).toBe('version: 1\nclients: [{username: alice}]\n');
  });
});

describe('what --into leaves as written, and says', () => {
  it('a domain listed under one client that the panel has under another: left as is, with a warning', () => {
    const panel = live(
      [
        [2, 'alice', null, {}],
        [3, 'bob', null, {}],
      ],
      [[10, 'bob.example', 3]],
    );
    const text = 'version: 1\nclients:\n  - username: alice\n    domains: [bob.example]\n  - username: bob\n';
    const result = into(text, panel);
    expect(result.text).toBe(text);
    expect(result.warnings).toEqual([
      'domain "bob.example" is listed under client "alice" but the panel has it under client "bob": left as is (plan reports the conflict)',
    ]);
  });

  it('a manifest with aliases is refused: an edit through one would change every place that uses it', () => {
    const text = 'version: 1\nclients:\n  - username: alice\n    plan: &p Basic\n  - username: bob\n    plan: *p\n';
    const desired = validateManifest(text, 'm.yaml').desired;
    expect(desired).toBeDefined();
    const { edits } = adopt(
      desired!,
      new LiveModel(
        live([
          [2, 'alice', 2, {}],
          [3, 'bob', 1, {}],
        ]),
      ),
    );
    expect(() => rewrite(text, edits, 'm.yaml')).toThrowErrorMatchingInlineSnapshot(
      `[ProvisionError: m.yaml:6: export --into cannot rewrite a manifest that uses YAML aliases (*name): nothing was written]`,
    );
  });
});
