import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { SecretKindName } from '../kinds/kind.js';
import type { PanelClient, PanelClock } from '../panel/client.js';
import { refusal, settleDelayMs } from '../panel/retry.js';
import type { PanelRequest } from '../kinds/common.js';
import {
  type EncryptedSecretRecord,
  newIntentId,
  type SecretRecord,
  secretRef,
  type SecretsSink,
} from '../secrets/journal.js';
import { resetCommand, secretArg, secretKind, secretLabel } from '../secrets/kinds.js';
import { generatePassword } from '../secrets/password.js';
import type { EarlierCreates, Pending } from '../secrets/recovery.js';
import { formatSeconds, isRecord, messageOf, untilAborted } from '../util.js';
import type { PanelAdapterOptions } from './adapter-options.js';
import { lookUp } from './create-failures.js';
import type { Applied } from './execute.js';
import { nameGiven, noStrays } from './panel-named.js';
import { settleUnknown, unsettledPassword } from './reset.js';
import { type FoundSecret, SECRET_LOOKUPS } from './secret-lookups.js';
import { Interrupted, type Slot } from './walk.js';

/**
 * The one write-ahead "create with a secret": the create of every kind whose things have a
 * password (a client, and every other kind whose `secret` says so), around the POST that create.ts
 * resolves (`post`): the secrets journal's write-ahead, and what a found thing's password is.
 * The kind says how its create carries a password and how a new one is set (kinds/kind.ts
 * KindSecret); the stage finds it by name (secret-lookups.ts). docs/passwords.md says the rules.
 *
 * Passwords: before the POST leaves, its intent is on disk (write-ahead), so a run killed
 * mid-request leaves a trace a later run can name; a refusal of a POST sent once closes that
 * intent (its `intent_id`), and no other: a POST an earlier run left unsettled stays open. The
 * password is on disk as soon as the answer is in hand, before anything else (even before the
 * thing's id is known, when the answer lacks one), so no dependent request and no later
 * failure can leave it only in memory. With `newPassword` (apply --generate-passwords; always
 * for a kind whose panel makes none) the password is made here and the intent carries it as
 * pending, on disk before the POST that sends it (added to the request's body at send time: a
 * plan never holds a password); the answer makes it current (a different password in the
 * answer wins), and so does finding the thing by name after a lost answer, or
 * (secrets/recovery.ts) the next run that finds it: the panel holds the password the creating
 * request carried.
 *
 * An earlier run's POST for the thing left open (`options.unsettled`) and the panel not
 * listing it: the POST carries the earlier pending password again when it is in clear, so
 * whichever POST landed, the panel holds the same one. When it cannot be read (encrypted to a
 * recipient), before a second intent is written the thing is looked up again until the
 * settle time (`settleTimeoutMs`) after that POST; found, it holds the one password written
 * ahead for it (recorded), and when that cannot be told, a new one is set.
 *
 * Whenever the password of a thing found by name cannot be told (either of two POSTs with
 * passwords of their own may have created it, or the answer that carried a panel-made one was
 * lost), it gets a new one at once (apply/reset.ts settleUnknown: written ahead, then PUT); a
 * failure to set it fails the create, naming the thing, and leaves its intents open for the
 * next apply. So no kill and no lost answer loses one.
 *
 * A kind whose panel may name a new thing itself (KindSecret.panelNaming: an FTP user where
 * "custom FTP usernames" is off) has the thing read back by its id after the answer: named
 * otherwise, its password is recorded under the panel's name, the intent of the name sent is
 * closed (nothing was created under it), and the create fails naming both.
 */

/** What a create's POST came to: the panel's answer, or the record found by name after an ambiguous failure. */
export type Created<R> =
  | { readonly answer: unknown }
  /** `unsure`: this run's POST may have created it (an attempt went without an answer). */
  | { readonly found: R; readonly unsure: boolean };

/** What creator (apply/create.ts) lends a create with a secret. */
export interface SecretContext {
  readonly panel: PanelClient;
  readonly options: PanelAdapterOptions;
  readonly clock: PanelClock;
  readonly now: () => Date;
  readonly tell: (message: string) => void;
  readonly interrupted: () => boolean;
  /** The names this run wrote to the secrets file, by kind (panel-named.ts noting: the sink given notes them). */
  readonly written: ReadonlyMap<string, ReadonlySet<string>>;
  /** The POST, its ambiguous failures resolved (create.ts). */
  readonly post: (
    request: PanelRequest,
    label: string,
    find: () => Promise<FoundSecret | undefined>,
    left: string,
    slot: Slot,
    /** Never sent again after a lost answer (a kind whose panel may name a new thing itself). */
    once?: boolean,
  ) => Promise<Created<FoundSecret>>;
}

