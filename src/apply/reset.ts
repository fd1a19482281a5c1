import type { SecretKindName } from '../kinds/kind.js';
import type { PanelClient } from '../panel/client.js';
import { afterUnanswered, PanelHttpError } from '../panel/errors.js';
import { isClientKind, newIntentId, secretRef, type SecretsSink } from '../secrets/journal.js';
import { type Existing, existingSecret, secretKind, secretLabel } from '../secrets/kinds.js';
import { messageOf } from '../util.js';
import { SECRET_LOOKUPS } from './secret-lookups.js';
import { send } from './send.js';
import { NO_SLOT, type Slot } from './walk.js';

/**
 * A thing whose password `secrets reset` changes, as found on the panel: its kind, its name and
 * its id (a client may be given by `username` alone).
 */
export type ResetTarget = Existing;

/** Whose outcome it is: the thing's kind, name and id; a client's `username` too. */
interface Whose {
  readonly kind: SecretKindName;
  readonly name: string;
  readonly username?: string;
  readonly id: number;
}

/**
 * What came of one thing's reset. `reset`: the panel took the new password, now current.
 * `refused`: the panel refused the PUT itself (a 4xx with every earlier attempt answered), or
 * no longer has the thing; the old password stays as it was. `unknown`: no answer (after the
 * panel client's retries), a 4xx after an attempt without an answer (which may refuse a repeat
 * of a PUT that landed: see resetPasswords) or another failure; the new password stays pending:
 * the panel holds it or the old one, and running the reset again settles it. `skipped`:
 * interrupted before its request was sent, or the secrets file could not be written first.
 */
export type ResetOutcome =
  | (Whose & { readonly status: 'reset' })
  | (Whose & {
      readonly status: 'refused' | 'unknown' | 'skipped';
      readonly why: string;
      /** Refused because the panel no longer has the thing (a 404, and a look-up by id finds none). */
      readonly gone?: true;
    });

interface ResetOptions {
  /** Recorded with each password. */
  readonly panelUrl: string;
  /** Makes each new password (secrets/password.ts generatePassword). */
  readonly newPassword: () => string;
  /** The time stamped on the records. */
  readonly now?: () => Date;
  /** Aborted (Ctrl-C): no further request is sent; the one in flight finishes. */
  readonly signal?: AbortSignal;
  /** Told as each thing is done (never its password). */
  readonly onOutcome?: (outcome: ResetOutcome) => void;
  /** Each request runs through it (apply's executor: the concurrency bound); default none. */
  readonly slot?: Slot;
}

/**
 * Gives each thing a new password, one after the other, in the order given: made here,
 * written ahead to `sink` as pending (an `intent: reset_password` record), then sent as its
 * kind's reset request (a client's `PUT /clients/{id} {"password"}`), then recorded as its
 * password.
 *
 * What a failure settles: the PUT is idempotent, so the panel client sends it again after an
 * attempt without an answer (a reset connection, a 502 or 504) and reports only the last
 * answer. A 4xx after such an attempt may be the panel refusing a repeat of a PUT that landed
 * (409 "the same password", say): it proves nothing, and the new password stays pending
 * (`unknown`), named in the outcome, by `secrets decrypt` and by the next apply. A 4xx to a PUT
 * whose every attempt was answered (the client marks the difference: afterUnanswered), or a
 * client the panel no longer has (a 404, and a look-up by id finds none), is `refused`, which
 * settles that intent only: the old password stays current. Without an answer the pending one
 * stays pending too: the
 * next reset of that client makes and sends another (a pending password encrypted to a
 * recipient cannot be read back here to send again, and a new one is as good), and its record
 * settles the client. A failure for one client does not stop the others; nothing throws for
 * one.
 */
