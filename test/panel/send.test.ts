/**
 * PUT and DELETE through PanelClient.send, over real HTTP: any 2xx but HTML is success (200
 * with JSON, 200 empty, 204); retried as GET is (idempotent), never on 4xx, never after an
 * interrupt.
 */
import { createServer } from 'node:http';
import { describe, expect, test } from 'vitest';
import { findClientById, PanelHttpError } from '../../src/panel/index.js';
import { client, fakeClock, rejection, retriesTo, statuses } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { onLoopback } from '../helpers/raw-panel.js';

const SEED = {
  hostingPlans: ['Basic', 'Premium Plus'],
  clients: [
    {
      username: 'alice',
      plan: 'Premium Plus',
      email: 'alice@example.com',
      domains: ['alice.example'],
    },
    { username: 'bob', domains: ['bob.example'] },
  ],
} as const;

describe('PUT', () => {
  test('a partial update round trip: only the fields sent change', async () => {
    const bodies: unknown[] = [];
    const simulator = await sim({
      seed: SEED,
      intercept: (req) => {
        if (req.method === 'PUT') bodies.push({ body: req.body, type: req.headers['content-type'] });
        return undefined;
      },
    });
    const panel = client(simulator);
    expect(await panel.send('PUT', '/clients/2', { is_suspended: true })).toEqual({ id: 2 });
    expect(await findClientById(panel, 2)).toStrictEqual({
      id: 2,
      username: 'alice',
      idHostingPlan: 2,
      email: 'alice@example.com',
      suspended: true,
      language: 'en',
    });
    expect(await panel.send('PUT', '/clients/2', { id_hosting_plan: 1, email: '' })).toEqual({
      id: 2,
    });
    expect(await findClientById(panel, 2)).toStrictEqual({
      id: 2,
      username: 'alice',
      idHostingPlan: 1,
      email: null,
      suspended: true,
      language: 'en',
    });
    expect(bodies).toEqual([
      { body: { is_suspended: true }, type: 'application/json' },
      { body: { id_hosting_plan: 1, email: '' }, type: 'application/json' },
    ]);
    expect(simulator.requests.filter((r) => r.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/clients/2', status: 200 },
      { method: 'PUT', path: '/clients/2', status: 200 },
    ]);
  });

  test('a 400 is not retried and names the request', async () => {
    const simulator = await sim({ seed: SEED });
    const error = await rejection(
      client(simulator, { clock: fakeClock() }).send('PUT', '/clients/2', { username: 'mallory' }),
    );
    expect(error).toBeInstanceOf(PanelHttpError);
    expect(error.message).toBe('PUT /api/v2/clients/2: 400 Bad Request: The username of a client cannot be changed.');
    expect(statuses(simulator)).toEqual([400]);
  });

  test('a 502 is retried (a PUT is idempotent, unlike a POST)', async () => {
    let puts = 0;
    const simulator = await sim({
      seed: SEED,
      intercept: (req) =>
        req.method === 'PUT' && ++puts === 1
          ? {
              status: 502,
              text: '<html>Bad Gateway</html>',
              headers: { 'content-type': 'text/html' },
            }
          : undefined,
    });
    const clock = fakeClock();
    expect(await client(simulator, { clock }).send('PUT', '/clients/3', { is_suspended: true })).toEqual({ id: 3 });
    expect(statuses(simulator)).toEqual([502, 200]);
    expect(clock.waits).toEqual([250]);
  });

  test('not sent again after an interrupt: the wait ends, the last failure is thrown', async () => {
    const simulator = await sim({
      seed: SEED,
      intercept: (req) =>
        req.method === 'PUT' ? { status: 503, json: { code: '503 Service Unavailable', message: 'busy' } } : undefined,
    });
    const controller = new AbortController();
    const panel = client(simulator, {
      clock: fakeClock(),
      onEvent: (event) => {
        if (event.type === 'retry') controller.abort();
      },
    });
    const error = await rejection(
      panel.send('PUT', '/clients/2', { is_suspended: true }, { signal: controller.signal }),
    );
    expect(error.message).toBe('PUT /api/v2/clients/2: 503 Service Unavailable: busy (not sent again: interrupted)');
    expect(statuses(simulator)).toEqual([503]);
  });
});

