/**
 * The concurrency bound covers requests only, through the real panel adapter over HTTP: the
 * secrets file's flushes (the write-ahead before a POST /clients, the record after its answer)
 * run outside the slot, so a slow secrets file does not keep POSTs from being sent, and the
 * write-ahead and write-behind order stays as it was.
 */
import { describe, expect, test } from 'vitest';
import { executeChanges } from '../../src/apply/execute.js';
import { panelAdapter } from '../../src/apply/panel-adapter.js';
import type { SecretsSink } from '../../src/secrets/journal.js';
import type { CreateClient, Plan } from '../../src/plan/types.js';
import { client } from '../helpers/panel.js';
import { inFlight, sim } from '../helpers/sim.js';
import { newClient } from '../helpers/builders.js';

const plan = (changes: CreateClient[]): Plan => ({
  changes,
  conflicts: [],
  unknowns: [],
  unmanaged: { clients: [], domains: [] },
});
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('apply: the slot covers the request only', () => {
  test('with a slow secrets file, POSTs in flight still reach --concurrency, never more; each intent before its POST, each record before its outcome', async () => {
    const posts = inFlight((path) => path === '/clients', 30);
    const events: string[] = [];
    let flushing = 0;
    let posting = 0;
    /** The most POSTs in flight at a moment when a secrets write was under way too. */
    let postsWhileFlushing = 0;
    const simulator = await sim({
      intercept: async (req) => {
        if (req.method !== 'POST') return undefined;
        events.push(`POST ${(req.body as { username: string }).username}`);
        posting++;
        try {
          await sleep(15);
          if (flushing > 0) postsWhileFlushing = Math.max(postsWhileFlushing, posting);
          await posts.intercept(req);
          return undefined;
        } finally {
          posting--;
        }
      },
    });
    const panel = client(simulator);
    // Each write takes 30 ms, as long as a request: held inside the slot, at most half the slots would carry requests.
    const write = async (what: string, username: string): Promise<void> => {
      flushing++;
      await sleep(30);
      flushing--;
      events.push(`${what} ${username}`);
    };
    const slow: SecretsSink = {
      intend: (entry) => write('intent', entry.name),
      record: (entry) => write('record', entry.name),
      refused: () => Promise.resolve(),
    };
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: 0,
      secrets: slow,
      panelUrl: panel.baseUrl,
    });
    const names = Array.from({ length: 24 }, (_, i) => `c${i}`);
    const outcomes = await executeChanges(plan(names.map((name) => newClient(name))), adapter, {
      concurrency: 4,
      onEvent: (e) => {
        if (e.type === 'outcome') events.push(`done ${e.outcome.change.name}`);
      },
    });
    expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
    expect(posts.max()).toBe(4);
    // Held inside the slot, a write would leave at most 3 of the 4 places to POSTs while it runs.
    expect(postsWhileFlushing).toBe(4);
    for (const name of names) {
      const at = (what: string): number => events.indexOf(`${what} ${name}`);
      expect(at('intent')).toBeGreaterThanOrEqual(0);
      expect(at('intent')).toBeLessThan(at('POST'));
      expect(at('POST')).toBeLessThan(at('record'));
      expect(at('record')).toBeLessThan(at('done'));
    }
  });
});
