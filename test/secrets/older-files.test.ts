/**
 * A secrets file written by the code of commit 90c0a68 (before records carried `kind` and
 * `name`) reads exactly as that code read it: the fixtures under test/fixtures/secrets/ were
 * written by its SecretsFile and EncryptingSink (in clear, and encrypted to the test key beside
 * them), and decrypt-90c0a68.json holds what its `secrets decrypt` printed for them. Current
 * passwords, pending ones, refused intents, `password: null`, and the recovery of a run
 * interrupted then, all as before.
 */
import { chmod, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { closeLostIntents, findLostIntents, secretsToSettle } from '../../src/secrets/recovery.js';
import { run } from '../helpers/cli.js';

const DIR = 'test/fixtures/secrets';
const CLEAR = `${DIR}/secrets-90c0a68.jsonl`;
const URL = 'https://panel.example/api/v2';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'older-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a secrets file written by commit 90c0a68', () => {
  it('has no record with a kind: it is the old format', async () => {
    for (const line of parseJournal(await readFile(CLEAR, 'utf8'))) {
      expect(line.kind).not.toBe('unreadable');
      if (line.kind !== 'unreadable') expect(line.entry).not.toHaveProperty('kind');
    }
  });

  it('each record is a client’s, by its username: current, pending, refused, null, open', async () => {
    const states = [...passwordStates(parseJournal(await readFile(CLEAR, 'utf8'))).values()];
    expect(
      states.map((s) => [
        s.kind,
        s.name,
        s.username,
        s.current?.entry.password,
        s.pending?.entry.pending_password,
        s.open.map((i) => i.line),
        s.unansweredCreate?.line,
      ]),
    ).toEqual([
      ['client', 'alice', 'alice', 'Alice-Password-01', undefined, [], undefined],
      ['client', 'bob', 'bob', undefined, 'Bob-Pending-Password-01', [3], 3],
      ['client', 'carol', 'carol', undefined, undefined, [], undefined],
      ['client', 'dave', 'dave', null, undefined, [], undefined],
      ['client', 'erin', 'erin', 'Erin-Password-01', 'Erin-Pending-Password-02', [8], undefined],
      ['client', 'frank', 'frank', 'Frank-Password-01', undefined, [], undefined],
      ['client', 'gina', 'gina', 'Gina-Password-02', undefined, [], undefined],
    ]);
  });

  it('secrets decrypt prints what that version printed, in clear and encrypted, with and without --all', async () => {
    const expected = JSON.parse(await readFile(`${DIR}/decrypt-90c0a68.json`, 'utf8')) as Record<
      string,
      { code: number; stdout: string; stderr: string }
    >;
    expect(Object.keys(expected)).toHaveLength(4);
    for (const [args, want] of Object.entries(expected)) {
      const got = await run(['secrets', 'decrypt', ...args.split(' ')]);
      expect({ code: got.code, stdout: got.stdout, stderr: got.stderr }, args).toEqual(want);
    }
  });

  it('a record without kind is named by its username, whatever other field a hand added (a `name` note)', async () => {
    // Older versions ignored fields they did not write: a note on gina's last record (her reset's
    // password) changed nothing; read by `name`, decrypt would print her superseded password.
    const lines = (await readFile(CLEAR, 'utf8'))
      .split('\n')
      .map((line) => (line.includes('"reset_at"') ? line.replace('{', '{"name":"Gina Example",') : line));
    const states = [...passwordStates(parseJournal(lines.join('\n'))).values()];
    const gina = states.filter((s) => s.username === 'gina' || s.name === 'Gina Example');
    expect(gina.map((s) => [s.kind, s.name, s.current?.entry.password, s.open.length])).toEqual([
      ['client', 'gina', 'Gina-Password-02', 0],
    ]);
  });

  it('the recovery of a run interrupted then: the pending password recorded, the id completed, the reset named', async () => {
    const path = join(dir, 'secrets.jsonl');
    await copyFile(CLEAR, path);
    // A checkout leaves the fixture readable by others (umask 022): a secrets file is the owner's.
    await chmod(path, 0o600);
    expect((await secretsToSettle(path, URL)).map((t) => t.name)).toEqual(['bob', 'erin', 'frank']);
    expect(await secretsToSettle(path, URL)).toEqual([
      { kind: 'client', name: 'bob' },
      { kind: 'client', name: 'erin' },
      { kind: 'client', name: 'frank' },
    ]);
    const live = [
      { username: 'bob', id: 3 },
      { username: 'erin', id: 5 },
      { username: 'frank', id: 7 },
    ];
    const found = await findLostIntents(path, URL, live, { every: ['client'] });
    expect(found.recovered).toEqual([
      { kind: 'client', name: 'bob', id: 3, line: 3, pending: { password: 'Bob-Pending-Password-01' } },
    ]);
    expect(found.incomplete).toMatchObject([{ kind: 'client', name: 'frank', id: 7, line: 10 }]);
    expect(found.pendingResets).toEqual([{ kind: 'client', name: 'erin', line: 8, pending: true, pendingLines: [8] }]);
    expect([found.lost, found.ambiguous, found.unsettled, found.goneResets, found.skipped]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
    await closeLostIntents(path, URL, found, () => new Date('2026-02-01T00:00:00.000Z'));
    const states = passwordStates(parseJournal(await readFile(path, 'utf8')));
    const of = (name: string) => [...states.values()].find((s) => s.name === name);
    expect(of('bob')?.current?.entry).toMatchObject({
      kind: 'client',
      name: 'bob',
      id: 3,
      password: 'Bob-Pending-Password-01',
    });
    expect(of('bob')?.open).toEqual([]);
    // A completed record is a copy of the old one with its id: still without `kind`, still a client's.
    expect(of('frank')?.current?.entry).toEqual({
      panel_url: URL,
      username: 'frank',
      created_at: '2026-01-01T00:00:09.000Z',
      id: 7,
      password: 'Frank-Password-01',
    });
    expect((await findLostIntents(path, URL, live, { every: ['client'] })).recovered).toEqual([]);
  });
});
