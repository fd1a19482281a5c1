/**
 * The panel adapter against the simulator over real HTTP: each change sent as its request,
 * ambiguous failures resolved by a look-up before any second POST, a new account's settling
 * waited out within bounds, and every password on disk before anything depends on it.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { PanelAdapterOptions } from '../../src/apply/adapter-options.js';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import type { PanelClient } from '../../src/panel/index.js';
import type { CreateDomain } from '../../src/plan/types.js';
import { SecretsFile } from '../../src/secrets/file.js';
import { parseJournal, type SecretsSink } from '../../src/secrets/journal.js';
import { closeLostIntents, findLostIntents } from '../../src/secrets/recovery.js';
import { client, fakeClock, notesTo, rejection, shown, statuses } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { newClient } from '../helpers/builders.js';

const newDomain = (name: string, owner: string, clientId: number | null): CreateDomain => ({
  id: `domain:${name}`,
  action: 'create',
  type: 'domain',
  name,
  client: owner,
  clientId,
  reason: 'test',
  dependsOn: clientId === null ? [`client:${owner}`] : [],
});

/** A secrets sink in memory: every call, in order. */
function memorySink(): SecretsSink & { calls: { kind: string; entry: Record<string, unknown> }[] } {
  const calls: { kind: string; entry: Record<string, unknown> }[] = [];
  const push = (kind: string) => (entry: object) => {
    calls.push({ kind, entry: { ...entry } });
    return Promise.resolve();
  };
  return { calls, intend: push('intent'), record: push('record'), refused: push('refused') };
}

function adapter(panel: PanelClient, options: Partial<PanelAdapterOptions> = {}) {
  return panelAdapter(panel, {
    settleTimeoutMs: 0,
    secrets: memorySink(),
    panelUrl: panel.baseUrl,
    ...options,
  });
}

