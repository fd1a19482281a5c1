import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import {
  checkCaPem,
  PanelClient,
  PanelHttpError,
  normalizeBaseUrl,
  readLive,
  USER_AGENT,
} from '../../src/panel/index.js';
import { tempDir } from '../helpers/sim-http.js';
import { API_KEY } from '../helpers/key.js';
import { client, rejection } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { onLoopback } from '../helpers/raw-panel.js';

const SEED = {
  hostingPlans: ['Basic', 'Premium Plus'],
  clients: [
    { username: 'alice', plan: 'Premium Plus', domains: ['alice.example', 'bücher.example'] },
    { username: 'bob', domains: ['bob.example'] },
  ],
} as const;

describe('normalizeBaseUrl', () => {
  test.each([
    ['https://panel.example', 'https://panel.example/api/v2'],
    ['https://panel.example/', 'https://panel.example/api/v2'],
    ['  https://panel.example/api/v2/  ', 'https://panel.example/api/v2'],
    ['https://panel.example/api/v2', 'https://panel.example/api/v2'],
    ['https://panel.example/api', 'https://panel.example/api/v2'],
    ['https://PANEL.Example:8443', 'https://panel.example:8443/api/v2'],
    ['https://panel.example:443/', 'https://panel.example/api/v2'],
    ['https://host.example/keyhelp/', 'https://host.example/keyhelp/api/v2'],
    ['http://localhost:8080', 'http://localhost:8080/api/v2'],
    ['http://127.0.0.1:43117/api/v2', 'http://127.0.0.1:43117/api/v2'],
    ['http://127.9.8.7', 'http://127.9.8.7/api/v2'],
    ['http://[::1]:9000/', 'http://[::1]:9000/api/v2'],
  ])('%s -> %s', (raw, expected) => {
    expect(normalizeBaseUrl(raw, { allowHttp: false })).toBe(expected);
  });

  test.each([
    ['', /empty/],
    ['   ', /empty/],
    ['panel.example', /must start with https:\/\/|not a valid URL/],
    ['ftp://panel.example', /must start with https:\/\//],
    ['https://user:secret@panel.example', /user name or password/],
    ['https://panel.example/?key=secret', /query/],
    ['https://panel.example/#x', /fragment/],
    ['https://panel.example/api/v1', /API v1/],
    ['http://panel.example', /plain http:\/\/ for panel\.example/],
    ['http://10.0.0.5/api/v2', /plain http:\/\//],
    ['http://localhost.evil.example', /plain http:\/\//],
  ])('refuses %j', (raw, message) => {
    let caught: unknown;
    try {
      normalizeBaseUrl(raw, { allowHttp: false });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProvisionError);
    const error = caught as ProvisionError;
    expect(error.code).toBe('usage');
    expect(error.message).toMatch(message);
    expect(error.hint).toBeTruthy();
    // Secrets typed into the URL are not echoed back.
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain('secret');
  });

  test('plain http to another host with allowHttp', () => {
    expect(normalizeBaseUrl('http://panel.internal', { allowHttp: true })).toBe('http://panel.internal/api/v2');
  });
});

describe('PanelClient requests', () => {
  test('sends key, Accept, User-Agent and JSON content type; reports each request', async () => {
    const seen: { method: string; headers: Record<string, unknown> }[] = [];
    const simulator = await sim({
      intercept: (req) => {
        seen.push({ method: req.method, headers: req.headers });
        return undefined;
      },
    });
    const events: { method: string; path: string; status: number; ms: number }[] = [];
    const panel = client(simulator, {
      onEvent: (e) => {
        if (e.type === 'sent') events.push({ method: e.method, path: e.path, status: e.status, ms: e.ms });
      },
    });
    expect(await panel.get('/ping')).toEqual({ response: 'pong' });
    const created = await panel.post('/clients', { username: 'alice' });
    expect(created).toMatchObject({ id: 2, password: expect.any(String) as unknown });
    expect(USER_AGENT).toMatch(/^panel-provision\/\d+\.\d+\.\d+/);
    expect(seen[0]?.headers).toMatchObject({
      'x-api-key': API_KEY,
      accept: 'application/json',
      'user-agent': USER_AGENT,
    });
    expect(seen[0]?.headers).not.toHaveProperty('content-type');
    expect(seen[1]?.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(events.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/api/v2/ping', status: 200 },
      { method: 'POST', path: '/api/v2/clients', status: 201 },
    ]);
    expect(events.every((e) => e.ms >= 0)).toBe(true);
  });

  test('findByName: the record, undefined on 404, names percent-encoded', async () => {
    const simulator = await sim({ seed: SEED });
    const panel = client(simulator);
    expect(await panel.findByName('hosting-plans', 'Premium Plus')).toMatchObject({
      id: 2,
      name: 'Premium Plus',
    });
    expect(await panel.findByName('clients', 'carol')).toBeUndefined();
    expect(await panel.findByName('domains', 'bücher.example')).toMatchObject({
      domain: 'xn--bcher-kva.example',
    });
    expect(simulator.requests.map((r) => r.path)).toContain('/hosting-plans/name/Premium%20Plus');
  });

  test('an HTTP error status: PanelHttpError naming method, path, status and the panel message', async () => {
    const simulator = await sim();
    const panel = client(simulator);
    await panel.post('/clients', { username: 'alice' });
    const error = await rejection(panel.post('/clients', { username: 'alice' }));
    expect(error).toBeInstanceOf(PanelHttpError);
    expect(error.code).toBe('panel_http');
    expect(error.message).toBe("POST /api/v2/clients: 400 Bad Request: The username 'alice' is already in use.");
    expect(error).toMatchObject({
      method: 'POST',
      path: '/api/v2/clients',
      status: 400,
      panelMessage: "The username 'alice' is already in use.",
    });
    // A 404 that is not a name look-up is an error too.
    const missing = await rejection(panel.get('/clients/999'));
    expect(missing).toMatchObject({
      status: 404,
      message: 'GET /api/v2/clients/999: 404 Not Found: The requested client was not found.',
    });
    expect(missing.hint).toMatch(/--url/);
  });

  test('401: message and hint about the key, its IP restrictions and lock-out', async () => {
    const simulator = await sim();
    const error = await rejection(readLive(client(simulator, { apiKey: 'wrong-key' }), { domainNames: [] }));
    expect(error.message).toBe('GET /api/v2/ping: 401 Unauthorized: API key is missing or invalid.');
    expect(error.hint).toMatch(/PROVISION_API_KEY/);
    expect(error.hint).toMatch(/--api-key-file/);
    expect(error.hint).toMatch(/IP address/);
    expect(error.hint).toMatch(/lock/);
    expect(simulator.requests).toHaveLength(1);
  });

  test('429 and 503 hints carry Retry-After; a Retry-After beyond the budget is not waited for', async () => {
    const simulator = await sim({
      intercept: (req) =>
        req.path === '/clients'
          ? {
              status: 429,
              json: { code: '429 Too Many Requests', message: 'slow down' },
              headers: { 'retry-after': '7' },
            }
          : undefined,
    });
    const error = await rejection(client(simulator, { retryBudgetMs: 5_000 }).get('/clients'));
    expect(error).toMatchObject({
      status: 429,
      retryAfter: '7',
      message: 'GET /api/v2/clients: 429 Too Many Requests: slow down',
    });
    expect(error.hint).toMatch(/Retry-After 7/);
    expect(simulator.requests).toHaveLength(1);
  });

  test('an error body that is HTML: PanelHttpError without a panel message', async () => {
    const simulator = await sim({
      intercept: () => ({
        status: 502,
        text: '<html>Bad Gateway</html>',
        headers: { 'content-type': 'text/html' },
      }),
    });
    const error = await rejection(client(simulator, { retryBudgetMs: 0 }).get('/ping'));
    expect(error).toMatchObject({
      status: 502,
      panelMessage: undefined,
      message: 'GET /api/v2/ping: 502 Bad Gateway',
    });
  });

  test('a success that is not JSON: panel_contract', async () => {
    const simulator = await sim({ intercept: () => ({ status: 200, text: 'pong' }) });
    const error = await rejection(client(simulator).get('/ping'));
    expect(error.code).toBe('panel_contract');
    expect(error.message).toMatch(/^GET \/api\/v2\/ping: 200 answered a body that is not JSON/);
  });
});

describe('TLS', () => {
  test('a self-signed certificate: refused with a --ca-file hint, accepted with its CA', async (context) => {
    const dir = await tempDir();
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      context.skip('openssl is not available to make a certificate');
    }
    const server = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"response":"pong"}');
    });
    const url = await onLoopback(server, 'https');

    const error = await rejection(client({ url }).get('/ping'));
    expect(error.code).toBe('panel_unreachable');
    expect(error.message).toMatch(
      new RegExp(`^GET ${url}/ping: the panel's TLS certificate is not accepted \\(\\w+\\)$`),
    );
    expect(error.hint).toMatch(/--ca-file/);

    expect(await client({ url }, { ca: await readFile(cert, 'utf8') }).get('/ping')).toEqual({
      response: 'pong',
    });
    expect(await client({ url }, { insecure: true }).get('/ping')).toEqual({ response: 'pong' });
  });

  test('a CA bundle without a PEM certificate is a usage error', () => {
    expect(() => checkCaPem('hello', 'the CA file bad.pem')).toThrow(/^the CA file bad\.pem holds no PEM certificate$/);
  });
});

