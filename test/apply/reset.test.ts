/**
 * secrets reset's core (apply/reset.ts) over real HTTP: pending on disk before the PUT, the
 * password the panel took recorded as current, a refusal leaving the old one current, no
 * answer leaving the new one pending, and an interrupt sending nothing new.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { resetPasswords } from '../../src/apply/reset.js';
import { SecretsFile } from '../../src/secrets/file.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { client, fakeClock } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-reset-'));
  path = join(dir, 'secrets.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function passwords(...list: string[]): () => string {
  let i = 0;
  return () => list[i++] ?? 'Spare-Password-000000001';
}

/** Each client's current and pending password in the file. */
async function standing(): Promise<Record<string, { current: unknown; pending: unknown }>> {
  const states = passwordStates(parseJournal(await readFile(path, 'utf8')));
  return Object.fromEntries(
    [...states.values()].map((s) => [
      s.username,
      { current: s.current?.entry.password, pending: s.pending?.entry.pending_password },
    ]),
  );
}

describe('resetPasswords', () => {
  test('writes each password ahead, PUTs it, records it as current; the panel holds it', async () => {
    const seen: { body: unknown; file: string }[] = [];
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }, { username: 'bob' }] },
      intercept: async (req) => {
        if (req.method === 'PUT') seen.push({ body: req.body, file: await readFile(path, 'utf8') });
        return undefined;
      },
    });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const told: string[] = [];
    const outcomes = await resetPasswords(
      panel,
      file,
      [
        { username: 'alice', id: 2 },
        { username: 'bob', id: 3 },
      ],
      {
        panelUrl: panel.baseUrl,
        newPassword: passwords('New-Password-For-Alice-01', 'New-Password-For-Bob-0002'),
        onOutcome: (o) => told.push(`${o.username} ${o.status}`),
      },
    );
    await file.close();
    expect(outcomes.map((o) => o.status)).toEqual(['reset', 'reset']);
    expect(told).toEqual(['alice reset', 'bob reset']);
    expect(seen.map((s) => s.body)).toEqual([
      { password: 'New-Password-For-Alice-01' },
      { password: 'New-Password-For-Bob-0002' },
    ]);
    // At alice's PUT, her new password was pending on disk.
    expect(parseJournal(seen[0]?.file ?? '').at(-1)).toMatchObject({
      kind: 'intent',
      entry: {
        intent: 'reset_password',
        username: 'alice',
        pending_password: 'New-Password-For-Alice-01',
      },
    });
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'PUT /clients/2 200',
      'PUT /clients/3 200',
    ]);
    expect(simulator.state.passwordOf('alice')).toBe('New-Password-For-Alice-01');
    expect(simulator.state.passwordOf('bob')).toBe('New-Password-For-Bob-0002');
    expect(await standing()).toEqual({
      alice: { current: 'New-Password-For-Alice-01', pending: undefined },
      bob: { current: 'New-Password-For-Bob-0002', pending: undefined },
    });
    expect(parseJournal(await readFile(path, 'utf8')).at(-1)).toMatchObject({
      kind: 'password',
      entry: { reset_at: expect.any(String) as unknown, id: 3 },
    });
  });

  test('a 4xx to a PUT sent once is a refusal: recorded for its intent, the old password stays current; the next client is still done', async () => {
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }, { username: 'bob' }] },
    });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    await file.record({
      created_at: 't',
      panel_url: panel.baseUrl,
      kind: 'client',
      name: 'alice',
      username: 'alice',
      id: 2,
      password: 'Old-Password-Of-Alice-01',
    });
    const outcomes = await resetPasswords(
      panel,
      file,
      [
        { username: 'alice', id: 2 },
        { username: 'bob', id: 3 },
      ],
      // The simulator refuses a password under 8 characters, as the panel does.
      { panelUrl: panel.baseUrl, newPassword: passwords('short', 'New-Password-For-Bob-0002') },
    );
    await file.close();
    expect(outcomes).toMatchObject([
      {
        username: 'alice',
        status: 'refused',
        why: expect.stringContaining('400 Bad Request: The password must be at least 8 characters long.') as unknown,
      },
      { username: 'bob', status: 'reset' },
    ]);
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual([
      'password',
      'intent',
      'refused',
      'intent',
      'password',
    ]);
    expect((await standing()).alice).toEqual({ current: 'Old-Password-Of-Alice-01' });
  });

  test('the PUT landed but its answer was lost, and the repeat was refused (409): the password the panel holds stays pending, not refused', async () => {
    let puts = 0;
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }] },
      // The first PUT is carried out and its answer dropped; the panel refuses the repeat.
      intercept: (req) => {
        if (req.method !== 'PUT') return undefined;
        puts++;
        return puts === 1 ? undefined : { status: 409, json: { code: '409 Conflict', message: 'Nothing to change.' } };
      },
      ambiguousPutRate: 1,
      faultFilter: (r) => r.method === 'PUT' && puts === 1,
    });
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    await file.record({
      created_at: 't',
      panel_url: panel.baseUrl,
      kind: 'client',
      name: 'alice',
      username: 'alice',
      id: 2,
      password: 'Old-Password-Of-Alice-01',
    });
    const outcomes = await resetPasswords(panel, file, [{ username: 'alice', id: 2 }], {
      panelUrl: panel.baseUrl,
      newPassword: passwords('Landed-But-Unanswered-001'),
    });
    await file.close();
    expect(simulator.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 0', 'PUT 409']);
    expect(simulator.state.passwordOf('alice')).toBe('Landed-But-Unanswered-001');
    expect(outcomes).toMatchObject([{ username: 'alice', status: 'unknown' }]);
    expect((await standing()).alice).toEqual({
      current: 'Old-Password-Of-Alice-01',
      pending: 'Landed-But-Unanswered-001',
    });
  });

  test('a 404 for a client the panel no longer has is a refusal: recorded, the old password stays current', async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const outcomes = await resetPasswords(panel, file, [{ username: 'gone', id: 77 }], {
      panelUrl: panel.baseUrl,
      newPassword: passwords('Never-Set-Password-00001'),
    });
    await file.close();
    expect(outcomes).toMatchObject([{ username: 'gone', status: 'refused' }]);
    const lines = parseJournal(await readFile(path, 'utf8'));
    expect(lines.map((l) => l.kind)).toEqual(['intent', 'refused']);
    const [intent, refusal] = lines.map((l) => (l.kind === 'unreadable' ? undefined : l.entry.intent_id));
    expect(intent).toMatch(/^[0-9a-f]{16}$/);
    expect(refusal).toBe(intent);
    expect((await standing()).gone).toEqual({ current: undefined, pending: undefined });
  });

  test('no answer: the new password stays pending (the panel may hold it), and the next reset settles the client', async () => {
    let drop = true;
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }] },
      errorRate: 1,
      errorStatuses: [502],
      faultFilter: (r) => drop && r.method === 'PUT',
    });
    const panel = client(simulator, { clock: fakeClock(), retryBudgetMs: 0 });
    const file = await SecretsFile.open(path);
    const first = await resetPasswords(panel, file, [{ username: 'alice', id: 2 }], {
      panelUrl: panel.baseUrl,
      newPassword: passwords('Lost-In-Transit-Password1'),
    });
    expect(first).toMatchObject([{ status: 'unknown' }]);
    expect((await standing()).alice).toEqual({
      current: undefined,
      pending: 'Lost-In-Transit-Password1',
    });
    drop = false;
    const second = await resetPasswords(panel, file, [{ username: 'alice', id: 2 }], {
      panelUrl: panel.baseUrl,
      newPassword: passwords('Second-Try-Password-0001'),
    });
    await file.close();
    expect(second).toMatchObject([{ status: 'reset' }]);
    expect((await standing()).alice).toEqual({
      current: 'Second-Try-Password-0001',
      pending: undefined,
    });
    expect(simulator.state.passwordOf('alice')).toBe('Second-Try-Password-0001');
  });

  test('after an interrupt nothing more is sent', async () => {
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }, { username: 'bob' }] },
    });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const controller = new AbortController();
    const outcomes = await resetPasswords(
      panel,
      file,
      [
        { username: 'alice', id: 2 },
        { username: 'bob', id: 3 },
      ],
      {
        panelUrl: panel.baseUrl,
        newPassword: passwords('New-Password-For-Alice-01'),
        signal: controller.signal,
        onOutcome: () => {
          controller.abort();
        },
      },
    );
    await file.close();
    expect(outcomes.map((o) => o.status)).toEqual(['reset', 'skipped']);
    expect(simulator.requests.map((r) => r.path)).toEqual(['/clients/2']);
  });
});
