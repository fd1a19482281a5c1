/**
 * A thing whose panel may name it itself (KindSecret.panelNaming): the name the panel gave the
 * one a create made, and a later apply's create of one.
 *
 * A later apply's create of a thing whose panel may name it itself (KindSecret.panelNaming), when
 * an earlier run's create of it was left open (its answer lost, or the run killed) and the panel
 * does not list it under the name sent: that proves nothing, since the earlier POST may have made
 * it under a name of the panel's. The create is sent only when the panel shows that POST did not
 * land: none of the things its client has on the panel (and none whose record does not say whose
 * it is) is unknown to the journal. Otherwise it is refused, naming them (docs/passwords.md).
 */
import type { SecretKindName } from '../kinds/kind.js';
import type { PanelNaming } from '../kinds/secret.js';
import type { PanelRequest } from '../kinds/common.js';
import type { PanelClient } from '../panel/client.js';
import { listReader } from '../panel/read.js';
import { secretKind } from '../secrets/kinds.js';
import type { SecretsSink } from '../secrets/journal.js';
import type { EarlierCreates } from '../secrets/recovery.js';
import { lookUp, strays } from './create-failures.js';
import { messageOf } from '../util.js';
import type { Slot } from './walk.js';

/** Throws the refusal (create-failures.ts strays) when the client has things the journal does not know; else nothing. */
export async function noStrays(
  panel: PanelClient,
  naming: PanelNaming,
  thing: { readonly kind: string; readonly label: string; readonly noun: string },
  planned: PanelRequest,
  earlier: EarlierCreates,
  slot: Slot,
  written: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<void> {
  const names = await lookUp(
    () => slot.run(() => naming.candidates(listReader(panel), planned)),
    thing.label,
    "an earlier apply's POST",
    'got no answer',
  );
  const known = earlier.known ?? new Set<string>();
  const ours = written.get(thing.kind);
  const unknown = (names ?? []).filter((name) => !known.has(name) && ours?.has(name) !== true);
  if (unknown.length > 0) throw strays(thing, unknown);
}

/**
 * `sink`, noting in `written` (by kind) each name this run writes an intent or a password record
 * for, of a kind whose panel may name it itself (noStrays reads no other): the journal knows
 * those as it knows an earlier run's (`EarlierCreates.known`, read before the run), so a thing
 * this run made is never taken for one an earlier run's open create made.
 */
export function noting(sink: SecretsSink, written: Map<string, Set<string>>): SecretsSink {
  const note = (entry: { readonly kind: SecretKindName; readonly name: string }): void => {
    if (secretKind(entry.kind)?.secret.panelNaming === undefined) return;
    const names = written.get(entry.kind) ?? new Set<string>();
    written.set(entry.kind, names.add(entry.name));
  };
  return {
    intend: (entry) => {
      note(entry);
      return sink.intend(entry);
    },
    record: (entry) => {
      note(entry);
      return sink.record(entry);
    },
    refused: (entry) => sink.refused(entry),
  };
}

/**
 * The name the panel gave the thing it created as `id`, for a kind whose panel may name it itself
 * (KindSecret.panelNaming); undefined for another kind, or when it cannot be read (then the
 * password is recorded under the name sent, and `tell` says so).
 */
export async function nameGiven(
  panel: PanelClient,
  tell: (message: string) => void,
  thing: { readonly kind: SecretKindName; readonly label: string },
  id: number,
  slot: Slot,
): Promise<string | undefined> {
  const naming = secretKind(thing.kind)?.secret.panelNaming;
  if (naming === undefined) return undefined;
  try {
    return await slot.run(() => naming.nameOf(panel, id));
  } catch (error) {
    tell(`the name the panel gave ${thing.label} (id ${id}) could not be read (${messageOf(error)}): taken as sent`);
    return undefined;
  }
}