export async function resetPasswords(
  panel: PanelClient,
  sink: SecretsSink,
  targets: readonly ResetTarget[],
  options: ResetOptions,
): Promise<ResetOutcome[]> {
  const now = options.now ?? (() => new Date());
  const slot = options.slot ?? NO_SLOT;
  const outcomes: ResetOutcome[] = [];
  const done = (outcome: ResetOutcome): void => {
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  };
  for (const target of targets) {
    const { kind, name, id } = existingSecret(target);
    const base = secretRef(options.panelUrl, kind, name);
    const whose: Whose = { kind, name, ...(isClientKind(kind) ? { username: name } : {}), id };
    const secret = secretKind(kind)?.secret;
    if (secret === undefined) throw new Error(`a ${kind} has no password`);
    if (options.signal?.aborted === true) {
      done({ ...whose, status: 'skipped', why: 'interrupted before it was sent' });
      continue;
    }
    const password = options.newPassword();
    const intentId = newIntentId();
    try {
      await sink.intend({
        intent: 'reset_password',
        ...base,
        intent_id: intentId,
        at: now().toISOString(),
        pending_password: password,
      });
    } catch (error) {
      done({
        ...whose,
        status: 'skipped',
        why: `the secrets file cannot be written (${messageOf(error)}): nothing was sent`,
      });
      continue;
    }
    try {
      await slot.run(() => send(panel, secret.resetRequest(id, password), options.signal));
    } catch (error) {
      const refused = await slot.run(() => refusalOf(panel, kind, id, error));
      if (refused !== undefined) {
        const recorded = await sink.refused({ ...base, at: now().toISOString(), intent_id: intentId, refused }).then(
          () => '',
          (e: unknown) => ` (and the refusal could not be recorded: ${messageOf(e)})`,
        );
        const gone = refused === gone404(kind) ? `: the panel has no such ${nounOf(kind)} any more` : '';
        done({
          ...whose,
          status: 'refused',
          why: `${messageOf(error)}${gone}${recorded}`,
          ...(refused === gone404(kind) ? { gone: true } : {}),
        });
      } else {
        const earlier = afterUnanswered(error);
        // No answer, a 5xx, an answer that breaks the contract, or a 4xx after an attempt that
        // may have landed: the panel may have taken it.
        done({
          ...whose,
          status: 'unknown',
          why:
            earlier === undefined
              ? messageOf(error)
              : `${messageOf(error)}, after an attempt that ${earlier}: this may refuse a repeat of a PUT that landed`,
        });
      }
      continue;
    }
    try {
      await sink.record({ reset_at: now().toISOString(), ...base, id, password });
      done({ ...whose, status: 'reset' });
    } catch (error) {
      done({
        ...whose,
        status: 'unknown',
        why:
          `the panel took the new password, but it could not be recorded (${messageOf(error)}): ` +
          'it is in the secrets file as pending',
      });
    }
  }
  return outcomes;
}

/** `client`: a kind in a sentence. */
function nounOf(kind: string): string {
  return secretKind(kind)?.noun.one ?? kind;
}

/** The refusal of a reset whose thing is gone. */
function gone404(kind: string): string {
  return `answered 404: the ${nounOf(kind)} is gone`;
}

/**
 * Why the PUT surely did not set the password, or undefined when it may have. Surely not: the
 * thing is gone (a 404, and a look-up by id finds none), or a 4xx to a PUT every earlier
 * attempt of which was answered, so the panel refused this request and not the repeat of one
 * that landed (afterUnanswered).
 */
async function refusalOf(
  panel: PanelClient,
  kind: SecretKindName,
  id: number,
  error: unknown,
): Promise<string | undefined> {
  if (!(error instanceof PanelHttpError) || error.status < 400 || error.status >= 500) return undefined;
  if (await isGone(panel, kind, id, error)) return gone404(kind);
  return afterUnanswered(error) === undefined ? `answered ${error.status}` : undefined;
}

/**
 * Whether the PUT's 404 means the thing is gone: a look-up by id finds none. Any other
 * failure, or a look-up that fails, is not that.
 */
async function isGone(panel: PanelClient, kind: SecretKindName, id: number, error: unknown): Promise<boolean> {
  if (!(error instanceof PanelHttpError) || error.status !== 404) return false;
  try {
    return (await SECRET_LOOKUPS[kind].findById(panel, id)) === undefined;
  } catch {
    return false;
  }
}

/**
 * Gives each client whose password is unknown a new one at once, as resetPasswords does (apply:
 * the journal cannot tell which password written ahead the panel holds, or a client was found
 * after the answer that carried its password was lost). Its PUT is idempotent: after an attempt
 * without an answer (a reset connection, a 502 or 504) the panel client sends it again with
 * the same password. What is left (`unknown`, `skipped`) keeps the client's intents open in the
 * journal, so the next apply finds its password unknown again and sets another; a refusal
 * (`refused`) records the password as unknown (`password: null`), so no later run sends a PUT
 * the panel refuses: someone must set one in the panel. Each failure is for the caller to name.
 */
export async function settleUnknown(
  panel: PanelClient,
  sink: SecretsSink,
  targets: readonly ResetTarget[],
  options: ResetOptions,
): Promise<ResetOutcome[]> {
  const now = options.now ?? (() => new Date());
  const outcomes = await resetPasswords(panel, sink, targets, options);
  for (const outcome of outcomes) {
    if (outcome.status !== 'refused') continue;
    const { kind, name, id } = outcome;
    await sink
      .record({ created_at: now().toISOString(), ...secretRef(options.panelUrl, kind, name), id, password: null })
      .catch(() => undefined);
  }
  return outcomes;
}

/** What a settleUnknown outcome that failed says: the thing, why, and what to do; undefined for a success. */
export function unsettledPassword(outcome: ResetOutcome): string | undefined {
  if (outcome.status === 'reset') return undefined;
  const who = `${secretLabel(outcome.kind, outcome.name)} (id ${outcome.id})`;
  return outcome.status === 'refused'
    ? `${who}: its password is unknown and the panel refused a new one (${outcome.why}): ` +
        'recorded as unknown: set one in the panel, or run provision secrets reset once it takes one'
    : `${who}: its password is unknown and a new one could not be set (${outcome.why}): ` +
        'run apply again: it sets one';
}
