/**
 * The secrets-file contract (docs/passwords.md, "The secrets file" and "The records"), read through the one parser:
 * the last record of a client with a password is its current one; a pending password is never
 * current by itself, is settled by a later password record or a refusal, and is recorded as
 * the password by the next run that finds the client its request created.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { closeLostIntents, findLostIntents } from '../../src/secrets/recovery.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-contract-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const URL = 'https://panel.example/api/v2';
const at = '2030-01-01T00:00:00.000Z';
const intent = (username: string, extra: object = {}, kind = 'create_client') => ({
  intent: kind,
  at,
  panel_url: URL,
  username,
  ...extra,
});
const created = (username: string, id: number, password: string | null) => ({
  created_at: at,
  panel_url: URL,
  username,
  id,
  password,
});
const reset = (username: string, id: number, password: string) => ({
  reset_at: at,
  panel_url: URL,
  username,
  id,
  password,
});
const refused = (username: string) => ({ at, panel_url: URL, username, refused: 'answered 400' });
const jsonl = (...records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** Each client's current password (undefined: none), pending one, and unanswered create, by username. */
function standing(text: string) {
  return Object.fromEntries(
    [...passwordStates(parseJournal(text)).values()].map((s) => [
      s.username,
      {
        current:
          s.current === undefined
            ? undefined
            : 'password' in s.current.entry
              ? s.current.entry.password
              : s.current.entry.password_age,
        pending: s.pending?.entry.pending_password ?? s.pending?.entry.pending_password_age,
        unanswered: s.unansweredCreate?.line,
      },
    ]),
  );
}

describe('passwordStates', () => {
  it('the last record with a password is current; a pending one is not, until a record with a password follows it', () => {
    const text = jsonl(
      intent('alice', { pending_password: 'pending-A1' }),
      created('alice', 2, 'pending-A1'),
      intent('alice', { pending_password: 'pending-A2' }, 'reset_password'),
      intent('bob', { pending_password: 'pending-B1' }),
      intent('carol'),
      created('carol', 4, null),
      intent('dave', { pending_password_age: 'AGE-ARMOR' }),
    );
    expect(standing(text)).toEqual({
      alice: { current: 'pending-A1', pending: 'pending-A2', unanswered: undefined },
      bob: { current: undefined, pending: 'pending-B1', unanswered: 4 },
      carol: { current: null, pending: undefined, unanswered: undefined },
      dave: { current: undefined, pending: 'AGE-ARMOR', unanswered: 7 },
    });
  });

  it('a refusal settles the pending password and leaves the current one as it was; a reset record makes its password current', () => {
    const text = jsonl(
      created('alice', 2, 'first-password'),
      intent('alice', { pending_password: 'refused-one' }, 'reset_password'),
      refused('alice'),
      intent('bob', { pending_password: 'never-made' }),
      refused('bob'),
      created('carol', 3, null),
      intent('carol', { pending_password: 'repaired' }, 'reset_password'),
      reset('carol', 3, 'repaired'),
    );
    expect(standing(text)).toEqual({
      alice: { current: 'first-password', pending: undefined, unanswered: undefined },
      bob: { current: undefined, pending: undefined, unanswered: undefined },
      carol: { current: 'repaired', pending: undefined, unanswered: undefined },
    });
  });

  it('a refusal settles the intent it names and no other: an older one whose outcome is unknown stays open', () => {
    const text = jsonl(
      // An earlier run's POST got no answer; this run's POST was refused (400: the first landed).
      intent('alice', { intent_id: 'first', pending_password: 'maybe-held' }),
      intent('alice', { intent_id: 'second', pending_password: 'refused-one' }),
      { ...refused('alice'), intent_id: 'second' },
      // A refusal naming an intent that is not open settles nothing.
      intent('bob', { intent_id: 'b1', pending_password: 'open-B' }),
      { ...refused('bob'), intent_id: 'elsewhere' },
      // One without intent_id (an older version, which judged a refusal on the whole history)
      // settles every intent before it, as that version read it; a later one opens again.
      intent('carol', { pending_password: 'older-C' }),
      intent('carol', { pending_password: 'newer-C' }),
      refused('carol'),
      intent('dave', { pending_password: 'older-D' }),
      intent('dave', { pending_password: 'newer-D' }, 'reset_password'),
      refused('dave'),
      intent('dave', { pending_password: 'later-D' }),
    );
    expect(standing(text)).toEqual({
      alice: { current: undefined, pending: 'maybe-held', unanswered: 1 },
      bob: { current: undefined, pending: 'open-B', unanswered: 4 },
      carol: { current: undefined, pending: undefined, unanswered: undefined },
      dave: { current: undefined, pending: 'later-D', unanswered: 12 },
    });
  });

  it('names every open intent of a client, oldest first: two open creates mean which one landed is unknown', () => {
    const text = jsonl(
      intent('alice', { intent_id: 'i1', pending_password: 'P1' }),
      intent('alice', { intent_id: 'i2', pending_password: 'P2' }),
      intent('bob', { intent_id: 'b1' }),
      { ...refused('bob'), intent_id: 'b1' },
    );
    const states = [...passwordStates(parseJournal(text)).values()];
    expect(states.map((s) => [s.username, s.open.map((i) => i.line)])).toEqual([
      ['alice', [1, 2]],
      ['bob', []],
    ]);
  });

  it('keeps clients of different panels apart, and skips lines without a username or panel', () => {
    const text = jsonl(
      created('alice', 2, 'here'),
      { ...created('alice', 9, 'there'), panel_url: 'https://other.example/api/v2' },
      { password: 'orphan' },
    );
    expect(
      [...passwordStates(parseJournal(text)).values()].map((s) => [s.panelUrl, s.current?.entry.password]),
    ).toEqual([
      [URL, 'here'],
      ['https://other.example/api/v2', 'there'],
    ]);
  });

  it('parses each kind of line', () => {
    const text = jsonl(
      intent('a'),
      intent('a', {}, 'reset_password'),
      intent('a', {}, 'something_newer'),
      created('a', 1, null),
      { ...created('a', 1, 'x'), password: undefined, password_age: 'AGE' },
      refused('a'),
      { note: 1 },
    );
    expect(parseJournal(`${text}{"torn`).map((l) => l.kind)).toEqual([
      'intent',
      'intent',
      'other',
      'password',
      'password',
      'refused',
      'other',
      'unreadable',
    ]);
  });
});

