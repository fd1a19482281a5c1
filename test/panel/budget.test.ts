/**
 * A request never runs past its budget (retryBudgetMs): every attempt's deadline is what is
 * left of it, and no retry starts with less than MIN_ATTEMPT_MS left. Waits take no real time
 * here (an injected clock); the attempts are real HTTP on loopback.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MIN_ATTEMPT_MS, type PanelClock } from '../../src/panel/client.js';
import { client, fakeClock, rejection } from '../helpers/panel.js';
import { onLoopback } from '../helpers/raw-panel.js';

/** A panel whose nth request (from 1) gets `answer(n, res)`; a request left unanswered stalls. */
async function scriptedPanel(
  answer: (n: number, res: ServerResponse) => void,
): Promise<{ url: string; requests: () => number }> {
  let count = 0;
  const server: Server = createServer((_req: IncomingMessage, res) => {
    answer(++count, res);
  });
  return { url: await onLoopback(server), requests: () => count };
}

/** Real time, except that waits for a retry are skipped (and counted as time passed). */
function skippingClock(): PanelClock {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    sleep: (ms) => ((skipped += ms), Promise.resolve()),
    random: () => 0.5,
  };
}

const busy = (res: ServerResponse): void => {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
  res.end('{"message":"busy"}');
};

describe('the request budget bounds every attempt', () => {
  it('the last attempt gets what is left of the budget, not a fresh connect timeout', async () => {
    // 503, a 1 s Retry-After, then a panel that accepts and never answers.
    const panel = await scriptedPanel((n, res) => {
      if (n === 1) busy(res);
    });
    const clock = skippingClock();
    const started = clock.now();
    const error = await rejection(
      client(panel.url, {
        clock,
        retryBudgetMs: 2500,
        timeouts: { connectMs: 8000, headersMs: 60_000 },
      }).get('/clients'),
    );
    expect(panel.requests()).toBe(2);
    expect(error).toMatchObject({ code: 'panel_unreachable', networkCode: 'PROVISION_DEADLINE' });
    expect(error.message).toMatch(/: no complete answer within 2\.5 s \(the request's time budget\)/);
    // 1 s waited and about 1.5 s of the second attempt; before, that attempt ran 8 s (its connect timeout).
    expect(clock.now() - started).toBeLessThan(2500 + 2000);
  });

  it('no retry starts with less than MIN_ATTEMPT_MS of the budget left', async () => {
    const panel = await scriptedPanel((_n, res) => {
      busy(res);
    });
    const clock = fakeClock();
    const error = await rejection(
      client(panel.url, { clock, retryBudgetMs: 1000 + 2 * MIN_ATTEMPT_MS - 1 }).get('/clients'),
    );
    expect(error).toMatchObject({ status: 503 });
    // At 0 and after 1 s; at 2 s less than MIN_ATTEMPT_MS would be left (before, it was sent).
    expect(clock.waits).toEqual([1000]);
    expect(panel.requests()).toBe(2);
  });

  it('one attempt is made whatever the budget, and its own timeouts still apply', async () => {
    const panel = await scriptedPanel((_n, res) => {
      busy(res);
    });
    const clock = fakeClock();
    expect(await rejection(client(panel.url, { clock, retryBudgetMs: 0 }).get('/clients'))).toMatchObject({
      status: 503,
    });
    expect(clock.waits).toEqual([]);
    expect(panel.requests()).toBe(1);
  });
});
