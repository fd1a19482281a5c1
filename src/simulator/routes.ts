/**
 * Routes one authenticated request: /ping and /server here, every other path to the module of
 * the kind that serves its first segment (kinds/index.ts).
 */
import { type Answer, type Body, notAllowed, notFound, ok } from './answer.js';
import type { RouteOptions } from './kind.js';
import { SIM_FAMILY, SIM_ROUTES } from './kinds/index.js';
import type { SimStore } from './store.js';

export type { Body } from './answer.js';
export type { RouteOptions } from './kind.js';

/**
 * `segments` is the path after /api/v2, split on '/', trailing slashes already removed, each
 * segment still percent-encoded.
 */
export function route(
  store: SimStore,
  method: string,
  segments: readonly string[],
  body: Body,
  options: RouteOptions,
): Answer {
  const [first] = segments;
  const path = `/${segments.join('/')}`;
  if (first === 'ping' && segments.length === 1) {
    return method === 'GET' ? ok({ response: 'pong' }) : notAllowed(method, path, ['GET']);
  }
  if (first === 'server' && segments.length === 1) {
    // The shape varies by release (panel-api.md); the simulator says what it is, nothing of the machine.
    return method === 'GET'
      ? ok({
          meta: { hostname: 'simulator.invalid', ip_addresses: ['127.0.0.1'] },
          version: { panel: 'simulator', api: 'v2' },
        })
      : notAllowed(method, path, ['GET']);
  }
  const handler = first === undefined ? undefined : SIM_ROUTES.get(first);
  return handler === undefined
    ? notFound(path)
    : handler(store, { method, segments, body, options, family: SIM_FAMILY });
}
