import { quote } from '../escape.js';
import type { PanelClient, PanelClock } from '../panel/client.js';
import type { PanelHttpError } from '../panel/errors.js';
import { findDomain } from '../panel/read.js';
import { ambiguity, mayBeSettling, refusal, repostDelayMs, settleDelayMs } from '../panel/retry.js';
import { kindOf } from '../kinds/index.js';
import type { NewIds, PanelRequest } from '../kinds/common.js';
import { requestFor } from '../plan/requests.js';
import { type Change, changeId, type CreateClient, type CreateDomain } from '../plan/types.js';
import type { SecretsSink } from '../secrets/journal.js';
import { formatSeconds, untilAborted } from '../util.js';
import type { PanelAdapterOptions } from './adapter-options.js';
import { type ClientContext, createClient } from './create-client.js';
import { type Created, createWithSecret } from './create-secret.js';
import {
  adoptDomain,
  detail,
  gaveUp,
  idOf,
  lookUp,
  notRepeated,
  notSent,
  notSettled,
  stoppedSettling,
  unsettled,
} from './create-failures.js';
import type { Applied } from './execute.js';
import { noting } from './panel-named.js';
import { send } from './send.js';
import { Interrupted, NO_SLOT, type Slot } from './walk.js';

/**
 * Creates against the panel (apply/panel-adapter.ts dispatches to it). Each change is sent as
 * exactly the request plan/requests.ts makes of it (a new client's id filled in for its
 * domains). On top of the client's own retries (429/503: not processed), it resolves ambiguous
 * failures without blind repeats, by the policy of panel/retry.ts:
 *
 * - An ambiguous failure of a POST (sent without an answer, a 502 or 504) is followed by a
 *   look-up by name: a thing with a password found is adopted (create-secret.ts says which
 *   password it holds, or sets a new one); a domain found is adopted if it belongs to the
 *   expected id_user, and is an error naming the owner if not. Only when nothing is found is
 *   the POST sent again, at most
 *   MAX_POSTS times in all.
 * - A POST /domains for a client created in this run refused with 400 or 404 is checked by
 *   name the same way, then retried with backoff until `settleTimeoutMs` after its first
 *   attempt; then its error names --settle-timeout.
 * - A refusal (4xx) that follows an attempt without an answer proves nothing: the first may
 *   have created it, and a panel can list a new account late (it sets accounts up in the
 *   background), so "400 username in use" is what that looks like. It is looked up by name
 *   again, with waits, until `settleTimeoutMs`; found, it is adopted as above; not found, the
 *   create fails as unsettled and nothing is recorded as refused.
 * - After an interrupt (options.signal) nothing is sent again: a wait before a repeat ends at
 *   once and the last failure stands.
 *
 * Passwords, and the journal's write-ahead around the POST of a kind with a secret (a client's):
 * apply/create-secret.ts; the client's own part: apply/create-client.ts.
 *
 * Concurrency: each request (the POST, a look-up) runs through the executor's `slot`; the
 * secrets file's writes and the waits between attempts run outside it, so a flush never keeps
 * another change's request from being sent (apply/walk.ts). The order stays: the intent is
 * durable before the POST leaves, the record before the change is reported done.
 */
interface Creator {
  createClient(change: CreateClient, sink: SecretsSink, slot?: Slot): Promise<Applied>;
  /**
   * The create of any kind with a secret (its Kind.secret) that has no create of its own here:
   * the request as planned, through the one write-ahead create (apply/create-secret.ts). The
   * kinds with a password other than the client come this way.
   */
  createSecret(change: Extract<Change, { action: 'create' }>, sink: SecretsSink, slot?: Slot): Promise<Applied>;
  createDomain(change: CreateDomain, slot?: Slot): Promise<Applied>;
  /** The id of a domain created in this run (its zone is written after it); undefined for another. */
  domainIdOf(name: string): number | undefined;
}

