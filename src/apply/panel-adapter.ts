import type { Creator } from './execute.js';
import { ProvisionError } from '../errors.js';
import type { PanelRequest } from '../plan/requests.js';
import type { PanelClient, PanelClock } from '../panel/client.js';
import { PanelHttpError, PanelNetworkError } from '../panel/errors.js';
import { parseClientRecord, parseDomainRecord } from '../panel/read.js';
import { backoffMs } from '../panel/retry.js';

/** How long a POST /domains for a client created in the same run is retried while refused (30 s). */
export const DEFAULT_SETTLE_TIMEOUT_MS = 30_000;

/** POSTs sent for one resource after ambiguous failures, the first included. */
const MAX_POSTS = 3;
/** Backoff between POSTs after an ambiguous failure, and while a new account settles. */
const CREATE_BACKOFF = { baseMs: 500, capMs: 5_000 } as const;

export interface PanelCreatorOptions {
  /**
   * A POST /domains for a client created in this run that the panel refuses with 400 or 404
   * (it sets accounts up in the background after its 201) is retried with backoff until this
   * long after the first attempt (the CLI's --settle-timeout). 0: never.
   */
  readonly settleTimeoutMs: number;
  /** Told, in one sentence, before each wait or look-up (never the key or a password). */
  readonly onWait?: (message: string) => void;
  /** Default: the panel client's clock. */
  readonly clock?: Partial<PanelClock>;
  /** Aborted (Ctrl-C): a domain waiting for its account to settle stops waiting and fails. */
  readonly signal?: AbortSignal;
}

/**
 * The Creator apply uses against a real panel. On top of the client's own retries (429/503:
 * not processed), it resolves ambiguous failures without blind repeats:
 *
 * - An ambiguous failure of a POST (a network error after the request may have been sent,
 *   a timeout, 502 or 504) is followed by a look-up by name: a client found is adopted with
 *   `password: undefined` (the answer that carried it was lost); a domain found is adopted if
 *   it belongs to the expected id_user, and is an error naming the owner if not. Only when
 *   nothing is found is the POST sent again, at most MAX_POSTS times in all.
 * - A POST /domains for a client created in this run (`clientIsNew`) refused with 400 or 404
 *   is checked by name the same way, then retried with backoff until `settleTimeoutMs` after
 *   its first attempt; then its error names --settle-timeout.
 *
 * A client's 201 without a password is ProvisionError 'panel_contract' (set one in the panel);
 * one without an integer id is looked up by name, so its password is kept. A domain's 201
 * without an integer id is 'panel_contract'.
 */
export function panelCreator(panel: PanelClient, options: PanelCreatorOptions): Creator {
  const clock: PanelClock = { ...panel.clock, ...options.clock };
  const tell = (message: string): void => options.onWait?.(message);
  const wait = (attempt: number): Promise<void> => clock.sleep(Math.max(100, backoffMs(attempt, CREATE_BACKOFF, clock.random)));

  return {
    async createClient(body) {
      const username = String(body.username);
      const request = panel.describe('POST', '/clients');
      for (let attempt = 1; ; attempt++) {
        let answer: unknown;
        try {
          answer = await panel.post('/clients', body);
        } catch (err) {
          const why = ambiguity(err);
          if (why === undefined) throw err;
          tell(`${request} for client "${username}" ${why}: it may have been created; looking it up by name before anything else`);
          const found = await lookUp(panel, 'clients', username, request, why);
          if (found !== undefined) {
            const { id } = parseClientRecord(found, panel.describe('GET', `/clients/name/${encodeURIComponent(username)}`));
            tell(`client "${username}" exists (id ${id}): adopted; its password was lost with the answer`);
            return { id, password: undefined };
          }
          if (attempt >= MAX_POSTS) throw gaveUp(err, request, username, attempt);
          tell(`client "${username}" was not created: sending ${request} again (attempt ${attempt + 1})`);
          await wait(attempt);
          continue;
        }
        const password = fieldOf(answer, 'password');
        if (typeof password !== 'string' || password === '') {
          const id = fieldOf(answer, 'id');
          throw new ProvisionError('panel_contract', `${request}: client "${username}" was created${Number.isSafeInteger(id) ? ` (id ${String(id)})` : ''} but the answer holds no password`, {
            hint: 'set a password in the panel',
          });
        }
        const id = fieldOf(answer, 'id');
        if (Number.isSafeInteger(id)) return { id: id as number, password };
        // The client exists and its password is in hand: learn the id by name rather than lose the password.
        tell(`${request}: the answer for client "${username}" has no integer "id": looking it up by name`);
        const found = await panel.findByName('clients', username);
        if (found === undefined) throw new ProvisionError('panel_contract', `${request}: the answer has no integer "id" and client "${username}" cannot be found by name`, { hint: 'check the panel for the client before running apply again' });
        return { id: parseClientRecord(found, panel.describe('GET', `/clients/name/${encodeURIComponent(username)}`)).id, password };
      }
    },

    async createDomain(body, clientIsNew) {
      const domain = String(body.domain);
      const idUser = body.id_user;
      const request = panel.describe('POST', '/domains');
      const started = clock.now();
      let posts = 0;
      for (let attempt = 1; ; attempt++) {
        let answer: unknown;
        try {
          posts++;
          answer = await panel.post('/domains', body);
        } catch (err) {
          const why = ambiguity(err);
          const settling = why === undefined && clientIsNew && err instanceof PanelHttpError && (err.status === 400 || err.status === 404);
          if (why === undefined && !settling) throw err;
          if (why !== undefined) tell(`${request} for domain "${domain}" ${why}: it may have been created; looking it up by name before anything else`);
          const found = await lookUp(panel, 'domains', domain, request, why ?? `answered ${(err as PanelHttpError).status}`);
          if (found !== undefined) return adoptDomain(found, panel, domain, idUser, tell);
          if (why !== undefined) {
            if (posts >= MAX_POSTS) throw gaveUp(err, request, domain, posts);
            tell(`domain "${domain}" was not created: sending ${request} again (attempt ${posts + 1})`);
            await wait(attempt);
            continue;
          }
          // Refused for a client created in this run: it may still be being set up.
          const delay = Math.max(100, backoffMs(attempt, CREATE_BACKOFF, clock.random));
          const elapsed = clock.now() - started;
          if (elapsed + delay > options.settleTimeoutMs) throw notSettled(err as PanelHttpError, options.settleTimeoutMs, elapsed);
          if (options.signal?.aborted === true) {
            throw new ProvisionError('panel_http', `${(err as PanelHttpError).message} (stopped waiting for the account to settle: interrupted)`, { cause: err });
          }
          tell(
            `${request} for domain "${domain}" answered ${(err as PanelHttpError).status}${detail(err)}: its client was created in this run and ` +
              `may still be being set up; retrying in ${(delay / 1000).toFixed(1)} s (--settle-timeout ${seconds(options.settleTimeoutMs)})`,
          );
          await clock.sleep(delay);
          continue;
        }
        return { id: idOf(answer, request) };
      }
    },
  };
}