describe('DELETE', () => {
  test('200 with {"id"}: the client and its domains are gone', async () => {
    const simulator = await sim({ seed: SEED });
    const panel = client(simulator);
    expect(await panel.send('DELETE', '/clients/2', undefined)).toEqual({ id: 2 });
    expect(await findClientById(panel, 2)).toBeUndefined();
    expect(simulator.state.clientNamed('alice')).toBeUndefined();
    // Already gone: the 404 is the caller's to read as done.
    expect(await rejection(panel.send('DELETE', '/clients/2', undefined))).toMatchObject({
      status: 404,
    });
  });

  test('204 without a body is success', async () => {
    const simulator = await sim({ seed: SEED, deleteStatus: 204 });
    const panel = client(simulator);
    const domain = (await panel.findByName('domains', 'bob.example')) as { id: number };
    expect(await panel.send('DELETE', `/domains/${domain.id}`, undefined)).toBeUndefined();
    expect(await panel.send('DELETE', '/clients/3', undefined)).toBeUndefined();
    expect(statuses(simulator)).toEqual([200, 204, 204]);
    expect(await panel.findByName('domains', 'bob.example')).toBeUndefined();
    expect(simulator.state.clientNamed('bob')).toBeUndefined();
  });

  test('retried after a 503 with Retry-After', async () => {
    const simulator = await sim({
      seed: SEED,
      retryAfter: { seconds: 1, status: 503, first: 1 },
      faultFilter: (r) => r.method === 'DELETE',
    });
    const clock = fakeClock();
    const waits: string[] = [];
    expect(
      await client(simulator, { clock, onEvent: retriesTo(waits) }).send('DELETE', '/clients/2', undefined),
    ).toEqual({ id: 2 });
    expect(statuses(simulator)).toEqual([503, 200]);
    expect(clock.waits).toEqual([1000]);
    expect(waits).toEqual(['DELETE /api/v2/clients/2 answered 503 (Retry-After: 1): retrying in 1.0 s (attempt 2)']);
  });

  test('retried after a connection closed without an answer', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
      if (seen.length === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(204);
      res.end();
    });
    const url = await onLoopback(server);
    const clock = fakeClock();
    expect(await client(url, { clock }).send('DELETE', '/domains/7', undefined)).toBeUndefined();
    expect(seen).toEqual(['DELETE /api/v2/domains/7', 'DELETE /api/v2/domains/7']);
    expect(clock.waits).toEqual([250]);
  });
});

describe('success answers', () => {
  test.each([
    ['200 empty', { status: 200, text: '' }],
    ['200 plain text', { status: 200, text: 'OK' }],
    ['202 empty', { status: 202, text: '' }],
    ['204', { status: 204 }],
  ])('PUT and DELETE: %s is done, with no value', async (_label, answer) => {
    const simulator = await sim({
      seed: SEED,
      intercept: (req) => (req.method === 'GET' ? undefined : answer),
    });
    const panel = client(simulator);
    expect(await panel.send('PUT', '/clients/2', { email: '' })).toBeUndefined();
    expect(await panel.send('DELETE', '/clients/2', undefined)).toBeUndefined();
    // A POST still needs JSON (GET: below).
    if (answer.status !== 204) {
      const posted = await rejection(panel.post('/clients', { username: 'carol' }));
      expect(posted).toMatchObject({ code: 'panel_contract' });
      expect(posted.message).toMatch(
        /^POST \/api\/v2\/clients: 20[02] answered (an empty body|a body that is not JSON)/,
      );
    }
  });

  test('GET with an empty 200 is still a contract error', async () => {
    const simulator = await sim({ intercept: () => ({ status: 200, text: '' }) });
    const error = await rejection(client(simulator).get('/clients'));
    expect(error).toMatchObject({
      code: 'panel_contract',
      message: 'GET /api/v2/clients: 200 answered an empty body, not JSON',
    });
  });

  test('an HTML page (the API switched off) is a contract error for PUT and DELETE too', async () => {
    const simulator = await sim({ seed: SEED, apiEnabled: false });
    const panel = client(simulator);
    const put = await rejection(panel.send('PUT', '/clients/2', { is_suspended: true }));
    expect(put).toMatchObject({
      code: 'panel_contract',
      message: 'PUT /api/v2/clients/2: 200 answered HTML, not JSON',
    });
    expect(put.hint).toMatch(/REST API enabled/);
    const del = await rejection(panel.send('DELETE', '/clients/2', undefined));
    expect(del).toMatchObject({
      code: 'panel_contract',
      message: 'DELETE /api/v2/clients/2: 200 answered HTML, not JSON',
    });
    expect(simulator.requests).toHaveLength(2);
  });
});
