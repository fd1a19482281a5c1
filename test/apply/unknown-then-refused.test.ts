/**
 * A refusal after an attempt whose outcome is unknown (issue 20, item 1), in the panel adapter
 * over real HTTP against the simulator: the first POST /clients is carried out and its answer
 * lost, the look-up by name lags behind it (a panel sets accounts up in the background), and
 * the POST sent again is refused with 400 "username in use". That refusal proves nothing: the
 * client is looked up again, and adopted with the password written ahead when it shows up;
 * when it does not, the intent stays open with its pending password, never closed as refused.
 * Also: an empty password in a 201 is no password (item 18a).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import { SecretsFile } from '../../src/secrets/file.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { client, fakeClock, notesTo } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { newClient } from '../helpers/builders.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-unknown-'));
  path = join(dir, 'secrets.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function standing(username: string): Promise<{ current: unknown; pending: unknown }> {
  const state = [...passwordStates(parseJournal(await readFile(path, 'utf8'))).values()].find(
    (s) => s.username === username,
  );
  return { current: state?.current?.entry.password, pending: state?.pending?.entry.pending_password };
}

/**
 * A simulator whose first POST /clients is carried out with its answer dropped, and whose
 * look-ups by name answer 404 for the first `lagging` of them.
 */
async function lossThenLag(lagging: number, more: Partial<SimulatorOptions> = {}) {
  let posts = 0;
  let lookups = 0;
  const simulator = await sim({
    ambiguousPostRate: 1,
    faultFilter: (r) => r.method === 'POST' && posts === 1,
    intercept: (req: InterceptRequest) => {
      if (req.method === 'POST') posts++;
      if (req.method === 'GET' && req.path.startsWith('/clients/name/') && ++lookups <= lagging)
        return { status: 404, json: { code: '404 Not Found', message: 'The requested client was not found.' } };
      return undefined;
    },
    ...more,
  });
  return simulator;
}

