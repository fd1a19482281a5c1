/**
 * When to try a request again, and after how long: pure functions of the outcome, the attempt
 * number, the time spent and a random source, so they can be tested without a network or a clock.
 *
 * Rules (docs/reliability.md):
 * - GET is retried on 429, 502, 503, 504 and on transient network failures (connection closed
 *   or reset, header/body/connect timeout). A refused connection, a DNS failure or a rejected
 *   certificate is not transient: it fails at once.
 * - PUT and DELETE are idempotent (the same partial PUT twice leaves the same record; a second
 *   DELETE finds nothing to delete), so they follow GET's rules. What a DELETE that got no
 *   answer did is the caller's to read back (apply/panel-adapter.ts).
 * - A whole-object write (a request marked `wholeObject`: a zone's record list, a domain's
 *   `security`/`target`, a hosting plan's objects) is never sent again by the client: its body was
 *   built from a read, and between two attempts someone else may write the object (an ACME
 *   client after a 503). The caller reads the object again, checks it, rebuilds the body and
 *   sends that (apply/whole-write.ts); `rewriteReason` says which failures are worth it.
 * - POST is retried only on 429 and 503 (the panel did not process it). Anything ambiguous is
 *   the caller's to resolve (see apply/panel-adapter.ts): a POST is never repeated blindly.
 * - A request that changes the panel (POST, PUT, DELETE) is not sent again once the caller's
 *   signal is aborted (Ctrl-C): the client (client.ts) applies that on top of these rules.
 * - Never 401 or 403: repeated bad keys can lock the caller out.
 * - Backoff: capped exponential with full jitter, `random() * min(capMs, baseMs * 2^(attempt-1))`.
 *   A `Retry-After` (seconds or HTTP date) replaces it when present.
 * - No new attempt starts when the wait would end past the budget, or after `maxAttempts`.
 *
 * On top of those, the policy for creates that apply's panel adapter (apply/panel-adapter.ts)
 * follows, in the same pure form: what makes a failed POST ambiguous, how often a POST is sent
 * again after an ambiguous failure found nothing, and how long a new account may settle.
 */
import type { ProvisionError } from '../errors.js';
import { PanelHttpError, PanelNetworkError } from './errors.js';

/** The methods the client sends; every one but POST is idempotent. */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The result of one attempt, as a retry policy sees it. */
export type AttemptResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
    }
  | { readonly ok: false; readonly error: ProvisionError };

export interface RetryTiming {
  /** Backoff ceiling of the first retry; doubles with each attempt. */
  readonly baseMs: number;
  /** Backoff ceiling never exceeds this. */
  readonly capMs: number;
  /** Total time for one request, retries and waits included: no wait may end past it. */
  readonly budgetMs: number;
  /** Attempts per request, the first included. */
  readonly maxAttempts: number;
}

/** 0.5 s, doubling, capped at 8 s; 60 s and 8 attempts per request. */
export const DEFAULT_RETRY_TIMING: RetryTiming = {
  baseMs: 500,
  capMs: 8_000,
  budgetMs: 60_000,
  maxAttempts: 8,
};

/** Statuses an idempotent request (GET, PUT, DELETE) is retried on; a POST only on 429 and 503 (not processed). */
const RETRY_IDEMPOTENT_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_POST_STATUSES = new Set([429, 503]);

export interface RetryContext {
  /** The attempt that just failed, from 1. */
  readonly attempt: number;
  /** Time since the first attempt started. */
  readonly elapsedMs: number;
  /** Wall-clock time (epoch ms), to read a Retry-After given as an HTTP date. */
  readonly nowMs: number;
  /** In [0, 1). */
  readonly random: () => number;
  readonly timing: RetryTiming;
}

/**
 * What the retry policy knows of a request: its method and, for a write that replaces a whole
 * object built from a read (`wholeObject`), that it is never resent as it is. A bare method is a
 * request of that method that is not a whole-object write.
 */
export type RetriedRequest = Method | { readonly method: Method; readonly wholeObject?: boolean | undefined };

/** How long to wait before attempt `attempt + 1`, or undefined to stop and report the outcome. */
export type RetryPolicy = (
  request: RetriedRequest,
  outcome: AttemptResult,
  context: RetryContext,
) => number | undefined;

export const retryDelayMs: RetryPolicy = (request, outcome, context) => {
  if (outcome.ok || !isRetryable(request, outcome.error)) return undefined;
  if (context.attempt >= context.timing.maxAttempts) return undefined;
  const after =
    outcome.error instanceof PanelHttpError ? parseRetryAfterMs(outcome.error.retryAfter, context.nowMs) : undefined;
  const delay = after ?? backoffMs(context.attempt, context.timing, context.random);
  return context.elapsedMs + delay > context.timing.budgetMs ? undefined : delay;
};

/**
 * Whether this failure may go away by itself and sending again is safe for the request: GET, PUT
 * and DELETE on 429/502/503/504 and transient network failures; POST on 429/503 only; a
 * whole-object write never (its caller reads again and rebuilds: rewriteReason).
 */
export function isRetryable(request: RetriedRequest, error: ProvisionError): boolean {
  const method = typeof request === 'string' ? request : request.method;
  if (typeof request !== 'string' && request.wholeObject === true) return false;
  const idempotent = method !== 'POST';
  if (error instanceof PanelHttpError)
    return (idempotent ? RETRY_IDEMPOTENT_STATUSES : RETRY_POST_STATUSES).has(error.status);
  return idempotent && error instanceof PanelNetworkError && error.transient;
}

