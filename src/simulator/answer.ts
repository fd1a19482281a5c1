/**
 * The simulator's answer to a request, in a file of its own: the routes, the kinds' modules
 * (kinds/), the faults and the HTTP plumbing all make or send one. Also the request body as
 * the routes get it, and the panel's error shapes.
 */
import { STATUS_CODES } from 'node:http';

/** What the simulator sends back: JSON unless `text` is given. */
export interface Answer {
  readonly status: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The state changed: save it before answering. */
  readonly mutated?: boolean;
  /** A GET of this domain's zone answered: the race fault (faults.ts) may change the zone after it. */
  readonly zoneRead?: number;
}

/** The parsed request body: undefined when empty, `invalid` when it is not JSON. */
export type Body =
  { readonly kind: 'none' } | { readonly kind: 'invalid' } | { readonly kind: 'json'; readonly value: unknown };

/** How a rule refuses a request: `error`, handed in so that record modules stay free of HTTP. */
export type Refuse = (status: number, message: string) => Answer;

export function ok(json: unknown): Answer {
  return { status: 200, json };
}

/** The panel's error shape: `code` is the status and reason phrase, as a string. */
export function error(status: number, message: string, headers?: Record<string, string>): Answer {
  return {
    status,
    json: { code: `${status} ${STATUS_CODES[status] ?? 'Error'}`, message },
    ...(headers ? { headers } : {}),
  };
}

export function notFound(path: string): Answer {
  return error(404, `No route matches ${path}.`);
}

export function notAllowed(method: string, path: string, allowed: readonly string[]): Answer {
  return error(405, `The method ${method} is not allowed for ${path}.`, {
    allow: allowed.join(', '),
  });
}

/** A DELETE's answer: 200 with `{"id"}`, or 204 without a body with `deleteStatus: 204`. */
export function deleted(id: number, deleteStatus: 200 | 204): Answer {
  return deleteStatus === 204 ? { status: 204, mutated: true } : { status: 200, json: { id }, mutated: true };
}

/** A path segment percent-decoded (only: '+' stays a plus sign), or undefined when it is not validly encoded. */
export function decoded(segment: string | undefined): string | undefined {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return undefined;
  }
}
