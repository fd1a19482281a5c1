/**
 * What a run repairs when the journal holds more than one open intent for a client
 * (apply/recover.ts, secrets/recovery.ts): two creates left open by runs that lost their
 * answers one after the other (which one landed is unknown, so the password is), and a reset
 * left pending for a client the panel no longer has (nothing is left to settle). And what
 * `secrets decrypt` names for them.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoverJournal, type RecoveryMessage } from '../../src/apply/recover.js';
import { Redactions } from '../../src/redact.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { type LookedUp, secretsToSettle } from '../../src/secrets/recovery.js';
import { run } from '../helpers/cli.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-recover-'));
  path = join(dir, 's.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const URL = 'https://panel.example/api/v2';
const at = '2030-01-01T00:00:00.000Z';
const intent = (username: string, id: string, extra: object = {}, kind = 'create_client') => ({
  intent: kind,
  intent_id: id,
  at,
  panel_url: URL,
  username,
  ...extra,
});
const jsonl = (...records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

async function recover(clients: { username: string; id: number }[], lookedUp: LookedUp = { every: ['client'] }) {
  const said: RecoveryMessage[] = [];
  const unsettled = await recoverJournal(path, URL, clients, new Redactions(), (m) => said.push(m), lookedUp);
  return { said, unsettled };
}

async function current(username: string) {
  const state = [...passwordStates(parseJournal(await readFile(path, 'utf8'))).values()].find(
    (s) => s.username === username,
  );
  return { current: state?.current?.entry.password, open: state?.open.map((i) => i.line) };
}

describe('two creates of one client left open', () => {
  it('the client exists: returned for a new password, every line written ahead named, and the lines stay open', async () => {
    // Run 1 (--generate-passwords) lost the POST's answer; run 2, the client still not
    // listed, wrote its own and was killed mid-POST. Either POST may be the one that landed.
    await writeFile(
      path,
      jsonl(intent('bob', 'i1', { pending_password: 'P1' }), intent('bob', 'i2', { pending_password: 'P2' })),
      { mode: 0o600 },
    );
    const { said, unsettled } = await recover([{ username: 'bob', id: 7 }]);
    expect(unsettled.unknown).toEqual([{ kind: 'client', name: 'bob', id: 7 }]);
    // Nothing recorded: only the new password apply sets settles them, and a run stopped first
    // leaves them for the next.
    expect(await current('bob')).toEqual({ current: undefined, open: [1, 2] });
    expect(said).toEqual([
      {
        kind: 'note',
        text: `client "bob" (id 7) was created by one of several earlier requests that were stopped before the panel's answer arrived, each with a password of its own (written ahead at ${path}:1, ${path}:2): which one the panel holds is unknown: this run gives it a new one before anything else`,
      },
    ]);
    expect((await recover([{ username: 'bob', id: 7 }])).unsettled.unknown).toEqual([
      { kind: 'client', name: 'bob', id: 7 },
    ]);
  });

  it("a create and a reset left open (apply set a new password and was stopped): unknown again, never the create's", async () => {
    await writeFile(
      path,
      jsonl(
        intent('bob', 'i1', { pending_password: 'P1' }),
        intent('bob', 'i2', { pending_password: 'P2' }, 'reset_password'),
      ),
      { mode: 0o600 },
    );
    const { said, unsettled } = await recover([{ username: 'bob', id: 7 }]);
    expect(unsettled.unknown).toEqual([{ kind: 'client', name: 'bob', id: 7 }]);
    expect(await current('bob')).toEqual({ current: undefined, open: [1, 2] });
    expect(said.map((m) => m.text)).toEqual([expect.stringContaining(`(written ahead at ${path}:1, ${path}:2)`)]);
  });

  it('two open creates that carried the same password in clear (apply sent it again): that one is recorded', async () => {
    await writeFile(
      path,
      jsonl(intent('bob', 'i1', { pending_password: 'P1' }), intent('bob', 'i2', { pending_password: 'P1' })),
      { mode: 0o600 },
    );
    const { unsettled } = await recover([{ username: 'bob', id: 7 }]);
    expect(unsettled.unknown).toEqual([]);
    expect(await current('bob')).toEqual({ current: 'P1', open: [] });
  });

  it('one open create: the password written ahead for it is recorded, as before', async () => {
    await writeFile(path, jsonl(intent('bob', 'i1', { pending_password: 'P1' })), { mode: 0o600 });
    await recover([{ username: 'bob', id: 7 }]);
    expect(await current('bob')).toEqual({ current: 'P1', open: [] });
  });

  it('the client not listed yet: both lines are named, and they stay open', async () => {
    await writeFile(
      path,
      jsonl(intent('bob', 'i1', { pending_password: 'P1' }), intent('bob', 'i2', { pending_password: 'P2' })),
      { mode: 0o600 },
    );
    const { said, unsettled } = await recover([]);
    expect([...unsettled.unsettled.keys()]).toEqual(['bob']);
    expect(unsettled.unsettled.get('bob')).toEqual({
      count: 2,
      lastAt: Date.parse(at),
      pending: [{ password: 'P1' }, { password: 'P2' }],
      known: new Set(['bob']),
    });
    expect(said.map((m) => m.text)).toEqual([expect.stringContaining(`${path}:1, ${path}:2: client "bob": `)]);
    expect(await current('bob')).toEqual({ current: undefined, open: [1, 2] });
  });

  it('secrets decrypt names every pending line, not only the last', async () => {
    await writeFile(
      path,
      jsonl(intent('bob', 'i1', { pending_password: 'P1' }), intent('bob', 'i2', { pending_password: 'P2' })),
      { mode: 0o600 },
    );
    const r = await run(['secrets', 'decrypt', path]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `${path}:1, ${path}:2: client "bob" has no current password, only 2 pending ones (their requests' outcomes are unknown)`,
    );
  });
});

describe('a reset left pending for a client the panel lists', () => {
  it('apply gives it a new one: returned, told as a note, nothing recorded', async () => {
    await writeFile(
      path,
      jsonl(
        { created_at: at, panel_url: URL, username: 'carol', id: 3, password: 'old' },
        intent('carol', 'r1', { pending_password: 'maybe' }, 'reset_password'),
      ),
      { mode: 0o600 },
    );
    const { said, unsettled } = await recover([{ username: 'carol', id: 3 }]);
    expect(unsettled.unknown).toEqual([{ kind: 'client', name: 'carol', id: 3 }]);
    expect(said).toEqual([
      {
        kind: 'note',
        text: `${path}:2: client "carol" has a newer password pending from a reset whose outcome is unknown: the panel holds it or the current one: this run gives it a new one before anything else`,
      },
    ]);
    expect(await current('carol')).toEqual({ current: 'old', open: [2] });
  });
});

describe('a reset left pending for a client the panel no longer has', () => {
  const journal = () =>
    jsonl(
      { created_at: at, panel_url: URL, username: 'carol', id: 3, password: 'old' },
      intent('carol', 'r1', { pending_password: 'maybe' }, 'reset_password'),
    );

  it('apply (which reads every client) closes it as refused, once, and warns no more', async () => {
    await writeFile(path, journal(), { mode: 0o600 });
    const first = await recover([]);
    expect(first.said).toEqual([
      {
        kind: 'note',
        text: `${path}:2: client "carol" had a password pending from a reset, and the panel no longer has the client: nothing is left to settle: closed`,
      },
    ]);
    const last = parseJournal(await readFile(path, 'utf8')).at(-1);
    expect(last?.kind === 'refused' ? last.entry : undefined).toMatchObject({
      username: 'carol',
      intent_id: 'r1',
      refused: 'the client is gone: the panel no longer has it',
    });
    expect(await current('carol')).toEqual({ current: 'old', open: [] });
    expect((await recover([])).said).toEqual([]);
  });

  it('a run that did not look the client up (secrets reset of others) still warns, and closes nothing', async () => {
    await writeFile(path, journal(), { mode: 0o600 });
    const { said } = await recover([{ username: 'alice', id: 2 }], { names: ['alice'] });
    expect(said.map((m) => m.kind)).toEqual(['warning']);
    expect(said[0]?.text).toContain('provision secrets reset carol settles it');
    expect(await current('carol')).toEqual({ current: 'old', open: [2] });
  });

  it('the library looks it up (secretsToSettle), so it can close it too', async () => {
    await writeFile(path, journal(), { mode: 0o600 });
    expect(await secretsToSettle(path, URL)).toEqual([{ kind: 'client', name: 'carol' }]);
  });
});
