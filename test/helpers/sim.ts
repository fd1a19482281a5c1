import { onTestFinished } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { API_KEY } from './key.js';

/**
 * The one way tests start a simulator: on loopback, with the test key (API_KEY) unless
 * `options.apiKey` says otherwise. The caller closes it (`await started.close()`): for a
 * simulator shared by several tests (beforeAll/afterAll) or one per property-test iteration.
 * Within one test, use `sim()`.
 */
export function startSim(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  return startSimulator({ apiKey: API_KEY, ...options });
}

/** `startSim`, closed when the current test finishes. */
export async function sim(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const started = await startSim(options);
  onTestFinished(() => started.close());
  return started;
}

/**
 * An `intercept` that holds each request `match` accepts for `holdMs` and counts how many are
 * held at once: `max()` is the most in flight, for tests of a client's concurrency bound.
 */
export function inFlight(
  match: (path: string) => boolean,
  holdMs = 15,
): { intercept: (req: { path: string }) => Promise<undefined>; max: () => number } {
  let now = 0;
  let most = 0;
  return {
    intercept: async (req) => {
      if (!match(req.path)) return undefined;
      now++;
      most = Math.max(most, now);
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      now--;
      return undefined;
    },
    max: () => most,
  };
}