/** A create with a secret: the kind, the name, and the request as planned (without its password). */
export interface SecretCreate {
  readonly kind: SecretKindName;
  readonly name: string;
  readonly planned: PanelRequest;
}

/** The one thing a create with a secret works on, with what each step says of it. */
interface Thing {
  readonly kind: SecretKindName;
  readonly name: string;
  /** `client "alice"`. */
  readonly label: string;
  /** `client`. */
  readonly noun: string;
  readonly find: () => Promise<FoundSecret | undefined>;
}

export async function createWithSecret(
  ctx: SecretContext,
  what: SecretCreate,
  sink: SecretsSink,
  slot: Slot,
): Promise<Applied> {
  const { panel, options, tell, now } = ctx;
  const { kind, name, planned } = what;
  const secret = secretKind(kind);
  if (secret === undefined) throw new Error(`a ${kind} has no password`);
  const thing: Thing = {
    kind,
    name,
    label: secretLabel(kind, name),
    noun: secret.noun.one,
    find: () => SECRET_LOOKUPS[kind].find(panel, name),
  };
  // The panel makes a client's password when none is sent; the engine makes every other one.
  const newPassword = options.newPassword ?? (secret.secret.panelMakesOne ? undefined : () => generatePassword());
  const described = panel.describe(planned.method, planned.path);
  const base = secretRef(options.panelUrl, kind, name);
  /** An earlier run's POST for this thing is unsettled: what it left open may be what the panel holds. */
  const earlier = options.unsettled?.get(secretArg(kind, name));
  // Only where a second intent would make the password ambiguous: this run writes one ahead
  // and cannot send the earlier one again (encrypted). Elsewhere the wait would buy nothing a
  // lost password does not cost already, and it costs up to --settle-timeout per run after a kill.
  if (earlier !== undefined && newPassword !== undefined && readable(earlier) === undefined) {
    const found = await lookAgain(ctx, thing, earlier, slot);
    if (found !== undefined) return adoptEarlier(ctx, sink, found.id, thing, earlier, slot);
  }
  // Where the panel may name it itself, not found by the name sent proves nothing (panel-named.ts).
  const naming = secret.secret.panelNaming;
  if (earlier !== undefined && naming !== undefined)
    await noStrays(panel, naming, thing, planned, earlier, slot, ctx.written);
  const sent = newPassword === undefined ? undefined : (readable(earlier) ?? newPassword());
  const intentId = newIntentId();
  try {
    await sink.intend({
      intent: `create_${kind}`,
      ...base,
      intent_id: intentId,
      at: now().toISOString(),
      ...(sent === undefined ? {} : { pending_password: sent }),
    });
  } catch (error) {
    throw new Error(
      `the secrets file cannot be written (${messageOf(error)}): nothing was sent for this ${thing.noun}`,
    );
  }
  const request = sent === undefined ? planned : secret.secret.withPassword(planned, sent);
  const left =
    sent === undefined
      ? `its intent stays open in the secrets file: the next apply settles the ${thing.noun} if the panel lists it`
      : 'the password written ahead for it stays pending in the secrets file: ' +
        `the next apply settles it once the panel lists the ${thing.noun}`;
  let created: Created<FoundSecret>;
  try {
    // Where the panel may name it itself, a look-up by the name sent proves nothing: sent once.
    created = await ctx.post(request, thing.label, thing.find, left, slot, secret.secret.panelNaming !== undefined);
  } catch (error) {
    // Interrupted before its POST left: nothing was created, as for a refusal. Only a request
    // sent once (or never) can be refused: create() settles the rest, or leaves them open.
    const refused = error instanceof Interrupted ? 'not sent: interrupted' : refusal(error);
    // Closes this intent (and only this one): nothing created from it, so no lost password for
    // a later run to warn about. If this write fails too, the later run warns of a password
    // that does not exist: harmless.
    if (refused !== undefined)
      await sink.refused({ ...base, at: now().toISOString(), intent_id: intentId, refused }).catch(() => undefined);
    if (refused !== undefined && earlier !== undefined && !(error instanceof Interrupted))
      throw new ProvisionError(
        error instanceof ProvisionError ? error.code : 'panel_http',
        `${messageOf(error)} (an earlier apply's POST for this ${thing.noun} got no answer: it may have created it, ` +
          'with what that run left pending in the secrets file; ' +
          `the next apply settles its password once the panel lists the ${thing.noun})`,
        { cause: error },
      );
    throw error;
  }
  if ('found' in created) {
    const { id } = created.found;
    // Adopting a found thing as ours is sound only under the secrets file's lock
    // (secrets/lock.ts, held by apply for the whole run): no other run of this program can
    // have created it meanwhile with a password of its own.
    if (earlier !== undefined && created.unsure && !(sent !== undefined && onlyThis(earlier, sent)))
      return setNew(
        ctx,
        sink,
        thing,
        id,
        "it was created by this run's POST or an earlier apply's, each with a password of its own",
        slot,
      );
    if (sent !== undefined) {
      // Created by the request that carried it (or by an earlier one that carried the same).
      tell(`${thing.label} exists (id ${id}): adopted; the password it was created with is recorded`);
      await save(sink, thing, { ...base, created_at: now().toISOString(), id, password: sent });
      return { id };
    }
    return setNew(ctx, sink, thing, id, 'the password the panel made for it was lost with the answer', slot);
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
      `${described}: ${thing.label} was created${id === null ? '' : ` (id ${id})`} ` +
        'but the answer holds no password',
      {
        hint: `give it one with ${resetCommand(kind, name)}`,
      },
    );
  }
  // A panel that named the thing itself holds the password under its own name (KindSecret.panelNaming).
  const given = id === null ? undefined : await nameGiven(ctx.panel, ctx.tell, thing, id, slot);
  const renamed = given === undefined ? undefined : secret.secret.panelNaming?.renamed(name, given);
  if (given !== undefined && renamed !== undefined) {
    const named = { ...thing, name: given, label: secretLabel(kind, given) };
    const ref = secretRef(options.panelUrl, kind, given);
    await save(sink, named, { ...ref, created_at: now().toISOString(), id, password });
    // Nothing was created under the name sent: its intent is closed.
    await sink
      .refused({ ...base, at: now().toISOString(), intent_id: intentId, refused: `created as ${quote(given)}` })
      .catch(() => undefined);
    // A change's failure is shown by its message alone (apply/walk.ts): what to do is in it.
    throw new ProvisionError('panel_contract', `${renamed.message}; what to do: ${renamed.hint}`);
  }
  // On disk before anything else, even before the id is known.
  await save(sink, thing, { ...base, created_at: now().toISOString(), id, password });
  if (id !== null) return { id };
  tell(
    `${described}: the answer for ${thing.label} has no integer "id"; its password is saved: looking the id up by name`,
  );
  const learned = await learnId(thing, described, slot);
  // Completes the record: the last one for a thing is the one that counts.
  await save(sink, thing, { ...base, created_at: now().toISOString(), id: learned, password });
  return { id: learned };
}

