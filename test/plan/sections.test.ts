/**
 * The planner's side of the kinds' sections (plan/sections.ts, the walk in plan/diff.ts) and the
 * run's ask for them (plan/reads.ts), with the table's section kinds (SECTION_KINDS) and their
 * parts in the live panel: creates that wait for their client's and domain's, a domain of another
 * client (a conflict naming it, nothing planned), prune only of listed clients in the scope and
 * never on a domain the run deletes, the notes, and the list read asked only when the manifest
 * gives the key (or prune names it). The changes are checked in the real order of changes.
 */
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildClients } from '../../src/manifest/build.js';
import { SourceMap } from '../../src/manifest/locate.js';
import { buildPrune } from '../../src/manifest/prune.js';
import { SectionSeens } from '../../src/manifest/sections.js';
import type { Desired, Diagnostic } from '../../src/manifest/types.js';
import { diffWithin } from '../../src/plan/diff.js';
import { readsForManifest, readsForSavedPlan } from '../../src/plan/reads.js';
import { clientScope } from '../../src/names.js';
import type { Live } from '../../src/panel/types.js';
import { SECTION_KINDS } from '../../src/kinds/index.js';
import { MAILBOX_SECTION } from '../../src/kinds/mailbox/section.js';
import type { LiveMailbox } from '../../src/kinds/mailbox/index.js';
import { liveMailbox } from '../kinds/mailbox/live.js';
import { DATABASE_SECTION } from '../../src/kinds/database/section.js';
import type { LiveDatabase } from '../../src/kinds/database/index.js';
import { FTP_USER_SECTION } from '../../src/kinds/ftp-user/section.js';
import { live } from '../helpers/builders.js';

const TABLE = SECTION_KINDS;

it("the table's section kinds are the three rooms' sections, in its order", () => {
  expect(TABLE.map(({ name, section }) => [name, section])).toEqual([
    ['mailbox', MAILBOX_SECTION],
    ['database', DATABASE_SECTION],
    ['ftp_user', FTP_USER_SECTION],
  ]);
});

function manifest(text: string): Desired {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const source = new SourceMap('m.yaml', doc, lineCounter);
  const diagnostics: Diagnostic[] = [];
  const data: unknown = doc.toJS();
  const prune = buildPrune(data, source, diagnostics, TABLE);
  const clients = buildClients(data, source, diagnostics, new SectionSeens(TABLE));
  expect(diagnostics).toEqual([]);
  return { file: 'm.yaml', clients, prune };
}

function mailbox(id: number, address: string): LiveMailbox {
  return liveMailbox(id, address, { idUser: undefined });
}

function database(id: number, name: string, idUser: number): LiveDatabase {
  return { id, idUser, name, user: name, description: '', remoteHosts: [], size: 0 };
}

/** The panel: alice (1) with alice.example and old.example, bob (2) with bob.example; its mailboxes and databases. */
function panel(mailboxes: LiveMailbox[] = [], databases: LiveDatabase[] = []): Live {
  const base = live(
    [
      [1, 'alice'],
      [2, 'bob'],
    ],
    [
      [10, 'alice.example', 1],
      [11, 'old.example', 1],
      [20, 'bob.example', 2],
    ],
  );
  return {
    ...base,
    mailbox: { read: true, records: mailboxes },
    database: { read: true, records: databases },
    ftp_user: { read: true, records: [] },
  };
}

const plan = (desired: Desired, on: Live, scope?: readonly string[]) =>
  diffWithin(desired, on, clientScope(scope), TABLE);
const lines = (changes: readonly { action: string; type: string; name: string }[]) =>
  changes.map((c) => `${c.action} ${c.type} ${c.name}`);

