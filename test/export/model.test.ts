/**
 * The live panel as manifest entries (src/export/model.ts) and their text (write.ts), pure:
 * what is written, what is left out and said, the order of domains, and names as data.
 */
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { domainForm, domainOrder, LiveModel } from '../../src/export/model.js';
import { entryText, manifestText, scalarText } from '../../src/export/write.js';
import { validateManifest } from '../../src/manifest/load.js';
import { live } from '../helpers/builders.js';

function entries(
  panel: ReturnType<typeof live>,
  include?: (username: string) => boolean,
): { clients: ReturnType<LiveModel['entries']>; warnings: string[] } {
  const warnings: string[] = [];
  const clients = new LiveModel(panel).entries((w) => warnings.push(w), include);
  return { clients, warnings };
}

describe('LiveModel.entries', () => {
  it('sorts clients by username; plan by name, email when set, suspended only when true; no system domains', () => {
    const panel = live(
      [
        [4, 'carol', null, { email: null, suspended: false }],
        [2, 'alice', 3, { email: 'alice@example.com', suspended: true }],
        [3, 'bob', 1, { email: null, suspended: false }],
      ],
      [
        [1, 'alice.sim.keyhelp.test', 2, true],
        [2, 'shop.alice.example', 2],
        [3, 'alice.example', 2],
        [4, 'xn--bcher-kva.example', 3],
      ],
    );
    const { clients, warnings } = entries(panel);
    expect(warnings).toEqual([]);
    expect(clients).toEqual([
      {
        username: 'alice',
        plan: 'Premium Plus',
        email: 'alice@example.com',
        suspended: true,
        domains: ['alice.example', 'shop.alice.example'],
      },
      { username: 'bob', plan: 'Basic', domains: ['bücher.example'] },
      { username: 'carol', domains: [] },
    ]);
  });

  it('leaves out, with a warning naming it (quoted), a username or domain the manifest refuses, an unlisted plan id, an empty plan name, a refused email, a field the panel does not show', () => {
    const panel = live(
      [
        [2, 'bad\nname\u001b[31m', 1, { email: null, suspended: false }],
        [3, 'alice', 9, { email: 'not an address', suspended: false }],
        [4, 'bob', 5, {}],
      ],
      [
        [1, 'ok.example', 2],
        [2, 'under_score.example', 3],
        [3, 'bob.example', 4],
      ],
      {
        plans: [
          { id: 1, name: 'Basic' },
          { id: 5, name: '  ' },
        ],
      },
    );
    const { clients, warnings } = entries(panel);
    expect(clients).toEqual([
      { username: 'alice', domains: [] },
      { username: 'bob', domains: ['bob.example'] },
    ]);
    expect(warnings).toMatchInlineSnapshot(`
      [
        "client "alice": its hosting plan (id 9) is not in the panel's list of hosting plans: "plan" left out (not managed)",
        "client "alice": its email "not an address" is not an address the manifest accepts: "email" left out (not managed)",
        "domain "under_score.example" (id 2) of client "alice" is not a name the manifest accepts: left out",
        "client "bad\\nname\\u001b[31m" (id 2) has a username the manifest refuses: left out, with its 1 domain",
        "client "bob": the panel shows no email, suspended: left out (not managed)",
        "client "bob": its hosting plan (id 5) has an empty name, which the manifest refuses: "plan" left out (not managed)",
      ]
    `);
  });

  it('narrows to the usernames `include` accepts', () => {
    const panel = live([
      [2, 'team-a-1', null, {}],
      [3, 'team-b-1', null, {}],
    ]);
    expect(entries(panel, (u) => u.startsWith('team-a')).clients.map((c) => c.username)).toEqual(['team-a-1']);
  });
});

describe('domains', () => {
  it('an IDN is written in Unicode (as domain_utf8 holds it); a name the manifest refuses has no form', () => {
    expect(domainForm('xn--bcher-kva.example')).toEqual({
      name: 'xn--bcher-kva.example',
      text: 'bücher.example',
    });
    expect(domainForm('xn--zca.example')).toEqual({ name: 'xn--zca.example', text: 'ß.example' });
    expect(domainForm('plain.example')).toEqual({ name: 'plain.example', text: 'plain.example' });
    expect(domainForm('xn--abc.example')).toBeUndefined();
    expect(domainForm('not a domain')).toBeUndefined();
  });

  it('a parent always comes before its subdomains, whatever the names (property)', () => {
    const label = fc.constantFrom('a', 'b', 'xn--bcher-kva', 'b0');
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.array(label, { minLength: 2, maxLength: 4 }).map((l) => l.join('.')),
          { maxLength: 12 },
        ),
        (names) => {
          const sorted = [...names].sort(domainOrder);
          for (const [i, name] of sorted.entries()) {
            for (const later of sorted.slice(i + 1)) expect(name.endsWith(`.${later}`)).toBe(false);
          }
        },
      ),
    );
  });
});

