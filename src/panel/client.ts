import { readFileSync } from 'node:fs';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { ProvisionError } from '../errors.js';
import { PanelHttpError, unreachableError } from './errors.js';
import { checkApiKey } from './key.js';
import { BODY_TIMEOUT_MS, CONNECT_TIMEOUT_MS, DEFAULT_CONNECTIONS, HEADERS_TIMEOUT_MS, MAX_PANEL_MESSAGE_CHARS } from './limits.js';
import { DEFAULT_RETRY_TIMING, retryDelayMs, waitMessage, type Method, type Outcome, type RetryTiming } from './retry.js';

export type { Method, Outcome } from './retry.js';

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
  /** A PEM file of certificate authorities to trust (a panel with a private or self-signed certificate). */
  readonly caFile?: string;
  /** Turns certificate verification off. The CLI warns about it; this module does not print. */
  readonly insecure?: boolean;
  /** Parallel connections to the panel; default DEFAULT_CONNECTIONS. */
  readonly connections?: number;
  /** Replaces the client's own Agent (tests); the caller closes it. caFile, insecure, connections are then ignored. */
  readonly dispatcher?: Dispatcher;
  /** Called after every request; `status` is 0 when no answer came (network error). */
  readonly onRequest?: (event: { method: string; path: string; status: number; ms: number }) => void;
  /**
   * Told, in one sentence, before each wait for a retry:
   * 'GET /api/v2/clients answered 503: retrying in 2.0 s (attempt 2)'. Never holds the key.
   */
  readonly onWait?: (message: string) => void;
  /** Total time for one request, its retries and waits included; default 60 000 (DEFAULT_RETRY_TIMING.budgetMs). */
  readonly retryBudgetMs?: number;
  /** Backoff and attempt limits beside the budget; default DEFAULT_RETRY_TIMING. */
  readonly retryTiming?: Partial<Omit<RetryTiming, 'budgetMs'>>;
  /** Per-attempt timeouts; each field defaults to its constant in limits.ts. */
  readonly timeouts?: Partial<PanelTimeouts>;
  /** Injected clock, sleep and random source (tests). */
  readonly clock?: Partial<PanelClock>;
  /**
   * Environment to read proxy settings from (the CLI passes its env; never read from
   * process.env here): https_proxy / HTTPS_PROXY for https:// panels, http_proxy / HTTP_PROXY
   * for http:// ones (and https:// ones when no HTTPS proxy is set), no_proxy / NO_PROXY
   * (comma-separated hosts, `.suffix`, `host:port`, `*`). Lowercase wins, as in curl.
   */
  readonly proxyEnv?: Readonly<Record<string, string | undefined>>;
}

/** Sent as User-Agent: panel operators can see who calls. */
export const USER_AGENT = `panel-provision/${packageVersion()}`;

/**
 * The one place that talks HTTP to the panel. Paths are relative to the base URL ('/clients').
 * Every answer is JSON or an error: PanelHttpError (status >= 300, redirects not followed),
 * ProvisionError 'panel_contract' (a success that is not JSON, e.g. the HTML page of a panel
 * whose API is off), 'panel_unreachable' (no answer).
 */
export class PanelClient {
  readonly baseUrl: string;
  /** The base URL's path ('/api/v2'); errors name method and path without the host. */
  readonly basePath: string;
  private readonly origin: string;
  private readonly apiKey: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly onRequest: PanelClientOptions['onRequest'];
  private readonly onWait: PanelClientOptions['onWait'];
  private readonly timing: RetryTiming;
  private readonly timeouts: PanelTimeouts;
  /** The clock retries use; a Creator built on this client waits with it too. */
  readonly clock: PanelClock;
  /** The proxy requests go through for this panel, its credentials removed; undefined: direct. */
  readonly proxy: string | undefined;