describe('a refusal after an attempt without an answer', () => {
  test('the client shows up at a later look-up: adopted, and the password written ahead, which the panel holds, is current', async () => {
    const simulator = await lossThenLag(2);
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    const waits: string[] = [];
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: 30_000,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => 'Written-Ahead-Password-01',
      clock: fakeClock(),
      onEvent: notesTo(waits),
    });
    expect(await adapter.apply(newClient('alice'))).toEqual({ id: 2 });
    await file.close();
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /clients 0',
      'GET /clients/name/alice 404',
      'POST /clients 400',
      'GET /clients/name/alice 404',
      'GET /clients/name/alice 200',
    ]);
    expect(waits).toContainEqual(
      expect.stringMatching(
        /^POST \/api\/v2\/clients for client "alice" got no answer .*, and a later attempt was refused: the first may have created it; looking it up by name again$/,
      ),
    );
    expect(simulator.state.passwordOf('alice')).toBe('Written-Ahead-Password-01');
    expect(await standing('alice')).toEqual({ current: 'Written-Ahead-Password-01', pending: undefined });
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent', 'password']);
  });

  test('still not found: the create fails as unsettled, and the intent stays open with its pending password (no refusal recorded)', async () => {
    const simulator = await lossThenLag(1_000);
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: 5_000,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => 'Written-Ahead-Password-02',
      clock: fakeClock(),
    });
    const failure = adapter.apply(newClient('alice'));
    await expect(failure).rejects.toThrow(/the first attempt may have created it, but it is still not found by name/);
    await expect(failure).rejects.toThrow(/the password written ahead for it stays pending in the secrets file/);
    await file.close();
    expect(simulator.state.passwordOf('alice')).toBe('Written-Ahead-Password-02');
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent']);
    expect(await standing('alice')).toEqual({ current: undefined, pending: 'Written-Ahead-Password-02' });
  });

  test('without a password written ahead: adopted, and a new password set at once (written ahead, then PUT) and recorded', async () => {
    const simulator = await lossThenLag(2);
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    const applied = await panelAdapter(panel, {
      settleTimeoutMs: 30_000,
      secrets: file,
      panelUrl: panel.baseUrl,
      clock: fakeClock(),
    }).apply(newClient('alice'));
    await file.close();
    expect(applied).toMatchObject({
      id: 2,
      note: expect.stringContaining('a new password is set and recorded') as unknown,
    });
    expect(simulator.requests.at(-1)).toMatchObject({ method: 'PUT', path: '/clients/2', status: 200 });
    const held = simulator.state.passwordOf('alice');
    expect(await standing('alice')).toEqual({ current: held, pending: undefined });
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent', 'intent', 'password']);
  });

  test("an earlier run's POST left unsettled with its password in clear: sent again with the same password at once: no ambiguity", async () => {
    const simulator = await lossThenLag(2);
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    await file.intend({
      intent: 'create_client',
      intent_id: 'earlier',
      at: 't',
      panel_url: panel.baseUrl,
      kind: 'client',
      name: 'alice',
      username: 'alice',
      pending_password: 'Earlier-Runs-Password-01',
    });
    const waits: string[] = [];
    const applied = await panelAdapter(panel, {
      settleTimeoutMs: 1_000,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => 'This-Runs-Password-00001',
      unsettled: new Map([
        ['alice', { count: 1, lastAt: undefined, pending: [{ password: 'Earlier-Runs-Password-01' }] }],
      ]),
      clock: fakeClock(),
      onEvent: notesTo(waits),
    }).apply(newClient('alice'));
    await file.close();
    expect(applied).toEqual({ id: 2 });
    expect(waits.join('\n')).not.toContain('looking again for up to');
    // No wait before the POST, which carried the earlier password; no PUT.
    const sent = simulator.requests.map((r) => `${r.method} ${r.path}`);
    expect(sent[0]).toBe('POST /clients');
    expect(sent).not.toContain('PUT /clients/2');
    expect(simulator.state.passwordOf('alice')).toBe('Earlier-Runs-Password-01');
    expect(await standing('alice')).toEqual({ current: 'Earlier-Runs-Password-01', pending: undefined });
  });

  test("an earlier run's POST left unsettled with its password encrypted, and this run's was lost too: which one landed is unknown: a new password set", async () => {
    const simulator = await lossThenLag(2);
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    await file.intend({
      intent: 'create_client',
      intent_id: 'earlier',
      at: 't',
      panel_url: panel.baseUrl,
      kind: 'client',
      name: 'alice',
      username: 'alice',
      pending_password_age: 'AGE-ARMORED',
    });
    let made = 0;
    const applied = await panelAdapter(panel, {
      settleTimeoutMs: 30_000,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => `This-Runs-Password-0000${++made}`,
      unsettled: new Map([['alice', { count: 1, lastAt: 0, pending: [{ password_age: 'AGE-ARMORED' }] }]]),
      clock: fakeClock(),
    }).apply(newClient('alice'));
    await file.close();
    expect(applied).toMatchObject({
      id: 2,
      note: expect.stringContaining("this run's POST or an earlier apply's") as unknown,
    });
    expect(simulator.state.passwordOf('alice')).toBe('This-Runs-Password-00002');
    expect(await standing('alice')).toEqual({ current: 'This-Runs-Password-00002', pending: undefined });
  });

  test("an earlier run's POST left unsettled, its password encrypted, is found when looked up again: adopted with its password, nothing sent", async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const waits: string[] = [];
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    const applied = await panelAdapter(panel, {
      settleTimeoutMs: 30_000,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => 'This-Runs-Password-00003',
      unsettled: new Map([['alice', { count: 1, lastAt: undefined, pending: [{ password_age: 'AGE-ARMORED' }] }]]),
      clock: fakeClock(),
      onEvent: notesTo(waits),
    }).apply(newClient('alice'));
    await file.close();
    expect(applied).toEqual({ id: 2 });
    expect(waits[0]).toMatch(
      /^an earlier apply's POST for client "alice" got no answer and the panel does not list it: looking again for up to 30 s/,
    );
    expect(simulator.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /clients/name/alice']);
    const journal = parseJournal(await readFile(path, 'utf8'));
    expect(journal.map((l) => (l.kind === 'unreadable' ? l.why : l.entry))).toEqual([
      expect.objectContaining({ username: 'alice', id: 2, password_age: 'AGE-ARMORED' }),
    ]);
  });

  test("an earlier run's POST left unsettled, and this run's is refused at once: only this run's intent is closed; the error says so", async () => {
    // The earlier POST landed; the panel lists the client late, so this run planned to create it.
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    await file.intend({
      intent: 'create_client',
      intent_id: 'earlier',
      at: 't',
      panel_url: panel.baseUrl,
      kind: 'client',
      name: 'alice',
      username: 'alice',
      pending_password: 'Earlier-Runs-Password-02',
    });
    const failure = panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => 'This-Runs-Password-00002',
      unsettled: new Map([
        ['alice', { count: 1, lastAt: undefined, pending: [{ password: 'Earlier-Runs-Password-02' }] }],
      ]),
    }).apply(newClient('alice'));
    await expect(failure).rejects.toThrow(/400 Bad Request.*an earlier apply's POST for this client got no answer/);
    await file.close();
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent', 'intent', 'refused']);
    expect(await standing('alice')).toEqual({ current: undefined, pending: 'Earlier-Runs-Password-02' });
  });
});

describe('an empty password in a 201 (item 18a)', () => {
  const emptyPassword = (req: InterceptRequest) =>
    req.method === 'POST' && req.path === '/clients' ? { status: 201, json: { id: 9, password: '' } } : undefined;

  test('without a password written ahead: a contract error naming secrets reset; nothing is recorded as the password', async () => {
    const simulator = await sim({ intercept: emptyPassword });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const failure = panelAdapter(panel, { settleTimeoutMs: 0, secrets: file, panelUrl: panel.baseUrl }).apply(
      newClient('alice'),
    );
    await expect(failure).rejects.toMatchObject({
      code: 'panel_contract',
      hint: 'give it one with provision secrets reset alice',
    });
    await file.close();
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent']);
  });

  test('with --generate-passwords: the password written ahead stays current', async () => {
    const simulator = await sim({ intercept: emptyPassword });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    await panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: () => 'Written-Ahead-Password-03',
    }).apply(newClient('alice'));
    await file.close();
    expect(await standing('alice')).toEqual({ current: 'Written-Ahead-Password-03', pending: undefined });
  });
});
