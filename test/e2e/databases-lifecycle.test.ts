/**
 * Databases end to end through the CLI against the simulator over HTTP (issue 33): create with
 * the password written ahead (journal kind `database`), converge, GET /databases only when the
 * manifest has the key, update with only the differing fields (`remote_hosts` whole, order
 * ignored, left out not managed, [] local only), `state: absent` marked as destroying data in
 * every output and the apply prompt, prune never deleting one, and nothing secret printed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/secrets/journal.js';
import { expectNoSecrets, run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    databases:
      - name: alice_wp
        remote_hosts: ["192.0.2.0/24", db.example.net]
        description: WordPress
      - name: alice_shop
        user: shop_user
`;

/** The journal's lines as `[intent or 'record', kind, name]`, and the entries themselves. */
async function journal(path: string): Promise<Record<string, unknown>[]> {
  return parseJournal(await readFile(path, 'utf8')).map((l) =>
    l.kind === 'unreadable' ? {} : (l.entry as Record<string, unknown>),
  );
}

const writes = (sim: { requests: readonly { method: string; path: string; status: number }[] }): string[] =>
  sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);

const gets = (sim: { requests: readonly { method: string; path: string }[] }, path: string): number =>
  sim.requests.filter((r) => r.method === 'GET' && r.path === path).length;

const ALICE_SEEDED = {
  seed: {
    clients: [
      {
        username: 'alice',
        databases: [
          { name: 'alice_wp', remote_hosts: ['db.example.net', '192.0.2.0/24'], description: 'WordPress' },
          { name: 'alice_old', password: 'the-old-db-password' },
          'alice_unlisted',
        ],
      },
    ],
  },
};

describe('databases: create and converge', () => {
  it('creates each with a password written ahead (kind database), then plans no changes', async () => {
    const w = await workspace(MANIFEST);
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(w.sim)).toEqual(['POST /clients 201', 'POST /databases 201', 'POST /databases 201']);
    expect(applied.stdout).toMatch(/✓ created database "alice_wp" of client "alice" \(id \d+\)/);
    const entries = (await journal(w.secrets)).filter((e) => e.kind === 'database');
    const intents = entries.filter((e) => e.intent !== undefined);
    expect(intents.map((e) => [e.intent, e.name])).toEqual([
      ['create_database', 'alice_wp'],
      ['create_database', 'alice_shop'],
    ]);
    for (const name of ['alice_wp', 'alice_shop']) {
      const intent = entries.find((e) => e.name === name && e.intent !== undefined);
      const record = entries.find((e) => e.name === name && e.intent === undefined);
      expect(entries.indexOf(intent ?? {})).toBeLessThan(entries.indexOf(record ?? {}));
      expect(record?.password).toBe(intent?.pending_password);
      expect(record?.password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(w.sim.state.databasePasswordIs(name, String(record?.password))).toBe(true);
    }
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes');
    await expectNoSecrets([applied, again], w.secrets);
  });

  it('reads GET /databases only when the manifest has the key', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', ALICE_SEEDED);
    const without = await run(['plan', w.file], w.env);
    expect(without.code, without.stderr).toBe(0);
    expect(gets(w.sim, '/databases')).toBe(0);
    expect(without.stdout).not.toContain('database');
    await writeFile(w.file, 'version: 1\nclients:\n  - username: alice\n    databases: []\n');
    const empty = await run(['plan', w.file], w.env);
    expect(empty.code, empty.stderr).toBe(0);
    expect(gets(w.sim, '/databases')).toBe(1);
  });
});