  constructor(options: PanelClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new ProvisionError('usage', 'the panel URL is not a valid URL', { hint: 'normalise it with normalizeBaseUrl first' });
    }
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.baseUrl = this.origin + this.basePath;
    this.apiKey = checkApiKey(options.apiKey, 'the options');
    this.onRequest = options.onRequest;
    this.onWait = options.onWait;
    this.timing = { ...DEFAULT_RETRY_TIMING, ...options.retryTiming, budgetMs: options.retryBudgetMs ?? DEFAULT_RETRY_TIMING.budgetMs };
    this.timeouts = { connectMs: CONNECT_TIMEOUT_MS, headersMs: HEADERS_TIMEOUT_MS, bodyMs: BODY_TIMEOUT_MS, ...options.timeouts };
    this.clock = {
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      random: Math.random,
      ...options.clock,
    };
    const proxy = proxySettings(options.proxyEnv ?? {}, url);
    this.proxy = proxy.used;
    if (options.dispatcher === undefined) {
      const tls = {
        ...(options.caFile === undefined ? {} : { ca: readCaFile(options.caFile) }),
        ...(options.insecure === true ? { rejectUnauthorized: false } : {}),
      };
      const agentOptions = {
        connections: options.connections ?? DEFAULT_CONNECTIONS,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
        connect: { timeout: this.timeouts.connectMs, ...tls },
      };
      // Through a proxy, `connect` reaches the proxy and `requestTls` the panel inside the tunnel.
      this.dispatcher =
        proxy.http === '' && proxy.https === ''
          ? new Agent(agentOptions)
          : new EnvHttpProxyAgent({
              ...agentOptions,
              httpProxy: proxy.http,
              httpsProxy: proxy.https,
              noProxy: proxy.noProxy,
              requestTls: { timeout: this.timeouts.connectMs, ...tls },
            });
      this.ownsDispatcher = true;
    } else {
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    }
  }

  get(path: string): Promise<unknown> {
    return this.call('GET', path, undefined);
  }

  post(path: string, body: unknown): Promise<unknown> {
    return this.call('POST', path, body);
  }

  /** GET /<collection>/name/<encodeURIComponent(name)>, undefined on 404. */
  async findByName(collection: 'clients' | 'domains' | 'hosting-plans', name: string): Promise<unknown> {
    try {
      return await this.get(`/${collection}/name/${encodeURIComponent(name)}`);
    } catch (err) {
      if (err instanceof PanelHttpError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** 'GET /api/v2/clients': how errors name a request. */
  describe(method: Method, path: string): string {
    return `${method} ${this.basePath}${path}`;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /**
   * One request with its retry policy (retry.ts): the single place where retries belong. GET
   * on transient network failures and 429/502/503/504, POST on 429/503 only, Retry-After
   * honoured, within the budget. The last failure is thrown as it was.
   */
  private async call(method: Method, path: string, body: unknown): Promise<unknown> {
    const started = this.clock.now();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(method, path, body);
      if (outcome.ok) return outcome.value;
      const now = this.clock.now();
      const delay = retryDelayMs(method, outcome, { attempt, elapsedMs: now - started, nowMs: now, random: this.clock.random, timing: this.timing });
      if (delay === undefined) throw outcome.error;
      this.onWait?.(waitMessage(this.describe(method, path), outcome.error, delay, attempt + 1));
      await this.clock.sleep(delay);
    }
  }

  /** Sends once and interprets the answer; never throws. */
  private async attempt(method: Method, relative: string, body: unknown): Promise<Outcome> {
    const path = this.basePath + (relative.startsWith('/') ? relative : `/${relative}`);
    const started = performance.now();
    let status = 0;
    let headers: Record<string, string | string[] | undefined>;
    let text: string;
    try {
      const response = await request(this.origin + path, {
        method,
        headers: {
          'x-api-key': this.apiKey,
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        dispatcher: this.dispatcher,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
      status = response.statusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (err) {
      return { ok: false, error: unreachableError(method, this.origin + path, err, this.timeouts) };
    } finally {
      this.onRequest?.({ method, path, status, ms: Math.round(performance.now() - started) });
    }
    return interpret(method, path, status, headers, text, this.apiKey);
  }
}

/**
 * The proxies for this panel from an environment, as EnvHttpProxyAgent takes them ('' = none,
 * so that undici does not fall back to process.env), and `used`: the proxy this panel's
 * requests go through, credentials removed, or undefined when NO_PROXY exempts it.
 */
export function proxySettings(env: Readonly<Record<string, string | undefined>>, panel: URL): { http: string; https: string; noProxy: string; used: string | undefined } {
  const pick = (name: string): string => (env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '').trim();
  const http = pick('http_proxy');
  const https = pick('https_proxy');
  const noProxy = pick('no_proxy');
  for (const [name, value] of [['HTTP_PROXY', http], ['HTTPS_PROXY', https]] as const) {
    if (value !== '' && !/^https?:\/\/[^/]/i.test(value)) {
      // The value is not echoed: a proxy URL may carry a password.
      throw new ProvisionError('usage', `${name} (or its lowercase form) is not an http:// or https:// URL`, {
        hint: 'set it like http://proxy.example:3128 (user:password@ allowed), or unset it',
      });
    }
  }
  const chosen = panel.protocol === 'https:' ? https || http : http;
  const used = chosen === '' || exempt(noProxy, panel) ? undefined : withoutCredentials(chosen);
  return { http, https, noProxy, used };
}

/** NO_PROXY as undici reads it: '*', hosts, '.suffix' or '*.suffix', optional ':port'. */
function exempt(noProxy: string, panel: URL): boolean {
  const host = panel.hostname.toLowerCase();
  const port = Number(panel.port) || (panel.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    if (entry === '*') return true;
    const match = /^(.+):(\d+)$/.exec(entry);
    const name = (match?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    if (match?.[2] !== undefined && Number(match[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

function withoutCredentials(proxy: string): string {
  try {
    const url = new URL(proxy);
    return url.origin;
  } catch {
    return 'an unreadable proxy URL';
  }
}

function interpret(
  method: Method,
  path: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  apiKey: string,
): Outcome {
  const contentType = header(headers, 'content-type') ?? '';
  const html = /html/i.test(contentType) || /^\s*</.test(text);
  let json: unknown;
  let isJson = false;
  if (!html && text.trim() !== '') {
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      // Not JSON: handled below, by status.
    }
  }
  if (status < 200 || status >= 300) {
    const location = header(headers, 'location');
    return {
      ok: false,
      error: new PanelHttpError({
        method,
        path,
        status,
        panelMessage: isJson ? panelMessage(json, apiKey) : undefined,
        retryAfter: header(headers, 'retry-after'),
        location: location === undefined ? undefined : originOf(location),
      }),
    };
  }
  if (status === 204) return { ok: true, value: undefined };
  if (isJson) return { ok: true, value: json };
  const what = html ? 'HTML' : text.trim() === '' ? 'an empty body' : `a body that is not JSON (${contentType || 'no content type'})`;
  return {
    ok: false,
    error: new ProvisionError('panel_contract', `${method} ${path}: ${status} answered ${what}, not JSON`, {
      hint: html
        ? "is the REST API enabled in the panel's settings? Also check that --url / PROVISION_URL points at the panel itself"
        : 'check that --url / PROVISION_URL points at the panel; a proxy in between may rewrite answers',
    }),
  };
}

/** The `message` of the panel's JSON error body, on one line, shortened, the key blanked out. */
function panelMessage(json: unknown, apiKey: string): string | undefined {
  if (typeof json !== 'object' || json === null || !('message' in json) || typeof json.message !== 'string') return undefined;
  let message = json.message.replaceAll(apiKey, '***').replace(/\s+/g, ' ').trim();
  if (message.length > MAX_PANEL_MESSAGE_CHARS) message = `${message.slice(0, MAX_PANEL_MESSAGE_CHARS)}…`;
  return message === '' ? undefined : message;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Only the origin of a redirect target: its path or query could carry anything. */
function originOf(location: string): string | undefined {
  try {
    return new URL(location).origin;
  } catch {
    return undefined;
  }
}

function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (err) {
    const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : 'unreadable';
    throw new ProvisionError('io', `cannot read the CA file ${path} (${code})`, {
      hint: '--ca-file takes a PEM file with the certificate authority that signed the panel\'s certificate',
    });
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ProvisionError('usage', `the CA file ${path} holds no PEM certificate`, {
      hint: 'expected "-----BEGIN CERTIFICATE-----" blocks; convert a DER file with: openssl x509 -inform der -in ca.der -out ca.pem',
    });
  }
  return pem;
}

/** This package's version, from package.json two folders up (src/panel and dist/panel alike). */
function packageVersion(): string {
  try {
    const json: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    if (typeof json === 'object' && json !== null && 'version' in json && typeof json.version === 'string') return json.version;
  } catch {
    // Fall through: a User-Agent without a precise version is still useful.
  }
  return 'unknown';
}
