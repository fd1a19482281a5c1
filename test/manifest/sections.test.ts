/**
 * The manifest stage's side of the kinds' sections (src/manifest/sections.ts), with a table of
 * section kinds handed in (the rooms' section objects, which are not in KINDS yet): a domain
 * item's and a client item's lists read by their sections into Desired, each problem at
 * file:line:column; an item listed twice across two parts of a directory; a read given up
 * leaves nothing behind; `prune.<key>` flags, a refused prune key, and keep patterns a section
 * claims.
 */
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildClients } from '../../src/manifest/build.js';
import { SourceMap } from '../../src/manifest/locate.js';
import { buildPrune } from '../../src/manifest/prune.js';
import { SectionSeens } from '../../src/manifest/sections.js';
import type { Diagnostic } from '../../src/manifest/types.js';
import { MAILBOX_SECTION } from '../../src/kinds/mailbox/section.js';
import { DATABASE_SECTION } from '../../src/kinds/database/section.js';
import { FTP_USER_SECTION } from '../../src/kinds/ftp-user/section.js';
import type { SectionKind } from '../../src/kinds/index.js';

const TABLE: readonly SectionKind[] = [
  { name: 'mailbox', section: MAILBOX_SECTION },
  { name: 'database', section: DATABASE_SECTION },
  { name: 'ftp_user', section: FTP_USER_SECTION },
];

function read(text: string, file = 'm.yaml', seens = new SectionSeens(TABLE)) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const source = new SourceMap(file, doc, lineCounter);
  const diagnostics: Diagnostic[] = [];
  const clients = buildClients(doc.toJS(), source, diagnostics, seens);
  const prune = buildPrune(doc.toJS(), source, diagnostics, TABLE);
  return { clients, prune, diagnostics };
}

const MANIFEST = `version: 1
clients:
  - username: alice
    databases:
      - name: alice_wp
    ftp_users:
      - name: alice_deploy
    domains:
      - name: alice.example
        mailboxes:
          - name: info
            aliases: [hello@shop.example]
      - shop.example
  - username: bob
    domains: [bob.example]
`;

describe('the sections in the manifest stage', () => {
  it('reads each list into its parent item, by kind name; a parent without lists has no sections', () => {
    const { clients, diagnostics } = read(MANIFEST);
    expect(diagnostics).toEqual([]);
    const [alice, bob] = clients;
    expect(Object.keys(alice?.sections ?? {})).toEqual(['database', 'ftp_user']);
    expect(alice?.sections?.database?.map((d) => d.loc.line)).toEqual([5]);
    const [domain, shop] = alice?.domains ?? [];
    expect(domain?.sections?.mailbox?.map((m) => m.loc)).toEqual([{ file: 'm.yaml', line: 11, column: 19 }]);
    expect(shop?.sections).toBeUndefined();
    expect(bob?.sections).toBeUndefined();
    expect(bob?.domains[0]?.sections).toBeUndefined();
  });

  it('locates a section problem at its value, and refuses a list under a parent marked absent', () => {
    const { diagnostics } = read(`version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: info
            quota: lots
  - username: bob
    state: absent
    ftp_users:
      - name: bob_deploy
`);
    expect(diagnostics.map((d) => [d.line, d.column, d.message.slice(0, 40)])).toEqual([
      [8, 20, 'quota "lots" of mailbox "info@alice.exam'],
      [12, 7, 'client "bob" has state: absent and "ftp_'],
    ]);
  });

  it('refuses an item listed in two parts of a directory at the second, naming the first', () => {
    const seens = new SectionSeens(TABLE);
    expect(read(MANIFEST, 'a.yaml', seens).diagnostics).toEqual([]);
    const second = read(
      `version: 1
clients:
  - username: carol
    databases:
      - name: alice_wp
`,
      'b.yaml',
      seens,
    );
    expect(second.diagnostics).toHaveLength(1);
    expect(second.diagnostics[0]).toMatchObject({ file: 'b.yaml', line: 5 });
    expect(second.diagnostics[0]?.message).toContain('a.yaml:5');
  });

  it('forgets what a read given up remembered (its copy), and keeps what a read done did', () => {
    const seens = new SectionSeens(TABLE);
    read(MANIFEST, 'a.yaml', seens.attempt()); // given up: never kept
    const attempt = seens.attempt();
    expect(read(MANIFEST, 'a.yaml', attempt).diagnostics).toEqual([]);
    seens.keep(attempt);
    expect(read(MANIFEST, 'b.yaml', seens.attempt()).diagnostics).not.toEqual([]);
  });

  it("reads the sections' prune keys, refuses a refused one at its key, and lets a section claim keep patterns", () => {
    const { prune, diagnostics } = read(`version: 1
prune:
  mailboxes: true
  ftp_users: false
  databases: true
  keep: [info@*, "legacy-*", "bad @x.example"]
clients: []
`);
    expect(prune.sections).toEqual({ mailbox: true, ftp_user: false });
    expect(prune.keep).toEqual(['info@*', 'legacy-*']);
    const sorted = [...diagnostics].sort((a, b) => a.line - b.line);
    expect(sorted.map((d) => [d.line, d.column, d.message.slice(0, 30)])).toEqual([
      [5, 3, 'prune.databases is not accepte'],
      [6, 30, 'pattern "bad @x.example" in "p'],
    ]);
  });

  it('without sections, a manifest is read as before: no sections, no prune flags, "@" refused in keep', () => {
    const lineCounter = new LineCounter();
    const text = 'version: 1\nprune:\n  keep: [info@*]\nclients: []\n';
    const doc = parseDocument(text, { lineCounter });
    const diagnostics: Diagnostic[] = [];
    const prune = buildPrune(doc.toJS(), new SourceMap('m.yaml', doc, lineCounter), diagnostics, []);
    expect(prune.sections).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.message).toContain('"@" (an email address, not a name)');
  });
});
