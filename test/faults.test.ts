import { inspect } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { ProvisionError } from '../src/errors.js';
import { panelCreator } from '../src/apply/panel-adapter.js';
import {
  DEFAULT_RETRY_TIMING,
  PanelClient,
  PanelHttpError,
  PanelNetworkError,
  backoffMs,
  parseRetryAfterMs,
  retryDelayMs,
  unreachableError,
  waitMessage,
  type Outcome,
  type PanelClientOptions,
  type PanelClock,
  type RetryContext,
} from '../src/panel/index.js';
import type { Simulator } from '../src/simulator/index.js';
import { SIM_KEY, call, sim } from './helpers/sim-http.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});


/** A clock that only moves when slept on: retries take no real time, waits are recorded. */
function fakeClock(random = 0.5): PanelClock & { waits: number[] } {
  let now = Date.UTC(2030, 0, 1);
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: (ms) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
    random: () => random,
  };
}

/** Every text the user could see: onWait sentences and errors with hints, causes, stacks. */
const seen: string[] = [];
afterEach(() => {
  for (const text of seen.splice(0)) expect(text).not.toContain(SIM_KEY);
});

function client(simulator: { url: string }, options: Partial<PanelClientOptions> = {}): PanelClient {
  const created = new PanelClient({ baseUrl: simulator.url, apiKey: SIM_KEY, onWait: (m) => seen.push(m), ...options });
  cleanups.push(() => created.close());
  return created;
}

async function rejection(promise: Promise<unknown>): Promise<ProvisionError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ProvisionError);
    const error = err as ProvisionError;
    seen.push(error.message, error.hint ?? '', inspect(error, { depth: 5 }), JSON.stringify(error));
    return error;
  }
  throw new Error('expected a rejection');
}

const statuses = (simulator: Simulator, path?: string): number[] =>
  simulator.requests.filter((r) => path === undefined || r.path === path).map((r) => r.status);

