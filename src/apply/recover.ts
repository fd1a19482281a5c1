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
import { quote } from '../escape.js';
import type { Redactions } from '../redact.js';
import { skippedLineWarning } from '../secrets/journal.js';
import {
  closeLostIntents,
  type EarlierCreates,
  type ExistingClient,
  findLostIntents,
  type LookedUp,
} from '../secrets/recovery.js';
import { resetCommand } from './create-failures.js';

/** A sentence for the user: a `warning` (something is lost or unsettled) or a `note` (repaired). */
export interface RecoveryMessage {
  readonly kind: 'warning' | 'note';
  readonly text: string;
}

/** What a run must still settle after the journal's repairs: see recoverJournal. */
export interface JournalState {
  /**
   * Clients whose create an earlier run left open and that the panel did not list (yet), with
   * what those creates wrote ahead (PanelAdapterOptions.unsettled).
   */
  readonly unsettled: ReadonlyMap<string, EarlierCreates>;
  /**
   * Clients the panel lists whose password the journal cannot tell (created by one of several
   * unanswered requests, or by one that carried none): apply gives each a new one at once.
   */
  readonly unknown: readonly ExistingClient[];
}

/** Nothing to settle: a run without a secrets file. */
export const NOTHING_TO_SETTLE: JournalState = { unsettled: new Map(), unknown: [] };

/**
 * Names what earlier runs left for this panel in the journal at `path`, given the clients that
 * exist now (a run passes every live client; `secrets reset` and executePlan the ones they
 * looked up) and which names missing from them the panel has not got (`lookedUp`: 'every' for
 * apply, else the names looked up), then records the repairs once (named first: a kill in
 * between names them again, never not at all). A password recovered in clear joins
 * `redactions` before anything is said.
 * Returns what is left for the run to settle (JournalState). Run it under the secrets file's
 * lock (secrets/lock.ts): it writes the journal.
 */
export async function recoverJournal(
  path: string,
  panelUrl: string,
  clients: readonly ExistingClient[],
  redactions: Redactions,
  tell: (message: RecoveryMessage) => void,
  lookedUp: LookedUp = [],
  /** Whether the run covers a client (`--clients`): one it does not is named, and left to a run that does. */
  covers: (username: string) => boolean = () => true,
): Promise<JournalState> {
  const found = await findLostIntents(path, panelUrl, clients, lookedUp);
  const anew = (username: string): string =>
    covers(username)
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
  for (const client of found.lost) {
    note(
      `client ${quote(client.username)} (id ${client.id}) was created by an earlier apply ` +
        "that was stopped before the panel's answer arrived: its password was never seen: " +
        anew(client.username),
    );
  }
  for (const client of found.recovered) {
    if ('password' in client.pending) redactions.add(client.pending.password);
    note(
      `${path}:${client.line}: client ${quote(client.username)} (id ${client.id}) was created by an earlier apply ` +
        "that was stopped before the panel's answer arrived; " +
        'the password written ahead for it is its password: recorded',
    );
  }
  for (const client of found.ambiguous) {
    note(
      `client ${quote(client.username)} (id ${client.id}) was created by one of several earlier requests ` +
        "that were stopped before the panel's answer arrived, each with a password of its own " +
        `(written ahead at ${at(client.pendingLines)}): which one the panel holds is unknown: ` +
        anew(client.username),
    );
  }
  for (const record of found.incomplete) {
    note(
      `${path}:${record.line}: the password of client ${quote(record.username)} was saved without its id; ` +
        `the panel lists it as id ${record.id}: record completed`,
    );
  }
  for (const intent of found.unsettled) {
    if (!intent.pending) continue;
    warn(
      intent.pendingLines.length === 1
        ? `${path}:${intent.line}: client ${quote(intent.username)}: ` +
            "an earlier apply's POST carried the password written ahead there and its outcome is unknown; " +
            'the panel does not list the client (yet): once it does, apply records that password as current; ' +
            'an apply that creates the client looks it up again first, and sends that password again when it can read it'
        : `${at(intent.pendingLines)}: client ${quote(intent.username)}: ` +
            "earlier applies' POSTs carried the passwords written ahead there and their outcomes are unknown; " +
            'the panel does not list the client (yet): the apply that finds it gives it a new one',
    );
  }
  const listed = new Map(clients.map((client) => [client.username, client.id]));
  const resets: ExistingClient[] = [];
  for (const intent of found.pendingResets) {
    const id = listed.get(intent.username);
    const pending =
      `${at(intent.pendingLines)}: client ${quote(intent.username)} has a newer password pending ` +
      'from a reset whose outcome is unknown: the panel holds it or the current one';
    if (id === undefined) warn(`${pending}; ${resetCommand(intent.username)} settles it`);
    else {
      // Which one the panel holds cannot be told: as for two creates, a new one settles it.
      note(`${pending}: ${anew(intent.username)}`);
      resets.push({ username: intent.username, id });
    }
  }
  for (const reset of found.goneResets) {
    note(
      `${path}:${reset.line}: client ${quote(reset.username)} had a password pending from a reset, ` +
        'and the panel no longer has the client: nothing is left to settle: closed',
    );
  }
  await closeLostIntents(path, panelUrl, found);
  return {
    unsettled: new Map(found.unsettled.map((intent) => [intent.username, intent.creates])),
    unknown: [...found.lost, ...found.ambiguous, ...resets]
      .filter(({ username }) => covers(username))
      .map(({ username, id }) => ({ username, id })),
  };
}
