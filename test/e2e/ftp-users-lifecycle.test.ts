/**
 * FTP users end to end through the CLI against the simulator over HTTP (issue 33): create with
 * the password written ahead (journal kind `ftp_user`) after the domain its home names, converge,
 * GET /ftp-users only with the key or prune, updates, `state: absent`, prune of listed clients only
 * (never a keep match), a panel that names FTP users itself, `secrets reset ftp_user:NAME`, and
 * nothing secret printed.
 */
import { readFile } from 'node:fs/promises';
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

const gets = (sim: { requests: readonly { method: string; path: string }[] }, path: string): number =>
  sim.requests.filter((r) => r.method === 'GET' && r.path === path).length;

const NEW = `version: 1
clients:
  - username: alice
    domains: [alice.example]
    ftp_users:
      - name: alice_deploy
        home: /www/alice.example
        description: deploys
      - name: alice_files
`;

const SEEDED = {
  seed: {
    clients: [
      {
        username: 'alice',
        domains: ['alice.example'],
        ftp_users: [
          { name: 'alice_deploy', home_directory: '/www', description: 'old', password: 'the-old-ftp-password' },
          'alice_extra',
          'legacy_keep',
        ],
      },
      { username: 'bob', ftp_users: ['bob_ftp'] },
    ],
  },
};

describe('FTP users: create and converge', () => {
  it('creates each after the domain its home names, with a password written ahead; then no changes', async () => {
    const w = await workspace(NEW);
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    const order = writes(w.sim);
    expect(order.indexOf('POST /domains 201')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('POST /domains 201')).toBeLessThan(order.indexOf('POST /ftp-users 201'));
    expect(order.filter((x) => x === 'POST /ftp-users 201')).toHaveLength(2);
    const entries = (await journal(w.secrets)).filter((e) => e.kind === 'ftp_user');
    for (const name of ['alice_deploy', 'alice_files']) {
      const intent = entries.find((e) => e.name === name && e.intent === 'create_ftp_user');
      const record = entries.find((e) => e.name === name && e.intent === undefined);
      expect(entries.indexOf(intent ?? {})).toBeLessThan(entries.indexOf(record ?? {}));
      expect(record?.password).toBe(intent?.pending_password);
      expect(w.sim.state.ftpUserPasswordIs(name, String(record?.password))).toBe(true);
    }
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    await expectNoSecrets([applied, again], w.secrets);
  });

  it('reads GET /ftp-users only with the key, or when prune names it', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', SEEDED);
    expect((await run(['plan', w.file], w.env)).code).toBe(0);
    expect(gets(w.sim, '/ftp-users')).toBe(0);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(w.file, 'version: 1\nclients:\n  - username: alice\nprune:\n  ftp_users: true\n');
    expect((await run(['plan', w.file], w.env)).code).toBe(0);
    expect(gets(w.sim, '/ftp-users')).toBe(1);
  });
});