describe('panel adapter: ambiguous failures', () => {
  test('a client created but its answer lost: looked up by name and adopted, without a second POST; a new password set', async () => {
    const simulator = await sim({ ambiguousPostRate: 1 });
    const waits: string[] = [];
    const secrets = memorySink();
    const panel = client(simulator, { clock: fakeClock() });
    const applied = await adapter(panel, {
      settleTimeoutMs: 1000,
      secrets,
      onEvent: notesTo(waits),
    }).apply(newClient('alice'));
    expect(applied).toEqual({
      id: 2,
      note: 'the password the panel made for it was lost with the answer: a new password is set and recorded',
    });
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /clients 0',
      'GET /clients/name/alice 200',
      'PUT /clients/2 200',
    ]);
    expect(waits[0]).toMatch(
      /^POST \/api\/v2\/clients for client "alice" got no answer \(the connection was closed before an answer, \w+\): it may have been created; looking it up by name/,
    );
    expect(waits[1]).toBe(
      'client "alice" exists (id 2): adopted; the password the panel made for it was lost with the answer: ' +
        'setting a new password',
    );
    // The intent is closed by the new password, written ahead first; the panel holds it.
    expect(secrets.calls.map((c) => c.kind)).toEqual(['intent', 'intent', 'record']);
    const set = secrets.calls[2]?.entry as { password?: unknown };
    expect(secrets.calls[2]?.entry).toMatchObject({ username: 'alice', id: 2 });
    expect(typeof set.password).toBe('string');
    expect(simulator.state.passwordOf('alice')).toBe(set.password);
    shown(...waits);
  });

  test('a 502 that created nothing: looked up, then sent again; the password comes back', async () => {
    let posts = 0;
    const simulator = await sim({
      intercept: (req) => (req.method === 'POST' && posts++ === 0 ? { status: 502, text: 'Bad Gateway' } : undefined),
    });
    const secrets = memorySink();
    expect(await adapter(client(simulator, { clock: fakeClock() }), { secrets }).apply(newClient('alice'))).toEqual({
      id: 2,
    });
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /clients 502',
      'GET /clients/name/alice 404',
      'POST /clients 201',
    ]);
    expect(secrets.calls[1]?.entry).toMatchObject({
      username: 'alice',
      id: 2,
      password: expect.any(String) as unknown,
    });
  });

  test('an ambiguous failure that persists: bounded POSTs, each after a look-up, then an error', async () => {
    const simulator = await sim({
      errorRate: 1,
      errorStatuses: [504],
      faultFilter: (r) => r.method === 'POST',
    });
    const error = await rejection(adapter(client(simulator, { clock: fakeClock() })).apply(newClient('alice')));
    expect(error.message).toBe(
      'POST /api/v2/clients: 504 Gateway Timeout: Injected failure. (3 attempts for client "alice"; none created it)',
    );
    expect(statuses(simulator, '/clients')).toEqual([504, 504, 504]);
    expect(statuses(simulator, '/clients/name/alice')).toEqual([404, 404, 404]);
  });

  test('a look-up that fails too says the client may or may not exist', async () => {
    const simulator = await sim({ errorRate: 1, errorStatuses: [502] });
    const error = await rejection(
      adapter(client(simulator, { clock: fakeClock(), retryBudgetMs: 0 })).apply(newClient('alice')),
    );
    expect(error.message).toMatch(
      /^POST \/api\/v2\/clients for client "alice" answered 502, and looking it up failed too \(GET \/api\/v2\/clients\/name\/alice: 502 .*\): it may or may not exist$/,
    );
    expect(error.hint).toMatch(/check the panel for client "alice"/);
  });

  test("a domain created but its answer lost: adopted when it is the client's, an error when it is someone else's", async () => {
    const simulator = await sim({
      ambiguousPostRate: 1,
      faultFilter: (r) => r.path === '/domains',
      seed: { clients: [{ username: 'alice' }, { username: 'bob' }] },
    });
    const { id } = await adapter(client(simulator, { clock: fakeClock() })).apply(
      newDomain('alice.example', 'alice', 2),
    );
    expect(simulator.state.domainNamed('alice.example')).toMatchObject({ id, id_user: 2 });
    expect(statuses(simulator, '/domains')).toEqual([0]);

    const taken = await sim({
      seed: { clients: [{ username: 'alice' }, { username: 'bob', domains: ['bob.example'] }] },
      errorRate: 1,
      errorStatuses: [504],
      faultFilter: (r) => r.method === 'POST',
    });
    const error = await rejection(
      adapter(client(taken, { clock: fakeClock() })).apply(newDomain('bob.example', 'alice', 2)),
    );
    expect(error.message).toMatch(
      /^domain "bob\.example" exists on the panel \(id \d+\) but belongs to user 3, not 2$/,
    );
  });
});

describe('panel adapter: after an interrupt nothing that changes the panel is sent', () => {
  test('an ambiguous POST is looked up, but not sent again', async () => {
    const controller = new AbortController();
    const simulator = await sim({
      intercept: (req) => {
        if (req.method !== 'POST') return undefined;
        controller.abort(); // Ctrl-C while the POST is in flight
        return { status: 502, text: 'Bad Gateway' };
      },
    });
    const error = await rejection(
      adapter(client(simulator, { clock: fakeClock() }), { signal: controller.signal }).apply(newClient('alice')),
    );
    expect(error.message).toMatch(
      /client "alice" was not found by name; POST \/api\/v2\/clients not sent again: interrupted/,
    );
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /clients 502',
      'GET /clients/name/alice 404',
    ]);
  });

  test("the client's own retry of a POST (503, Retry-After) is cancelled, its wait cut short", async () => {
    const controller = new AbortController();
    const simulator = await sim({
      intercept: (req) =>
        req.method === 'POST'
          ? { status: 503, headers: { 'retry-after': '30' }, json: { code: 503, message: 'busy' } }
          : undefined,
    });
    const panel = client(simulator, {
      onEvent: (event) => {
        if (event.type === 'retry')
          setTimeout(() => {
            controller.abort();
          }, 20);
      },
    });
    const started = Date.now();
    const error = await rejection(panel.post('/clients', { username: 'alice' }, { signal: controller.signal }));
    expect(error.message).toMatch(/503.*\(not sent again: interrupted\)$/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(statuses(simulator, '/clients')).toEqual([503]);
  });
});

