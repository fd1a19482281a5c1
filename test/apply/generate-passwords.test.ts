/**
 * apply --generate-passwords in the panel adapter, over real HTTP against the simulator: the
 * password is made here, on disk as pending before the POST that carries it leaves, and the
 * password the panel holds is the one recorded as current, whatever the answer looks like.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { creator } from '../../src/apply/create.js';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import { Interrupted } from '../../src/apply/walk.js';
import { requestFor } from '../../src/plan/requests.js';
import { Redactions } from '../../src/redact.js';
import { decryptPassword } from '../../src/secrets/encrypt.js';
import { SecretsFile } from '../../src/secrets/file.js';
import { parseJournal, passwordStates, type SecretsSink } from '../../src/secrets/journal.js';
import { loadEncryption, openSecretsSink } from '../../src/secrets/sink.js';
import type { InterceptRequest } from '../../src/simulator/index.js';
import { client, fakeClock, notesTo } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { newClient } from '../helpers/builders.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-generate-'));
  path = join(dir, 'secrets.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Passwords handed out in turn, so a test knows which one each client got. */
function passwords(...list: string[]): () => string {
  let i = 0;
  return () => list[i++] ?? `spare-password-${i}-Aa1`;
}

/** The current password of `username` in the secrets file, and its pending one (by passwordStates). */
async function standing(username: string): Promise<{ current: unknown; pending: unknown }> {
  const state = [...passwordStates(parseJournal(await readFile(path, 'utf8'))).values()].find(
    (s) => s.username === username,
  );
  return {
    current: state?.current?.entry.password,
    pending: state?.pending?.entry.pending_password,
  };
}

