/**
 * What a run settles in the secrets journal before it sends anything, and says as it does, for
 * the CLI (apply, `secrets reset`) and the library's executePlan alike: passwords written ahead
 * of the requests that created clients (the panel holds them: recorded as current); passwords
 * saved without their client's id; and, named only, what is still unsettled: clients an
 * earlier, interrupted run created without the journal telling which password the panel holds
 * (returned: the run gives each a new one, apply/reset.ts settleUnknown), and a create or a
 * reset whose outcome is unknown. Nothing here sends a request. The journal's own rules are
 * secrets/recovery.ts.
 */
import { type ClientScope, clientScope } from '../names.js';
import type { Redactions } from '../redact.js';
import { isClientKind, skippedLineWarning } from '../secrets/journal.js';
import { existingSecret, resetCommand, secretArg, secretKind, secretLabel } from '../secrets/kinds.js';
import {
  closeLostIntents,
  type EarlierCreates,
  type Existing,
  type ExistingSecret,
  findLostIntents,
  type LookedUp,
} from '../secrets/recovery.js';

export { secretsInLive } from './secret-lookups.js';

/**
 * Whether a run scoped by `--clients` (`scope`) covers a thing with a password, so may act on
 * it (give it a new password): a client when the scope matches its username. A thing of
 * another kind belongs to a client the journal does not name (through its domain, say): it is
 * inside a run without a scope, and outside every scope until its kind says whose it is.
 */
export function scopeCovers(scope: ClientScope, kind: string, name: string): boolean {
  return isClientKind(kind) ? scope.covers(name) : scope.patterns === undefined;
}

/** A sentence for the user: a `warning` (something is lost or unsettled) or a `note` (repaired). */
export interface RecoveryMessage {
  readonly kind: 'warning' | 'note';
  readonly text: string;
}

/** What a run must still settle after the journal's repairs: see recoverJournal. */
export interface JournalState {
  /**
   * Things whose create an earlier run left open and that the panel did not list (yet), by
   * `[KIND:]NAME` (secretArg: a client by its username), with what those creates wrote ahead
   * (PanelAdapterOptions.unsettled).
   */
  readonly unsettled: ReadonlyMap<string, EarlierCreates>;
  /**
   * Things the panel lists whose password the journal cannot tell (created by one of several
   * unanswered requests, or by one that carried none): apply gives each a new one at once.
   */
  readonly unknown: readonly ExistingSecret[];
}

/** `client`: a kind with a password in a sentence. */
function nounOf(kind: string): string {
  return secretKind(kind)?.noun.one ?? kind;
}

/** Nothing to settle: a run without a secrets file. */
export const NOTHING_TO_SETTLE: JournalState = { unsettled: new Map(), unknown: [] };

/**
 * Names what earlier runs left for this panel in the journal at `path`, given the things with a
 * password that exist now (a run passes every one its panel read holds, secretsInLive; `secrets
 * reset` and executePlan the ones they looked up) and what was read, per kind (`lookedUp`: the
 * kinds read whole, the names looked up; a thing of neither is never judged gone), then records the repairs once (named first: a kill in
 * between names them again, never not at all). A password recovered in clear joins
 * `redactions` before anything is said.
 * Returns what is left for the run to settle (JournalState). Run it under the secrets file's
 * lock (secrets/lock.ts): it writes the journal.
 */
