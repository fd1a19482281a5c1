/**
 * Answers are read bounded and decoded: a body past --max-answer-mb (on the wire or once
 * decompressed) stops with an error naming the flag; gzip, deflate and brotli are read; an
 * encoding that cannot be read is named.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readList } from '../../src/panel/index.js';
import { client, rejection } from '../helpers/panel.js';
import { onLoopback } from '../helpers/raw-panel.js';

/** A raw HTTP server answering every request with `body` and `headers`. */
async function rawPanel(body: Buffer, headers: Record<string, string> = {}): Promise<string> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(body);
  });
  return onLoopback(server);
}

const LIST = Buffer.from(JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ id: i + 1, username: `user${i}` }))));

describe('answers', () => {
  it.each([
    ['gzip', gzipSync(LIST)],
    ['x-gzip', gzipSync(LIST)],
    ['deflate', deflateSync(LIST)],
    ['br', brotliCompressSync(LIST)],
    ['identity', LIST],
  ])('reads a %s-encoded answer', async (encoding, body) => {
    const url = await rawPanel(body, { 'content-encoding': encoding });
    expect(await client(url).get('/clients')).toEqual(JSON.parse(LIST.toString()));
  });

  it('names an encoding it cannot read, and one that does not decode', async () => {
    const unknown = await rejection(client(await rawPanel(LIST, { 'content-encoding': 'compress' })).get('/clients'));
    expect(unknown).toMatchObject({
      code: 'panel_contract',
      message: 'GET /api/v2/clients: the answer is encoded as "compress", which panel-provision cannot decode',
    });
    const broken = await rejection(client(await rawPanel(LIST, { 'content-encoding': 'gzip' })).get('/clients'));
    expect(broken.message).toMatch(/^GET \/api\/v2\/clients: the answer says it is gzip-encoded but cannot be decoded/);
  });

  it('stops past --max-answer-mb, on the wire and once decompressed (a bomb)', async () => {
    const big = Buffer.from(
      JSON.stringify(
        Array.from({ length: 20_000 }, (_, i) => ({
          id: i + 1,
          username: `user-with-a-long-name-${i}`,
        })),
      ),
    );
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const wire = await rejection(client(await rawPanel(big), { maxAnswerMb: 1 }).get('/clients'));
    expect(wire).toMatchObject({
      code: 'panel_contract',
      message: 'GET /api/v2/clients: the answer is larger than 1 MB; it was not read to its end',
    });
    expect(wire.hint).toMatch(/--max-answer-mb \(now 1\)/);
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const decoded = await rejection(
      client(await rawPanel(bomb, { 'content-encoding': 'gzip' }), { maxAnswerMb: 1 }).get('/clients'),
    );
    expect(decoded.message).toBe('GET /api/v2/clients: the answer is larger than 1 MB; it was not read to its end');
  });
});

describe('paging announced in headers', () => {
  it.each([
    [{ link: '<https://panel.example/api/v2/clients?page=2>; rel="next"' }, 'its Link header has rel="next"'],
    [{ 'X-Total-Count': '9' }, 'x-total-count is 9, the answer has 5 records'],
    [{ 'X-Pagination-Page': '1' }, 'it has the header x-pagination-page'],
    [{ 'X-Next-Page': '2' }, 'it has the header x-next-page'],
  ])('stops the read: %j', async (headers, why) => {
    const error = await rejection(readList(client(await rawPanel(LIST, headers)), '/clients'));
    expect(error).toMatchObject({
      code: 'panel_contract',
      message: `GET /api/v2/clients: the list looks paged (${why}); only complete lists can be planned on`,
    });
  });

  it.each([
    ['<https://p.example/clients?page=1>; rel="prev next"', 'prev'],
    ['<https://p.example/clients?page=3>; REL="Next Prev"', 'next'],
    ['<https://p.example/clients?page=3>;rel=next', 'next'],
    [
      '<https://p.example/clients?page=1>; rel="first", <https://p.example/clients?page=2>; title="x, y"; rel="previous"',
      'first',
    ],
    ['<https://p.example/docs>; rel="help", <https://p.example/clients?page=2>; rel="prev"', 'prev'],
  ])('a Link with a paging relation among others: %s', async (link, rel) => {
    const error = await rejection(readList(client(await rawPanel(LIST, { link })), '/clients'));
    expect(error.message).toBe(
      `GET /api/v2/clients: the list looks paged (its Link header has rel="${rel}"); only complete lists can be planned on`,
    );
  });

  it.each([
    ['<https://panel.example/docs>; rel="help"'],
    ['<https://p.example/x?rel=next;a,b>; rel="help"'],
    ['<https://p.example/x>; title="rel=next"; rel="nextfoo describedby"'],
  ])('a total that matches, or a Link without a paging relation, is no hint: %s', async (link) => {
    expect(await readList(client(await rawPanel(LIST, { 'x-total-count': '5', link })), '/clients')).toHaveLength(5);
  });
});

describe('every attempt has a deadline: the request budget', () => {
  it('a body that trickles a byte at a time is stopped at the budget, not after minutes', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      // Far below any body timeout: each byte comes well within 30 s.
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => {
        clearInterval(timer);
      });
    });
    const url = await onLoopback(server);
    const error = await rejection(client(url, { retryBudgetMs: 1500, timeouts: { connectMs: 500 } }).get('/clients'));
    expect(error).toMatchObject({ code: 'panel_unreachable', networkCode: 'PROVISION_DEADLINE' });
    expect(error.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/clients: no complete answer within 1\.5 s \(the request's time budget\)/,
    );
  });

  it('a proxy that never answers CONNECT is stopped at the budget too', async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => {
      sockets.add(socket); // accepts, reads, never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          silent.close(() => {
            resolve();
          });
        }),
    );
    const proxy = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const started = performance.now();
    const error = await rejection(
      client('https://panel.test/api/v2', {
        proxyEnv: { HTTPS_PROXY: proxy },
        retryBudgetMs: 1500,
        timeouts: { connectMs: 500 },
      }).get('/clients'),
    );
    expect(error).toMatchObject({ code: 'panel_unreachable', transient: true });
    // Within the budget, give or take a timer's slack (it hung for minutes before).
    expect(performance.now() - started).toBeLessThan(1500 + 3000);
  });
});