describe('panel adapter: a look-up must answer the name asked for', () => {
  test("a look-up that answers another client's record is a contract error, never an adoption", async () => {
    const simulator = await sim({
      seed: { clients: [{ username: 'carol' }] },
      intercept: (req) => {
        if (req.method === 'POST') return { status: 502, text: 'Bad Gateway' };
        // A wrong panel (or cache) answers carol's record for any name.
        if (req.path.startsWith('/clients/name/')) return { status: 200, json: { id: 2, username: 'carol' } };
        if (req.path.startsWith('/domains/name/'))
          return { status: 200, json: { id: 9, domain: 'carol.example', id_user: 2 } };
        return undefined;
      },
    });
    const apply = adapter(client(simulator, { clock: fakeClock() }));
    const error = await rejection(apply.apply(newClient('bob')));
    expect(error.message).toMatch(
      /GET \/api\/v2\/clients\/name\/bob answered the record of client "carol" \(id 2\), not the one asked for/,
    );
    const domain = await rejection(apply.apply(newDomain('bob.example', 'carol', 2)));
    expect(domain.message).toMatch(
      /GET \/api\/v2\/domains\/name\/bob\.example answered the record of domain "carol\.example" \(id 9\)/,
    );
    expect(statuses(simulator, '/clients')).toEqual([502]);
  });
});

describe('panel adapter: refusals and odd answers', () => {
  test('a refusal is not retried, and closes the write-ahead intent (no lost password to warn about later)', async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const secrets = memorySink();
    expect(
      await rejection(
        adapter(client(simulator, { clock: fakeClock() }), {
          settleTimeoutMs: 5000,
          secrets,
        }).apply(newClient('alice')),
      ),
    ).toMatchObject({ status: 400 });
    expect(simulator.requests).toHaveLength(1);
    expect(secrets.calls.map((c) => c.kind)).toEqual(['intent', 'refused']);
    expect(secrets.calls[1]?.entry).toMatchObject({ username: 'alice', refused: 'answered 400' });
  });

  test('a 201 without a password, or a domain 201 without an id, is a contract error', async () => {
    const odd = await sim({
      intercept: (req) =>
        req.method === 'POST' ? { status: 201, json: req.path === '/clients' ? { id: 5 } : {} } : undefined,
    });
    const noPassword = await rejection(adapter(client(odd)).apply(newClient('bob')));
    expect(noPassword).toMatchObject({
      code: 'panel_contract',
      message: 'POST /api/v2/clients: client "bob" was created (id 5) but the answer holds no password',
    });
    expect(await rejection(adapter(client(odd)).apply(newDomain('bob.example', 'bob', 5)))).toMatchObject({
      code: 'panel_contract',
    });
  });

  test('a 201 with a password but no id: the password is saved at once, then the id is learned by name', async () => {
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }] },
      intercept: (req) =>
        req.method === 'POST' && req.path === '/clients'
          ? { status: 201, json: { password: 'pw-no-id-1234' } }
          : undefined,
    });
    const secrets = memorySink();
    expect(await adapter(client(simulator), { secrets }).apply(newClient('alice'))).toEqual({
      id: 2,
    });
    expect(secrets.calls.map((c) => [c.kind, c.entry.id, c.entry.password])).toEqual([
      ['intent', undefined, undefined],
      ['record', null, 'pw-no-id-1234'],
      ['record', 2, 'pw-no-id-1234'],
    ]);
  });

  test('a 201 with a password but no id, and the look-up fails: the password is on disk, the error says the client exists, the next run completes the record', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adapter-'));
    const path = join(dir, 'secrets.jsonl');
    const simulator = await sim({
      seed: { clients: [{ username: 'alice' }] },
      intercept: (req) => {
        if (req.method === 'POST' && req.path === '/clients')
          return { status: 201, json: { password: 'pw-no-id-5678' } };
        if (req.method === 'GET' && req.path.startsWith('/clients/name/'))
          return { status: 500, json: { code: 500, message: 'boom' } };
        return undefined;
      },
    });
    const file = await SecretsFile.open(path);
    const panel = client(simulator, { retryBudgetMs: 0 });
    const error = await rejection(
      panelAdapter(panel, { settleTimeoutMs: 0, secrets: file, panelUrl: panel.baseUrl }).apply(newClient('alice')),
    );
    await file.close();
    expect(error.message).toMatch(
      /^POST \/api\/v2\/clients: client "alice" was created and its password is in the secrets file, but the answer has no integer "id" and looking it up by name failed \(/,
    );
    expect(error.hint).toMatch(/the next apply completes its record/);
    const before = parseJournal(await readFile(path, 'utf8'));
    expect(before.map((l) => l.kind)).toEqual(['intent', 'password']);
    expect(before[1]).toMatchObject({
      entry: { username: 'alice', id: null, password: 'pw-no-id-5678' },
    });

    // The next run: the panel lists alice as id 2; the record is completed, once; no lost-password warning.
    const found = await findLostIntents(path, panel.baseUrl, [{ username: 'alice', id: 2 }]);
    expect(found.lost).toEqual([]);
    expect(found.incomplete).toMatchObject([{ line: 2, kind: 'client', name: 'alice', id: 2 }]);
    await closeLostIntents(path, panel.baseUrl, found);
    const after = parseJournal(await readFile(path, 'utf8'));
    expect(after.at(-1)).toMatchObject({
      kind: 'password',
      entry: { username: 'alice', id: 2, password: 'pw-no-id-5678' },
    });
    expect((await findLostIntents(path, panel.baseUrl, [{ username: 'alice', id: 2 }])).incomplete).toEqual([]);
  });

  test('a plan that creates clients is refused without a secrets file, before anything is sent', async () => {
    const simulator = await sim();
    const panel = client(simulator);
    expect(() =>
      panelAdapter(panel, {
        settleTimeoutMs: 0,
        secrets: undefined,
        panelUrl: panel.baseUrl,
      }).check?.([newClient('alice')]),
    ).toThrow(/needs a secrets file/);
    expect(simulator.requests).toHaveLength(0);
  });
});

