import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { PanelClient, PanelClock } from '../panel/client.js';
import type { PanelHttpError } from '../panel/errors.js';
import { findClient, findDomain } from '../panel/read.js';
import type { LiveClient } from '../panel/types.js';
import { ambiguity, mayBeSettling, refusal, repostDelayMs, settleDelayMs } from '../panel/retry.js';
import { requestFor, type PanelRequest } from '../plan/requests.js';
import type { CreateClient, CreateDomain } from '../plan/types.js';
import { newIntentId, type SecretsSink } from '../secrets/journal.js';
import { formatSeconds, isRecord, messageOf, untilAborted } from '../util.js';
import type { PanelAdapterOptions } from './adapter-options.js';
import {
  adoptDomain,
  detail,
  gaveUp,
  idOf,
  lookUp,
  notSent,
  notSettled,
  stoppedSettling,
  unsettled,
} from './create-failures.js';
import type { Applied } from './execute.js';
import { send } from './send.js';
import { Interrupted, NO_SLOT, type Slot } from './walk.js';

/**
 * Creates against the panel (apply/panel-adapter.ts dispatches to it). Each change is sent as
 * exactly the request plan/requests.ts makes of it (a new client's id filled in for its
 * domains). On top of the client's own retries (429/503: not processed), it resolves ambiguous
 * failures without blind repeats, by the policy of panel/retry.ts:
 *
 * - An ambiguous failure of a POST (sent without an answer, a 502 or 504) is followed by a
 *   look-up by name: a client found is adopted without its password (the answer that carried
 *   it was lost); a domain found is adopted if it belongs to the expected id_user, and is an
 *   error naming the owner if not. Only when nothing is found is the POST sent again, at most
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
 * Passwords: before a POST /clients leaves, its intent is on disk (write-ahead), so a run killed
 * mid-request leaves a trace a later run can name; a refusal of a POST sent once closes that
 * intent (its `intent_id`), and no other: a POST an earlier run left unsettled stays open. The
 * password is on disk as soon as the answer is in hand, before anything else (even before the
 * client's id is known, when the answer lacks one), so no dependent request and no later
 * failure can leave it only in memory. With `newPassword` (apply --generate-passwords) the
 * password is made here and the intent carries it as pending, on disk before the POST that
 * sends it in `password` (added to the request's body at send time: a plan never holds a
 * password); the answer makes it current (a different password in the answer wins), and so does
 * finding the client by name after a lost answer, or (secrets/recovery.ts) the next run that
 * finds the client: the panel holds the password the creating request carried. So no kill and
 * no lost answer loses one.
 *
 * Concurrency: each request (the POST, a look-up) runs through the executor's `slot`; the
 * secrets file's writes and the waits between attempts run outside it, so a flush never keeps
 * another change's request from being sent (apply/walk.ts). The order stays: the intent is
 * durable before the POST leaves, the record before the change is reported done.
 */
interface Creator {
  createClient(change: CreateClient, sink: SecretsSink, slot?: Slot): Promise<Applied>;
  createDomain(change: CreateDomain, slot?: Slot): Promise<Applied>;
  /** The id of a domain created in this run (its zone is written after it); undefined for another. */
  domainIdOf(name: string): number | undefined;
}

/** What a create's POST came to: the panel's answer, or the record found by name after an ambiguous failure. */
type Created<R> =
  | { readonly answer: unknown }
  /** `unsure`: this run's POST may have created it (an attempt went without an answer). */
  | { readonly found: R; readonly unsure: boolean };

