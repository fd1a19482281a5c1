import { readFileSync } from 'node:fs';
import { Agent, request, type Dispatcher } from 'undici';
import { ProvisionError } from '../errors.js';
import { PanelHttpError, unreachableError } from './errors.js';
import { checkApiKey } from './key.js';
import { BODY_TIMEOUT_MS, CONNECT_TIMEOUT_MS, DEFAULT_CONNECTIONS, HEADERS_TIMEOUT_MS, MAX_PANEL_MESSAGE_CHARS } from './limits.js';

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
}

export type Method = 'GET' | 'POST';

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
    if (options.dispatcher === undefined) {
      this.dispatcher = new Agent({
        connections: options.connections ?? DEFAULT_CONNECTIONS,
        headersTimeout: HEADERS_TIMEOUT_MS,
        bodyTimeout: BODY_TIMEOUT_MS,
        connect: {
          timeout: CONNECT_TIMEOUT_MS,
          ...(options.caFile === undefined ? {} : { ca: readCaFile(options.caFile) }),
          ...(options.insecure === true ? { rejectUnauthorized: false } : {}),
        },
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
   * One request with its retry policy: the single place where retries belong (issue 4: GET on
   * 429/502/503/504, honouring Retry-After; never POST). This version never retries.
   */
  private async call(method: Method, path: string, body: unknown): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(method, path, body);
      const delay = retryDelayMs(method, outcome, attempt);
      if (delay === undefined) {
        if (outcome.ok) return outcome.value;
        throw outcome.error;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
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
        headersTimeout: HEADERS_TIMEOUT_MS,
        bodyTimeout: BODY_TIMEOUT_MS,
      });
      status = response.statusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (err) {
      return { ok: false, error: unreachableError(method, this.origin + path, err) };
    } finally {
      this.onRequest?.({ method, path, status, ms: Math.round(performance.now() - started) });
    }
    return interpret(method, path, status, headers, text, this.apiKey);
  }
}

/** The result of one attempt, as a retry policy sees it. */
export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ProvisionError };

/** How long to wait before attempt `attempt + 1`, or undefined to stop. Pure, to be tested alone. */
export type RetryPolicy = (method: Method, outcome: Outcome, attempt: number) => number | undefined;

/** This version's policy: never retry. */
export const retryDelayMs: RetryPolicy = () => undefined;

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
    throw new ProvisionError('usage', `cannot read the CA file ${path} (${code})`, {
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