export function creator(
  panel: PanelClient,
  options: PanelAdapterOptions,
  /**
   * The ids of what this run created, by change id (the adapter records each create's): a
   * client's hosting plan, a domain's client, a subdomain's parent.
   */
  newIds: NewIds = new Map(),
): Creator {
  const clock: PanelClock = { ...panel.clock, ...options.clock };
  const now = options.now ?? (() => new Date());
  const tell = (message: string): void => options.onEvent?.({ type: 'note', message });
  /** A function, not a value: the signal may abort during any await. */
  const interrupted = (): boolean => options.signal?.aborted === true;

  /**
   * After an attempt whose outcome is unknown (`unsure`), a later attempt was refused (`err`,
   * a 4xx): that proves nothing, the first may have created the resource and the panel may
   * list it late. Looks it up by name again, waiting between look-ups (as for a new account's
   * settling, until `settleTimeoutMs` after the refusal); still not found, it stays unsettled
   * (`left` says what stays open) and nothing is recorded as refused.
   */
  const afterUnknown = async <R>(
    err: unknown,
    unsure: string,
    find: () => Promise<R | undefined>,
    label: string,
    described: string,
    left: string,
    slot: Slot,
  ): Promise<Created<R>> => {
    tell(
      `${described} for ${label} ${unsure}, and a later attempt was refused: ` +
        'the first may have created it; looking it up by name again',
    );
    const started = clock.now();
    for (let look = 1; ; look++) {
      const found = await lookUp(() => slot.run(find), label, described, `${unsure}, then was refused`);
      if (found !== undefined) return { found, unsure: true };
      const delay = settleDelayMs(look, clock.now() - started, options.settleTimeoutMs, clock.random);
      if (delay === undefined || interrupted()) break;
      tell(
        `${label} is not found by name yet (a panel may list a new account late): ` +
          `looking again in ${formatSeconds(delay)}`,
      );
      await untilAborted(clock.sleep(delay), options.signal);
      if (interrupted()) break;
    }
    throw unsettled(err, described, label, unsure, left);
  };

  /**
   * POSTs `request`, resolving ambiguous failures and a new account's settling (see above).
   * `left`: what stays open when a refusal after an unknown attempt cannot be settled.
   * `once`: a POST whose answer was lost is never sent again (the panel may name what it
   * creates itself, so a look-up by the name sent proves nothing): `left` stays open instead.
   */
  const create = async <R>(
    request: PanelRequest,
    label: string,
    find: () => Promise<R | undefined>,
    clientIsNew: boolean,
    left: string,
    slot: Slot,
    once = false,
  ): Promise<Created<R>> => {
    const described = panel.describe(request.method, request.path);
    const started = clock.now();
    let posts = 0;
    /** Why an attempt so far may have been carried out without our knowing: then no later refusal is one. */
    let unsure: string | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        posts++;
        return { answer: await slot.run(() => send(panel, request, options.signal)) };
      } catch (err) {
        // Interrupted while waiting for a slot: not sent (a repeat is named so by the checks below first).
        if (err instanceof Interrupted)
          throw posts === 1 ? err : new Error(`${described} for ${label} was not sent again: interrupted`);
        const why = ambiguity(err);
        unsure ??= why;
        const settling = why === undefined && mayBeSettling(err, clientIsNew);
        // (A new client's domain refused while it settles is looked up and sent again below.)
        if (why === undefined && !settling && unsure !== undefined && refusal(err) !== undefined)
          return afterUnknown(err, unsure, find, label, described, left, slot);
        if (why === undefined && !settling) throw err;
        if (why !== undefined)
          tell(
            `${described} for ${label} ${why}: it may have been created; looking it up by name before anything else`,
          );
        const found = await lookUp(
          () => slot.run(find),
          label,
          described,
          why ?? `answered ${(err as PanelHttpError).status}`,
        );
        if (found !== undefined) return { found, unsure: unsure !== undefined };
        if (why !== undefined) {
          if (once) throw notRepeated(err, described, label, left);
          const delay = repostDelayMs(posts, clock.random);
          if (delay === undefined) throw gaveUp(err, described, label, posts);
          // After an interrupt nothing that changes the panel is sent, a repeat included.
          if (interrupted()) throw notSent(err, described, label);
          tell(`${label} was not created: sending ${described} again (attempt ${posts + 1})`);
          await untilAborted(clock.sleep(delay), options.signal);
          if (interrupted()) throw notSent(err, described, label);
          continue;
        }
        // Refused for a client created in this run: it may still be being set up.
        const refused = err as PanelHttpError;
        const elapsed = clock.now() - started;
        const delay = settleDelayMs(attempt, elapsed, options.settleTimeoutMs, clock.random);
        if (delay === undefined) throw notSettled(refused, options.settleTimeoutMs, elapsed);
        if (interrupted()) throw stoppedSettling(refused);
        tell(
          `${described} for ${label} answered ${refused.status}${detail(refused)}: ` +
            'its client was created in this run and may still be being set up; ' +
            `retrying in ${formatSeconds(delay)} (--settle-timeout ${formatSeconds(options.settleTimeoutMs)})`,
        );
        await untilAborted(clock.sleep(delay), options.signal);
        if (interrupted()) throw stoppedSettling(refused);
      }
    }
  };

  const createDomain = async (change: CreateDomain, slot: Slot): Promise<Applied> => {
    const request = requestFor(change, newIds);
    const idUser = request.body?.id_user ?? null;
    if (idUser === null)
      throw new Error(`the id of client ${quote(change.client)} is unknown: it was not created in this run`);
    // Never sent without its parent's id: a panel left to guess may make it a top-level domain.
    if (change.parentDomain !== undefined && request.body?.id_parent_domain === null)
      throw new Error(`the id of domain ${quote(change.parentDomain.name)} is unknown: it was not created in this run`);
    const created = await create(
      request,
      `domain ${quote(change.name)}`,
      () => findDomain(panel, change.name),
      change.clientId === null,
      'run plan again: it shows whether the domain is still to create',
      slot,
    );
    if ('found' in created) return adoptDomain(created.found, change.name, idUser, tell);
    return { id: idOf(created.answer, panel.describe(request.method, request.path)) };
  };

  // Every create with a secret writes through `noting`, so the journal's names include this run's.
  const written = new Map<string, Set<string>>();
  const clientContext: ClientContext = {
    panel,
    options,
    clock,
    now,
    tell,
    interrupted,
    newIds,
    written,
    post: (request, label, find, left, slot, once) => create(request, label, find, false, left, slot, once),
  };

  return {
    createClient: (change, sink, slot = NO_SLOT) => createClient(clientContext, change, noting(sink, written), slot),
    createSecret: (change, sink, slot = NO_SLOT) => {
      const secret = kindOf(change).secret;
      if (secret === undefined) return Promise.reject(new Error(`a ${change.type} has no password`));
      const planned = requestFor(change, newIds);
      return createWithSecret(
        clientContext,
        { kind: secret.journalKind, name: change.name, planned },
        noting(sink, written),
        slot,
      );
    },
    createDomain: (change, slot = NO_SLOT) => createDomain(change, slot),
    domainIdOf: (name) => newIds.get(changeId('domain', name)),
  };
}
