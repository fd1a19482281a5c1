import type { Dispatcher } from 'undici';
import { ProvisionError } from '../errors.js';
import { VERSION } from '../version.js';
import { DEADLINE_CODE, markAfterUnanswered, notSentAgain, PanelHttpError, unreachableError } from './errors.js';
import { declaredLength, readAnswer, readListAnswer } from './body.js';
import { elementsOf, StreamedList, type ListAnswer, type ListItem, type ListRead } from './list-stream.js';
import { checkApiKey } from './key.js';
import { BODY_TIMEOUT_MS, CONNECT_TIMEOUT_MS, DEFAULT_MAX_ANSWER_MB, HEADERS_TIMEOUT_MS } from './limits.js';
import { header, interpret, notJson } from './interpret.js';
import { proxySettings } from './proxy.js';
import { createDispatcher } from './transport.js';
import {
  DEFAULT_RETRY_TIMING,
  ambiguity,
  retryDelayMs,
  waitMessage,
  type AttemptResult,
  type Method,
  type RetryTiming,
} from './retry.js';
import type { PanelClientOptions, PanelClock, PanelTimeouts } from './client-options.js';
import type { OnPanelEvent } from '../events.js';
import { Redactions } from '../redact.js';
import { assertNever, untilAborted } from '../util.js';

export type { AttemptResult, Method } from './retry.js';
export type { PanelClientOptions, PanelClock, PanelTimeouts } from './client-options.js';

/**
 * The least of a request's budget a retry needs left to be worth starting (less could hardly
 * connect and be answered; an attempt never runs past the budget), and the shortest first
 * attempt (for a budget set below this, as tests do to turn retries off).
 */
export const MIN_ATTEMPT_MS = 1_000;

/** Sent as User-Agent: panel operators can see who calls. */
export const USER_AGENT = `panel-provision/${VERSION}`;

/**
 * The one place that talks HTTP to the panel. Paths are relative to the base URL ('/clients').
 * Every answer is JSON or an error: PanelHttpError (status >= 300, redirects not followed),
 * ProvisionError 'panel_contract' (a success that is not JSON, e.g. the HTML page of a panel
 * whose API is off), 'panel_unreachable' (no answer). PUT and DELETE accept any 2xx that is not
 * HTML (see send).
 */
export class PanelClient {
  readonly baseUrl: string;
  /** The base URL's path ('/api/v2'); errors name method and path without the host. */
  readonly basePath: string;
  private readonly origin: string;
  private readonly apiKey: string;
  /** The key in every form a panel could echo it in: blanked from the panel's messages. */
  private readonly keyForms: Redactions;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly onEvent: OnPanelEvent | undefined;
  private readonly timing: RetryTiming;
  private readonly timeouts: PanelTimeouts;
  private readonly maxAnswerBytes: number;
  /** The clock retries use; the apply adapter built on this client waits with it too. */
  readonly clock: PanelClock;
  /** The proxy requests go through for this panel, its credentials removed; undefined: direct. */
  readonly proxy: string | undefined;