describe('the API key never appears in errors', () => {
  function expectNoKey(error: ProvisionError): void {
    for (const text of [
      error.message,
      error.hint ?? '',
      String(error),
      JSON.stringify(error),
      error.stack ?? '',
      inspect(error, { depth: 5 }),
    ]) {
      expect(text).not.toContain(API_KEY);
    }
  }

  test.each([
    ['a wrong key (401)', { apiKey: 'another-key' }],
    [
      'a panel message that echoes the key',
      {
        intercept: () => ({
          status: 400,
          json: { code: '400 Bad Request', message: `bad key ${API_KEY}` },
        }),
      },
    ],
    ['HTML', { apiEnabled: false }],
    [
      'a paged list',
      {
        intercept: (req: { path: string }) =>
          req.path === '/clients' ? { status: 200, json: { data: [], next: API_KEY } } : undefined,
      },
    ],
  ] as const)('%s', async (_label, options) => {
    const simulator = await sim(options);
    const error = await rejection(readLive(client(simulator), { domainNames: [] }));
    expectNoKey(error);
  });

  test('unreachable, and a key that cannot be sent', async () => {
    expectNoKey(await rejection(client('http://127.0.0.1:1/api/v2').get('/ping')));
    let caught: unknown;
    try {
      new PanelClient({ baseUrl: 'http://127.0.0.1:1/api/v2', apiKey: `${API_KEY}\nx` });
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: 'usage' });
    expectNoKey(caught as ProvisionError);
  });
});