describe('panel adapter: a new account settling', () => {
  test('a domain of a client created in this run waits for the account to settle, with its new id', async () => {
    const simulator = await sim({ notReadyMs: 250 });
    const waits: string[] = [];
    // random 0: every settle wait is the 100 ms floor, in real time.
    const panel = client(simulator, { clock: { random: () => 0 } });
    const apply = adapter(panel, { settleTimeoutMs: 5000, onEvent: notesTo(waits) });
    const { id: idUser } = await apply.apply(newClient('alice'));
    const { id } = await apply.apply(newDomain('alice.example', 'alice', null));
    expect(simulator.state.domains.get(id)).toMatchObject({
      domain: 'alice.example',
      id_user: idUser,
    });
    const posts = statuses(simulator, '/domains');
    expect(posts.at(-1)).toBe(201);
    expect(posts.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    // Before each retry, a look-up by name: was it created after all?
    expect(statuses(simulator, '/domains/name/alice.example')).toHaveLength(posts.length - 1);
    expect(waits[0]).toMatch(
      /^POST \/api\/v2\/domains for domain "alice\.example" answered 400 \(The user is not ready yet: the account is still being set up\.\): its client was created in this run and may still be being set up; retrying in 0\.1 s \(--settle-timeout 5 s\)$/,
    );
    shown(...waits);
  });

  test('settling is bounded by the settle timeout, and the error names --settle-timeout; an old client is not waited for', async () => {
    const simulator = await sim({ notReadyMs: 60_000 });
    const clock = fakeClock(0.5);
    const apply = adapter(client(simulator, { clock }), { settleTimeoutMs: 2000 });
    const { id: idUser } = await apply.apply(newClient('alice'));
    const error = await rejection(apply.apply(newDomain('alice.example', 'alice', null)));
    expect(error.message).toMatch(
      /^POST \/api\/v2\/domains: 400 Bad Request: The user is not ready yet.* \(still refused 1\.\d s after the first attempt; .*raise --settle-timeout \(now 2 s\)/,
    );
    expect(clock.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
    expect(clock.waits.length).toBeGreaterThanOrEqual(2);

    const before = simulator.requests.length;
    expect(await rejection(apply.apply(newDomain('alice.example', 'alice', idUser)))).toMatchObject({ status: 400 });
    expect(simulator.requests.length - before).toBe(1);
  });
});