  constructor(options: PanelClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new ProvisionError('usage', 'the panel URL is not a valid URL', {
        hint: 'normalise it with normalizeBaseUrl first',
      });
    }
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.baseUrl = this.origin + this.basePath;
    this.apiKey = checkApiKey(options.apiKey, 'the options');
    this.keyForms = new Redactions().add(this.apiKey);
    this.onEvent = options.onEvent;
    this.timing = {
      ...DEFAULT_RETRY_TIMING,
      ...options.retryTiming,
      budgetMs: options.retryBudgetMs ?? DEFAULT_RETRY_TIMING.budgetMs,
    };
    this.timeouts = {
      connectMs: CONNECT_TIMEOUT_MS,
      headersMs: HEADERS_TIMEOUT_MS,
      bodyMs: BODY_TIMEOUT_MS,
      ...options.timeouts,
    };
    this.maxAnswerBytes = (options.maxAnswerMb ?? DEFAULT_MAX_ANSWER_MB) * 1024 * 1024;
    this.clock = {
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      random: Math.random,
      ...options.clock,
    };
    const proxy = proxySettings(options.proxyEnv ?? {}, url);
    this.proxy = proxy.used;
    if (options.dispatcher === undefined) {
      this.dispatcher = createDispatcher({
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        insecure: options.insecure === true,
        ...(options.connections === undefined ? {} : { connections: options.connections }),
        timeouts: this.timeouts,
        proxy,
      });
      this.ownsDispatcher = true;
    } else {
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    }
  }

  get(path: string): Promise<unknown> {
    return this.call('GET', path, undefined).then((answer) => answer.value);
  }

  /** GET, with the answer's headers (a list's paging may be announced there). */
  getWithHeaders(path: string): Promise<{
    readonly value: unknown;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  }> {
    return this.call('GET', path, undefined).then((answer) => ({
      value: answer.value,
      headers: answer.headers ?? {},
    }));
  }

  /**
   * GET of a list, its records made one at a time as the answer streams in (list-stream.ts),
   * so a large list is never held whole: `item` makes each element of a JSON array into a
   * record (`where` names it in errors: 'GET /api/v2/domains[3]'; `item` must be pure: it is
   * called again with that name only for an element it refuses, list-stream.ts elementsOf). `items`: the answer was an
   * array of `count` elements; `failed`: what `item` threw first (the answer was read to its end and is JSON), for
   * the caller to throw after its own checks. `value`: the answer was JSON but not an array (an
   * object wrapping the list), parsed whole. Errors, retries and limits as get's.
   */
  async getList<T>(path: string, item: (value: unknown, where: string) => T): Promise<ListAnswer<T>> {
    const answer = await this.call('GET', path, undefined, undefined, elementsOf(item, this.describe('GET', path)));
    const headers = answer.headers ?? {};
    if (!(answer.value instanceof StreamedList)) return { value: answer.value, headers };
    return {
      items: answer.value.items as T[],
      count: answer.value.count,
      failed: answer.value.failed,
      headers,
    };
  }

  /**
   * `signal`: once aborted (Ctrl-C), the POST is not sent again: a wait for a retry ends at
   * once and the last failure is thrown, marked as interrupted. A request that changes the
   * panel never leaves after an interrupt.
   */
  post(path: string, body: unknown, options: { readonly signal?: AbortSignal | undefined } = {}): Promise<unknown> {
    return this.call('POST', path, body, options.signal).then((answer) => answer.value);
  }

  /**
   * PUT (a partial update: `body` holds only what changes) or DELETE (`body` undefined: none is
   * sent). Both are idempotent, so they are retried as GET is (retry.ts), and, like a POST, not
   * sent again once `signal` is aborted. Any 2xx is success whatever its body: the parsed JSON,
   * or undefined for 204, an empty body or a body that is not JSON. A 2xx HTML page is a
   * contract error (a panel whose API is off answers so); an error status is PanelHttpError.
   * `wholeObject`: the body replaces a whole object built from a read (a zone's records, a
   * domain's `security`): the retry policy never sends it again; the caller reads again first.
   */
  send(
    method: 'PUT' | 'DELETE',
    path: string,
    body: unknown,
    options: { readonly signal?: AbortSignal | undefined; readonly wholeObject?: boolean | undefined } = {},
  ): Promise<unknown> {
    return this.call(method, path, body, options.signal, undefined, options.wholeObject === true).then(
      (answer) => answer.value,
    );
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
   * One request with its retry policy (retry.ts): the single place where retries belong. GET,
   * PUT and DELETE on transient network failures and 429/502/503/504, POST on 429/503 only, a
   * whole-object write never; Retry-After honoured, within the budget; nothing sent again once
   * `signal` is aborted. The last failure is thrown as it was.
   */
  private async call(
    method: Method,
    path: string,
    body: unknown,
    signal?: AbortSignal,
    list?: ListItem,
    wholeObject = false,
  ): Promise<AttemptResult & { ok: true }> {
    const started = this.clock.now();
    const budget = this.timing.budgetMs;
    // Why an earlier attempt may have been carried out (no answer, a 502 or 504): the failure
    // thrown at last says so (afterUnanswered), since a refusal may then refuse a repeat.
    let unanswered: string | undefined;
    const fail = (error: ProvisionError): ProvisionError =>
      unanswered === undefined ? error : markAfterUnanswered(error, unanswered);
    for (let attempt = 1; ; attempt++) {
      // No attempt outlives the request's budget, whatever the peer does (trickles, stalls): each
      // runs until the budget ends at most. (The first runs MIN_ATTEMPT_MS at least, for a budget
      // set below that: one attempt is always made.)
      const left = budget - (this.clock.now() - started);
      const outcome = await this.attempt(
        method,
        path,
        body,
        attempt === 1 ? Math.max(left, MIN_ATTEMPT_MS) : left,
        list,
      );
      if (outcome.ok) return outcome;
      const now = this.clock.now();
      const delay = retryDelayMs({ method, wholeObject }, outcome, {
        attempt,
        elapsedMs: now - started,
        nowMs: now,
        random: this.clock.random,
        timing: this.timing,
      });
      // Nor does one start with less than MIN_ATTEMPT_MS of the budget left after its wait.
      if (delay === undefined || now - started + delay + MIN_ATTEMPT_MS > budget) throw fail(outcome.error);
      if (aborted(signal)) throw notSentAgain(fail(outcome.error));
      this.onEvent?.({
        type: 'retry',
        message: waitMessage(this.describe(method, path), outcome.error, delay, attempt + 1),
      });
      await untilAborted(this.clock.sleep(delay), signal);
      if (aborted(signal)) throw notSentAgain(fail(outcome.error));
      if (this.clock.now() - started + MIN_ATTEMPT_MS > budget) throw fail(outcome.error); // the wait overran
      unanswered ??= ambiguity(outcome.error);
    }
  }

  /**
   * Sends once and interprets the answer; never throws. `deadlineMs`, what is left of the
   * request's budget, bounds the whole attempt: connecting (through a proxy too), the headers
   * and the body. With `list`, a successful JSON answer is read element by element (getList).
   */
  private async attempt(
    method: Method,
    relative: string,
    body: unknown,
    deadlineMs: number,
    list?: ListItem,
  ): Promise<AttemptResult> {
    const deadline = AbortSignal.timeout(deadlineMs);
    const path = this.basePath + (relative.startsWith('/') ? relative : `/${relative}`);
    const started = performance.now();
    let status = 0;
    let headers: Record<string, string | string[] | undefined>;
    let read: ListRead<unknown>;
    try {
      // Parsed as undici's own request(url) does: the path goes out normalised and encoded.
      const url = new URL(this.origin + path);
      const response = await this.dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method,
        headers: {
          'x-api-key': this.apiKey,
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: deadline,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
      status = response.statusCode;
      headers = response.headers;
      const encoding = header(headers, 'content-encoding');
      read =
        list !== undefined &&
        status >= 200 &&
        status < 300 &&
        status !== 204 &&
        !/html/i.test(header(headers, 'content-type') ?? '')
          ? await readListAnswer(
              response.body,
              encoding,
              this.maxAnswerBytes,
              `${method} ${path}`,
              list,
              declaredLength(header(headers, 'content-length')),
            )
          : {
              kind: 'text',
              text: await readAnswer(response.body, encoding, this.maxAnswerBytes, `${method} ${path}`),
            };
    } catch (err) {
      if (err instanceof ProvisionError) return { ok: false, error: err };
      const cause = deadline.aborted
        ? Object.assign(new Error('deadline', { cause: err }), { code: DEADLINE_CODE })
        : err;
      // The message names the request's budget, which the attempt's deadline is the rest of.
      return {
        ok: false,
        error: unreachableError(method, this.origin + path, cause, {
          ...this.timeouts,
          deadlineMs: this.timing.budgetMs,
        }),
      };
    } finally {
      this.onEvent?.({ type: 'sent', method, path, status, ms: Math.round(performance.now() - started) });
    }
    switch (read.kind) {
      case 'text':
        return interpret(method, path, status, headers, read.text, this.keyForms);
      case 'items':
        return { ok: true, value: new StreamedList(read.items, read.count, read.error), headers };
      case 'not-json':
        return {
          ok: false,
          error: notJson(
            method,
            path,
            status,
            `a body that is not JSON (${header(headers, 'content-type') || 'no content type'})`,
            false,
          ),
        };
      default:
        return assertNever(read);
    }
  }
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