export function creator(
  panel: PanelClient,
  options: PanelAdapterOptions,
  /** Hosting plans created in this run, by name: their clients' id_hosting_plan. */
  newPlanIds: ReadonlyMap<string, number> = new Map(),
): Creator {
  const clock: PanelClock = { ...panel.clock, ...options.clock };
  const now = options.now ?? (() => new Date());
  const tell = (message: string): void => options.onEvent?.({ type: 'note', message });
  /** A function, not a value: the signal may abort during any await. */
  const interrupted = (): boolean => options.signal?.aborted === true;
  /** Clients created in this run, by username: their domains' id_user. */
  const newClientIds = new Map<string, number>();
  /** Domains created in this run, by name: their zones' ids. */
  const newDomainIds = new Map<string, number>();

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
   */
  const create = async <R>(
    request: PanelRequest,
    label: string,
    find: () => Promise<R | undefined>,
    clientIsNew: boolean,
    left: string,
    slot: Slot,
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

  const createClient = async (change: CreateClient, sink: SecretsSink, slot: Slot): Promise<Applied> => {
    if (change.hostingPlan?.id === null && !newPlanIds.has(change.hostingPlan.name))
      throw new Error(
        `the id of hosting plan ${quote(change.hostingPlan.name)} is unknown: it was not created in this run`,
      );
    const planned = requestFor(change, undefined, newPlanIds);
    const described = panel.describe(planned.method, planned.path);
    const name = change.name;
    const base = { panel_url: options.panelUrl, username: name };
    const sent = options.newPassword?.();
    const intentId = newIntentId();
    /** An earlier run's POST for this client is unsettled: what it left open may be what the panel holds. */
    const earlier = options.unsettled?.has(name) === true;
    try {
      await sink.intend({
        intent: 'create_client',
        ...base,
        intent_id: intentId,
        at: now().toISOString(),
        ...(sent === undefined ? {} : { pending_password: sent }),
      });
    } catch (error) {
      throw new Error(`the secrets file cannot be written (${messageOf(error)}): nothing was sent for this client`);
    }
    const request = sent === undefined ? planned : withPassword(planned, sent);
    const left =
      sent === undefined
        ? 'its intent stays open in the secrets file: the next apply names the client if the panel lists it'
        : 'the password written ahead for it stays pending in the secrets file: ' +
          'the next apply records it as current once the panel lists the client';
    let created: Created<LiveClient>;
    try {
      created = await create(request, `client ${quote(name)}`, () => findClient(panel, name), false, left, slot);
    } catch (error) {
      // Interrupted before its POST left: nothing was created, as for a refusal. Only a request
      // sent once (or never) can be refused: create() settles the rest, or leaves them open.
      const refused = error instanceof Interrupted ? 'not sent: interrupted' : refusal(error);
      // Closes this intent (and only this one): no client from it, so no lost password for a
      // later run to warn about. If this write fails too, the later run warns of a password
      // that does not exist: harmless.
      if (refused !== undefined)
        await sink.refused({ ...base, at: now().toISOString(), intent_id: intentId, refused }).catch(() => undefined);
      if (refused !== undefined && earlier && !(error instanceof Interrupted))
        throw new ProvisionError(
          error instanceof ProvisionError ? error.code : 'panel_http',
          `${messageOf(error)} (an earlier apply's POST for this client got no answer: it may have created it, ` +
            'with what that run left pending in the secrets file; ' +
            'the next apply records it once the panel lists the client)',
          { cause: error },
        );
      throw error;
    }
    if ('found' in created) {
      const { id } = created.found;
      // Adopting a found client as ours is sound only under the secrets file's lock
      // (secrets/lock.ts, held by apply for the whole run): no other run of this program can
      // have created it meanwhile with a password of its own.
      if (earlier && created.unsure) {
        // Created by this run's POST or by the earlier one: which password it holds is unknown.
        tell(
          `client ${quote(name)} exists (id ${id}): adopted; ` +
            "it was created by this run's POST or an earlier apply's: its password is unknown",
        );
        await save(sink, { ...base, created_at: now().toISOString(), id, password: null });
        return {
          id,
          note:
            'its password is one of those written ahead for it (provision secrets decrypt --all lists them), ' +
            `or unknown: give it a new one with ${resetCommand(name)}`,
        };
      }
      if (sent !== undefined) {
        // Created by the request that carried it (the plan saw no such client): the panel holds it.
        tell(`client ${quote(name)} exists (id ${id}): adopted; the password it was created with is recorded`);
        await save(sink, { ...base, created_at: now().toISOString(), id, password: sent });
        return { id };
      }
      tell(`client ${quote(name)} exists (id ${id}): adopted; its password was lost with the answer`);
      await save(sink, { ...base, created_at: now().toISOString(), id, password: null });
      return {
        id,
        note: `its password was lost with the interrupted answer: give it a new one with ${resetCommand(name)}`,
      };
    }
    const answer = isRecord(created.answer) ? created.answer : {};
    const idField = answer.id;
    const id = Number.isSafeInteger(idField) ? (idField as number) : null;
    // An empty password is none: the panel's word wins only when it is a password.
    const answered = typeof answer.password === 'string' && answer.password !== '' ? answer.password : undefined;
    // The panel's word wins: a password in the answer is the one it holds.
    const password = answered ?? sent;
    if (password === undefined) {
      throw new ProvisionError(
        'panel_contract',
        `${described}: client ${quote(name)} was created${id === null ? '' : ` (id ${id})`} ` +
          'but the answer holds no password',
        {
          hint: `give it one with ${resetCommand(name)}`,
        },
      );
    }
    // On disk before anything else, even before the id is known.
    await save(sink, { ...base, created_at: now().toISOString(), id, password });
    if (id !== null) return { id };
    tell(
      `${described}: the answer for client ${quote(name)} has no integer "id"; ` +
        'its password is saved: looking the id up by name',
    );
    const learned = await learnId(panel, name, described, slot);
    // Completes the record: the last one for a username is the one that counts.
    await save(sink, { ...base, created_at: now().toISOString(), id: learned, password });
    return { id: learned };
  };

  const createDomain = async (change: CreateDomain, slot: Slot): Promise<Applied> => {
    const request = requestFor(change, newClientIds, undefined, newDomainIds);
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

  return {
    async createClient(change, sink, slot = NO_SLOT) {
      const applied = await createClient(change, sink, slot);
      newClientIds.set(change.name, applied.id);
      return applied;
    },
    async createDomain(change, slot = NO_SLOT) {
      const applied = await createDomain(change, slot);
      newDomainIds.set(change.name, applied.id);
      return applied;
    },
    domainIdOf: (name) => newDomainIds.get(name),
  };
}

/** Writes a password record; a failure says the client exists and what to do. */
async function save(sink: SecretsSink, record: Parameters<SecretsSink['record']>[0]): Promise<void> {
  try {
    await sink.record(record);
  } catch (error) {
    const id = record.id === null ? '' : ` (id ${record.id})`;
    throw new Error(
      `client ${quote(record.username)} was created${id} but its password could not be saved (${messageOf(error)}): ` +
        `give it a new one with ${resetCommand(record.username)}`,
    );
  }
}

/** The command that gives a client whose password is lost a new one. */
export function resetCommand(username: string): string {
  return `provision secrets reset ${username}`;
}

/** The POST /clients request as planned, with the password made here added to its body. */
function withPassword(request: PanelRequest, password: string): PanelRequest {
  return { ...request, body: { ...request.body, password } };
}

/** A new client's id by name, when its 201 lacked one; its password is saved already. */
async function learnId(panel: PanelClient, name: string, described: string, slot: Slot): Promise<number> {
  const found = await slot
    .run(() => findClient(panel, name))
    .catch((error: unknown) => {
      throw incomplete(name, described, `looking it up by name failed (${messageOf(error)})`, error);
    });
  if (found === undefined) throw incomplete(name, described, 'it cannot be found by name', undefined);
  return found.id;
}

function incomplete(name: string, described: string, why: string, cause: unknown): ProvisionError {
  return new ProvisionError(
    'panel_contract',
    `${described}: client ${quote(name)} was created and its password is in the secrets file, ` +
      `but the answer has no integer "id" and ${why}`,
    {
      hint: 'the next apply completes its record with the id once the panel lists the client',
      ...(cause === undefined ? {} : { cause }),
    },
  );
}