describe('FTP users: updates and deletes', () => {
  it('updates only the differing fields; state: absent and prune delete, of listed clients only, never a keep match', async () => {
    const w = await workspace(
      `version: 1
clients:
  - username: alice
    ftp_users:
      - name: alice_deploy
        home: /www/alice.example
        description: old
      - name: alice_gone
        state: absent
      - name: alice_extra
        state: absent
prune:
  ftp_users: true
  keep: [legacy_*]
`,
      SEEDED,
    );
    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as {
      changes: Record<string, unknown>[];
    };
    expect(json.changes.map((c) => [c.action, c.type, c.name])).toEqual([
      ['update', 'ftp_user', 'alice_deploy'],
      ['delete', 'ftp_user', 'alice_extra'],
    ]);
    expect(json.changes[0]?.fields).toEqual([{ field: 'home', before: '/www', after: '/www/alice.example' }]);
    expect((json.changes[0]?.request as { body: unknown }).body).toEqual({ home_directory: '/www/alice.example' });
    expect(json.changes[1]).not.toHaveProperty('destroys_data');
    const applied = await run(['apply', w.file, '--auto-approve', '--max-deletes', '1'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(w.sim)).toEqual([
      expect.stringMatching(/^PUT \/ftp-users\/\d+ 200$/),
      expect.stringMatching(/^DELETE \/ftp-users\/\d+ 200$/),
    ]);
    expect(w.sim.state.ftpUserPasswordIs('legacy_keep', 'x')).toBe(false);
    expect(w.sim.state.ftpUserPasswordIs('bob_ftp', 'x')).toBe(false);
    expect(w.sim.state.ftpUserPasswordIs('alice_deploy', 'the-old-ftp-password')).toBe(true);
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
  });

  it('--max-deletes counts each FTP user delete; --clients prunes within the scope only', async () => {
    const w = await workspace(
      'version: 1\nclients:\n  - username: alice\n    ftp_users: []\n  - username: bob\n    ftp_users: []\nprune:\n  ftp_users: true\n',
      SEEDED,
    );
    const guarded = await run(['apply', w.file, '--auto-approve', '--max-deletes', '2'], w.envWithSecrets);
    expect(guarded.code).toBe(4);
    expect(guarded.stderr).toContain('this plan deletes 4 resources');
    expect(writes(w.sim)).toEqual([]);
    const scoped = await run(['apply', w.file, '--auto-approve', '--clients', 'bob'], w.envWithSecrets);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(writes(w.sim)).toEqual([expect.stringMatching(/^DELETE \/ftp-users\/\d+ 200$/)]);
    expect(w.sim.state.ftpUserPasswordIs('bob_ftp', 'x')).toBeUndefined();
    expect(w.sim.state.ftpUserPasswordIs('alice_extra', 'x')).toBe(false);
  });

  it('a name another client holds is a conflict naming the owner, with nothing sent', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n    ftp_users: [{name: bob_ftp}]\n', SEEDED);
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '✗ FTP user "bob_ftp" is listed under client "alice" but belongs to client "bob" on the panel',
    );
    expect(writes(w.sim)).toEqual([]);
  });
});

describe('FTP users: a panel that names them itself, and secrets reset', () => {
  it('records the password under the panel name and fails naming both, with the hint', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n    ftp_users: [{name: alice_deploy}]\n', {
      customFtpUsernames: false,
      seed: { clients: [{ username: 'alice' }] },
    });
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain('"alice_ftp1"');
    expect(r.stderr + r.stdout).toContain('"alice_deploy"');
    expect(r.stderr + r.stdout).toMatch(/custom FTP usernames/);
    const entries = (await journal(w.secrets)).filter((e) => e.kind === 'ftp_user');
    // The intent of the name sent is closed (nothing was created under it); the password is the panel name's.
    expect(entries.map((e) => [e.intent ?? (e.refused === undefined ? 'record' : 'refused'), e.name])).toEqual([
      ['create_ftp_user', 'alice_deploy'],
      ['record', 'alice_ftp1'],
      ['refused', 'alice_deploy'],
    ]);
    const records = entries.filter((e) => 'password' in e);
    expect(records[0]?.password).toBe(entries[0]?.pending_password);
    expect(w.sim.state.ftpUserPasswordIs('alice_ftp1', String(records[0]?.password))).toBe(true);
    await expectNoSecrets([r], w.secrets);
  });

  it('secrets reset ftp_user:NAME sets a new password, written ahead and recorded', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', SEEDED);
    const r = await run(['secrets', 'reset', 'ftp_user:alice_deploy'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ FTP user "alice_deploy" \(id \d+\): new password set and recorded\n$/);
    const entries = await journal(w.secrets);
    expect(entries.map((e) => [e.intent ?? 'record', e.kind, e.name])).toEqual([
      ['reset_password', 'ftp_user', 'alice_deploy'],
      ['record', 'ftp_user', 'alice_deploy'],
    ]);
    const password = String(entries[1]?.password);
    expect(entries[0]?.pending_password).toBe(password);
    expect(w.sim.state.ftpUserPasswordIs('alice_deploy', password)).toBe(true);
    expect(w.sim.state.ftpUserPasswordIs('alice_deploy', 'the-old-ftp-password')).toBe(false);
    await expectNoSecrets([r], [password]);
  });
});
