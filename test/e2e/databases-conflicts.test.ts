/**
 * Databases and FTP users through the CLI against the simulator (issue 33): what is refused
 * before anything is sent (validation at file:line:column, a duplicate across the parts of a
 * manifest directory, a rename, another client's name), `--clients` scoping, `secrets reset
 * database:NAME`, and a run whose POST answers are all lost ending with every password known.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/secrets/journal.js';
import { expectNoSecrets, run, workspace } from '../helpers/cli.js';

async function journal(path: string): Promise<Record<string, unknown>[]> {
  return parseJournal(await readFile(path, 'utf8')).map((l) =>
    l.kind === 'unreadable' ? {} : (l.entry as Record<string, unknown>),
  );
}

const writes = (sim: { requests: readonly { method: string; path: string; status: number }[] }): string[] =>
  sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);

const SEEDED = {
  seed: {
    clients: [
      { username: 'alice', databases: [{ name: 'alice_wp', password: 'the-old-db-password' }] },
      { username: 'bob', databases: [{ name: 'bob_db', database_username: 'bob_u' }], ftp_users: ['bob_ftp'] },
    ],
  },
};

describe('refused before anything is sent', () => {
  it('validation errors at file:line:column, each with its rule', async () => {
    const w = await workspace(`version: 1
clients:
  - username: alice
    databases:
      - name: Alice-WP
      - name: x_db
        remote_hosts: ["300.1.1.1", ok.example]
    ftp_users:
      - name: good
        home: /www/../etc
      - name: other
        home: /home/x
`);
    const r = await run(['plan', w.file], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${w.file}:5:15: error: "name" "Alice-WP" of database #1 of client "alice" is not a name the panel accepts: a database's name is lowercase letters a-z, digits and "_", 1 to 64 characters`,
    );
    expect(r.stderr).toContain(
      `${w.file}:7:24: error: remote host "300.1.1.1" of database "x_db" is not a remote host`,
    );
    expect(r.stderr).toContain(
      `${w.file}:10:15: error: home "/www/../etc" of FTP user "good" of client "alice" climbs out with ".."`,
    );
    expect(r.stderr).toContain(
      `${w.file}:12:15: error: home "/home/x" of FTP user "other" of client "alice" is not under /www or /files`,
    );
    expect(r.stderr).toContain('4 errors');
    expect(w.sim.requests).toEqual([]);
  });

  it('a name listed in two parts of a manifest directory, database or FTP user', async () => {
    const w = await workspace('version: 1\nclients: []\n');
    const dir = join(w.dir, 'manifests');
    await mkdir(dir);
    await writeFile(
      join(dir, 'a.yaml'),
      'version: 1\nclients:\n  - username: alice\n    databases: [{name: shared_db}]\n    ftp_users: [{name: shared_ftp}]\n',
    );
    await writeFile(
      join(dir, 'b.yaml'),
      'version: 1\nclients:\n  - username: carol\n    databases: [{name: shared_db}]\n    ftp_users: [{name: shared_ftp}]\n',
    );
    const r = await run(['plan', dir], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`b\\.yaml:4:\\d+: error: database "shared_db"[^\\n]*listed twice`));
    expect(r.stderr).toMatch(new RegExp(`b\\.yaml:5:\\d+: error: FTP user "shared_ftp"[^\\n]*listed twice`));
    expect(w.sim.requests).toEqual([]);
  });

  it('a rename and another client name are conflicts: apply sends nothing', async () => {
    const w = await workspace(
      `version: 1
clients:
  - username: alice
    databases:
      - name: alice_wp
        user: alice_other
      - name: alice_new
        user: bob_u
      - name: bob_db
`,
      SEEDED,
    );
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '✗ database "alice_wp" of client "alice" has the user "alice_wp" on the panel, the manifest gives "alice_other": that is a rename, which would lose its data as a delete and a create; rename in the panel, then in the manifest',
    );
    expect(r.stdout).toContain(
      '✗ database "alice_new" of client "alice" gives the user "bob_u", which database "bob_db" has on the panel: that is a rename',
    );
    expect(r.stdout).toContain('✗ database "bob_db" of client "alice" belongs to client "bob" on the panel');
    expect(writes(w.sim)).toEqual([]);
  });
});

describe('scope and passwords', () => {
  it('--clients plans the databases and FTP users of the matching clients only', async () => {
    const w = await workspace(
      `version: 1
clients:
  - username: alice
    databases: [{name: alice_new}]
  - username: bob
    databases: [{name: bob_db, description: changed}]
    ftp_users: [{name: bob_more}]
`,
      SEEDED,
    );
    const r = await run(['plan', w.file, '--clients', 'alice', '--format', 'json'], w.env);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { changes: { type: string; name: string }[] };
    expect(doc.changes.map((c) => `${c.type} ${c.name}`)).toEqual(['database alice_new']);
  });

  it('secrets reset database:NAME sets a new password, written ahead and recorded', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', SEEDED);
    const r = await run(['secrets', 'reset', 'database:alice_wp'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ database "alice_wp" \(id \d+\): new password set and recorded\n$/);
    const entries = await journal(w.secrets);
    expect(entries.map((e) => [e.intent ?? 'record', e.kind, e.name])).toEqual([
      ['reset_password', 'database', 'alice_wp'],
      ['record', 'database', 'alice_wp'],
    ]);
    const password = String(entries[1]?.password);
    expect(w.sim.state.databasePasswordIs('alice_wp', password)).toBe(true);
    expect(w.sim.state.databasePasswordIs('alice_wp', 'the-old-db-password')).toBe(false);
    const missing = await run(['secrets', 'reset', 'database:nope_db'], w.envWithSecrets);
    expect(missing.code).toBe(1);
    await expectNoSecrets([r, missing], [password]);
  });

  it('every POST answer lost: the run ends with every password known, and the next plans no changes', async () => {
    const w = await workspace(
      `version: 1
clients:
  - username: alice
    databases: [{name: alice_wp}, {name: alice_shop, remote_hosts: ["192.0.2.7"]}]
    ftp_users: [{name: alice_deploy}, {name: alice_two, home: /files}]
`,
      { ambiguousPostRate: 1 },
    );
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(w.sim.requests.filter((q) => q.method === 'POST' && q.status === 0)).toHaveLength(5);
    const records = (await journal(w.secrets)).filter((e) => 'password' in e);
    const last = new Map(records.map((e) => [`${String(e.kind)}:${String(e.name)}`, e.password]));
    for (const name of ['alice_wp', 'alice_shop'])
      expect(w.sim.state.databasePasswordIs(name, String(last.get(`database:${name}`)))).toBe(true);
    for (const name of ['alice_deploy', 'alice_two'])
      expect(w.sim.state.ftpUserPasswordIs(name, String(last.get(`ftp_user:${name}`)))).toBe(true);
    expect([...last.values()].every((p) => typeof p === 'string')).toBe(true);
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
    await expectNoSecrets([r], w.secrets);
  });
});
