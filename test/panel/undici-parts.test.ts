/**
 * Start-up: the panel client loads undici's parts when it first connects, not its index (which
 * loads fetch, WebSocket, caches and mocks, and touches globalThis.Headers, loading Node's own
 * copy of undici too). Checked in a fresh process running the built code (dist/), against the
 * simulator on loopback. (Through a proxy, the tunnel needs the request API the index would
 * have put on every dispatcher: test/panel/tls.test.ts's proxy tests cover it.)
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DIST } from '../helpers/dist.js';

function loadedAfterRequest(): {
  answered: boolean;
  index: boolean;
  parts: boolean;
  headersStillLazy: boolean;
} {
  const script = `
    import { createRequire } from 'node:module';
    const { PanelClient } = await import(${JSON.stringify(join(DIST, 'panel/index.js'))});
    const { startSimulator } = await import(${JSON.stringify(join(DIST, 'simulator/index.js'))});
    const sim = await startSimulator({ apiKey: 'test-key-not-a-secret' });
    const before = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/undici/'));
    const panel = new PanelClient({ baseUrl: sim.url, apiKey: 'test-key-not-a-secret' });
    const answer = await panel.get('/ping');
    await panel.close();
    await sim.close();
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    process.stdout.write(JSON.stringify({
      answered: answer !== undefined && !before,
      index: loaded.some((k) => k.endsWith('/undici/index.js')),
      parts: loaded.some((k) => k.endsWith('/undici/lib/dispatcher/agent.js')),
      headersStillLazy: typeof Object.getOwnPropertyDescriptor(globalThis, 'Headers')?.get === 'function',
    }));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  ) as ReturnType<typeof loadedAfterRequest>;
}

describe('undici at start-up', () => {
  test('a request loads the parts it uses, when it is made, and never the index nor globalThis.Headers', () => {
    expect(loadedAfterRequest()).toEqual({
      answered: true,
      index: false,
      parts: true,
      headersStillLazy: true,
    });
  });
});
