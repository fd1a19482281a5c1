/**
 * The retry policy's part in whole-object writes (panel/retry.ts): a request marked `wholeObject`
 * is never sent again by the client, whatever the failure; which failures are worth a new read
 * and a rebuilt write is rewriteReason's; and the client itself sends such a PUT once against a
 * panel that answers 503.
 */
import { describe, expect, test } from 'vitest';
import { PanelHttpError, unreachableError } from '../../src/panel/index.js';
import {
  DEFAULT_RETRY_TIMING,
  type AttemptResult,
  type RetryContext,
  retryDelayMs,
  rewriteDelayMs,
  rewriteReason,
} from '../../src/panel/retry.js';
import { client, fakeClock } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';

const http = (status: number): PanelHttpError => new PanelHttpError({ method: 'PUT', path: '/api/v2/dns/2', status });
const network = (code: string) =>
  unreachableError('PUT', 'http://127.0.0.1:1/api/v2/dns/2', Object.assign(new Error('x'), { code }));
const failed = (error: PanelHttpError | ReturnType<typeof network>): AttemptResult => ({ ok: false, error });
const context: RetryContext = {
  attempt: 1,
  elapsedMs: 0,
  nowMs: Date.UTC(2030, 0, 1),
  random: () => 0.5,
  timing: DEFAULT_RETRY_TIMING,
};

describe('whole-object writes and the retry policy', () => {
  test.each([
    ['503', failed(http(503))],
    ['429', failed(http(429))],
    ['502', failed(http(502))],
    ['ECONNRESET', failed(network('ECONNRESET'))],
  ])('a whole-object PUT after %s is not retried; a partial one is', (_label, outcome) => {
    expect(retryDelayMs({ method: 'PUT', wholeObject: true }, outcome, context)).toBeUndefined();
    expect(retryDelayMs({ method: 'PUT' }, outcome, context)).toBe(250);
    expect(retryDelayMs('PUT', outcome, context)).toBe(250);
  });

  test('which failures send the caller back to read again: no answer, 429 and every 5xx; never a 4xx', () => {
    expect(rewriteReason(http(503))).toBe('answered 503');
    expect(rewriteReason(http(500))).toBe('answered 500');
    expect(rewriteReason(http(429))).toBe('answered 429');
    expect(rewriteReason(network('ECONNRESET'))).toMatch(/^got no answer \(/);
    expect(rewriteReason(http(400))).toBeUndefined();
    expect(rewriteReason(http(409))).toBeUndefined();
    expect(rewriteReason(network('ECONNREFUSED'))).toBeUndefined();
    expect(rewriteReason(new Error('x'))).toBeUndefined();
    expect(rewriteDelayMs(1, () => 0)).toBe(100);
    expect(rewriteDelayMs(10, () => 0.999)).toBeLessThan(5_000);
  });

  test('the client sends a whole-object PUT once against a panel answering 503, and a partial one again', async () => {
    const simulator = await sim({ errorRate: 1, errorStatuses: [503], faultFilter: (r) => r.method === 'PUT' });
    const panel = client(simulator, { clock: fakeClock() });
    await expect(panel.send('PUT', '/dns/1', {}, { wholeObject: true })).rejects.toThrow(/503/);
    expect(simulator.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    await expect(panel.send('PUT', '/clients/1', {})).rejects.toThrow(/503/);
    expect(simulator.requests.filter((r) => r.method === 'PUT').length).toBeGreaterThan(2);
  });
});
