/**
 * What the apply stage hands a kind's room to carry out a change (Kind.apply): send a request,
 * read one record, run a whole-object write, tell a note. The room decides how its changes are
 * written and read back; the stage (apply/panel-adapter.ts) owns the panel client, the slot that
 * bounds the requests in flight and the abort signal behind these calls. Pure: types only.
 */
import type { LiveClient } from './client/record.js';
import type { LiveHostingPlan, NewIds, PanelRequest } from './common.js';
import type { LiveDomain } from './domain/record.js';
import type { RecordRead } from './panel-record.js';

/** A change done: the panel's id of the resource, and a sentence for the user when there is more to say. */
export interface Applied {
  readonly id: number;
  readonly note?: string;
}

/**
 * The panel as a room reads it: GET a path, its answer as sent; and how a request is named in
 * messages (`GET https://panel.example/api/v2/dns/7`). The panel client is one.
 */
export interface PanelReader {
  get(path: string): Promise<unknown>;
  describe(method: PanelRequest['method'] | 'GET', path: string): string;
}

/**
 * One whole-object write (apply/whole-write.ts carries it out): how to read its object, build its
 * request from that read, and tell whether a failed write landed. The body is built from a read
 * taken just before the write, never resent as it was.
 */
export interface WholeWrite<R, B> {
  /** How notes and errors name the object: `the zone of "alice.example"`. */
  readonly what: string;
  /** The object as the panel holds it now (the stage runs it through the slot). */
  read(): Promise<R>;
  /** The request built from `read`; throws (nothing sent) when the object is not as the change saw it. */
  build(read: R): { readonly request: PanelRequest; readonly body: B };
  /**
   * After a failed write: whether `now` holds what `body` wrote, built from `from`; a note when it
   * holds more (something wrote beside it since: kept). undefined when it does not hold it.
   */
  landed(now: R, body: B, from: R): { readonly note?: string } | undefined;
}

/** A whole-object write done: the body that landed, the read it was built from, and a note when there is one. */
export interface WholeWritten<R, B> {
  readonly body: B;
  readonly from: R;
  readonly note?: string;
}

/** A key a change writes that moved since the plan read it: its value then, and now (undefined: not readable). */
export interface MovedKey<V> {
  readonly field: string;
  readonly before: V;
  readonly now: V | undefined;
}

/**
 * A whole-object write of the keys a change manages (a domain's settings, a hosting plan's
 * objects): `rebuild` makes the body from the fresh read, or names the keys that moved since the
 * plan (nothing sent); `landed` says whether a read holds what the change writes.
 */
export interface ManagedKeysWrite<R, B, V> {
  /** How notes and errors name the object. */
  readonly what: string;
  /** The object's id on the panel, the change's outcome. */
  readonly id: number;
  read(): Promise<R>;
  rebuild(fresh: R): { readonly body: B } | { readonly moved: readonly MovedKey<V>[] };
  request(body: B): PanelRequest;
  landed(now: R): boolean;
  /** A key's value as a moved key's sentence shows it. */
  show(value: V): string;
  /** What a moved key's sentence says when the fresh read does not hold it. */
  readonly unread: string;
}

/**
 * The panel's records as apply looks them up, not through the slot (the caller runs them
 * through it): by id, a record of another id a contract error; by name, undefined when absent.
 */
export interface PanelLookUps {
  clientById(id: number): Promise<LiveClient | undefined>;
  domainById(id: number): Promise<LiveDomain>;
  domainNamed(name: string): Promise<LiveDomain | undefined>;
  hostingPlanById(id: number): Promise<LiveHostingPlan>;
  hostingPlanNamed(name: string): Promise<LiveHostingPlan | undefined>;
  /** Every client (GET /clients), as the list reads them. */
  clients(): Promise<readonly LiveClient[]>;
  /**
   * Any kind's record by id, as its room reads it (`read`: its path and parser); undefined when
   * the panel answers 404 (gone). A record of another id is a contract error.
   */
  recordById<R extends { readonly id: number }>(read: RecordRead<R>, id: number): Promise<R | undefined>;
}

/** What a room is handed to carry out one change (Kind.apply). */
export interface ApplyStage {
  /** The panel's GET, not through the slot (for `WholeWrite.read`, which the stage runs through it). */
  readonly panel: PanelReader;
  readonly lookUp: PanelLookUps;
  /** The ids of what this run created so far, by change id. */
  readonly newIds: NewIds;
  /** Runs `work` (a read) once a place among the run's requests in flight is free. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Sends exactly `request` through the slot; the client retries it where a repeat is safe. */
  send(request: PanelRequest): Promise<unknown>;
  /** Carries out a whole-object write (apply/whole-write.ts), its requests through the slot. */
  writeWhole<R, B>(write: WholeWrite<R, B>): Promise<WholeWritten<R, B>>;
  /** Carries out a write of managed keys through writeWhole; a moved key fails it as stale. */
  writeManagedKeys<R, B, V>(write: ManagedKeysWrite<R, B, V>): Promise<Applied>;
  /** The id in a create's answer; a contract error naming `described` when it has none. */
  idOf(answer: unknown, described: string): number;
  /** Whether a failure may have passed (no answer, 429, a 5xx): its words (`got no answer`); else undefined. */
  ambiguity(error: unknown): string | undefined;
  /** Tells the user a note, in one sentence (never a key or a password). */
  tell(message: string): void;
}
