import { describe, expect, test } from 'vitest';
import { API_KEY } from '../helpers/key.js';
import { sim } from '../helpers/sim.js';

describe('simulator latencyMs (for benchmarks)', () => {
  test('each request waits the added latency; concurrent requests overlap', async () => {
    const simulator = await sim({ latencyMs: 60 });
    const ping = () => fetch(`${simulator.url}/ping`, { headers: { 'x-api-key': API_KEY } }).then((r) => r.json());
    const started = performance.now();
    expect(await ping()).toEqual({ response: 'pong' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    const parallel = performance.now();
    await Promise.all([ping(), ping(), ping(), ping()]);
    // Four at once take about one latency, not four.
    expect(performance.now() - parallel).toBeLessThan(4 * 60);
  });
});