/**
 * An earlier run's POST for the thing left open, and the panel did not list it when this run
 * read it: looked up again, with waits, until the settle time after that POST (a panel may list
 * a new account late). None when that time had passed already: the read was the look.
 */
async function lookAgain(
  ctx: SecretContext,
  thing: Thing,
  earlier: EarlierCreates,
  slot: Slot,
): Promise<FoundSecret | undefined> {
  const { options, clock } = ctx;
  const since = earlier.lastAt === undefined ? 0 : ctx.now().getTime() - earlier.lastAt;
  const budget = Math.min(options.settleTimeoutMs, options.settleTimeoutMs - Math.max(0, since));
  if (budget <= 0) return undefined;
  ctx.tell(
    `an earlier apply's POST for ${thing.label} got no answer and the panel does not list it: ` +
      `looking again for up to ${formatSeconds(budget)} (--settle-timeout) before sending another`,
  );
  const started = clock.now();
  for (let look = 1; ; look++) {
    const remaining = budget - (clock.now() - started);
    const backoff = settleDelayMs(look, 0, Number.POSITIVE_INFINITY, clock.random) ?? remaining;
    const delay = Math.max(0, Math.min(remaining, backoff));
    const last = delay >= remaining;
    if (delay > 0) await untilAborted(clock.sleep(delay), options.signal);
    if (ctx.interrupted()) throw new Interrupted();
    const found = await lookUp(() => slot.run(thing.find), thing.label, "an earlier apply's POST", 'got no answer');
    if (found !== undefined || last) return found;
  }
}

