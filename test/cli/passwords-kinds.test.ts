/**
 * `secrets reset [KIND:]NAME...` and `secrets decrypt <file> [[KIND:]NAME...]` through the CLI
 * against the simulator: a bare name is a client, `client:alice` too; an unknown kind, or a kind
 * without passwords, is refused before anything is sent, naming the kinds that have one; every
 * record written names its kind and name (a client's keeps its username).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/secrets/journal.js';
import { run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n  - username: bob\n';
const SEEDED = { seed: { clients: [{ username: 'alice' }, { username: 'bob' }] } };

describe('secrets reset [KIND:]NAME', () => {
  it('client:alice is alice; the records carry kind and name, and the username', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    const r = await run(['secrets', 'reset', 'client:alice', 'bob'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '✓ client "alice" (id 2): new password set and recorded\n✓ client "bob" (id 3): new password set and recorded\n',
    );
    const entries = parseJournal(await readFile(w.secrets, 'utf8')).map((l) =>
      l.kind === 'unreadable' ? {} : l.entry,
    );
    expect(entries.map((e) => [e.intent ?? 'record', e.kind, e.name, e.username])).toEqual([
      ['reset_password', 'client', 'alice', 'alice'],
      ['record', 'client', 'alice', 'alice'],
      ['reset_password', 'client', 'bob', 'bob'],
      ['record', 'client', 'bob', 'bob'],
    ]);
    expect(entries[1]?.password).toBe(w.sim.state.passwordOf('alice'));
  });

  it('the same client twice, as alice and client:alice, is refused before anything is sent', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    const r = await run(['secrets', 'reset', 'alice', 'client:alice'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: "alice" is named twice: nothing was sent');
    expect(w.sim.requests).toEqual([]);
  });

  it('an unknown kind, or one without passwords, is refused, naming the kinds that have one', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    const unknown = await run(['secrets', 'reset', 'mailbx:info@alice.example'], w.envWithSecrets);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error: "mailbx:info@alice.example": no kind "mailbx": nothing was done');
    expect(unknown.stderr).toContain(
      'the kinds with passwords: client, mailbox, database, ftp_user (a bare name is a client)',
    );
    const none = await run(['secrets', 'reset', 'domain:alice.example'], w.envWithSecrets);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error: "domain:alice.example": a domain has no password: nothing was done');
    const bad = await run(['secrets', 'reset', 'client:Alice'], w.envWithSecrets);
    expect(bad.stderr).toContain('error: not a username: "Alice": nothing was sent');
    expect(w.sim.requests).toEqual([]);
    await expect(readFile(w.secrets, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('secrets decrypt <file> [[KIND:]NAME]', () => {
  it('prints only the things named, with and without --all; a name without records is said on stderr', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    expect((await run(['secrets', 'reset', 'alice', 'bob'], w.envWithSecrets)).code).toBe(0);
    const all = await run(['secrets', 'decrypt', w.secrets]);
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { name: string }).name),
    ).toEqual(['alice', 'bob']);
    const one = await run(['secrets', 'decrypt', w.secrets, 'client:bob', 'carol']);
    expect(one.code).toBe(0);
    expect(
      one.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { name: string; password: string }),
    ).toEqual([
      expect.objectContaining({
        kind: 'client',
        name: 'bob',
        username: 'bob',
        password: w.sim.state.passwordOf('bob'),
      }),
    ]);
    expect(one.stderr).toBe(`${w.secrets}: no record of client "carol"\n1 record\n`);
    const history = await run(['secrets', 'decrypt', w.secrets, 'alice', '--all']);
    expect(
      history.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { name: string }).name),
    ).toEqual(['alice', 'alice']);
    const wrong = await run(['secrets', 'decrypt', w.secrets, 'dns_zone:alice.example']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('a dns_zone has no password');
  });
});

describe('secrets decrypt: a name is matched as given, never read again from its printed form', () => {
  it('client:client:alice is not alice, and client:x:y is a client named "x:y", not a kind "x"', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    expect((await run(['secrets', 'reset', 'alice'], w.envWithSecrets)).code).toBe(0);
    const prefixed = await run(['secrets', 'decrypt', w.secrets, 'client:client:alice']);
    expect({ code: prefixed.code, stdout: prefixed.stdout, stderr: prefixed.stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: `${w.secrets}: no record of client "client:alice"\n0 records\n`,
    });
    const colon = await run(['secrets', 'decrypt', w.secrets, 'alice', 'client:x:y']);
    expect(colon.code, colon.stderr).toBe(0);
    expect(colon.stdout.trim().split('\n')).toHaveLength(1);
    expect(colon.stderr).toBe(`${w.secrets}: no record of client "x:y"\n1 record\n`);
  });
});
