import { describe, expect, test } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';

describe('simulator latencyMs (for benchmarks)', () => {
  test('each request waits the added latency; concurrent requests overlap', async () => {
    const sim = await startSimulator({ apiKey: 'k', latencyMs: 60 });
    try {
      const ping = () => fetch(`${sim.url}/ping`, { headers: { 'x-api-key': 'k' } }).then((r) => r.json());
      const started = performance.now();
      expect(await ping()).toEqual({ response: 'pong' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
      const parallel = performance.now();
      await Promise.all([ping(), ping(), ping(), ping()]);
      // Four at once take about one latency, not four.
      expect(performance.now() - parallel).toBeLessThan(4 * 60);
    } finally {
      await sim.close();
    }
  });
});
