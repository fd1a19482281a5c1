import type { Dispatcher } from 'undici';
import type { OnPanelEvent } from '../events.js';
import type { RetryTiming } from './retry.js';

/** What a PanelClient is made with: where, which key, how it connects, retries and tells. */

/** Time as the client sees it; injected in tests so that retries take no real time. */
export interface PanelClock {
  /** Epoch milliseconds. Default Date.now. */
  readonly now: () => number;
  /** Default: a timer. */
  readonly sleep: (ms: number) => Promise<void>;
  /** In [0, 1), for backoff jitter. Default Math.random. */
  readonly random: () => number;
}

/** Per-attempt limits; defaults CONNECT_TIMEOUT_MS, HEADERS_TIMEOUT_MS, BODY_TIMEOUT_MS. */
export interface PanelTimeouts {
  /** TCP and TLS connect (through a proxy: to the proxy, then the tunnel). */
  readonly connectMs: number;
  /** From the request sent to the status line and headers. */
  readonly headersMs: number;
  /** Longest silence while the body streams in (not the whole body's duration). */
  readonly bodyMs: number;
}

export interface PanelClientOptions {
  /** The API's base URL, as normalizeBaseUrl returns it (…/api/v2, no trailing slash). */
  readonly baseUrl: string;
  /** Sent as X-API-Key on every request; never put in a message. */
  readonly apiKey: string;
  /**
   * PEM text of certificate authorities to trust (a panel with a private or self-signed certificate);
   * see checkCaPem.
   */
  readonly ca?: string;
  /** Turns certificate verification off. The CLI warns about it; this module does not print. */
  readonly insecure?: boolean;
  /** Parallel connections to the panel; default DEFAULT_CONNECTIONS. */
  readonly connections?: number;
  /** Replaces the client's own Agent (tests); the caller closes it. ca, insecure, connections are then ignored. */
  readonly dispatcher?: Dispatcher;
  /**
   * Told `sent` after every request (`status` 0 when no answer came: a network error) and
   * `retry`, in one sentence, before each wait for a retry:
   * 'GET /api/v2/clients answered 503: retrying in 2.0 s (attempt 2)'. Never holds the key.
   */
  readonly onEvent?: OnPanelEvent;
  /** Total time for one request, its retries and waits included; default 60 000 (DEFAULT_RETRY_TIMING.budgetMs). */
  readonly retryBudgetMs?: number;
  /** Backoff and attempt limits beside the budget; default DEFAULT_RETRY_TIMING. */
  readonly retryTiming?: Partial<Omit<RetryTiming, 'budgetMs'>>;
  /** Per-attempt timeouts; each field defaults to its constant in limits.ts. */
  readonly timeouts?: Partial<PanelTimeouts>;
  /** Injected clock, sleep and random source (tests). */
  readonly clock?: Partial<PanelClock>;
  /** The largest answer read, in MB, on the wire and decoded; default DEFAULT_MAX_ANSWER_MB. */
  readonly maxAnswerMb?: number;
  /**
   * Environment to read proxy settings from (the CLI passes its env; never read from
   * process.env here): https_proxy / HTTPS_PROXY for https:// panels, http_proxy / HTTP_PROXY
   * for http:// ones (and https:// ones when no HTTPS proxy is set), no_proxy / NO_PROXY
   * (comma-separated hosts, `.suffix`, `host:port`, `*`). Lowercase wins, as in curl.
   */
  readonly proxyEnv?: Readonly<Record<string, string | undefined>>;
}
