import { describe, expect, it } from 'vitest';
import { CHUNKED_DIAGNOSTICS_ABOVE, parseManifestWhole, validateManifest } from '../../src/manifest/load.js';
import { listingOf, placeOfListing, slotOf } from '../../src/manifest/listing.js';

const FILE = 'm.yaml';

/** Clients enough after `text` for the chunked read to keep its own diagnostics (load.ts). */
function padded(text: string): string {
  const clients = Array.from({ length: 3000 }, (_, k) => `  - username: pad${k}\n    domains: [pad${k}.example]\n`);
  const result = text + clients.join('');
  expect(result.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
  return result;
}

/** `line:column message` of each diagnostic, through the whole read and the chunked one: both must say the same. */
function said(text: string): string[] {
  const whole = parseManifestWhole(text, FILE).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
  const long = padded(text);
  expect(validateManifest(long, FILE).diagnostics).toEqual(parseManifestWhole(long, FILE).diagnostics);
  expect(validateManifest(long, FILE).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual(whole);
  return whole;
}

const ELSEWHERE = 'a domain belongs to one client only';

describe("a domain's first listing, found again for the message about a second one", () => {
  it('packed in one number, gives back its slot and place, a large client and an orphan included', () => {
    for (const [slot, at] of [
      [0, 0],
      [5, 1023],
      [5, 1024],
      [125_000, 40_000],
      [-3, 2],
      [2 ** 21, 5000],
      [0, 2 ** 33],
    ] as const) {
      const listing = listingOf(slot, at);
      expect([slotOf(listing), placeOfListing(listing)]).toEqual([slot, at]);
    }
  });

  it('under a client without a username, or with an empty one, named by its number', () => {
    expect(
      said(
        'version: 1\nclients:\n  - plan: Basic\n    domains: [x.example]\n  - username: bob\n    domains: [X.example]\n',
      ),
    ).toContain(
      `6:15 domain "X.example" (same as "x.example") is already listed under client #1 at line 4: ${ELSEWHERE}`,
    );
    expect(
      said(
        'version: 1\nclients:\n  - username: ""\n    domains: [y.example]\n  - username: bob\n    domains: [y.example]\n',
      ),
    ).toContain(`6:15 domain "y.example" is already listed under client #1 at line 4: ${ELSEWHERE}`);
  });

  it('past the thousandth domain of a client, in it and in another', () => {
    const domains = Array.from({ length: 1100 }, (_, k) => `      - b${k}.example\n`).join('');
    const text =
      `version: 1\nclients:\n  - username: big\n    domains:\n${domains}      - b1050.example\n` +
      '  - username: other\n    domains: [b1099.example, b3.example]\n';
    expect(said(text)).toEqual([
      '1105:9 domain "b1050.example" is listed twice in client "big" (first at line 1055): remove one',
      `1107:15 domain "b1099.example" is already listed under client "big" at line 1104: ${ELSEWHERE}`,
      `1107:30 domain "b3.example" is already listed under client "big" at line 8: ${ELSEWHERE}`,
    ]);
  });

  it("past a client marked absent, and as the owner a section's message names", () => {
    expect(
      said(
        'version: 1\nclients:\n  - username: alice\n    state: absent\n  - username: bob\n    domains: [q.example]\n' +
          '  - username: carol\n    domains: [q.example]\n',
      ),
    ).toEqual([`8:15 domain "q.example" is already listed under client "bob" at line 6: ${ELSEWHERE}`]);
    expect(
      said(
        'version: 1\nclients:\n  - domains: [bob.example]\n  - username: alice\n    domains:\n' +
          '      - name: alice.example\n        mailboxes:\n          - {name: info, aliases: [info@bob.example]}\n',
      ),
    ).toContain(
      '8:36 alias "info@bob.example" of mailbox "info@alice.example" is on "bob.example", which the manifest lists ' +
        'under client #1: an alias is on a domain of the mailbox\'s own client (client "alice")',
    );
  });
});