describe('databases: updates', () => {
  it('sends only the fields that differ; remote_hosts as a whole list, order ignored', async () => {
    const w = await workspace(
      `version: 1
clients:
  - username: alice
    databases:
      - name: alice_wp
        remote_hosts: [DB.example.net, "192.0.2.0/24", "198.51.100.7"]
        description: WordPress
      - name: alice_old
      - name: alice_unlisted
        remote_hosts: []
`,
      ALICE_SEEDED,
    );
    const planned = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(planned.code, planned.stderr).toBe(0);
    const doc = JSON.parse(planned.stdout) as { changes: Record<string, unknown>[] };
    expect(doc.changes.map((c) => [c.action, c.type, c.name])).toEqual([['update', 'database', 'alice_wp']]);
    const [change] = doc.changes;
    expect(change?.fields).toEqual([
      {
        field: 'remote_hosts',
        before: ['192.0.2.0/24', 'db.example.net'],
        after: ['192.0.2.0/24', '198.51.100.7', 'db.example.net'],
      },
    ]);
    expect((change?.request as { body: unknown }).body).toEqual({
      remote_hosts: ['192.0.2.0/24', '198.51.100.7', 'db.example.net'],
    });
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(w.sim)).toEqual([expect.stringMatching(/^PUT \/databases\/\d+ 200$/)]);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout).toBe(0);
  });

  it('[] is local only: a database with remote hosts loses them', async () => {
    const w = await workspace(
      'version: 1\nclients:\n  - username: alice\n    databases:\n      - name: alice_wp\n        remote_hosts: []\n',
      ALICE_SEEDED,
    );
    const planned = await run(['plan', w.file], w.env);
    expect(planned.stdout).toMatch(/~ database "alice_wp": remote_hosts - 192\.0\.2\.0\/24, - db\.example\.net/);
    expect(planned.stdout).toMatch(/PUT \/databases\/\d+ \{"remote_hosts":\[\]\}/);
  });
});

describe('databases: deletes', () => {
  const ABSENT = `version: 1
clients:
  - username: alice
    databases:
      - name: alice_old
        state: absent
prune:
  ftp_users: true
`;

  it('state: absent deletes it, marked as destroying data in text, JSON, Markdown and the prompt; unlisted ones are noted and kept', async () => {
    const w = await workspace(ABSENT, ALICE_SEEDED);
    const text = await run(['plan', w.file], w.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '  # database "alice_old" of client "alice" will be deleted with the data stored in it: state: absent in the manifest\n',
    );
    expect(text.stdout).toContain(
      'note: 2 databases of client "alice" are not in the manifest: kept (a database is deleted only by state: absent on its name, never by prune)',
    );
    expect(text.stdout).toContain('1 to delete (1 database)');
    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as {
      changes: Record<string, unknown>[];
    };
    expect(json.changes).toEqual([
      expect.objectContaining({ action: 'delete', type: 'database', name: 'alice_old', destroys_data: true }),
    ]);
    const markdown = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(markdown.stdout).toContain('- :x: database "alice&#95;old" of client "alice" with the data stored in it');
    const questions: string[] = [];
    const refused = await run(['apply', w.file], w.envWithSecrets, {
      tty: true,
      answer: (q) => (questions.push(q), 'no\n'),
    });
    expect(refused.code).not.toBe(0);
    expect(questions).toEqual([expect.stringContaining('1 delete destroying data for good?')]);
    expect(writes(w.sim)).toEqual([]);
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(w.sim)).toEqual([expect.stringMatching(/^DELETE \/databases\/\d+ 200$/)]);
    expect(w.sim.state.databasePasswordIs('alice_wp', 'x')).toBe(false);
    expect(w.sim.state.databasePasswordIs('alice_old', 'the-old-db-password')).toBeUndefined();
  });

  it('prune.databases is refused at its line, saying databases go only by state: absent', async () => {
    const w = await workspace(`${ABSENT}  databases: false\n`, ALICE_SEEDED);
    const r = await run(['plan', w.file], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${w.file}:9:3: error: prune.databases is not accepted: a database is never deleted for not being listed, only by "state: absent" on its name`,
    );
    expect(w.sim.requests).toEqual([]);
  });

  it('--max-deletes counts each database delete', async () => {
    const two = `version: 1
clients:
  - username: alice
    databases:
      - {name: alice_old, state: absent}
      - {name: alice_unlisted, state: absent}
`;
    const w = await workspace(two, ALICE_SEEDED);
    const guarded = await run(['apply', w.file, '--auto-approve', '--max-deletes', '1'], w.envWithSecrets);
    expect(guarded.code).not.toBe(0);
    expect(guarded.stderr).toContain('this plan deletes 2 resources');
    expect(writes(w.sim)).toEqual([]);
    const ok = await run(['apply', w.file, '--auto-approve', '--max-deletes', '2'], w.envWithSecrets);
    expect(ok.code, ok.stderr).toBe(0);
    expect(writes(w.sim).filter((x) => x.startsWith('DELETE /databases/'))).toHaveLength(2);
  });
});
