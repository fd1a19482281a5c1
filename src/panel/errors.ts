import { STATUS_CODES } from 'node:http';
import { ProvisionError } from '../errors.js';
import { BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS } from './limits.js';

/**
 * The panel answered with an HTTP error status (or a redirect, which is not followed).
 * The message is one line: `POST /api/v2/clients: 400 Bad Request: <the panel's message>`.
 * `path` is the URL's path (with /api/v2, without host); `panelMessage` is the `message` of
 * the panel's JSON error body when it had one.
 */
export class PanelHttpError extends ProvisionError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly panelMessage: string | undefined;
  /** The `Retry-After` header as sent, for a retry policy (429, 503). */
  readonly retryAfter: string | undefined;

  constructor(init: {
    method: string;
    path: string;
    status: number;
    panelMessage?: string | undefined;
    retryAfter?: string | undefined;
    /** The origin a redirect points to. */
    location?: string | undefined;
  }) {
    const reason = STATUS_CODES[init.status] ?? 'Unknown Status';
    const detail = init.panelMessage === undefined ? '' : `: ${init.panelMessage}`;
    const hint = hintForStatus(init.status, init.retryAfter, init.location);
    super('panel_http', `${init.method} ${init.path}: ${init.status} ${reason}${detail}`, {
      ...(hint === undefined ? {} : { hint }),
      meta: { method: init.method, path: init.path, status: init.status, panel_message: init.panelMessage },
    });
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.panelMessage = init.panelMessage;
    this.retryAfter = init.retryAfter;
  }
}

function hintForStatus(
  status: number,
  retryAfter: string | undefined,
  location: string | undefined,
): string | undefined {
  if (status === 401) {
    return (
      'check the API key (PROVISION_API_KEY or --api-key-file) and that it is active in the panel; keys may be ' +
      'restricted to IP addresses; do not retry in a loop: repeated bad keys can lock you out'
    );
  }
  if (status === 403) {
    return (
      "the key is not allowed to do this, or not from this machine's IP address: " +
      "check the key's permissions and IP restrictions in the panel"
    );
  }
  if (status === 404) {
    return (
      'check --url / PROVISION_URL: it must point at the panel (the API lives under /api/v2); ' +
      'otherwise the record does not exist (any more)'
    );
  }
  if (status === 429 || status === 503) {
    const wait = retryAfter === undefined ? '' : ` (it asks to wait: Retry-After ${retryAfter})`;
    return `the panel is busy or rate-limiting${wait}: wait and run again, with a lower --concurrency`;
  }
  if (status >= 300 && status < 400) {
    const to = location === undefined ? '' : ` to ${location}`;
    return `the panel redirects${to}: give the final address in --url / PROVISION_URL (redirects are not followed)`;
  }
  if (status >= 500) return "the panel failed on its side: check the panel's logs, then run again";
  return undefined;
}

/**
 * The request got no answer (ProvisionError 'panel_unreachable'). `networkCode` is the
 * library's or the system's code ('ECONNREFUSED', 'UND_ERR_HEADERS_TIMEOUT'); `sent` is false
 * only when the request cannot have reached the panel (no connection: refused, DNS, TLS,
 * connect timeout), so a POST that failed with `sent` true may have been processed;
 * `transient` marks failures worth another try (closed or reset connection, timeouts).
 */
export class PanelNetworkError extends ProvisionError {
  readonly method: string;
  readonly networkCode: string;
  readonly sent: boolean;
  readonly transient: boolean;
  /** What happened, in a few words: 'cannot connect', 'no answer within 30 s'. */
  readonly what: string;

  constructor(init: {
    method: string;
    url: string;
    networkCode: string;
    what: string;
    sent: boolean;
    transient: boolean;
    hint: string;
    cause: unknown;
  }) {
    super('panel_unreachable', `${init.method} ${init.url}: ${init.what} (${init.networkCode})`, {
      hint: init.hint,
      meta: {
        method: init.method,
        url: init.url,
        path: pathOf(init.url),
        network_code: init.networkCode,
        sent: init.sent,
      },
      cause: init.cause,
    });
    this.method = init.method;
    this.networkCode = init.networkCode;
    this.sent = init.sent;
    this.transient = init.transient;
    this.what = init.what;
  }
}

