/**
 * Fault injection for the simulator: the failures a real panel and the network in front of it
 * produce, switched on by options (all off by default), reproducible with `faultSeed`.
 *
 * Where a request meets each fault (after the body is read and `intercept` declined):
 * 0. `writesBehind`: as the nth matching request arrives, before anything else, a write of
 *    someone else's (a person in the panel, an ACME client) goes through the simulator's routes.
 * 1. Transient faults, like a reverse proxy in front of the panel, before authentication and
 *    before any state change: `resetRate` (connection destroyed, no answer), then
 *    `retryAfter` (429/503 with Retry-After), then `errorRate` (500/502/503).
 * 2. `apiEnabled: false`: 200 text/html, like a panel whose API is off.
 * 3. Lock-out (`lockout`): an address locked out gets 403 even with the right key.
 * 4. The key: a wrong key gets 401 and counts towards the lock-out; the right one resets the count.
 * 5. `allowedIps`: the right key from another address gets 403.
 * 6. `notReadyMs`: POST /domains for a client created less than that long ago gets 400.
 * 7. The route; then `failAfterWrite`: a matching write that succeeded (its change is saved) is
 *    answered 503 (or another status) instead; then `ambiguousPostRate` (`ambiguousPutRate`): a
 *    POST (a PUT) that succeeded (its change is saved) loses its connection instead of its answer.
 * 8. `zoneRaceRate`, `onZoneRead`: after a GET of a DNS zone, the zone changes (zones.ts
 *    raceZone: `TXT _race-<n>` added, the zone custom), saved before the answer goes out; the
 *    answer still shows the zone as it was read.
 * 9. `slowBodyMs`: the answer's body trickles out.
 * Every fault except the lock-out, the key, `allowedIps`, `onZoneRead`, `writesBehind` and
 * `failAfterWrite` (which name their requests themselves) applies only to the
 * requests `faultFilter` accepts. Random draws come from one PRNG seeded with `faultSeed`, one draw
 * per enabled rate per request in arrival order: the same seed and the same requests in the
 * same order give the same faults (concurrent requests may arrive in another order).
 */
import type { Answer } from './answer.js';
import { error } from './answer.js';

export interface SimulatorFaults {
  /** Seed of the PRNG behind every *Rate option (mulberry32). Default 1. */
  readonly faultSeed?: number;
  /**
   * Which requests the transient faults, notReadyMs and slowBodyMs apply to; path relative to
   * /api/v2. Default: all.
   */
  readonly faultFilter?: (request: { readonly method: string; readonly path: string }) => boolean;
  /** Share (0..1) of requests answered with one of `errorStatuses`, before any state change. Default 0. */
  readonly errorRate?: number;
  /** Statuses `errorRate` picks from, uniformly. Default [500, 502, 503]. */
  readonly errorStatuses?: readonly number[];
  /** 429 or 503 with a Retry-After header, before any state change. */
  readonly retryAfter?: RetryAfterFault;
  /** Share (0..1) of requests whose connection is destroyed without an answer, before any state change. Default 0. */
  readonly resetRate?: number;
  /** The body is sent in up to 8 pieces, this many ms apart, after the headers. Default 0 (at once). */
  readonly slowBodyMs?: number;
  /**
   * Share (0..1) of successful POSTs whose change is committed (and saved) but whose connection is
   * then destroyed: the ambiguous case. Default 0.
   */
  readonly ambiguousPostRate?: number;
  /** The same for successful PUTs (an update, a password set): the change is saved, the answer lost. Default 0. */
  readonly ambiguousPutRate?: number;
  /**
   * The key works only from these addresses (exact IPv4/IPv6 strings; '::ffff:' prefixes are
   * ignored). From another address the right key gets 403 "The API key is not allowed from
   * <address>." (the API's description does not say which status; 403 is this simulator's choice).
   */
  readonly allowedIps?: readonly string[];
  /**
   * Brute-force protection: after `attempts` wrong keys in a row from one address, every
   * request from it gets 403 "Too many failed authentications ..." for `ms`, the right key
   * included (status chosen here: 403, never worth retrying).
   */
  readonly lockout?: { readonly attempts: number; readonly ms: number };
  /**
   * A client created by POST /clients is not ready for this many ms: POST /domains for it gets
   * 400 "The user is not ready yet ..." (creation is asynchronous: docs/panel-api.md). Default 0.
   */
  readonly notReadyMs?: number;
  /**
   * Share (0..1) of successful GETs of a DNS zone (/dns/{id}, /dns/name/{domain}) after which
   * the simulator itself changes that zone, like an ACME hook between a plan's read and an
   * apply's: the engine's stale-zone path. Default 0.
   */
  readonly zoneRaceRate?: number;
  /**
   * The deterministic race, for tests: called after each successful GET of a zone with the
   * domain's id and how many such GETs of it have answered so far (this one included, counted
   * from the simulator's start); returning true changes the zone as `zoneRaceRate` does.
   * Not subject to `faultFilter`; a zone it changed is not drawn for `zoneRaceRate` again.
   */
  readonly onZoneRead?: (domainId: number, reads: number) => boolean | undefined;
  /**
   * Writes behind the tool's back, deterministic: as the `nth` request (counted from the
   * simulator's start, 1 the first) that `match` accepts arrives, `write` runs with a
   * `call` that sends requests through the simulator's own routes (authenticated, no fault),
   * like a person in the panel or an ACME client between a read and a write.
   */
  readonly writesBehind?: readonly WriteBehind[];
  /**
   * A write that lands, then fails: the `nth` request (counted from the start, among those
   * `match` accepts that the route answered 2xx) and the `times - 1` after it are carried out (the
   * change saved), then answered `status` instead of their own answer (a proxy's 503 after the
   * panel wrote, a panel failing after it stored).
   */
  readonly failAfterWrite?: readonly FailAfterWrite[];
}

