import { describe, expect, test } from 'vitest';
import { DEFAULT_RETRY_TIMING, PanelNetworkError } from '../../src/panel/index.js';
import { client, fakeClock, rejection, retriesTo, shown, statuses } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

describe('PanelClient retries against the simulator', () => {
  test('GET: 429 with Retry-After is waited out, said in a sentence, then succeeds', async () => {
    const simulator = await sim({
      retryAfter: { seconds: 2, first: 2 },
      faultFilter: (r) => r.path === '/clients',
    });
    const clock = fakeClock();
    const waits: string[] = [];
    const panel = client(simulator, { clock, onEvent: retriesTo(waits) });
    expect(await panel.get('/clients')).toEqual([]);
    expect(statuses(simulator)).toEqual([429, 429, 200]);
    expect(clock.waits).toEqual([2000, 2000]);
    expect(waits).toEqual([
      'GET /api/v2/clients answered 429 (Retry-After: 2): retrying in 2.0 s (attempt 2)',
      'GET /api/v2/clients answered 429 (Retry-After: 2): retrying in 2.0 s (attempt 3)',
    ]);
    shown(...waits);
  });

  test('GET: 502 until the attempts run out, with growing jittered waits; then the last error', async () => {
    const simulator = await sim({ errorRate: 1, errorStatuses: [502] });
    const clock = fakeClock(0.5);
    const error = await rejection(client(simulator, { clock }).get('/hosting-plans'));
    expect(error).toMatchObject({
      status: 502,
      message: 'GET /api/v2/hosting-plans: 502 Bad Gateway: Injected failure.',
    });
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
    expect(await rejection(client(broken, { clock }).get('/clients'))).toMatchObject({
      status: 500,
    });
    expect(broken.requests).toHaveLength(1);
    const locked = await sim({ allowedIps: ['192.0.2.7'] });
    expect(await rejection(client(locked, { clock }).get('/clients'))).toMatchObject({
      status: 403,
    });
    expect(await rejection(client(locked, { clock, apiKey: 'wrong-key' }).get('/clients'))).toMatchObject({
      status: 401,
    });
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
      rejection(client(slowHeaders, { clock, timeouts: { headersMs: 40 }, retryBudgetMs: 1700 }).get('/ping')),
      rejection(client(slowBody, { clock: bodyClock, timeouts: { bodyMs: 40 }, retryBudgetMs: 1700 }).get('/ping')),
    ]);
    expect(error).toBeInstanceOf(PanelNetworkError);
    expect(error.message).toBe(`GET ${slowHeaders.url}/ping: no answer within 0.04 s (UND_ERR_HEADERS_TIMEOUT)`);
    expect(clock.waits).toEqual([250]);
    expect(bodyError.message).toBe(`GET ${slowBody.url}/ping: no answer within 0.04 s (UND_ERR_BODY_TIMEOUT)`);
    expect(bodyClock.waits).toEqual([250]);
  });

  test('a slow body within the timeouts arrives whole', async () => {
    const simulator = await sim({
      slowBodyMs: 10,
      seed: { clients: [{ username: 'alice', domains: ['alice.example'] }] },
    });
    const started = performance.now();
    const domains = await client(simulator).get('/domains');
    expect(domains).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });

  test('POST: 503 with Retry-After was not processed and is sent again; 502 is not', async () => {
    const busy = await sim({
      retryAfter: { seconds: 1, status: 503, first: 1 },
      faultFilter: (r) => r.method === 'POST',
    });
    const clock = fakeClock();
    expect(await client(busy, { clock }).post('/clients', { username: 'alice' })).toMatchObject({
      id: 2,
    });
    expect(statuses(busy)).toEqual([503, 201]);
    expect(clock.waits).toEqual([1000]);
    expect(busy.state.clients.size).toBe(1);

    const gateway = await sim({ errorRate: 1, errorStatuses: [502] });
    expect(await rejection(client(gateway, { clock }).post('/clients', { username: 'alice' }))).toMatchObject({
      status: 502,
    });
    expect(gateway.requests).toHaveLength(1);
  });

  test('POST: a committed POST that loses its connection is an error that says it may have been sent', async () => {
    const simulator = await sim({ ambiguousPostRate: 1 });
    const error = await rejection(client(simulator, { clock: fakeClock() }).post('/clients', { username: 'alice' }));
    expect(error).toBeInstanceOf(PanelNetworkError);
    expect(error).toMatchObject({ sent: true });
    expect(statuses(simulator)).toEqual([0]);
    expect(simulator.state.clientNamed('alice')).toMatchObject({
      username: 'alice',
      id: expect.any(Number) as unknown,
    });
  });
});
