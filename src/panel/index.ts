/** The panel's API v2 client: base URL, key, HTTP over undici, errors, and the live read. */
export { PanelClient, USER_AGENT, type PanelClientOptions, type PanelClock, type PanelTimeouts } from './client.js';
export { proxySettings, type ProxyChoice } from './proxy.js';
export { checkCaPem, withoutHttp2 } from './transport.js';
export { PanelHttpError, PanelNetworkError, unreachableError } from './errors.js';
export {
  CREATE_BACKOFF,
  DEFAULT_RETRY_TIMING,
  MAX_POSTS,
  ambiguity,
  backoffMs,
  isRetryable,
  mayBeSettling,
  parseRetryAfterMs,
  refusal,
  repostDelayMs,
  retryDelayMs,
  settleDelayMs,
  waitMessage,
  type Method,
  type AttemptResult,
  type RetryContext,
  type RetryPolicy,
  type RetryTiming,
} from './retry.js';
export { API_KEY_HINT, apiKeyFromEnv, checkApiKey } from './key.js';
export {
  BODY_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  DEFAULT_CONNECTIONS,
  DEFAULT_MAX_ANSWER_MB,
  HEADERS_TIMEOUT_MS,
  MAX_ANSWER_MB,
} from './limits.js';
export {
  DEFAULT_LOOKUP_CONCURRENCY,
  findClient,
  findClientById,
  findDomain,
  readClientDetails,
  readLive,
  type ClientDetails,
  type ReadAgain,
  type ReadLiveOptions,
} from './read.js';
export { readList } from './list-read.js';
export { parseClientRecord } from '../kinds/client/read.js';
export { parseDomainRecord } from '../kinds/domain/read.js';
export { parseHostingPlanRecord } from '../kinds/hosting-plan/read.js';
export type { Live, LiveClient, LiveDomain, LiveHostingPlan, ManagedField } from './types.js';
export { isLoopback, normalizeBaseUrl } from './url.js';