/** Which requests a deterministic fault is about: a method (default: any) and a path relative to /api/v2 (exactly, or a pattern). */
export interface RequestMatch {
  readonly method?: string;
  readonly path: string | RegExp;
}

/** A request sent through the simulator's routes by a write behind the tool's back: its status and JSON answer. */
export type PanelCall = (
  method: string,
  path: string,
  body?: unknown,
) => { readonly status: number; readonly json?: unknown };

export interface WriteBehind {
  readonly match: RequestMatch;
  /** Default 1. */
  readonly nth?: number;
  readonly write: (call: PanelCall) => void;
}

export interface FailAfterWrite {
  readonly match: RequestMatch;
  /** Default 1. */
  readonly nth?: number;
  /** Default 1. */
  readonly times?: number;
  /** Default 503. */
  readonly status?: number;
}

function matches(match: RequestMatch, method: string, path: string): boolean {
  return (
    (match.method === undefined || method === match.method) &&
    (typeof match.path === 'string' ? path === match.path : match.path.test(path))
  );
}

export interface RetryAfterFault {
  /** The Retry-After header, in seconds. */
  readonly seconds: number;
  /** Default 429. */
  readonly status?: 429 | 503;
  /** The first this many requests (that `faultFilter` accepts) get it. */
  readonly first?: number;
  /** And/or this share (0..1) of requests. */
  readonly rate?: number;
}

/** The answer instead of a request, or `drop`: destroy the connection without one. */
type FaultAnswer = Answer | 'drop';

/** One simulator's fault state: PRNG, counters, lock-outs, clients not yet ready. */
export class Faults {
  private readonly random: () => number;
  private retryAfterCount = 0;
  private readonly failures = new Map<string, number>();
  private readonly lockedUntil = new Map<string, number>();
  private readonly readyAt = new Map<number, number>();
  private readonly zoneReads = new Map<number, number>();
  private races = 0;
  private readonly behindSeen: number[];
  private readonly failSeen: number[];

  constructor(
    private readonly options: SimulatorFaults,
    private readonly now: () => number = Date.now,
  ) {
    this.random = mulberry32(options.faultSeed ?? 1);
    this.behindSeen = (options.writesBehind ?? []).map(() => 0);
    this.failSeen = (options.failAfterWrite ?? []).map(() => 0);
  }

  /** Step 0: the writes behind the tool's back due as this request arrives. */
  writesBefore(method: string, path: string): ((call: PanelCall) => void)[] {
    const due: ((call: PanelCall) => void)[] = [];
    (this.options.writesBehind ?? []).forEach((w, i) => {
      if (!matches(w.match, method, path)) return;
      const seen = (this.behindSeen[i] = (this.behindSeen[i] ?? 0) + 1);
      if (seen === (w.nth ?? 1)) due.push(w.write);
    });
    return due;
  }

  /** Step 7, first: the answer instead of a write's own after it landed, or undefined. */
  afterWrite(method: string, path: string, answer: Answer): Answer | undefined {
    if (answer.status < 200 || answer.status >= 300) return undefined;
    let instead: Answer | undefined;
    (this.options.failAfterWrite ?? []).forEach((f, i) => {
      if (!matches(f.match, method, path)) return;
      const seen = (this.failSeen[i] = (this.failSeen[i] ?? 0) + 1);
      const first = f.nth ?? 1;
      if (instead === undefined && seen >= first && seen < first + (f.times ?? 1))
        instead = error(f.status ?? 503, 'Injected failure after the write was stored.');
    });
    return instead;
  }

  applies(method: string, path: string): boolean {
    return this.options.faultFilter?.({ method, path }) ?? true;
  }