/**
 * A thing found after an earlier run's POST was left open, before this run sent any: one open
 * create with a password written ahead: the panel holds it (recorded as written, an encrypted
 * one too); otherwise which one it holds is unknown: a new one.
 */
async function adoptEarlier(
  ctx: SecretContext,
  sink: SecretsSink,
  id: number,
  thing: Thing,
  earlier: EarlierCreates,
  slot: Slot,
): Promise<Applied> {
  const [pending] = earlier.pending;
  if (earlier.count !== 1 || pending === undefined)
    return setNew(ctx, sink, thing, id, "it was created by one of earlier applies' POSTs that got no answer", slot);
  ctx.tell(
    `${thing.label} exists (id ${id}): created by an earlier apply's POST that got no answer: adopted; ` +
      'the password written ahead for it is recorded',
  );
  const base = { ...secretRef(ctx.options.panelUrl, thing.kind, thing.name), created_at: ctx.now().toISOString(), id };
  await save(sink, thing, 'password' in pending ? { ...base, password: pending.password } : { ...base, ...pending });
  return { id };
}

/** The pending password an earlier run wrote ahead in clear (the last), to send again: undefined when none is readable. */
function readable(earlier: EarlierCreates | undefined): string | undefined {
  return earlier?.pending.findLast((p): p is Extract<Pending, { password: string }> => 'password' in p)?.password;
}

/** Whether every open earlier create carried `sent` in clear: then whichever POST landed, the panel holds it. */
function onlyThis(earlier: EarlierCreates, sent: string): boolean {
  return (
    earlier.pending.length === earlier.count && earlier.pending.every((p) => 'password' in p && p.password === sent)
  );
}

/**
 * A thing found whose password cannot be told (`why`): a new one, at once (written ahead, then
 * PUT; settleUnknown). Not set, the create fails naming the thing; its intents stay open for
 * the next apply (a refusal records it as unknown).
 */
async function setNew(
  ctx: SecretContext,
  sink: SecretsSink,
  thing: Thing,
  id: number,
  why: string,
  slot: Slot,
): Promise<Applied> {
  const { options } = ctx;
  ctx.tell(`${thing.label} exists (id ${id}): adopted; ${why}: setting a new password`);
  const [outcome] = await settleUnknown(ctx.panel, sink, [{ kind: thing.kind, name: thing.name, id }], {
    panelUrl: options.panelUrl,
    newPassword: options.newPassword ?? (() => generatePassword()),
    now: ctx.now,
    slot,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const failed = outcome === undefined ? 'nothing was done' : unsettledPassword(outcome);
  if (failed !== undefined) throw new ProvisionError('panel_http', `${why}; ${failed}`);
  return { id, note: `${why}: a new password is set and recorded` };
}

/** Writes a password record; a failure says the thing exists and what to do. */
async function save(sink: SecretsSink, thing: Thing, record: SecretRecord | EncryptedSecretRecord): Promise<void> {
  try {
    await sink.record(record);
  } catch (error) {
    const id = record.id === null ? '' : ` (id ${record.id})`;
    throw new Error(
      `${thing.label} was created${id} but its password could not be saved (${messageOf(error)}): ` +
        `give it a new one with ${resetCommand(thing.kind, thing.name)}`,
    );
  }
}

/** A new thing's id by name, when its 201 lacked one; its password is saved already. */
async function learnId(thing: Thing, described: string, slot: Slot): Promise<number> {
  const found = await slot.run(thing.find).catch((error: unknown) => {
    throw incomplete(thing, described, `looking it up by name failed (${messageOf(error)})`, error);
  });
  if (found === undefined) throw incomplete(thing, described, 'it cannot be found by name', undefined);
  return found.id;
}

function incomplete(thing: Thing, described: string, why: string, cause: unknown): ProvisionError {
  return new ProvisionError(
    'panel_contract',
    `${described}: ${thing.label} was created and its password is in the secrets file, ` +
      `but the answer has no integer "id" and ${why}`,
    {
      hint: `the next apply completes its record with the id once the panel lists the ${thing.noun}`,
      ...(cause === undefined ? {} : { cause }),
    },
  );
}