export async function recoverJournal(
  path: string,
  panelUrl: string,
  clients: readonly Existing[],
  redactions: Redactions,
  tell: (message: RecoveryMessage) => void,
  lookedUp: LookedUp = {},
  /** The run's `--clients` (scopeCovers): a thing it does not cover is named, and left to a run that does. */
  scope: ClientScope = clientScope(undefined),
): Promise<JournalState> {
  const found = await findLostIntents(path, panelUrl, clients, lookedUp);
  const covered = (thing: { readonly kind: string; readonly name: string }): boolean =>
    scopeCovers(scope, thing.kind, thing.name);
  const anew = (thing: { readonly kind: string; readonly name: string }): string =>
    covered(thing)
      ? 'this run gives it a new one before anything else'
      : 'it is outside --clients: an apply that covers it gives it a new one';
  const at = (lines: readonly number[]): string => lines.map((line) => `${path}:${line}`).join(', ');
  const warn = (text: string): void => {
    tell({ kind: 'warning', text });
  };
  const note = (text: string): void => {
    tell({ kind: 'note', text });
  };
  for (const line of found.skipped) warn(skippedLineWarning(path, line));
  for (const thing of found.lost) {
    note(
      `${secretLabel(thing.kind, thing.name)} (id ${thing.id}) was created by an earlier apply ` +
        "that was stopped before the panel's answer arrived: its password was never seen: " +
        anew(thing),
    );
  }
  for (const thing of found.recovered) {
    if ('password' in thing.pending) redactions.add(thing.pending.password);
    note(
      `${path}:${thing.line}: ${secretLabel(thing.kind, thing.name)} (id ${thing.id}) was created by an earlier apply ` +
        "that was stopped before the panel's answer arrived; " +
        'the password written ahead for it is its password: recorded',
    );
  }
  for (const thing of found.ambiguous) {
    note(
      `${secretLabel(thing.kind, thing.name)} (id ${thing.id}) was created by one of several earlier requests ` +
        "that were stopped before the panel's answer arrived, each with a password of its own " +
        `(written ahead at ${at(thing.pendingLines)}): which one the panel holds is unknown: ` +
        anew(thing),
    );
  }
  for (const record of found.incomplete) {
    note(
      `${path}:${record.line}: the password of ${secretLabel(record.kind, record.name)} was saved without its id; ` +
        `the panel lists it as id ${record.id}: record completed`,
    );
  }
  for (const intent of found.unsettled) {
    if (!intent.pending) continue;
    const noun = nounOf(intent.kind);
    warn(
      intent.pendingLines.length === 1
        ? `${path}:${intent.line}: ${secretLabel(intent.kind, intent.name)}: ` +
            "an earlier apply's POST carried the password written ahead there and its outcome is unknown; " +
            `the panel does not list the ${noun} (yet): once it does, apply records that password as current; ` +
            `an apply that creates the ${noun} looks it up again first, and sends that password again when it can read it`
        : `${at(intent.pendingLines)}: ${secretLabel(intent.kind, intent.name)}: ` +
            "earlier applies' POSTs carried the passwords written ahead there and their outcomes are unknown; " +
            `the panel does not list the ${noun} (yet): the apply that finds it gives it a new one`,
    );
  }
  const listed = new Map(clients.map(existingSecret).map((thing) => [`${thing.kind}:${thing.name}`, thing.id]));
  const resets: ExistingSecret[] = [];
  for (const intent of found.pendingResets) {
    const id = listed.get(`${intent.kind}:${intent.name}`);
    const pending =
      `${at(intent.pendingLines)}: ${secretLabel(intent.kind, intent.name)} has a newer password pending ` +
      'from a reset whose outcome is unknown: the panel holds it or the current one';
    if (id === undefined) warn(`${pending}; ${resetCommand(intent.kind, intent.name)} settles it`);
    else {
      // Which one the panel holds cannot be told: as for two creates, a new one settles it.
      note(`${pending}: ${anew(intent)}`);
      resets.push({ kind: intent.kind, name: intent.name, id });
    }
  }
  for (const reset of found.goneResets) {
    note(
      `${path}:${reset.line}: ${secretLabel(reset.kind, reset.name)} had a password pending from a reset, ` +
        `and the panel no longer has the ${nounOf(reset.kind)}: nothing is left to settle: closed`,
    );
  }
  await closeLostIntents(path, panelUrl, found);
  return {
    unsettled: new Map(found.unsettled.map((intent) => [secretArg(intent.kind, intent.name), intent.creates])),
    unknown: [...found.lost, ...found.ambiguous, ...resets]
      .filter(covered)
      .map(({ kind, name, id }) => ({ kind, name, id })),
  };
}
