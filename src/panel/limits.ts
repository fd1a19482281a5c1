/**
 * Time and size limits of the panel client, in one place so they are easy to find and tune.
 */

/** Give up connecting (TCP and TLS) after 10 s: a panel that takes longer is down or filtered. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Wait at most 30 s for the status line and headers. Generous on purpose: the panel builds the
 * whole GET /clients or /domains list (tens of thousands of records) before it answers.
 */
export const HEADERS_TIMEOUT_MS = 30_000;

/** At most 30 s of silence while a body streams in (not the whole body's duration). */
export const BODY_TIMEOUT_MS = 30_000;

/**
 * Requests in flight at once when the caller does not say: apply's changes (--concurrency) and
 * the DNS zones plan reads, so a plan reads zones at the pace apply will write them.
 */
export const DEFAULT_CONCURRENCY = 4;
/** The most requests kept in flight: more would only queue in the panel (and trip rate limits). */
export const MAX_CONCURRENCY = 64;

/** Parallel connections to the panel when the caller does not say. */
export const DEFAULT_CONNECTIONS = 8;

/** The panel's message in an error is cut here: errors stay one readable line. */
export const MAX_PANEL_MESSAGE_CHARS = 300;

/**
 * The largest answer read, decoded (256 MB): the simulator's lists of a 100,000-client panel
 * with three domains each are 17.7 MB of clients (186 bytes a record) and 188.2 MB of domains
 * (658 bytes a record, in the panel's full shape with its settings: go-acme/lego's fixture),
 * measured by bench/answer-size.ts and test/panel/answer-size.test.ts. A panel past about
 * 350,000 domains needs --max-answer-mb. Past the limit the read stops with an error naming
 * --max-answer-mb, before the memory runs out. At most MAX_ANSWER_MB: a string longer than about
 * 512 MB cannot be held.
 */
export const DEFAULT_MAX_ANSWER_MB = 256;
export const MAX_ANSWER_MB = 500;
