/**
 * A domain item's `mailboxes` list as the mailbox room reads it: real YAML parsed with positions
 * and located by the manifest's own SourceMap, so each problem is checked at its
 * file:line:column; and the manifest part of the room's schema fragment (schema.json) against items.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { normalizeDomain } from '../../../src/names.js';
import { findPath, locateIn, SourceMap } from '../../../src/manifest/locate.js';
import type { Location } from '../../../src/manifest/types.js';
import { MAILBOX_ITEM_KEYS, mailboxItems, mailboxSeen, type MailboxSeen } from '../../../src/kinds/mailbox/index.js';

const GiB = 1024 ** 3;

/** A domain in comparison form, as the manifest stage hands it in. */
function ascii(name: string): string {
  const normal = normalizeDomain(name);
  if ('problem' in normal) throw new Error(`${name} ${normal.problem}`);
  return normal.name;
}

/** The mailboxes of the `index`th domain of the first client in `text`, read as the manifest stage will. */
function read(
  text: string,
  options: {
    file?: string;
    index?: number;
    seen?: MailboxSeen<Location>;
    ownerOf?: (domain: string) => string | undefined;
    domainAbsent?: boolean;
  } = {},
) {
  const file = options.file ?? 'm.yaml';
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const source = new SourceMap(file, doc, lineCounter);
  const data = doc.toJS() as {
    clients: { username: string; domains: ({ name: string; mailboxes?: unknown } | string)[] }[];
  };
  const client = data.clients[0]!;
  const index = options.index ?? 0;
  const item = client.domains[index] as { name: string; mailboxes?: unknown };
  const listPath = ['clients', 0, 'domains', index, 'mailboxes'];
  const list = findPath(source, listPath)!;
  const result = mailboxItems(item.mailboxes, {
    domain: ascii(item.name),
    client: `client "${client.username}"`,
    clientDomains: new Set(client.domains.map((d) => ascii(typeof d === 'string' ? d : d.name))),
    ...(options.ownerOf === undefined ? {} : { ownerOf: options.ownerOf }),
    locate: (path, atKey) => locateIn(source, list, path, atKey),
    seen: options.seen ?? mailboxSeen(),
    ...(options.domainAbsent === undefined ? {} : { domainAbsent: options.domainAbsent }),
  });
  return {
    ...result,
    lines: result.problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}`),
  };
}

const HEAD = 'version: 1\nclients:\n  - username: alice\n    domains:\n';

describe('a mailboxes list', () => {
  it('gives each mailbox in comparison form with the fields it manages', () => {
    const { mailboxes, lines } = read(
      HEAD +
        '      - name: alice.example\n' +
        '        mailboxes:\n' +
        '          - name: Info\n' +
        '            quota: 2 GiB\n' +
        '            aliases: [hello, Contact@Alice-Shop.example]\n' +
        '            forwardings: [Owner@Example.net]\n' +
        '            keep_copies: true\n' +
        '            catch_all: false\n' +
        '            description: Front desk\n' +
        '          - name: old\n' +
        '            state: absent\n' +
        '          - name: bare\n' +
        '      - alice-shop.example\n',
    );
    expect(lines).toEqual([]);
    expect(mailboxes).toEqual([
      {
        address: 'info@alice.example',
        local: 'info',
        domain: 'alice.example',
        input: 'Info',
        state: 'present',
        wants: {
          quota: 2 * GiB,
          aliases: ['hello@alice.example', 'contact@alice-shop.example'],
          forwardings: ['owner@example.net'],
          keep_copies: true,
          catch_all: false,
          description: 'Front desk',
        },
        loc: { file: 'm.yaml', line: 7, column: 19 },
      },
      expect.objectContaining({ address: 'old@alice.example', state: 'absent', wants: {} }),
      expect.objectContaining({ address: 'bare@alice.example', state: 'present', wants: {} }),
    ]);
  });

  it('refuses, at file:line:column with what to write, what is not a mailbox', () => {
    const { mailboxes, lines } = read(
      HEAD +
        '      - name: bücher.example\n' +
        '        mailboxes:\n' +
        '          - name: info@bücher.example\n' +
        '          - name: in fo\n' +
        '          - name: desk\n' +
        '            quota: 2 G\n' +
        '            aliases: [info@bob.example, "bad alias", desk]\n' +
        '            forwardings: [owner, Desk@Bücher.example, a@example.net, A@example.net]\n' +
        '          - name: gone\n' +
        '            state: absent\n' +
        '            quota: 1 GiB\n' +
        '            catch_all: true\n',
    );
    expect(lines).toEqual([
      'm.yaml:7:19: error: "name" "info@bücher.example" of mailbox #1 of domain "xn--bcher-kva.example" is a whole address: ' +
        'write the local part only (name: info); the domain is the one the mailbox is listed under',
      'm.yaml:8:19: error: "name" "in fo" of mailbox #2 of domain "xn--bcher-kva.example" holds a space, a control or a ' +
        'non-ASCII character: use letters a-z, digits and . _ - + (an international name is for the domain only)',
      'm.yaml:10:20: error: quota "2 G" of mailbox "desk@xn--bcher-kva.example" has the unit "G", which is not one of ' +
        'B, KB, KiB, MB, MiB, GB, GiB: write bytes (a whole number), or a number with B, KB, MB, GB (powers of 1000) ' +
        'or KiB, MiB, GiB (powers of 1024), like 2 GiB or 500 MB; 0 for unlimited',
      'm.yaml:11:23: error: alias "info@bob.example" of mailbox "desk@xn--bcher-kva.example" is on "bob.example", which ' +
        'the manifest does not list under client "alice": list the domain under client "alice", or remove the alias',
      'm.yaml:11:41: error: alias "bad alias" of mailbox "desk@xn--bcher-kva.example" is not a local part: it has a ' +
        'local part (before the "@") that holds a space, a control or a non-ASCII character: use letters a-z, digits ' +
        'and . _ - + (an international name is for the domain only)',
      'm.yaml:11:54: error: alias "desk" of mailbox "desk@xn--bcher-kva.example" is the mailbox\'s own address: remove it',
      'm.yaml:12:27: error: forwarding "owner" of mailbox "desk@xn--bcher-kva.example" has no "@": write a whole ' +
        'address like info@example.com',
      'm.yaml:12:34: error: forwarding "Desk@Bücher.example" of mailbox "desk@xn--bcher-kva.example" is the ' +
        "mailbox's own address: remove it (keep_copies keeps forwarded mail here)",
      'm.yaml:12:70: error: forwarding "A@example.net" of mailbox "desk@xn--bcher-kva.example" is listed twice in its ' +
        'forwardings: remove one',
      'm.yaml:15:13: error: mailbox "gone@xn--bcher-kva.example" has state: absent: remove "quota", "catch_all" (a ' +
        'mailbox that is deleted has no other keys than "name" and "state"), or remove "state: absent" to keep the mailbox',
    ]);
    expect(mailboxes.map((m) => [m.address, m.wants])).toEqual([
      ['desk@xn--bcher-kva.example', {}],
      ['gone@xn--bcher-kva.example', {}],
    ]);
  });

  it("names the client that lists an alias's domain elsewhere in the manifest", () => {
    const { lines } = read(
      HEAD + '      - name: alice.example\n        mailboxes:\n          - {name: info, aliases: [info@bob.example]}\n',
      { ownerOf: (domain) => (domain === 'bob.example' ? 'client "bob"' : undefined) },
    );
    expect(lines).toEqual([
      'm.yaml:7:36: error: alias "info@bob.example" of mailbox "info@alice.example" is on "bob.example", which the ' +
        'manifest lists under client "bob": an alias is on a domain of the mailbox\'s own client (client "alice")',
    ]);
  });

  it("refuses an address listed twice in any spelling, a mailbox's or an alias, across parts", () => {
    const seen = mailboxSeen<Location>();
    const first = read(
      HEAD +
        '      - name: alice.example\n' +
        '        mailboxes:\n' +
        '          - name: info\n' +
        '            aliases: [hello, sales@alice-shop.example]\n' +
        '          - name: INFO\n' +
        '          - name: hello\n' +
        '          - name: desk\n' +
        '            aliases: [Hello]\n' +
        '          - name: old\n' +
        '            state: absent\n' +
        '          - name: new\n' +
        '            aliases: [old]\n' +
        '      - alice-shop.example\n',
      { seen, file: 'clients/alice.yaml' },
    );
    expect(first.lines).toEqual([
      'clients/alice.yaml:9:19: error: mailbox "info@alice.example" (same as "info") is listed twice (first at line 7): ' +
        'remove one',
      'clients/alice.yaml:10:19: error: mailbox "hello@alice.example" is already an alias of mailbox ' +
        '"info@alice.example" (at line 8): an address is listed once, as a mailbox or as an alias: remove one of them',
      'clients/alice.yaml:12:23: error: alias "Hello" of mailbox "desk@alice.example" (same as "hello") is already an ' +
        'alias of "info@alice.example" (at line 8): an address is listed once, as a mailbox or as an alias: remove one of them',
    ]);
    // The same domain's mailboxes are one list, but the seen addresses carry to another part's domains.
    const second = read(
      HEAD +
        '      - name: alice-shop.example\n' +
        '        mailboxes:\n' +
        '          - name: Sales\n' +
        '          - name: shop\n' +
        '            aliases: [info@alice.example, new@alice.example]\n' +
        '      - alice.example\n',
      { seen, file: 'clients/shop.yaml' },
    );
    expect(second.lines).toEqual([
      'clients/shop.yaml:7:19: error: mailbox "sales@alice-shop.example" is already an alias of mailbox ' +
        '"info@alice.example" (at clients/alice.yaml:8): an address is listed once, as a mailbox or as an alias: remove one of them',
      'clients/shop.yaml:9:23: error: alias "info@alice.example" of mailbox "shop@alice-shop.example" (same as "info") is ' +
        'already the address of a mailbox (at clients/alice.yaml:7): an address is listed once, as a mailbox or as an alias: ' +
        'remove one of them',
      'clients/shop.yaml:9:43: error: alias "new@alice.example" of mailbox "shop@alice-shop.example" (same as "new") is ' +
        'already the address of a mailbox (at clients/alice.yaml:15): an address is listed once, as a mailbox or as an alias: ' +
        'remove one of them',
    ]);
  });

  it('refuses a second catch-all on one domain, naming the first', () => {
    const { lines } = read(
      HEAD +
        '      - name: alice.example\n' +
        '        mailboxes:\n' +
        '          - {name: info, catch_all: true}\n' +
        '          - {name: desk, catch_all: false}\n' +
        '          - {name: all, catch_all: true}\n',
    );
    expect(lines).toEqual([
      'm.yaml:9:36: error: mailbox "all@alice.example" is a second catch-all of domain "alice.example" (the first is ' +
        '"info@alice.example" at line 7): a domain has at most one; set catch_all: false on one of them',
    ]);
  });
});

describe('a mailboxes list on a domain marked absent', () => {
  it('is refused whole at the list: the mailboxes go with the domain', () => {
    const { mailboxes, lines } = read(
      HEAD +
        '      - name: alice.example\n' +
        '        state: absent\n' +
        '        mailboxes:\n' +
        '          - name: info\n',
      { domainAbsent: true },
    );
    expect(mailboxes).toEqual([]);
    expect(lines).toEqual([
      'm.yaml:8:11: error: domain "alice.example" has state: absent and "mailboxes": a domain that is deleted has no ' +
        'mailboxes (they go with it); remove "mailboxes", or the state',
    ]);
  });
});

describe("the mailbox room's schema fragment", () => {
  const fragment = JSON.parse(
    readFileSync(new URL('../../../src/kinds/mailbox/schema.json', import.meta.url), 'utf8'),
  ) as {
    kind: string;
    'manifest.domain-keys': { mailboxes: { items: { properties: Record<string, unknown> } } };
    'manifest.prune': { mailboxes: unknown };
  };
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const valid = ajv.compile({ type: 'object', properties: fragment['manifest.domain-keys'] });

  it("is the mailbox kind's, and lists the item keys the room reads, in order", () => {
    expect(fragment.kind).toBe('mailbox');
    expect(Object.keys(fragment['manifest.domain-keys'].mailboxes.items.properties)).toEqual(MAILBOX_ITEM_KEYS);
    expect(fragment['manifest.prune'].mailboxes).toMatchObject({ type: 'boolean', default: false });
  });

  it('takes the items the room reads and refuses other shapes', () => {
    expect(
      valid({
        mailboxes: [
          { name: 'info', quota: '2 GiB', aliases: ['hello'], forwardings: ['a@example.net'], keep_copies: true },
          { name: 'desk', quota: 0, catch_all: false, description: '' },
          { name: 'old', state: 'absent' },
        ],
      }),
    ).toBe(true);
    for (const item of [
      'info',
      { quota: 1 },
      { name: 'a', password: 'x' },
      { name: 'a', quota: 1.5 },
      { name: 'a', aliases: 'b' },
    ])
      expect(valid({ mailboxes: [item] })).toBe(false);
  });
});