describe('retry timing (pure)', () => {
  const http = (status: number, retryAfter?: string): Outcome => ({
    ok: false,
    error: new PanelHttpError({ method: 'GET', path: '/api/v2/clients', status, retryAfter }),
  });
  const network = (code: string): Outcome => ({
    ok: false,
    error: unreachableError('GET', 'http://127.0.0.1:1/api/v2/clients', Object.assign(new Error('x'), { code })),
  });
  const context = (overrides: Partial<RetryContext> = {}): RetryContext => ({
    attempt: 1,
    elapsedMs: 0,
    nowMs: Date.UTC(2030, 0, 1),
    random: () => 0.5,
    timing: DEFAULT_RETRY_TIMING,
    ...overrides,
  });

  test('capped exponential backoff with full jitter', () => {
    const almostOne = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6, 10].map((a) => backoffMs(a, DEFAULT_RETRY_TIMING, almostOne))).toEqual([499, 999, 1999, 3999, 7999, 7999, 7999]);
    expect(backoffMs(5, DEFAULT_RETRY_TIMING, () => 0)).toBe(0);
    expect(backoffMs(3, { baseMs: 100, capMs: 250 }, () => 0.5)).toBe(125);
  });

  test('Retry-After in seconds or as an HTTP date', () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs(new Date(now + 10_000).toUTCString(), now)).toBe(10_000);
    expect(parseRetryAfterMs(new Date(now - 10_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfterMs('-5', now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  test.each([
    ['GET', '429', 250, http(429)],
    ['GET', '502', 250, http(502)],
    ['GET', '503', 250, http(503)],
    ['GET', '504', 250, http(504)],
    ['GET', '500', undefined, http(500)],
    ['GET', '400', undefined, http(400)],
    ['GET', '401', undefined, http(401)],
    ['GET', '403', undefined, http(403)],
    ['GET', '404', undefined, http(404)],
    ['POST', '429', 250, http(429)],
    ['POST', '503', 250, http(503)],
    ['POST', '502', undefined, http(502)],
    ['POST', '504', undefined, http(504)],
    ['POST', '500', undefined, http(500)],
    ['GET', 'ECONNRESET', 250, network('ECONNRESET')],
    ['GET', 'UND_ERR_SOCKET', 250, network('UND_ERR_SOCKET')],
    ['GET', 'UND_ERR_HEADERS_TIMEOUT', 250, network('UND_ERR_HEADERS_TIMEOUT')],
    ['GET', 'UND_ERR_BODY_TIMEOUT', 250, network('UND_ERR_BODY_TIMEOUT')],
    ['GET', 'UND_ERR_CONNECT_TIMEOUT', 250, network('UND_ERR_CONNECT_TIMEOUT')],
    ['GET', 'ECONNREFUSED', undefined, network('ECONNREFUSED')],
    ['GET', 'ENOTFOUND', undefined, network('ENOTFOUND')],
    ['GET', 'DEPTH_ZERO_SELF_SIGNED_CERT', undefined, network('DEPTH_ZERO_SELF_SIGNED_CERT')],
    ['POST', 'ECONNRESET', undefined, network('ECONNRESET')],
    ['POST', 'UND_ERR_HEADERS_TIMEOUT', undefined, network('UND_ERR_HEADERS_TIMEOUT')],
  ] as const)('%s after %s: %s', (method, _label, expected, outcome) => {
    expect(retryDelayMs(method, outcome, context())).toBe(expected);
  });

  test('success is never retried; Retry-After wins over backoff; the budget and attempt limit stop', () => {
    expect(retryDelayMs('GET', { ok: true, value: [] }, context())).toBeUndefined();
    expect(retryDelayMs('GET', http(429, '7'), context())).toBe(7000);
    expect(retryDelayMs('POST', http(503, '2'), context({ attempt: 3 }))).toBe(2000);
    expect(retryDelayMs('GET', http(429, '7'), context({ elapsedMs: 53_001 }))).toBeUndefined();
    expect(retryDelayMs('GET', http(429, '7'), context({ elapsedMs: 53_000 }))).toBe(7000);
    expect(retryDelayMs('GET', http(503), context({ attempt: DEFAULT_RETRY_TIMING.maxAttempts }))).toBeUndefined();
    expect(retryDelayMs('GET', http(503), context({ attempt: 3, random: () => 0.25 }))).toBe(500);
  });

  test('network failures: what was possibly sent, what is transient', () => {
    const reset = unreachableError('POST', 'http://h/api/v2/clients', Object.assign(new Error('x'), { code: 'ECONNRESET' }));
    expect(reset).toBeInstanceOf(PanelNetworkError);
    expect(reset).toMatchObject({ code: 'panel_unreachable', sent: true, transient: true, networkCode: 'ECONNRESET' });
    expect(reset.message).toBe('POST http://h/api/v2/clients: the connection was closed before an answer (ECONNRESET)');
    expect(unreachableError('GET', 'u', Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toMatchObject({ sent: false, transient: false });
    expect(unreachableError('GET', 'u', Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }))).toMatchObject({ sent: false, transient: true });
    expect(unreachableError('GET', 'u', Object.assign(new Error('x'), { code: 'UND_ERR_BODY_TIMEOUT' }), { headersMs: 1, bodyMs: 250 }).message).toBe('GET u: no answer within 0.25 s (UND_ERR_BODY_TIMEOUT)');
  });

  test('the wait sentence', () => {
    const busy = new PanelHttpError({ method: 'GET', path: '/api/v2/clients', status: 503 });
    expect(waitMessage('GET /api/v2/clients', busy, 2000, 2)).toBe(
      'GET /api/v2/clients answered 503: retrying in 2.0 s (attempt 2)',
    );
    const limited = new PanelHttpError({ method: 'GET', path: '/api/v2/domains', status: 429, retryAfter: '3' });
    expect(waitMessage('GET /api/v2/domains', limited, 3000, 3)).toBe('GET /api/v2/domains answered 429 (Retry-After: 3): retrying in 3.0 s (attempt 3)');
    const odd = new PanelHttpError({ method: 'GET', path: '/p', status: 429, retryAfter: 'x\u0000'.repeat(30) });
    expect(waitMessage('GET /p', odd, 100, 2)).toBe('GET /p answered 429: retrying in 0.1 s (attempt 2)');
  });
});

describe('PanelClient retries against the simulator', () => {
  test('GET: 429 with Retry-After is waited out, said in a sentence, then succeeds', async () => {
    const simulator = await sim({ retryAfter: { seconds: 2, first: 2 }, faultFilter: (r) => r.path === '/clients' });
    const clock = fakeClock();
    const waits: string[] = [];
    const panel = client(simulator, { clock, onWait: (m) => waits.push(m) });
    expect(await panel.get('/clients')).toEqual([]);
    expect(statuses(simulator)).toEqual([429, 429, 200]);
    expect(clock.waits).toEqual([2000, 2000]);
    expect(waits).toEqual([
      'GET /api/v2/clients answered 429 (Retry-After: 2): retrying in 2.0 s (attempt 2)',
      'GET /api/v2/clients answered 429 (Retry-After: 2): retrying in 2.0 s (attempt 3)',
    ]);
    seen.push(...waits);
  });

  test('GET: 502 until the attempts run out, with growing jittered waits; then the last error', async () => {
    const simulator = await sim({ errorRate: 1, errorStatuses: [502] });
    const clock = fakeClock(0.5);
    const error = await rejection(client(simulator, { clock }).get('/hosting-plans'));
    expect(error).toMatchObject({ status: 502, message: 'GET /api/v2/hosting-plans: 502 Bad Gateway: Injected failure.' });
    expect(clock.waits).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect(simulator.requests).toHaveLength(DEFAULT_RETRY_TIMING.maxAttempts);
  });

  test('GET: the budget bounds the waits', async () => {
    const simulator = await sim({ errorRate: 1, errorStatuses: [503] });
    const clock = fakeClock(0.5);
    await rejection(client(simulator, { clock, retryBudgetMs: 3000 }).get('/clients'));
    // 250 + 500 + 1000 = 1750; the next 2000 would end past 3000.
    expect(clock.waits).toEqual([250, 500, 1000]);
    expect(statuses(simulator)).toEqual([503, 503, 503, 503]);
  });

  test('GET: 500, 401 and 403 are never retried', async () => {
    const broken = await sim({ errorRate: 1, errorStatuses: [500] });
    const clock = fakeClock();
    expect(await rejection(client(broken, { clock }).get('/clients'))).toMatchObject({ status: 500 });
    expect(broken.requests).toHaveLength(1);
    const locked = await sim({ allowedIps: ['192.0.2.7'] });
    expect(await rejection(client(locked, { clock }).get('/clients'))).toMatchObject({ status: 403 });
    expect(await rejection(client(locked, { clock, apiKey: 'wrong-key' }).get('/clients'))).toMatchObject({ status: 401 });
    expect(locked.requests).toHaveLength(2);
    expect(clock.waits).toEqual([]);
  });

  test('GET: connection resets are retried; the faults are the same for the same seed', async () => {
    const run = async (): Promise<number[]> => {
      const simulator = await sim({ resetRate: 0.5, faultSeed: 42 });
      const panel = client(simulator, { clock: fakeClock() });
      for (let i = 0; i < 6; i++) expect(await panel.get('/ping')).toEqual({ response: 'pong' });
      return statuses(simulator);
    };
    const first = await run();
    expect(first).toContain(0);
    expect(first.filter((s) => s === 200)).toHaveLength(6);
    expect(await run()).toEqual(first);
  });

  test('GET: header and body timeouts are retried, then named with the timeout', async () => {
    // undici checks these timeouts on a coarse (about 0.5 s) timer: the faults must be slower than that.
    const [slowHeaders, slowBody] = await Promise.all([sim({ latencyMs: 1500 }), sim({ slowBodyMs: 1500 })]);
    const clock = fakeClock();
    const bodyClock = fakeClock();
    const [error, bodyError] = await Promise.all([
      rejection(client(slowHeaders, { clock, timeouts: { headersMs: 40 }, retryBudgetMs: 300 }).get('/ping')),
      rejection(client(slowBody, { clock: bodyClock, timeouts: { bodyMs: 40 }, retryBudgetMs: 300 }).get('/ping')),
    ]);
    expect(error).toBeInstanceOf(PanelNetworkError);
    expect(error.message).toBe(`GET ${slowHeaders.url}/ping: no answer within 0.04 s (UND_ERR_HEADERS_TIMEOUT)`);
    expect(clock.waits).toEqual([250]);
    expect(bodyError.message).toBe(`GET ${slowBody.url}/ping: no answer within 0.04 s (UND_ERR_BODY_TIMEOUT)`);
    expect(bodyClock.waits).toEqual([250]);
  });

  test('a slow body within the timeouts arrives whole', async () => {
    const simulator = await sim({ slowBodyMs: 10, seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] } });
    const started = performance.now();
    const domains = await client(simulator).get('/domains');
    expect(domains).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });

  test('POST: 503 with Retry-After was not processed and is sent again; 502 is not', async () => {
    const busy = await sim({ retryAfter: { seconds: 1, status: 503, first: 1 }, faultFilter: (r) => r.method === 'POST' });
    const clock = fakeClock();
    expect(await client(busy, { clock }).post('/clients', { username: 'alice' })).toMatchObject({ id: 2 });
    expect(statuses(busy)).toEqual([503, 201]);
    expect(clock.waits).toEqual([1000]);
    expect(busy.state.clients.size).toBe(1);

    const gateway = await sim({ errorRate: 1, errorStatuses: [502] });
    expect(await rejection(client(gateway, { clock }).post('/clients', { username: 'alice' }))).toMatchObject({ status: 502 });
    expect(gateway.requests).toHaveLength(1);
  });

  test('POST: a committed POST that loses its connection is an error that says it may have been sent', async () => {
    const simulator = await sim({ ambiguousPostRate: 1 });
    const error = await rejection(client(simulator, { clock: fakeClock() }).post('/clients', { username: 'alice' }));
    expect(error).toBeInstanceOf(PanelNetworkError);
    expect(error).toMatchObject({ sent: true });
    expect(statuses(simulator)).toEqual([0]);
    expect(simulator.state.clientNamed('alice')).toBeDefined();
  });
});

