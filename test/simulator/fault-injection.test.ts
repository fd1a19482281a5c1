import { describe, expect, test } from 'vitest';
import { call } from '../helpers/sim-http.js';
import { sim } from '../helpers/sim.js';

describe('simulator faults', () => {
  test('errorRate answers in the panel shape before any state change; the share follows the seed', async () => {
    const simulator = await sim({ errorRate: 0.5, faultSeed: 7 });
    const answers = [];
    for (let i = 0; i < 40; i++)
      answers.push(await call(simulator, 'POST', '/clients', { body: { username: `u${i}` } }));
    const failed = answers.filter((a) => a.status !== 201);
    expect(failed.length).toBeGreaterThan(8);
    expect(failed.length).toBeLessThan(32);
    expect(new Set(failed.map((a) => a.status))).toEqual(new Set([500, 502, 503]));
    expect(failed[0]?.json).toMatchObject({
      code: expect.stringMatching(/^50[023] /) as unknown,
      message: 'Injected failure.',
    });
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
    expect(refused).toMatchObject({
      status: 403,
      json: { code: '403 Forbidden', message: 'The API key is not allowed from 127.0.0.1.' },
    });
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
    expect(locked.json).toMatchObject({
      message: expect.stringMatching(/^Too many failed authentications from 127\.0\.0\.1/) as unknown,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await call(simulator, 'GET', '/ping')).status).toBe(200);
  });

  test('notReadyMs: POST /domains for a new client is refused with 400 until it is ready; seeded clients are ready', async () => {
    const simulator = await sim({ notReadyMs: 150, seed: { clients: [{ username: 'old' }] } });
    const created = await call(simulator, 'POST', '/clients', { body: { username: 'alice' } });
    const id = (created.json as { id: number }).id;
    const early = await call(simulator, 'POST', '/domains', {
      body: { domain: 'alice.example', id_user: id },
    });
    expect(early).toMatchObject({
      status: 400,
      json: { message: 'The user is not ready yet: the account is still being set up.' },
    });
    expect((await call(simulator, 'POST', '/domains', { body: { domain: 'old.example', id_user: 2 } })).status).toBe(
      201,
    );
    await new Promise((resolve) => setTimeout(resolve, 180));
    expect(
      (
        await call(simulator, 'POST', '/domains', {
          body: { domain: 'alice.example', id_user: id },
        })
      ).status,
    ).toBe(201);
  });

  test('faults off by default: a plain simulator answers everything', async () => {
    const simulator = await sim();
    for (let i = 0; i < 20; i++) expect((await call(simulator, 'GET', '/ping')).status).toBe(200);
  });
});