/** Why a failed POST may still have been processed, or undefined when it surely was not (or surely was refused). */
function ambiguity(err: unknown): string | undefined {
  if (err instanceof PanelNetworkError) return err.sent ? `got no answer (${err.what}, ${err.networkCode})` : undefined;
  if (err instanceof PanelHttpError && (err.status === 502 || err.status === 504)) return `answered ${err.status}`;
  return undefined;
}

/** GET /<collection>/name/<name> (the client retries it); a failure says what is left unknown. */
async function lookUp(panel: PanelClient, collection: 'clients' | 'domains', name: string, request: string, why: string): Promise<unknown> {
  try {
    return await panel.findByName(collection, name);
  } catch (err) {
    const code = err instanceof ProvisionError ? err.code : 'panel_unreachable';
    const message = err instanceof Error ? err.message : String(err);
    throw new ProvisionError(code, `${request} for "${name}" ${why}, and looking it up failed too (${message}): it may or may not exist`, {
      hint: `check the panel for "${name}" before running apply again`,
      cause: err,
    });
  }
}

function adoptDomain(found: unknown, panel: PanelClient, domain: string, idUser: unknown, tell: (message: string) => void): { id: number } {
  const record = parseDomainRecord(found, panel.describe('GET', `/domains/name/${encodeURIComponent(domain)}`));
  if (record.idUser !== idUser) {
    throw new ProvisionError('panel_http', `domain "${domain}" exists on the panel (id ${record.id}) but belongs to user ${record.idUser}, not ${String(idUser)}`, {
      hint: 'someone else created it meanwhile: resolve it in the panel, then run plan again',
    });
  }
  tell(`domain "${domain}" exists (id ${record.id}) for user ${record.idUser}: adopted`);
  return { id: record.id };
}

function gaveUp(err: unknown, request: string, name: string, posts: number): ProvisionError {
  const message = err instanceof Error ? err.message : String(err);
  return new ProvisionError(err instanceof ProvisionError ? err.code : 'panel_unreachable', `${message} (${posts} attempts for "${name}"; none created it)`, {
    hint: `${request} kept failing; check the panel, then run apply again`,
    cause: err,
  });
}

function notSettled(err: PanelHttpError, settleTimeoutMs: number, elapsedMs: number): ProvisionError {
  const hint = `the panel sets new accounts up in the background; if it needs longer, raise --settle-timeout (now ${seconds(settleTimeoutMs)}) and run apply again`;
  // The executor shows only the message, so the hint is in it too.
  return new ProvisionError('panel_http', `${err.message} (still refused ${seconds(elapsedMs)} after the first attempt; ${hint})`, { hint, cause: err });
}

function detail(err: unknown): string {
  return err instanceof PanelHttpError && err.panelMessage !== undefined ? ` (${err.panelMessage})` : '';
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function idOf(answer: unknown, request: string): number {
  const id = fieldOf(answer, 'id');
  if (Number.isSafeInteger(id)) return id as number;
  throw new ProvisionError('panel_contract', `${request}: the answer has no integer "id"`, { hint: 'check the panel for the resource before running apply again' });
}

/** The body type a Creator receives; re-exported for tests. */
export type CreateBody = PanelRequest['body'];