describe('the sections in the walk', () => {
  it('creates under a new client and a new domain, waiting for both; updates and deletes under a kept one', () => {
    const desired = manifest(`version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - {name: info, description: desk}
          - {name: gone, state: absent}
  - username: carol
    domains:
      - name: carol.example
        mailboxes: [{name: info}]
`);
    const result = plan(desired, panel([mailbox(1, 'info@alice.example'), mailbox(2, 'gone@alice.example')]));
    // In the order of changes: creates and updates in manifest order (each client, its domains,
    // their mailboxes), then deletes.
    expect(lines(result.changes)).toEqual([
      'update mailbox info@alice.example',
      'create client carol',
      'create domain carol.example',
      'create mailbox info@carol.example',
      'delete mailbox gone@alice.example',
    ]);
    const create = result.changes.find((c) => c.name === 'info@carol.example');
    expect(create?.dependsOn).toEqual(['client:carol', 'domain:carol.example']);
  });

  it("makes a mailbox on a domain another client has a conflict naming it, beside the domain's; nothing planned of it", () => {
    const desired = manifest(`version: 1
clients:
  - username: alice
    domains:
      - name: bob.example
        mailboxes: [{name: info}]
`);
    const result = plan(desired, panel());
    expect(result.changes).toEqual([]);
    expect(result.conflicts).toEqual([
      { domain: 'bob.example', client: 'alice', owner: 'bob' },
      { mailbox: 'info@bob.example', client: 'alice', owner: 'bob' },
    ]);
  });

  it("prunes only a listed client's unlisted mailboxes in the scope, never a keep match nor on a domain it deletes", () => {
    const desired = manifest(`version: 1
prune: {domains: true, mailboxes: true, keep: [postmaster@*]}
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes: [{name: info}]
  - username: bob
    domains: [bob.example]
`);
    const on = panel([
      mailbox(1, 'info@alice.example'),
      mailbox(2, 'stale@alice.example'),
      mailbox(3, 'postmaster@alice.example'),
      mailbox(4, 'x@old.example'),
      mailbox(5, 'stale@bob.example'),
    ]);
    expect(lines(plan(desired, on).changes)).toEqual([
      'delete mailbox stale@alice.example',
      'delete mailbox stale@bob.example',
      'delete domain old.example',
    ]);
    expect(lines(plan(desired, on, ['bob']).changes)).toEqual(['delete mailbox stale@bob.example']);
  });

  it('never prunes a mailbox on a domain whose record does not say whether it is a system domain', () => {
    const desired = manifest(`version: 1
prune: {mailboxes: true}
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes: [{name: info}]
`);
    const base = panel([mailbox(1, 'info@alice.example'), mailbox(2, 'x@old.example'), mailbox(3, 'y@host.example')]);
    const on: Live = {
      ...base,
      domain: {
        ...base.domain,
        records: [
          ...base.domain.records.map((d) => (d.name === 'old.example' ? { ...d, isSystem: undefined } : d)),
          { id: 12, name: 'host.example', idUser: 1, isSystem: true },
        ],
      },
    };
    expect(lines(plan(desired, on).changes)).toEqual([]);
  });

  it('never prunes a database: the plan notes the unlisted ones of a client that lists its databases', () => {
    const desired = manifest(`version: 1
clients:
  - username: alice
    databases: [{name: alice_wp}]
  - username: bob
`);
    const result = plan(
      desired,
      panel([], [database(1, 'alice_wp', 1), database(2, 'alice_x', 1), database(3, 'bob_x', 2)]),
    );
    expect(result.changes).toEqual([]);
    expect(result.notes).toEqual([
      expect.stringContaining('1 database of client "alice" is not in the manifest: kept') as string,
    ]);
  });

  it('without sections, a plan has no notes key and no section changes', () => {
    const desired = manifest('version: 1\nclients:\n  - username: alice\n');
    const result = diffWithin(desired, panel(), clientScope(undefined), []);
    expect('notes' in result).toBe(false);
  });
});

describe("the run's ask for the sections", () => {
  const text = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes: [{name: info}]
  - username: bob
    databases: [{name: bob_wp}]
`;

  it("asks a section kind's list only when a client of the scope gives its key, or prune names it", () => {
    const desired = manifest(text);
    const asked = readsForManifest(desired, undefined, TABLE) as unknown as Record<string, unknown>;
    expect(asked.mailboxes).toBe(true);
    expect(asked.databases).toBe(true);
    expect(asked.ftpUsers).toBeUndefined();
    const scoped = readsForManifest(desired, ['bob'], TABLE) as unknown as Record<string, unknown>;
    expect(scoped.mailboxes).toBeUndefined();
    expect(scoped.databases).toBe(true);
    const pruning = manifest(`version: 1\nprune: {ftp_users: true}\nclients: []\n`);
    expect((readsForManifest(pruning, undefined, TABLE) as unknown as Record<string, unknown>).ftpUsers).toBe(true);
  });

  it('asks the same of the other kinds as before, and a saved plan reads again what its changes need', () => {
    const desired = manifest(text);
    expect(readsForManifest(desired, undefined, [])).toEqual({
      domainNames: ['alice.example'],
      details: { usernames: new Set(), fields: new Set() },
      zones: [],
    });
    const saved = readsForSavedPlan({
      changes: [
        {
          id: 'client:alice',
          type: 'client',
          action: 'update',
          name: 'alice',
          clientId: 1,
          fields: [{ field: 'email', before: 'a@x.example', after: 'b@x.example' }],
          reason: 'differs',
          dependsOn: [],
        },
      ] as never,
      conflicts: [],
      unknowns: [],
      unmanaged: { clients: [], domains: [] },
    });
    expect(saved).toEqual({
      domainNames: [],
      details: { usernames: new Set(['alice']), fields: new Set(['email']) },
      zones: [],
    });
  });
});