describe('simulator faults', () => {
  test('errorRate answers in the panel shape before any state change; the share follows the seed', async () => {
    const simulator = await sim({ errorRate: 0.5, faultSeed: 7 });
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await call(simulator, 'POST', '/clients', { body: { username: `u${i}` } }));
    const failed = answers.filter((a) => a.status !== 201);
    expect(failed.length).toBeGreaterThan(8);
    expect(failed.length).toBeLessThan(32);
    expect(new Set(failed.map((a) => a.status))).toEqual(new Set([500, 502, 503]));
    expect(failed[0]?.json).toMatchObject({ code: expect.stringMatching(/^50[023] /) as unknown, message: 'Injected failure.' });
    expect(simulator.state.clients.size).toBe(40 - failed.length);
  });

  test('retryAfter by share: 429 with the header', async () => {
    const simulator = await sim({ retryAfter: { seconds: 5, rate: 1 } });
    const answer = await call(simulator, 'GET', '/ping');
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('5');
  });

  test('allowedIps: the right key from elsewhere gets 403; from an allowed address it works', async () => {
    const elsewhere = await sim({ allowedIps: ['10.1.2.3'] });
    const refused = await call(elsewhere, 'GET', '/ping');
    expect(refused).toMatchObject({ status: 403, json: { code: '403 Forbidden', message: 'The API key is not allowed from 127.0.0.1.' } });
    expect((await call(elsewhere, 'GET', '/ping', { key: 'bad' })).status).toBe(401);
    const here = await sim({ allowedIps: ['::ffff:127.0.0.1'] });
    expect((await call(here, 'GET', '/ping')).status).toBe(200);
  });

  test('lock-out: after N wrong keys even the right key gets 403, for a while', async () => {
    const simulator = await sim({ lockout: { attempts: 3, ms: 150 } });
    expect((await call(simulator, 'GET', '/ping', { key: 'bad' })).status).toBe(401);
    expect((await call(simulator, 'GET', '/ping', { key: 'bad' })).status).toBe(401);
    // The right key resets the count.
    expect((await call(simulator, 'GET', '/ping')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(simulator, 'GET', '/ping', { key: 'bad' })).status).toBe(401);
    const locked = await call(simulator, 'GET', '/ping');
    expect(locked.status).toBe(403);
    expect(locked.json).toMatchObject({ message: expect.stringMatching(/^Too many failed authentications from 127\.0\.0\.1/) as unknown });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await call(simulator, 'GET', '/ping')).status).toBe(200);
  });

  test('notReadyMs: POST /domains for a new client is refused with 400 until it is ready; seeded clients are ready', async () => {
    const simulator = await sim({ notReadyMs: 150, seed: { clients: [{ username: 'old' }] } });
    const created = await call(simulator, 'POST', '/clients', { body: { username: 'alice' } });
    const id = (created.json as { id: number }).id;
    const early = await call(simulator, 'POST', '/domains', { body: { domain: 'alice.example', id_user: id } });
    expect(early).toMatchObject({ status: 400, json: { message: 'The user is not ready yet: the account is still being set up.' } });
    expect((await call(simulator, 'POST', '/domains', { body: { domain: 'old.example', id_user: 2 } })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 180));
    expect((await call(simulator, 'POST', '/domains', { body: { domain: 'alice.example', id_user: id } })).status).toBe(201);
  });

  test('faults off by default: a plain simulator answers everything', async () => {
    const simulator = await sim();
    for (let i = 0; i < 20; i++) expect((await call(simulator, 'GET', '/ping')).status).toBe(200);
  });
});