describe('apply --generate-passwords: the adapter', () => {
  test('the password is pending on disk before the POST that carries it leaves; the answer {"id"} makes it current, and the panel holds it', async () => {
    const atPost: { body: unknown; file: string }[] = [];
    const simulator = await sim({
      intercept: async (req: InterceptRequest) => {
        if (req.method === 'POST' && req.path === '/clients')
          atPost.push({ body: req.body, file: await readFile(path, 'utf8') });
        return undefined;
      },
    });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0001'),
    });
    const change = newClient('alice', { email: 'alice@example.com' });
    expect(await adapter.apply(change)).toEqual({ id: 2 });
    await file.close();

    // Exactly the planned request, plus the password, added at send time (the plan has none).
    expect(requestFor(change).body).not.toHaveProperty('password');
    expect(atPost).toHaveLength(1);
    expect(atPost[0]?.body).toEqual({
      ...requestFor(change).body,
      password: 'Generated-Password-0001',
    });
    const ahead = parseJournal(atPost[0]?.file ?? '');
    expect(ahead).toMatchObject([
      {
        kind: 'intent',
        entry: {
          intent: 'create_client',
          username: 'alice',
          pending_password: 'Generated-Password-0001',
        },
      },
    ]);
    expect(ahead[0]).not.toHaveProperty('entry.password');

    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /clients 201']);
    expect(simulator.state.passwordOf('alice')).toBe('Generated-Password-0001');
    expect(await standing('alice')).toEqual({
      current: 'Generated-Password-0001',
      pending: undefined,
    });
  });

  test('a slow secrets file holds the POST back: the pending line is written (the call resolved) before the request leaves', async () => {
    const order: string[] = [];
    const slow: SecretsSink = {
      intend: async (entry) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        order.push(`intent ${String(entry.pending_password)}`);
      },
      record: (entry) => {
        order.push(`record ${String('password' in entry ? entry.password : entry.password_age)}`);
        return Promise.resolve();
      },
      refused: () => Promise.resolve(),
    };
    const simulator = await sim({
      intercept: (req) => {
        order.push(`${req.method} ${req.path}`);
        return undefined;
      },
    });
    const panel = client(simulator);
    await panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: slow,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0007'),
    }).apply(newClient('alice'));
    expect(order).toEqual(['intent Generated-Password-0007', 'POST /clients', 'record Generated-Password-0007']);
  });

  test('an answer with another password wins: the panel ignored the one sent, and holds its own', async () => {
    const simulator = await sim({ acceptsPassword: false });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    await panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0002'),
    }).apply(newClient('alice'));
    await file.close();
    const held = simulator.state.passwordOf('alice');
    expect(held).not.toBe('Generated-Password-0002');
    expect(await standing('alice')).toEqual({ current: held, pending: undefined });
  });

  test('a refused POST leaves no current password: the intent is settled as refused', async () => {
    const simulator = await sim({ seed: { admins: ['admin', 'alice'] } });
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0003'),
    });
    await expect(adapter.apply(newClient('alice'))).rejects.toMatchObject({ status: 400 });
    await file.close();
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent', 'refused']);
    expect(await standing('alice')).toEqual({ current: undefined, pending: undefined });
  });

  test('interrupted while waiting for its slot (after the write-ahead): nothing is sent, and the intent is settled as not sent', async () => {
    const simulator = await sim();
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const creates = creator(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0008'),
    });
    const interrupted = { run: () => Promise.reject(new Interrupted()) };
    await expect(creates.createClient(newClient('alice'), file, interrupted)).rejects.toBeInstanceOf(Interrupted);
    await file.close();
    expect(simulator.requests).toEqual([]);
    expect(parseJournal(await readFile(path, 'utf8'))).toMatchObject([
      { kind: 'intent', entry: { username: 'alice', pending_password: 'Generated-Password-0008' } },
      { kind: 'refused', entry: { username: 'alice', refused: 'not sent: interrupted' } },
    ]);
    expect(await standing('alice')).toEqual({ current: undefined, pending: undefined });
  });

  test('a password the panel refuses (too short) is refused, never recorded', async () => {
    const simulator = await sim();
    const panel = client(simulator);
    const file = await SecretsFile.open(path);
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: passwords('short'),
    });
    await expect(adapter.apply(newClient('alice'))).rejects.toMatchObject({
      status: 400,
      panelMessage: 'The password must be at least 8 characters long.',
    });
    await file.close();
    expect(simulator.state.clientNamed('alice')).toBeUndefined();
    expect(await standing('alice')).toEqual({ current: undefined, pending: undefined });
  });

  test('an answer lost on the wire: the client found by name is adopted with the password it was created with, no second POST', async () => {
    const simulator = await sim({ ambiguousPostRate: 1 });
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    const waits: string[] = [];
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0004'),
      onEvent: notesTo(waits),
    });
    expect(await adapter.apply(newClient('alice'))).toEqual({ id: 2 });
    await file.close();
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /clients 0',
      'GET /clients/name/alice 200',
    ]);
    expect(waits.at(-1)).toBe('client "alice" exists (id 2): adopted; the password it was created with is recorded');
    expect(simulator.state.passwordOf('alice')).toBe('Generated-Password-0004');
    expect(await standing('alice')).toEqual({
      current: 'Generated-Password-0004',
      pending: undefined,
    });
  });

  test('a POST sent again after a 502 that created nothing carries the same password: one pending line, one current', async () => {
    let posts = 0;
    const bodies: unknown[] = [];
    const simulator = await sim({
      intercept: (req) => {
        if (req.method !== 'POST') return undefined;
        bodies.push(req.body);
        return posts++ === 0 ? { status: 502, text: 'Bad Gateway' } : undefined;
      },
    });
    const panel = client(simulator, { clock: fakeClock() });
    const file = await SecretsFile.open(path);
    await panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: file,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0005'),
    }).apply(newClient('alice'));
    await file.close();
    expect(bodies).toEqual([
      { username: 'alice', password: 'Generated-Password-0005' },
      { username: 'alice', password: 'Generated-Password-0005' },
    ]);
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent', 'password']);
    expect(simulator.state.passwordOf('alice')).toBe('Generated-Password-0005');
  });

  test("through the run's sink: the pending password joins the redaction set before the POST, and is encrypted with a recipient", async () => {
    const { generateIdentity, identityToRecipient } = await import('age-encryption');
    const identity = await generateIdentity();
    const recipient = await identityToRecipient(identity);
    const redactions = new Redactions();
    const sink = await openSecretsSink({
      path,
      encryption: await loadEncryption(recipient),
      redactions,
    });
    let redactedAtPost = '';
    const simulator = await sim({
      intercept: (req) => {
        if (req.method === 'POST') redactedAtPost = redactions.redact('password: Generated-Password-0006');
        return undefined;
      },
    });
    const panel = client(simulator);
    const secrets: SecretsSink = sink.sink;
    await panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets,
      panelUrl: panel.baseUrl,
      newPassword: passwords('Generated-Password-0006'),
    }).apply(newClient('alice'));
    await sink.close();
    expect(redactedAtPost).toBe('password: [redacted]');
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('Generated-Password-0006');
    const [intent, current] = parseJournal(text);
    expect(intent).toMatchObject({
      kind: 'intent',
      entry: {
        pending_password_age: expect.stringContaining('BEGIN AGE ENCRYPTED FILE') as unknown,
      },
    });
    expect(current).toMatchObject({
      kind: 'password',
      entry: { id: 2, password_age: expect.any(String) as unknown },
    });
    for (const line of [intent, current]) {
      if (line === undefined || line.kind === 'unreadable') throw new Error('unreadable');
      const armored = String(line.entry.pending_password_age ?? line.entry.password_age);
      expect(await decryptPassword(armored, [identity])).toBe('Generated-Password-0006');
    }
  });
});