/** Full jitter: uniform in [0, min(capMs, baseMs * 2^(attempt-1))), whole milliseconds. */
export function backoffMs(
  attempt: number,
  timing: Pick<RetryTiming, 'baseMs' | 'capMs'>,
  random: () => number,
): number {
  const ceiling = Math.min(timing.capMs, timing.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * A Retry-After header in milliseconds: delta-seconds ('120') or an HTTP date (relative to
 * `nowMs`, never negative). undefined when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** POSTs sent for one resource after ambiguous failures, the first included. */
export const MAX_POSTS = 3;
/** Backoff between POSTs after an ambiguous failure, and while a new account settles. */
export const CREATE_BACKOFF = { baseMs: 500, capMs: 5_000 } as const;
/** The shortest wait between two POSTs for one resource. */
const MIN_CREATE_WAIT_MS = 100;

/**
 * Why a failed POST may still have been processed, or undefined when it surely was not, or was
 * surely refused: sent without an answer (a reset, a timeout), or a gateway's 502 or 504.
 */
export function ambiguity(error: unknown): string | undefined {
  if (error instanceof PanelNetworkError)
    return error.sent ? `got no answer (${error.what}, ${error.networkCode})` : undefined;
  if (error instanceof PanelHttpError && (error.status === 502 || error.status === 504))
    return `answered ${error.status}`;
  return undefined;
}

/** Whole-object writes sent for one change, the first included, each built from its own read. */
export const MAX_WHOLE_WRITES = 3;

/**
 * Why a failed whole-object write is worth a new read and, if the object is as the change saw it,
 * a rebuilt write: no answer (it may have been carried out), or 429 or a 5xx (the panel was busy,
 * or failed after writing: a 503 may follow a write that landed). undefined for a refusal (4xx),
 * which stands.
 */
export function rewriteReason(error: unknown): string | undefined {
  if (error instanceof PanelNetworkError && error.transient)
    return error.sent
      ? `got no answer (${error.what}, ${error.networkCode})`
      : `was not sent (${error.what}, ${error.networkCode})`;
  if (error instanceof PanelHttpError && (error.status === 429 || error.status >= 500))
    return `answered ${error.status}`;
  return undefined;
}

/** The wait before reading a whole object again after write number `writes` failed (rewriteReason). */
export function rewriteDelayMs(writes: number, random: () => number): number {
  return Math.max(MIN_CREATE_WAIT_MS, backoffMs(writes, CREATE_BACKOFF, random));
}

/**
 * Whether the panel surely refused a POST, so that nothing was created: a 4xx answer (the
 * 429 the client retries aside), or a request that never left. The reason, in the program's
 * words; undefined when the resource may exist.
 */
export function refusal(error: unknown): string | undefined {
  if (error instanceof PanelHttpError && error.status >= 400 && error.status < 500) return `answered ${error.status}`;
  if (error instanceof PanelNetworkError && !error.sent) return `not sent (${error.what}, ${error.networkCode})`;
  return undefined;
}

/**
 * After POST number `posts` failed ambiguously and a look-up found nothing: the wait before
 * sending it again, or undefined to give up (MAX_POSTS sent).
 */
export function repostDelayMs(posts: number, random: () => number): number | undefined {
  return posts >= MAX_POSTS ? undefined : Math.max(MIN_CREATE_WAIT_MS, backoffMs(posts, CREATE_BACKOFF, random));
}

/**
 * Whether a POST /domains refusal may be a new account still being set up (the panel does it
 * in the background after its 201): a 400 or 404, for a client created in the same run.
 */
export function mayBeSettling(error: unknown, clientIsNew: boolean): error is PanelHttpError {
  return clientIsNew && error instanceof PanelHttpError && (error.status === 400 || error.status === 404);
}

/**
 * While a new account settles: the wait before attempt `attempt + 1`, or undefined when it
 * would end past `timeoutMs` after the first attempt (then the refusal stands).
 */
export function settleDelayMs(
  attempt: number,
  elapsedMs: number,
  timeoutMs: number,
  random: () => number,
): number | undefined {
  const delay = Math.max(MIN_CREATE_WAIT_MS, backoffMs(attempt, CREATE_BACKOFF, random));
  return elapsedMs + delay > timeoutMs ? undefined : delay;
}

/**
 * The sentence an `onWait` callback gets: 'GET /api/v2/clients answered 503: retrying in 2.0 s (attempt 2)'.
 * `request` is 'GET /api/v2/clients'; `attempt` the one about to start.
 */
export function waitMessage(request: string, error: ProvisionError, delayMs: number, attempt: number): string {
  let why: string;
  if (error instanceof PanelHttpError) {
    // The header is echoed only when it reads as one: it comes from the other side.
    const after = error.retryAfter;
    const readable = after !== undefined && /^[\w ,:+-]{1,40}$/.test(after) ? ` (Retry-After: ${after})` : '';
    why = `answered ${error.status}${readable}`;
  } else if (error instanceof PanelNetworkError) {
    why = `got no answer (${error.what}, ${error.networkCode})`;
  } else {
    why = `failed (${error.code})`;
  }
  return `${request} ${why}: retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt})`;
}