describe('panelCreator', () => {
  test('a client created but its answer lost: looked up by name and adopted, without a second POST', async () => {
    const simulator = await sim({ ambiguousPostRate: 1 });
    const waits: string[] = [];
    const panel = client(simulator, { clock: fakeClock() });
    const creator = panelCreator(panel, { settleTimeoutMs: 1000, onWait: (m) => waits.push(m) });
    expect(await creator.createClient({ username: 'alice' })).toEqual({ id: 2, password: undefined });
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /clients 0', 'GET /clients/name/alice 200']);
    expect(waits[0]).toMatch(/^POST \/api\/v2\/clients for client "alice" got no answer \(the connection was closed before an answer, \w+\): it may have been created; looking it up by name/);
    expect(waits[1]).toBe('client "alice" exists (id 2): adopted; its password was lost with the answer');
    seen.push(...waits);
  });

  test('a 502 that created nothing: looked up, then sent again; the password comes back', async () => {
    let posts = 0;
    const simulator = await sim({
      intercept: (req) => (req.method === 'POST' && posts++ === 0 ? { status: 502, text: 'Bad Gateway' } : undefined),
    });
    const creator = panelCreator(client(simulator, { clock: fakeClock() }), { settleTimeoutMs: 0 });
    const created = await creator.createClient({ username: 'alice' });
    expect(created).toMatchObject({ id: 2, password: expect.any(String) as unknown });
    expect(simulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /clients 502', 'GET /clients/name/alice 404', 'POST /clients 201']);
  });

  test('an ambiguous failure that persists: bounded POSTs, each after a look-up, then an error', async () => {
    const simulator = await sim({ errorRate: 1, errorStatuses: [504], faultFilter: (r) => r.method === 'POST' });
    const creator = panelCreator(client(simulator, { clock: fakeClock() }), { settleTimeoutMs: 0 });
    const error = await rejection(creator.createClient({ username: 'alice' }));
    expect(error.message).toBe('POST /api/v2/clients: 504 Gateway Timeout: Injected failure. (3 attempts for "alice"; none created it)');
    expect(statuses(simulator, '/clients')).toEqual([504, 504, 504]);
    expect(statuses(simulator, '/clients/name/alice')).toEqual([404, 404, 404]);
  });

  test('a look-up that fails too says the client may or may not exist', async () => {
    const simulator = await sim({ errorRate: 1, errorStatuses: [502] });
    const creator = panelCreator(client(simulator, { clock: fakeClock(), retryBudgetMs: 0 }), { settleTimeoutMs: 0 });
    const error = await rejection(creator.createClient({ username: 'alice' }));
    expect(error.message).toMatch(/^POST \/api\/v2\/clients for "alice" answered 502, and looking it up failed too \(GET \/api\/v2\/clients\/name\/alice: 502 .*\): it may or may not exist$/);
    expect(error.hint).toMatch(/check the panel for "alice"/);
  });

  test('refusals are not retried; a 201 without password or id is a contract error', async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'alice' }] } });
    const creator = panelCreator(client(simulator, { clock: fakeClock() }), { settleTimeoutMs: 5000 });
    expect(await rejection(creator.createClient({ username: 'alice' }))).toMatchObject({ status: 400 });
    expect(simulator.requests).toHaveLength(1);
    const odd = await sim({ intercept: (req) => (req.method === 'POST' ? { status: 201, json: req.path === '/clients' ? { id: 5 } : {} } : undefined) });
    const oddCreator = panelCreator(client(odd), { settleTimeoutMs: 0 });
    const noPassword = await rejection(oddCreator.createClient({ username: 'bob' }));
    expect(noPassword).toMatchObject({ code: 'panel_contract', message: 'POST /api/v2/clients: client "bob" was created (id 5) but the answer holds no password' });
    expect(await rejection(oddCreator.createDomain({ domain: 'bob.example', id_user: 5 }, false))).toMatchObject({ code: 'panel_contract' });
  });

  test("a domain created but its answer lost: adopted when it is the client's, an error when it is someone else's", async () => {
    const simulator = await sim({ ambiguousPostRate: 1, faultFilter: (r) => r.path === '/domains', seed: { clients: [{ username: 'alice' }, { username: 'bob' }] } });
    const creator = panelCreator(client(simulator, { clock: fakeClock() }), { settleTimeoutMs: 0 });
    const { id } = await creator.createDomain({ domain: 'alice.example', id_user: 2 }, false);
    expect(simulator.state.domainNamed('alice.example')).toMatchObject({ id, id_user: 2 });
    expect(statuses(simulator, '/domains')).toEqual([0]);

    const taken = await sim({ seed: { clients: [{ username: 'alice' }, { username: 'bob', domains: ['bob.example'] }] }, errorRate: 1, errorStatuses: [504], faultFilter: (r) => r.method === 'POST' });
    const error = await rejection(panelCreator(client(taken, { clock: fakeClock() }), { settleTimeoutMs: 0 }).createDomain({ domain: 'bob.example', id_user: 2 }, false));
    expect(error.message).toMatch(/^domain "bob\.example" exists on the panel \(id \d+\) but belongs to user 3, not 2$/);
  });

  test('a domain of a client created in this run waits for the account to settle', async () => {
    const simulator = await sim({ notReadyMs: 250 });
    const waits: string[] = [];
    // random 0: every settle wait is the 100 ms floor, in real time.
    const panel = client(simulator, { clock: { random: () => 0 } });
    const creator = panelCreator(panel, { settleTimeoutMs: 5000, onWait: (m) => waits.push(m) });
    const { id: idUser } = await creator.createClient({ username: 'alice' });
    const { id } = await creator.createDomain({ domain: 'alice.example', id_user: idUser }, true);
    expect(simulator.state.domains.get(id)).toMatchObject({ domain: 'alice.example', id_user: idUser });
    const posts = statuses(simulator, '/domains');
    expect(posts.at(-1)).toBe(201);
    expect(posts.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    // Before each retry, a look-up by name: was it created after all?
    expect(statuses(simulator, '/domains/name/alice.example')).toHaveLength(posts.length - 1);
    expect(waits[0]).toMatch(
      /^POST \/api\/v2\/domains for domain "alice\.example" answered 400 \(The user is not ready yet: the account is still being set up\.\): its client was created in this run and may still be being set up; retrying in 0\.1 s \(--settle-timeout 5 s\)$/,
    );
    seen.push(...waits);
  });

  test('settling is bounded by the settle timeout, and the error names --settle-timeout; an old client is not waited for', async () => {
    const simulator = await sim({ notReadyMs: 60_000 });
    const clock = fakeClock(0.5);
    const panel = client(simulator, { clock });
    const creator = panelCreator(panel, { settleTimeoutMs: 2000 });
    const { id: idUser } = await creator.createClient({ username: 'alice' });
    const error = await rejection(creator.createDomain({ domain: 'alice.example', id_user: idUser }, true));
    expect(error.message).toMatch(/^POST \/api\/v2\/domains: 400 Bad Request: The user is not ready yet.* \(still refused 1\.\d s after the first attempt; .*raise --settle-timeout \(now 2 s\)/);
    expect(clock.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
    expect(clock.waits.length).toBeGreaterThanOrEqual(2);

    const before = simulator.requests.length;
    expect(await rejection(creator.createDomain({ domain: 'alice.example', id_user: idUser }, false))).toMatchObject({ status: 400 });
    expect(simulator.requests.length - before).toBe(1);
  });
});
