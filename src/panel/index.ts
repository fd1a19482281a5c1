/** The panel's API v2 client: base URL, key, HTTP over undici, errors, and the live read. */
export { PanelClient, USER_AGENT, retryDelayMs, type Method, type Outcome, type PanelClientOptions, type RetryPolicy } from './client.js';
export { PanelHttpError, unreachableError } from './errors.js';
export { checkApiKey, readApiKey } from './key.js';
export { BODY_TIMEOUT_MS, CONNECT_TIMEOUT_MS, DEFAULT_CONNECTIONS, HEADERS_TIMEOUT_MS } from './limits.js';
export {
  DEFAULT_LOOKUP_CONCURRENCY,
  parseClientRecord,
  parseDomainRecord,
  parsePlanRecord,
  readList,
  readLive,
  type ReadLiveOptions,
} from './read.js';
export type { Live, LiveClient, LiveDomain, LivePlan } from './types.js';
export { isLoopback, normalizeBaseUrl } from './url.js';
