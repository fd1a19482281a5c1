/**
 * A local stand-in for the panel's REST API v2 (docs/panel-api.md describes it), over node:http,
 * for tests and demos. It prints nothing; a CLI wrapper may print `url`.
 *
 * Where the API's description is silent, the simulator chooses (and the engine must not rely
 * on these choices being the real panel's):
 * - Order of checks per request: body read -> `intercept` -> `apiEnabled` -> API key -> route
 *   (with fault options on, the steps listed in faults.ts fit in between).
 *   So a bad key gets 401 on any path, including unknown ones.
 * - Paths: base /api/v2; any number of trailing slashes accepted; a query string is ignored.
 *   Unknown path 404, known path with another method 405 (with an `Allow` header). Bodies
 *   over 1 MiB: 413. Content-Type of requests is not checked; a body that is not JSON is 400.
 * - Errors: `{"code": "<status> <reason phrase>", "message": ...}`, application/json.
 * - Name look-ups: /hosting-plans/name/ is exact and case-sensitive; /clients/name/ and
 *   /domains/name/ are case-insensitive, domains in UTF-8 or punycode. Names are
 *   percent-decoded only: '+' is a plus sign, not a space.
 * - Hosting plans: GET /hosting-plans, /hosting-plans/{id}, /hosting-plans/name/{name} answer
 *   whole records `{id, name, resources, permissions, php, php_fpm}`; POST /hosting-plans
 *   creates one (missing sections and keys take a new plan's defaults), PUT
 *   /hosting-plans/{id} is partial at the top level and takes a nested object whole, DELETE
 *   /hosting-plans/{id} is refused (400) while a client is on the plan. Keys, types, defaults
 *   and the simulator's choices are in hosting-plans.ts (the record) and hosting-plan-requests.ts. A client holds only its
 *   `id_hosting_plan`: changing a plan never changes a client. The seed may give plans whole.
 * - Ids: plans, users and domains each count from 1; administrators and clients share the user
 *   sequence (the default `admin` is user 1, so the first client is 2), like one users table.
 *   GET /admins lists them as `{id, username}` (nothing else of theirs is modelled).
 *   GET /clients/{id} of an administrator is 404, and so is POST /domains with its id.
 * - POST /clients: checks in order: body shape (username string, email with an '@', language
 *   string, is_suspended boolean, password of 8 characters or more, id_hosting_plan integer or
 *   null) -> username pattern -> taken by a client or an administrator (the same 400 message for
 *   both: the panel does not say which) -> unknown plan. No plan: the panel's default plan, the
 *   first hosting plan; with no plans at all the record carries no `id_hosting_plan`. Extra fields
 *   are ignored. Password: the `password` given (at least 8 characters, else 400; the 201 is then
 *   `{"id"}` only), or 18 random bytes, base64url, in the answer (see kinds/client.ts;
 *   `state.passwordOf` tells tests which password a client has).
 * - POST /domains: body shape (domain, id_user, then the settings `php_version`, `security`,
 *   `target`) -> name valid (normalizeDomain) -> id_user is a client (404) -> not a duplicate
 *   (case-insensitive, IDN-aware) -> `id_parent_domain` (0: top level; else a domain of the
 *   same user that encloses the name: 404 unknown, 400 otherwise). Without it the parent is
 *   guessed, the nearest enclosing domain of the same user (an enclosing domain of another user
 *   leaves it top-level); `parentDomains: 'given'` guesses nothing: top level. Other fields
 *   (`send_login_credentials` on POST /clients too) are ignored.
 * - Domain records carry their settings in the panel's shapes (`php_version`, `security`,
 *   `target`, and fixed `status`, `is_custom_dns`, `is_dns_disabled`, `apache`): defaults,
 *   checks, and how POST (merged over the defaults) and PUT (a nested object taken whole) set
 *   them are in domain-settings.ts. The seed sets them per domain.
 * - System domains (`systemDomains`, default on): `<username>.sim.keyhelp.test` ('_' becomes
 *   '-'), for every client created by POST and for seeded clients too.
 * - Provisioning is synchronous: a domain can be added right after its client's 201 (the
 *   real panel may refuse it for a moment, docs/panel-api.md; simulate that with `intercept`).
 * - `statePath`: loaded when the file exists (the seed is then ignored), else created from the
 *   seed at start. Every mutation is appended to it before its answer is sent (mutations that
 *   arrive during a write share the next one); the file is compacted at start and stop.
 *   See state-file.ts.
 * - `requests` logs every answered request with `path` relative to /api/v2 (or the full path
 *   when outside it), query removed, as received (percent-encoded, trailing slash kept). A
 *   request whose connection a fault destroyed is logged with status 0.
 * - PUT and DELETE of clients and domains: see kinds/client.ts and kinds/domain.ts for the
 *   simulator's choices.
 * - DNS zones: GET /dns/{domain id}, GET /dns/name/{domain}, PUT /dns/{domain id} (the whole
 *   record list). Every domain that is not a subdomain has one, with default records; a
 *   subdomain's records live in its parent's zone; deleting a domain drops its zone. Defaults,
 *   checks and the simulator's choices are in zones.ts. The seed may give a domain's records.
 * - Mailboxes (/emails, no /emails/name/), databases, FTP users: the rules, choices and seed
 *   keys are in kinds/mailbox*.ts, kinds/database.ts, kinds/ftp-user.ts. Each keeps a hash of a
 *   password, never the password (`state.mailboxPasswordIs` and the like tell tests).
 * - Fault injection (faults.ts, all off by default): resets, 5xx, 429/503 with Retry-After,
 *   slow bodies, committed POSTs without an answer, IP restrictions, brute-force lock-out,
 *   clients not ready after their 201, zones changed between two reads. `tls` serves HTTPS instead of HTTP.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { errnoCode, ProvisionError } from '../errors.js';
import { Faults, plainAddress, type SimulatorFaults } from './faults.js';
import {
  API_DISABLED_PAGE,
  BASE_PATH,
  keyMatches,
  MAX_BODY_BYTES,
  parseBody,
  readBody,
  relativePath,
  send,
  sha256,
} from './http.js';
import type { Answer } from './answer.js';
import { error, notFound } from './answer.js';
import { route } from './routes.js';
import { loadStore, StateFile } from './state-file.js';
import type { SimulatorSeed } from './seed.js';
import type { SimulatorState } from './store.js';
import { raceZoneOf } from './kinds/zone.js';

export type { SimulatorState } from './store.js';
export type { SimClient } from './kinds/client-records.js';
export type { SimDomain } from './kinds/domain-records.js';
export type { SimMailbox, SimulatorSeedMailbox } from './kinds/mailbox-records.js';
export { DEFAULT_HOSTING_PLANS } from './kinds/hosting-plan.js';
export { SYSTEM_DOMAIN_SUFFIX } from './kinds/domain.js';
export {
  NEW_PLAN,
  type SimPlan,
  type SimPlanPermissions,
  type SimPlanPhp,
  type SimPlanPhpFpm,
  type SimPlanResources,
  type SimulatorSeedPlan,
} from './hosting-plans.js';
export type { SimDomainSecurity, SimDomainTarget } from './domain-settings.js';
export {
  DEFAULT_TTL,
  ZONE_ADDRESS,
  type SimDnsRecord,
  type SimSoa,
  type SimulatorSeedDns,
  type SimZone,
} from './zones.js';
export { parseSeed, type SimulatorSeed, type SimulatorSeedClient, type SimulatorSeedDomain } from './seed.js';
export {
  type FailAfterWrite,
  mulberry32,
  type PanelCall,
  type RequestMatch,
  type RetryAfterFault,
  type SimulatorFaults,
  type WriteBehind,
} from './faults.js';

/** The answer an `intercept` hook gives instead of the simulator's own. */
export interface InterceptResult {
  readonly status: number;
  /** Sent as JSON (application/json). */
  readonly json?: unknown;
  /** Sent raw, text/plain unless `headers` says otherwise; wins over `json`. */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface InterceptRequest {
  readonly method: string;
  /** Relative to /api/v2, as received: '/clients', '/domains/name/b%C3%BCcher.example'. */
  readonly path: string;
  /** Parsed JSON; the raw text when it is not JSON; undefined when there is none. */
  readonly body: unknown;
  /** As Node gives them: names lowercase. For tests that check what a client sends. */
  readonly headers: IncomingHttpHeaders;
}

/** The fault options (SimulatorFaults) are documented in faults.ts, with the order they apply in. */
export interface SimulatorOptions extends SimulatorFaults {
  /** The one key accepted in `X-API-Key`. */
  readonly apiKey: string;
  /** Default '127.0.0.1'. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** Load the state from this file if it exists; log each mutation to it (state-file.ts). */
  readonly statePath?: string;
  /** Initial state (ignored when `statePath` exists). Default: DEFAULT_HOSTING_PLANS, an `admin`. */
  readonly seed?: SimulatorSeed;
  /** Default true; false: GET /domains is 404, like a panel without the list endpoint. */
  readonly listDomains?: boolean;
  /**
   * false: GET /clients leaves out `email`, `id_hosting_plan` and `is_suspended` (GET /clients/{id}
   * has them). Default true.
   */
  readonly clientListFields?: boolean;
  /**
   * Which client answers carry `id_hosting_plan`, for an engine that must cope with not knowing
   * which plan each client is on: 'everywhere' (default); 'records': GET /clients leaves it out,
   * GET /clients/{id} and /clients/name/{username} carry it; 'nowhere': no answer carries it.
   * The store keeps it all the same: PUT /clients/{id} sets it, DELETE /hosting-plans/{id} of a
   * plan in use is still refused.
   */
  readonly clientPlanIds?: 'everywhere' | 'records' | 'nowhere';
  /** How DELETE (of any record) answers: 200 with `{"id"}` (default) or 204 without a body. */
  readonly deleteStatus?: 200 | 204;
  /**
   * Default true: POST /clients uses a `password` it is given and answers only `{"id"}`.
   * false: it ignores the field, makes its own and answers with it, like a panel that does
   * not take it (the engine must then record the answer's password).
   */
  readonly acceptsPassword?: boolean;
  /** Default true; false: the panel names FTP users itself ("custom FTP usernames" off, kinds/ftp-user.ts). */
  readonly customFtpUsernames?: boolean;
  /** Default true: each new client gets a system domain `<username>.sim.keyhelp.test`. */
  readonly systemDomains?: boolean;
  /**
   * How POST /domains finds a new domain's parent when the body has no `id_parent_domain`:
   * 'guess' (default), the nearest enclosing domain of the same user; 'given', none (a
   * top-level domain with a zone of its own), like a panel that honours the field and guesses
   * nothing. A given `id_parent_domain` is honoured (and checked) either way.
   */
  readonly parentDomains?: 'guess' | 'given';
  /** Default true; false: every request gets 200 text/html, like a panel whose API is off. */
  readonly apiEnabled?: boolean;
  /** Fault injection: return an answer to send it instead of the simulator's own. */
  readonly intercept?: (
    request: InterceptRequest,
  ) => InterceptResult | undefined | Promise<InterceptResult | undefined>;
  /** Added latency: each request waits this long (ms) before it is handled, like a distant panel. Default 0. */
  readonly latencyMs?: number;
  /**
   * Serve HTTPS with this PEM key and certificate (e.g. made in a test with openssl); `url` then
   * starts with https://.
   */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
}

export interface SimulatorRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

export interface Simulator {
  /** The API's base URL, e.g. 'http://127.0.0.1:43117/api/v2'. */
  readonly url: string;
  readonly state: SimulatorState;
  /** Every answered request, in the order answered. */
  readonly requests: readonly SimulatorRequest[];
  /** Stops listening, drops keep-alive connections, waits for the last save, compacts the state file. */
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  if (options.apiKey === '') throw new ProvisionError('usage', 'the simulator needs a non-empty API key');
  const expectedKey = sha256(options.apiKey);
  const routeOptions = {
    listDomains: options.listDomains ?? true,
    clientListFields: options.clientListFields ?? true,
    clientPlanIds: options.clientPlanIds ?? 'everywhere',
    deleteStatus: options.deleteStatus ?? 200,
    systemDomains: options.systemDomains ?? true,
    acceptsPassword: options.acceptsPassword ?? true,
    customFtpUsernames: options.customFtpUsernames ?? true,
    parentDomains: options.parentDomains ?? 'guess',
    now: () => new Date(),
  };
  const store = await loadStore(options, routeOptions.systemDomains);
  // Compacted now: fails at once, not at the first POST, when the path cannot be written.
  const stateFile = options.statePath === undefined ? undefined : await StateFile.open(options.statePath, store);
  const requests: SimulatorRequest[] = [];
  const faults = new Faults(options);

