import { inspect } from 'node:util';
import { afterEach, expect } from 'vitest';
import { ProvisionError } from '../../src/errors.js';
import { PanelClient, type PanelClientOptions, type PanelClock } from '../../src/panel/index.js';
import type { OnEvent } from '../../src/plan/events.js';
import type { Simulator } from '../../src/simulator/index.js';
import { API_KEY } from './key.js';

/**
 * PanelClients against a test simulator, with what the user could see checked for the key:
 * every onWait sentence, and every error (message, hint, cause, stack) `rejection` returns.
 */
const cleanups: (() => Promise<unknown>)[] = [];
const seen: string[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const text of seen.splice(0)) expect(text).not.toContain(API_KEY);
});

/** Texts the user would see, checked for the key after the test. */
export function shown(...texts: string[]): void {
  seen.push(...texts);
}

/** A clock that only moves when slept on: retries take no real time, waits are recorded. */
export function fakeClock(random = 0.5): PanelClock & { waits: number[] } {
  let now = Date.UTC(2030, 0, 1);
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: (ms) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
    random: () => random,
  };
}

/** A PanelClient for `simulator` with the test key, closed after the test; its wait sentences are checked. */
export function client(panel: { url: string } | string, options: Partial<PanelClientOptions> = {}): PanelClient {
  const created = new PanelClient({
    baseUrl: typeof panel === 'string' ? panel : panel.url,
    apiKey: API_KEY,
    onEvent: (event) => {
      if (event.type === 'retry') seen.push(event.message);
    },
    ...options,
  });
  cleanups.push(() => created.close());
  return created;
}

/** The ProvisionError `promise` rejects with (fails the test otherwise); its every text is checked for the key. */
export async function rejection(promise: Promise<unknown>): Promise<ProvisionError> {
  let failure: unknown;
  try {
    await promise;
  } catch (err) {
    failure = err;
  }
  if (failure === undefined) throw new Error('expected a rejection');
  expect(failure).toBeInstanceOf(ProvisionError);
  const error = failure as ProvisionError;
  seen.push(error.message, error.hint ?? '', inspect(error, { depth: 5 }), JSON.stringify(error));
  return error;
}

/** The statuses the simulator answered, for one path or all. */
export const statuses = (simulator: Simulator, path?: string): number[] =>
  simulator.requests.filter((r) => path === undefined || r.path === path).map((r) => r.status);

/** An onEvent that keeps each `retry` sentence in `into` (and in the sentences checked for the key). */
export function retriesTo(into: string[]): OnEvent {
  return (event) => {
    if (event.type !== 'retry') return;
    into.push(event.message);
    seen.push(event.message);
  };
}

/** An onEvent that keeps each `note` sentence in `into`. */
export function notesTo(into: string[]): OnEvent {
  return (event) => {
    if (event.type === 'note') into.push(event.message);
  };
}

/** The panel_contract message a record parser gives `record`; fails the test when it parses. */
export function contractRefusal(
  parse: (record: unknown, where: string) => unknown,
  record: unknown,
  where: string,
): string {
  try {
    parse(record, where);
  } catch (error) {
    expect(error).toBeInstanceOf(ProvisionError);
    expect((error as ProvisionError).code).toBe('panel_contract');
    return (error as Error).message;
  }
  throw new Error('parsed');
}