describe('emails the manifest refuses', () => {
  it('are decided one by one: 1,200 of them (more than validation reports) are each left out with a warning; the text validates', () => {
    const bad = Array.from({ length: 1200 }, (_, i): [number, string, null, { email: string; suspended: false }] => [
      i + 1,
      `u${String(i).padStart(4, '0')}`,
      null,
      { email: i % 2 === 0 ? `legacy${i}@localhost` : `two words${i}@x.example`, suspended: false },
    ]);
    const { clients, warnings } = entries(
      live([
        ...bad,
        [5000, 'zed', null, { email: 'zed@x.example', suspended: false }],
        [5001, 'odd', null, { email: 'a\ud800@x.example', suspended: false }],
      ]),
    );
    expect(clients).toHaveLength(1202);
    expect(clients.filter((c) => c.email !== undefined)).toEqual([
      { username: 'zed', email: 'zed@x.example', domains: [] },
    ]);
    expect(warnings.filter((w) => !w.includes('is not an address'))).toEqual([]);
    expect(warnings).toHaveLength(1201);
    expect(warnings[0]).toBe(
      'client "odd": its email "a\ud800@x.example" is not an address the manifest accepts: "email" left out (not managed)',
    );
    expect(warnings[1]).toBe(
      'client "u0000": its email "legacy0@localhost" is not an address the manifest accepts: "email" left out (not managed)',
    );
    const check = validateManifest(manifestText(clients, []), 'export');
    expect(check.diagnostics).toEqual([]);
    expect(check.desired?.clients).toHaveLength(1202);
  });
});

describe('the text', () => {
  it('a manifest that validates, header as comments, clients: [] when none', () => {
    expect(manifestText([], ['The panel https://panel.example/api/v2'])).toMatchInlineSnapshot(`
      "# yaml-language-server: $schema=https://raw.githubusercontent.com/panel-provision/panel-provision/main/schemas/manifest.schema.json
      # The panel https://panel.example/api/v2
      version: 1
      clients: []
      "
    `);
    const text = manifestText(
      [
        {
          username: 'alice',
          plan: 'true',
          email: 'a@x.example',
          suspended: true,
          domains: ['alice.example'],
        },
      ],
      ['line\nbreak'],
    );
    expect(text).toMatchInlineSnapshot(`
      "# yaml-language-server: $schema=https://raw.githubusercontent.com/panel-provision/panel-provision/main/schemas/manifest.schema.json
      # line\\nbreak
      version: 1
      clients:
        - username: alice
          plan: "true"
          email: a@x.example
          suspended: true
          domains:
            - alice.example
      "
    `);
    expect(validateManifest(text, 'm.yaml').desired?.clients[0]).toMatchObject({
      username: 'alice',
      plan: 'true',
      suspended: true,
    });
  });

  it('names as data: any string reads back the same, and no control, bidirectional or line-separator character is written raw (property)', () => {
    const raw =
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
    const weird = fc.string({
      unit: fc.constantFrom(
        'a',
        ' ',
        ':',
        '#',
        ',',
        '[',
        '}',
        '"',
        "'",
        '\\',
        '\n',
        '\t',
        '\u001b',
        '\u007f',
        '\u0085',
        '\u202e',
        '\u2028',
        'é',
        '-',
        '?',
        '&',
        '*',
        '!',
        '|',
        '>',
        '%',
        '@',
        '`',
      ),
    });
    fc.assert(
      fc.property(weird, (value) => {
        for (const context of ['block', 'flow'] as const) {
          const text = scalarText(value, context);
          expect(text).not.toMatch(raw);
          expect(text).not.toContain('\n');
          const back: unknown =
            context === 'flow' ? (parse(`[${text}]`) as unknown[])[0] : (parse(`k: ${text}`) as { k: unknown }).k;
          expect(back).toBe(value);
        }
        const entry = { username: 'alice', plan: value, email: value, domains: [] };
        for (const style of ['block', 'flow'] as const) {
          const text = entryText(entry, style);
          expect(text).not.toMatch(raw);
          expect(parse(style === 'block' ? text : `[${text}]`)).toEqual([
            { username: 'alice', plan: value, email: value },
          ]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a replaced value keeps its quoting style where it can', () => {
    expect(scalarText('Basic', 'block', 'QUOTE_SINGLE')).toBe("'Basic'");
    expect(scalarText('Basic', 'block', 'QUOTE_DOUBLE')).toBe('"Basic"');
    expect(scalarText('a, b', 'flow', 'PLAIN')).toBe('"a, b"');
    expect(scalarText(true, 'block')).toBe('true');
  });
});