describe('recovery after an interrupted apply', () => {
  it('a client created by a request whose password was written ahead: that password is recorded as current, copied as written', async () => {
    const path = join(dir, 's.jsonl');
    await writeFile(
      path,
      jsonl(
        intent('alice', { pending_password: 'sent-with-the-post' }),
        intent('bob', { pending_password_age: 'AGE-ARMORED' }),
        intent('carol'),
        intent('dave', { pending_password: 'not-created' }),
      ),
      { mode: 0o600 },
    );
    const live = [
      { username: 'alice', id: 2 },
      { username: 'bob', id: 3 },
      { username: 'carol', id: 4 },
    ];
    const found = await findLostIntents(path, URL, live);
    expect(found.lost).toEqual([{ kind: 'client', name: 'carol', id: 4 }]);
    expect(found.recovered).toEqual([
      { kind: 'client', name: 'alice', id: 2, line: 1, pending: { password: 'sent-with-the-post' } },
      { kind: 'client', name: 'bob', id: 3, line: 2, pending: { password_age: 'AGE-ARMORED' } },
    ]);
    await closeLostIntents(path, URL, found, () => new Date(at));
    const records = parseJournal(await readFile(path, 'utf8'))
      .slice(4)
      .map((l) => (l.kind === 'unreadable' ? l.why : l.entry));
    // carol's password was never seen: her intent stays open, for apply to give her a new one.
    expect(records).toEqual([
      { ...created('alice', 2, 'sent-with-the-post'), kind: 'client', name: 'alice' },
      {
        created_at: at,
        panel_url: URL,
        kind: 'client',
        name: 'bob',
        username: 'bob',
        id: 3,
        password_age: 'AGE-ARMORED',
      },
    ]);
    // Settled: nothing to do the second time but carol's; dave (not on the panel) stays pending.
    const again = await findLostIntents(path, URL, live);
    expect([again.lost, again.recovered]).toEqual([[{ kind: 'client', name: 'carol', id: 4 }], []]);
    expect(standing(await readFile(path, 'utf8')).dave).toEqual({
      current: undefined,
      pending: 'not-created',
      unanswered: 4,
    });
  });

  it('a reset intent is not a create: an apply never records its pending password', async () => {
    const path = join(dir, 's.jsonl');
    await writeFile(
      path,
      jsonl(created('alice', 2, 'old'), intent('alice', { pending_password: 'maybe' }, 'reset_password')),
      { mode: 0o600 },
    );
    const found = await findLostIntents(path, URL, [{ username: 'alice', id: 2 }]);
    expect([found.lost, found.recovered]).toEqual([[], []]);
  });
});