/** The path of an absolute URL (`/api/v2/ping`), or the text as given when it is none. */
function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : url;
}

/** Codes of failures before any byte of the request can have reached the panel. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Our own code for an attempt stopped at its deadline (a peer that trickles, a proxy that never answers). */
export const DEADLINE_CODE = 'PROVISION_DEADLINE';
const TIMEOUTS = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
  DEADLINE_CODE,
]);
const CLOSED = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * The request got no answer: refused, DNS, TLS, timeout, connection closed. The message names
 * the whole URL (origin included: which host is the point) and the error's code, not its text.
 * `timeouts` are the header and body timeouts in force, for the message.
 */
export function unreachableError(
  method: string,
  url: string,
  err: unknown,
  timeouts: {
    readonly headersMs: number;
    readonly bodyMs: number;
    readonly deadlineMs?: number;
  } = { headersMs: HEADERS_TIMEOUT_MS, bodyMs: BODY_TIMEOUT_MS },
): PanelNetworkError {
  const code = errorCode(err);
  if (/CERT|SELF_SIGNED|TLS|SSL|VERIFY/.test(code)) {
    return new PanelNetworkError({
      method,
      url,
      networkCode: code,
      what: "the panel's TLS certificate is not accepted",
      sent: false,
      transient: false,
      hint:
        'if the panel uses a self-signed certificate or a private certificate authority, ' +
        'trust it with --ca-file <PEM file>; check that --url names the host the certificate is for',
      cause: err,
    });
  }
  const what =
    code === DEADLINE_CODE
      ? `no complete answer within ${Math.round((timeouts.deadlineMs ?? 0) / 100) / 10} s (the request's time budget)`
      : code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
        ? `no answer within ${(code === 'UND_ERR_HEADERS_TIMEOUT' ? timeouts.headersMs : timeouts.bodyMs) / 1000} s`
        : code === 'UND_ERR_CONNECT_TIMEOUT'
          ? 'the connection timed out'
          : CLOSED.has(code)
            ? 'the connection was closed before an answer'
            : 'cannot connect';
  return new PanelNetworkError({
    method,
    url,
    networkCode: code,
    what,
    sent: !NOT_SENT.has(code),
    transient: TIMEOUTS.has(code) || CLOSED.has(code),
    hint:
      'check --url / PROVISION_URL and that the panel is running and reachable from here ' +
      '(firewall, VPN, proxy: HTTPS_PROXY / NO_PROXY)',
    cause: err,
  });
}

/** The most specific code in an error, its cause or (for a dual-stack connect) its first inner error. */
function errorCode(err: unknown): string {
  const seen = new Set<unknown>();
  let current = err;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if ('code' in current && typeof current.code === 'string' && current.code !== '') return current.code;
    current = current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : current.cause;
  }
  return err instanceof Error ? err.name : 'unknown error';
}

/** A failure whose retry an interrupt cancelled: the same error, saying so. */
export function notSentAgain(error: ProvisionError): ProvisionError {
  return new ProvisionError(error.code, `${error.message} (not sent again: interrupted)`, {
    ...(error.hint === undefined ? {} : { hint: error.hint }),
    meta: error.meta,
    cause: error,
  });
}

/** Failures of requests an earlier attempt of which may have been carried out: why it may. */
const earlierUnanswered = new WeakMap<object, string>();

/**
 * Marks `error`, the last failure of a request whose earlier attempt `why` (got no answer,
 * answered 502 or 504): that attempt may have been carried out, so a refusal now may refuse
 * its repeat, not the request. Returns `error`.
 */
export function markAfterUnanswered(error: ProvisionError, why: string): ProvisionError {
  earlierUnanswered.set(error, why);
  return error;
}

/**
 * Why an earlier attempt of the request that failed with `error` may have been carried out
 * (see markAfterUnanswered), looking through its causes; undefined when every earlier attempt
 * was answered, or there was none: then a 4xx refused the request itself.
 */
export function afterUnanswered(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const why = earlierUnanswered.get(e);
    if (why !== undefined) return why;
  }
  return undefined;
}
