/**
 * The library's one events interface (ProvisionEvent): one handler, passed to connectPanel,
 * readLive and executePlan, is told every request, every outcome, in the order they happen;
 * the older callbacks (onRequest, onOutcome) are told the same things, from the same events.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectPanel, diff, executePlan, loadManifest, type ProvisionEvent, readLive } from '../../src/api/index.js';
import { API_KEY } from '../helpers/key.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';

describe('the events of a run', () => {
  it('one handler is told each request sent and each outcome; onRequest and onOutcome see the same', async () => {
    const simulator = await sim({ seed: { clients: [{ username: 'bob', domains: ['bob.example'] }] } });
    const events: ProvisionEvent[] = [];
    const requests: string[] = [];
    const outcomes: string[] = [];
    const onEvent = (event: ProvisionEvent): void => {
      events.push(event);
    };
    const panel = connectPanel({
      url: simulator.url,
      apiKey: API_KEY,
      onEvent,
      onRequest: (r) => requests.push(`${r.method} ${r.path} ${r.status}`),
    });
    try {
      const { desired } = loadManifest('version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n');
      const plan = diff(desired, await readLive(panel, desired, { onEvent }));
      const done = await executePlan(plan, panel, {
        secretsFile: join(await tempDir(), 'secrets.jsonl'),
        onEvent,
        onOutcome: (o) => outcomes.push(o.change.id),
      });
      const sent = events.flatMap((e) => (e.type === 'sent' ? [`${e.method} ${e.path} ${e.status}`] : []));
      expect(sent).toEqual(requests);
      expect(sent.slice(0, 4)).toEqual([
        'GET /api/v2/ping 200',
        'GET /api/v2/hosting-plans 200',
        'GET /api/v2/clients 200',
        'GET /api/v2/domains 200',
      ]);
      expect(sent).toContain('POST /api/v2/clients 201');
      const told = events.flatMap((e) => (e.type === 'outcome' ? [e.outcome] : []));
      expect(told).toEqual(done);
      expect(told.map((o) => o.change.id)).toEqual(outcomes);
      expect(outcomes).toEqual(['client:alice', 'domain:alice.example']);
      // Each outcome after the request that made it: the POST of alice comes before her outcome.
      const postAlice = events.findIndex(
        (e) => e.type === 'sent' && e.method === 'POST' && e.path.endsWith('/clients'),
      );
      const aliceDone = events.findIndex((e) => e.type === 'outcome' && e.outcome.change.id === 'client:alice');
      expect(postAlice).toBeGreaterThanOrEqual(0);
      expect(aliceDone).toBeGreaterThan(postAlice);
    } finally {
      await panel.close();
    }
  });
});
