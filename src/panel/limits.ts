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

/** Parallel connections to the panel when the caller does not say. */
export const DEFAULT_CONNECTIONS = 8;

/** The panel's message in an error is cut here: errors stay one readable line. */
export const MAX_PANEL_MESSAGE_CHARS = 300;

/**
 * The largest answer read, decoded (256 MB): the simulator's lists of a 100,000-client panel
 * with three domains each are 88.6 MB (17.7 MB of clients, 70.9 MB of domains: about 190 bytes
 * a client and 250 a domain; measured by bench/answer-size.ts and test/panel/answer-size.test.ts),
 * so a panel whose records are nearly three times as rich still fits. Past it the read stops with an error
 * naming --max-answer-mb, before the memory runs out. At most MAX_ANSWER_MB: a string longer
 * than about 512 MB cannot be held.
 */
export const DEFAULT_MAX_ANSWER_MB = 256;
export const MAX_ANSWER_MB = 500;
