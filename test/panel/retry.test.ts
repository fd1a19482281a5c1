import { describe, expect, test } from 'vitest';
import {
  CREATE_BACKOFF,
  DEFAULT_RETRY_TIMING,
  MAX_POSTS,
  ambiguity,
  mayBeSettling,
  refusal,
  repostDelayMs,
  settleDelayMs,
  PanelHttpError,
  PanelNetworkError,
  backoffMs,
  parseRetryAfterMs,
  retryDelayMs,
  unreachableError,
  waitMessage,
  type AttemptResult,
  type RetryContext,
} from '../../src/panel/index.js';

describe('retry timing (pure)', () => {
  const http = (status: number, retryAfter?: string): AttemptResult => ({
    ok: false,
    error: new PanelHttpError({ method: 'GET', path: '/api/v2/clients', status, retryAfter }),
  });
  const network = (code: string): AttemptResult => ({
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
    expect([1, 2, 3, 4, 5, 6, 10].map((a) => backoffMs(a, DEFAULT_RETRY_TIMING, almostOne))).toEqual([
      499, 999, 1999, 3999, 7999, 7999, 7999,
    ]);
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
    // PUT and DELETE are idempotent: GET's rules.
    ...(['PUT', 'DELETE'] as const).flatMap((method) => [
      [method, '429', 250, http(429)] as const,
      [method, '502', 250, http(502)] as const,
      [method, '503', 250, http(503)] as const,
      [method, '504', 250, http(504)] as const,
      [method, '500', undefined, http(500)] as const,
      [method, '400', undefined, http(400)] as const,
      [method, '401', undefined, http(401)] as const,
      [method, '403', undefined, http(403)] as const,
      [method, '404', undefined, http(404)] as const,
      [method, '409', undefined, http(409)] as const,
      [method, 'ECONNRESET', 250, network('ECONNRESET')] as const,
      [method, 'UND_ERR_HEADERS_TIMEOUT', 250, network('UND_ERR_HEADERS_TIMEOUT')] as const,
      [method, 'UND_ERR_BODY_TIMEOUT', 250, network('UND_ERR_BODY_TIMEOUT')] as const,
      [method, 'ECONNREFUSED', undefined, network('ECONNREFUSED')] as const,
      [method, 'DEPTH_ZERO_SELF_SIGNED_CERT', undefined, network('DEPTH_ZERO_SELF_SIGNED_CERT')] as const,
    ]),
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
    expect(retryDelayMs('DELETE', http(429, '7'), context({ elapsedMs: 53_001 }))).toBeUndefined();
    expect(retryDelayMs('PUT', http(503), context({ attempt: DEFAULT_RETRY_TIMING.maxAttempts }))).toBeUndefined();
    expect(retryDelayMs('PUT', { ok: true, value: undefined }, context())).toBeUndefined();
  });

  test('network failures: what was possibly sent, what is transient', () => {
    const reset = unreachableError(
      'POST',
      'http://h/api/v2/clients',
      Object.assign(new Error('x'), { code: 'ECONNRESET' }),
    );
    expect(reset).toBeInstanceOf(PanelNetworkError);
    expect(reset).toMatchObject({
      code: 'panel_unreachable',
      sent: true,
      transient: true,
      networkCode: 'ECONNRESET',
    });
    expect(reset.message).toBe('POST http://h/api/v2/clients: the connection was closed before an answer (ECONNRESET)');
    expect(unreachableError('GET', 'u', Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toMatchObject({
      sent: false,
      transient: false,
    });
    expect(
      unreachableError('GET', 'u', Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' })),
    ).toMatchObject({ sent: false, transient: true });
    expect(
      unreachableError('GET', 'u', Object.assign(new Error('x'), { code: 'UND_ERR_BODY_TIMEOUT' }), {
        headersMs: 1,
        bodyMs: 250,
      }).message,
    ).toBe('GET u: no answer within 0.25 s (UND_ERR_BODY_TIMEOUT)');
  });

  test('the wait sentence', () => {
    const busy = new PanelHttpError({ method: 'GET', path: '/api/v2/clients', status: 503 });
    expect(waitMessage('GET /api/v2/clients', busy, 2000, 2)).toBe(
      'GET /api/v2/clients answered 503: retrying in 2.0 s (attempt 2)',
    );
    const limited = new PanelHttpError({
      method: 'GET',
      path: '/api/v2/domains',
      status: 429,
      retryAfter: '3',
    });
    expect(waitMessage('GET /api/v2/domains', limited, 3000, 3)).toBe(
      'GET /api/v2/domains answered 429 (Retry-After: 3): retrying in 3.0 s (attempt 3)',
    );
    const odd = new PanelHttpError({
      method: 'GET',
      path: '/p',
      status: 429,
      retryAfter: 'x\u0000'.repeat(30),
    });
    expect(waitMessage('GET /p', odd, 100, 2)).toBe('GET /p answered 429: retrying in 0.1 s (attempt 2)');
  });
});

describe('create policy (pure)', () => {
  const http = (status: number): PanelHttpError =>
    new PanelHttpError({ method: 'POST', path: '/api/v2/clients', status });
  const network = (code: string, sent: boolean): PanelNetworkError =>
    Object.assign(
      unreachableError('POST', 'http://127.0.0.1:1/api/v2/clients', Object.assign(new Error('x'), { code })),
      { sent },
    );

  test('ambiguous: sent without an answer, or a gateway 502/504; refused: a 4xx, or never sent', () => {
    expect(ambiguity(http(502))).toBe('answered 502');
    expect(ambiguity(http(504))).toBe('answered 504');
    expect(ambiguity(http(500))).toBeUndefined();
    expect(ambiguity(http(400))).toBeUndefined();
    expect(ambiguity(network('ECONNRESET', true))).toMatch(/^got no answer/);
    expect(ambiguity(network('ECONNREFUSED', false))).toBeUndefined();
    expect(refusal(http(400))).toBe('answered 400');
    expect(refusal(http(403))).toBe('answered 403');
    // A 500 or a gateway's answer may hide a created client: never a refusal.
    for (const status of [500, 502, 503, 504]) expect(refusal(http(status))).toBeUndefined();
    expect(refusal(network('ECONNREFUSED', false))).toMatch(/^not sent/);
    expect(refusal(network('ECONNRESET', true))).toBeUndefined();
  });

  test('a POST is sent at most MAX_POSTS times, with a floor between attempts', () => {
    expect(MAX_POSTS).toBe(3);
    expect(repostDelayMs(1, () => 0)).toBe(100);
    expect(repostDelayMs(2, () => 0.5)).toBe(500);
    expect(repostDelayMs(MAX_POSTS, () => 0.5)).toBeUndefined();
  });

  test('settling: only 400/404 for a client of this run; waits never end past the timeout', () => {
    expect(mayBeSettling(http(400), true)).toBe(true);
    expect(mayBeSettling(http(404), true)).toBe(true);
    expect(mayBeSettling(http(400), false)).toBe(false);
    expect(mayBeSettling(http(409), true)).toBe(false);
    expect(settleDelayMs(1, 0, 30_000, () => 0.5)).toBe(250);
    expect(settleDelayMs(4, 29_000, 30_000, () => 0.5)).toBeUndefined();
    expect(settleDelayMs(1, 0, 0, () => 0)).toBeUndefined();
    expect(settleDelayMs(10, 0, 30_000, () => 0.99)).toBe(Math.floor(0.99 * CREATE_BACKOFF.capMs));
  });
});