  const answer = async (req: IncomingMessage, path: string): Promise<Answer | 'drop'> => {
    const raw = await readBody(req);
    if (raw === 'too_large') return error(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    const body = parseBody(raw);
    const method = req.method ?? 'GET';
    const intercepted = await options.intercept?.({
      method,
      path: relativePath(path),
      body: body.kind === 'json' ? body.value : body.kind === 'invalid' ? raw.toString('utf8') : undefined,
      headers: req.headers,
    });
    if (intercepted !== undefined) return intercepted;
    const relative = relativePath(path);
    if (await writeBehind(method, relative)) return error(500, 'The simulator could not save its state file.');
    const fault = faults.transient(method, relative);
    if (fault !== undefined) return fault;
    if (options.apiEnabled === false) {
      return {
        status: 200,
        text: API_DISABLED_PAGE,
        headers: { 'content-type': 'text/html; charset=UTF-8' },
      };
    }
    const address = plainAddress(req.socket.remoteAddress ?? '');
    const locked = faults.locked(address);
    if (locked !== undefined) return locked;
    const keyOk = keyMatches(req.headers['x-api-key'], expectedKey);
    faults.authenticated(address, keyOk);
    if (!keyOk) return error(401, 'API key is missing or invalid.');
    const refused =
      faults.ipRefused(address) ?? faults.notReady(method, relative, body.kind === 'json' ? body.value : undefined);
    if (refused !== undefined) return refused;
    const trimmed = path.replace(/\/+$/, '');
    if (!trimmed.startsWith(`${BASE_PATH}/`)) return notFound(path);
    const result = route(store, method, trimmed.slice(BASE_PATH.length + 1).split('/'), body, routeOptions);
    if (result.mutated === true && stateFile !== undefined) {
      try {
        await stateFile.save();
      } catch {
        return error(500, 'The simulator could not save its state file.');
      }
    }
    const race = result.zoneRead === undefined ? undefined : faults.zoneRace(method, relative, result.zoneRead);
    if (race !== undefined && result.zoneRead !== undefined && raceZoneOf(store, result.zoneRead, race)) {
      // The answer already holds the zone as read (zones are replaced, never changed in place).
      try {
        await stateFile?.save();
      } catch {
        return error(500, 'The simulator could not save its state file.');
      }
    }
    // The change is committed (and saved); only the answer is lost, or replaced.
    return (
      faults.afterWrite(method, relative, result) ?? (faults.afterRoute(method, relative, result) ? 'drop' : result)
    );
  };

  /** faults.ts step 6b: someone else's writes due before this request, saved; true when saving failed. */
  const writeBehind = async (method: string, relative: string): Promise<boolean> => {
    const saved = { mutated: false };
    for (const write of faults.writesBefore(method, relative))
      write((m, p, b) => {
        const segments = p.replace(/^\/+|\/+$/g, '').split('/');
        const answer = route(
          store,
          m,
          segments,
          b === undefined ? { kind: 'none' } : { kind: 'json', value: b },
          routeOptions,
        );
        saved.mutated ||= answer.mutated === true;
        return { status: answer.status, json: answer.json };
      });
    if (!saved.mutated || stateFile === undefined) return false;
    return stateFile.save().then(
      () => false,
      () => true,
    );
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const latencyMs = options.latencyMs ?? 0;
    (latencyMs > 0
      ? new Promise((resolve) => setTimeout(resolve, latencyMs)).then(() => answer(req, path))
      : answer(req, path)
    )
      .catch(() => error(500, 'The simulator failed to handle this request.'))
      .then((result) => {
        const method = req.method ?? 'GET';
        requests.push({
          method,
          path: relativePath(path),
          status: result === 'drop' ? 0 : result.status,
        });
        if (result === 'drop') res.socket?.destroy();
        else send(res, result, faults.slowBodyMs(method, relativePath(path)));
      })
      .catch(() => res.destroy());
  };
  const server =
    options.tls === undefined
      ? createServer(handler)
      : createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    const refuse = (err: Error): void => {
      reject(listenError(err, host, port));
    };
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://${shown}:${address.port}${BASE_PATH}`,
    state: store,
    requests,
    close: async () => {
      const closed = new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      server.closeAllConnections();
      await closed;
      await stateFile?.close();
    },
  };
}

/** Why the simulator cannot listen, as a usage error: a port in use, an address not on this machine. */
function listenError(err: Error, host: string, port: number): ProvisionError {
  const code = errnoCode(err);
  const why: Record<string, [string, string]> = {
    EADDRINUSE: [`port ${port} is in use`, 'choose another --port, or 0 for a free one'],
    EACCES: [`port ${port} needs privileges`, 'choose a port above 1023, or 0 for a free one'],
    EADDRNOTAVAIL: [
      `${host} is not an address of this machine`,
      'give --host 127.0.0.1 (the default) or an address of this machine',
    ],
    ENOTFOUND: [`the host ${host} cannot be resolved`, 'give --host as an IP address of this machine, like 127.0.0.1'],
  };
  const [what, hint] = why[code] ?? [code, 'check --host and --port'];
  return new ProvisionError('usage', `the simulator cannot listen on ${host}:${port}: ${what}`, {
    hint,
    cause: err,
  });
}