  /** Step 1: reset, Retry-After, error. */
  transient(method: string, path: string): FaultAnswer | undefined {
    if (!this.applies(method, path)) return undefined;
    const { resetRate = 0, retryAfter, errorRate = 0 } = this.options;
    if (resetRate > 0 && this.random() < resetRate) return 'drop';
    if (retryAfter !== undefined) {
      this.retryAfterCount++;
      const first = retryAfter.first !== undefined && this.retryAfterCount <= retryAfter.first;
      const drawn = (retryAfter.rate ?? 0) > 0 && this.random() < (retryAfter.rate ?? 0);
      if (first || drawn) {
        const status = retryAfter.status ?? 429;
        return error(status, status === 429 ? 'Too many requests: slow down.' : 'The panel is busy: try again later.', {
          'retry-after': String(retryAfter.seconds),
        });
      }
    }
    if (errorRate > 0 && this.random() < errorRate) {
      const statuses = this.options.errorStatuses ?? [500, 502, 503];
      const status = statuses[Math.floor(this.random() * statuses.length)] ?? 500;
      return error(status, 'Injected failure.');
    }
    return undefined;
  }

  /** Step 3. */
  locked(address: string): Answer | undefined {
    const until = this.lockedUntil.get(address);
    if (until === undefined) return undefined;
    if (this.now() < until) {
      return error(403, `Too many failed authentications from ${address}: access is blocked for a while.`);
    }
    this.lockedUntil.delete(address);
    return undefined;
  }

  /** Step 4: count a wrong key, or reset the count on the right one. */
  authenticated(address: string, ok: boolean): void {
    const lockout = this.options.lockout;
    if (lockout === undefined) return;
    if (ok) {
      this.failures.delete(address);
      return;
    }
    const count = (this.failures.get(address) ?? 0) + 1;
    if (count >= lockout.attempts) {
      this.failures.delete(address);
      this.lockedUntil.set(address, this.now() + lockout.ms);
    } else {
      this.failures.set(address, count);
    }
  }

  /** Step 5. */
  ipRefused(address: string): Answer | undefined {
    const allowed = this.options.allowedIps;
    if (allowed === undefined || allowed.map(plainAddress).includes(address)) return undefined;
    return error(403, `The API key is not allowed from ${address}.`);
  }

  /** Step 6. */
  notReady(method: string, path: string, body: unknown): Answer | undefined {
    if (method !== 'POST' || path.replace(/\/+$/, '') !== '/domains' || !this.applies(method, path)) return undefined;
    const idUser = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).id_user : undefined;
    if (typeof idUser !== 'number') return undefined;
    const at = this.readyAt.get(idUser);
    if (at === undefined) return undefined;
    if (this.now() < at) return error(400, 'The user is not ready yet: the account is still being set up.');
    this.readyAt.delete(idUser);
    return undefined;
  }

  /** Step 7: remember a new client's set-up time; says whether to drop the answer of a committed POST or PUT. */
  afterRoute(method: string, path: string, answer: Answer): boolean {
    if (method === 'PUT' && answer.status >= 200 && answer.status < 300) {
      const { ambiguousPutRate = 0 } = this.options;
      return ambiguousPutRate > 0 && this.applies(method, path) && this.random() < ambiguousPutRate;
    }
    if (method !== 'POST' || answer.status !== 201) return false;
    const { notReadyMs = 0, ambiguousPostRate = 0 } = this.options;
    const id =
      typeof answer.json === 'object' && answer.json !== null ? (answer.json as Record<string, unknown>).id : undefined;
    if (notReadyMs > 0 && path.replace(/\/+$/, '') === '/clients' && typeof id === 'number')
      this.readyAt.set(id, this.now() + notReadyMs);
    return ambiguousPostRate > 0 && this.applies(method, path) && this.random() < ambiguousPostRate;
  }

  /** Step 8: after a zone of this domain was read, the number of the race to run on it (1, 2...), or undefined for none. */
  zoneRace(method: string, path: string, domainId: number): number | undefined {
    const reads = (this.zoneReads.get(domainId) ?? 0) + 1;
    this.zoneReads.set(domainId, reads);
    const { zoneRaceRate = 0, onZoneRead } = this.options;
    const raced =
      onZoneRead?.(domainId, reads) === true ||
      (zoneRaceRate > 0 && this.applies(method, path) && this.random() < zoneRaceRate);
    return raced ? ++this.races : undefined;
  }

  /** Step 9: the pause between body pieces for this request, 0 for none. */
  slowBodyMs(method: string, path: string): number {
    const ms = this.options.slowBodyMs ?? 0;
    return ms > 0 && this.applies(method, path) ? ms : 0;
  }
}

/** '::ffff:127.0.0.1' -> '127.0.0.1'. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

/** A small, well-known 32-bit PRNG: deterministic for a seed, uniform enough for fault shares. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
