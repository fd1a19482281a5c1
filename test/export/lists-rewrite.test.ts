/**
 * The splices of a kind's list under a client or a domain item (export --into, rewrite.ts and
 * item-splices.ts), pure: a listed item's key set in its quoting style or added when it gives
 * none, items dropped and added in the list's own style (block or flow), a parent without the key
 * given it, a domain item by its name alone given its object form once however many keys it gets
 * (a dns block and a list: --with dns,mailboxes), in a block list and a flow one. Everything else
 * stays byte for byte.
 */
import { describe, expect, it } from 'vitest';
import type { Edit } from '../../src/export/adopt.js';
import { rewrite } from '../../src/export/rewrite.js';
import { validateManifest } from '../../src/manifest/load.js';

/** `text` with `edits`; the result must validate. */
function spliced(text: string, edits: readonly Edit[]): string {
  const out = rewrite(text, edits, 'm.yaml');
  const check = validateManifest(out, 'm.yaml');
  expect(check.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return out;
}

const NONE = { set: [], drop: [], add: [] };

describe('export --into: the lists under client and domain items, spliced', () => {
  it("sets a listed item's keys in place, adds a missing one, drops and adds items in the list's style", () => {
    const text = `version: 1
clients:
  - username: alice   # ours
    domains: [alice.example]
    databases:
      # the shop
      - name: alice_shop
        description: 'old'   # was
      - {name: alice_gone}
      - {name: alice_wp}
`;
    const out = spliced(text, [
      {
        kind: 'list',
        type: 'database',
        client: 0,
        domain: undefined,
        edit: {
          set: [
            { item: 0, key: 'description', value: 'Shop: "#1"' },
            { item: 2, key: 'remote_hosts', value: ['192.0.2.1'] },
          ],
          drop: [1],
          add: [{ name: 'alice_new', user: 'alice_newuser' }],
        },
      },
    ]);
    expect(out).toBe(`version: 1
clients:
  - username: alice   # ours
    domains: [alice.example]
    databases:
      # the shop
      - name: alice_shop
        description: 'Shop: "#1"'   # was
      - {name: alice_wp, remote_hosts: [192.0.2.1]}
      - name: alice_new
        user: alice_newuser
`);
  });

  it('gives a client item without the key its list, after its domains', () => {
    const text = `version: 1
clients:
  - username: alice
    domains:
      - alice.example
  - {username: bob, domains: [bob.example]}
`;
    const out = spliced(text, [
      { kind: 'add-domains', client: 0, domains: ['alice.net'] },
      { kind: 'list', type: 'ftp_user', client: 0, domain: undefined, edit: { ...NONE, add: [{ name: 'alice-a' }] } },
      { kind: 'list', type: 'database', client: 1, domain: undefined, edit: { ...NONE, add: [{ name: 'bob_db' }] } },
    ]);
    expect(out).toBe(`version: 1
clients:
  - username: alice
    domains:
      - alice.example
      - alice.net
    ftp_users:
      - name: alice-a
  - {username: bob, domains: [bob.example], databases: [{name: bob_db}]}
`);
  });

  it('gives a domain by its name alone its object form once, for a dns block and a list', () => {
    const text = `version: 1
clients:
  - username: alice
    domains:
      - alice.example   # the shop
  - username: bob
    domains: [bob.example, bob.net]
`;
    const dns = { kind: 'add-dns', dns: { ttl: 3600, records: [{ host: '@', type: 'A', value: '192.0.2.10' }] } };
    const mailboxes = { ...NONE, add: [{ name: 'info', quota: '2 GiB', aliases: ['hello'] }] };
    const out = spliced(text, [
      { kind: 'item', type: 'dns_zone', client: 0, domain: 0, edit: dns },
      { kind: 'list', type: 'mailbox', client: 0, domain: 0, edit: mailboxes },
      { kind: 'item', type: 'dns_zone', client: 1, domain: 0, edit: dns },
      { kind: 'list', type: 'mailbox', client: 1, domain: 0, edit: mailboxes },
      { kind: 'list', type: 'mailbox', client: 1, domain: 1, edit: { ...NONE, add: [{ name: 'x', quota: 0 }] } },
    ]);
    expect(out).toBe(`version: 1
clients:
  - username: alice
    domains:
      - name: alice.example   # the shop
        dns:
          ttl: 3600
          records:
            - {host: "@", type: A, value: 192.0.2.10}
        mailboxes:
          - name: info
            quota: 2 GiB
            aliases: [hello]
  - username: bob
    domains: [{name: bob.example, dns: {ttl: 3600, records: [{host: "@", type: A, value: 192.0.2.10}]}, mailboxes: [{name: info, quota: 2 GiB, aliases: [hello]}]}, {name: bob.net, mailboxes: [{name: x, quota: 0}]}]
`);
  });
});
