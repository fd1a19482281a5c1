/**
 * A later apply's create of a thing whose panel may name it itself (KindSecret.panelNaming), when
 * an earlier run's create of it was left open (its answer lost, or the run killed) and the panel
 * does not list it under the name sent: that proves nothing, since the earlier POST may have made
 * it under a name of the panel's. The create is sent only when the panel shows that POST did not
 * land: none of the things its client has on the panel (and none whose record does not say whose
 * it is) is unknown to the journal. Otherwise it is refused, naming them (docs/passwords.md).
 */
import type { PanelNaming } from '../kinds/secret.js';
import type { PanelRequest } from '../kinds/common.js';
import type { PanelClient } from '../panel/client.js';
import { listReader } from '../panel/read.js';
import type { EarlierCreates } from '../secrets/recovery.js';
import { lookUp, strays } from './create-failures.js';
import type { Slot } from './walk.js';

/** Throws the refusal (create-failures.ts strays) when the client has things the journal does not know; else nothing. */
export async function noStrays(
  panel: PanelClient,
  naming: PanelNaming,
  thing: { readonly kind: string; readonly label: string; readonly noun: string },
  planned: PanelRequest,
  earlier: EarlierCreates,
  slot: Slot,
): Promise<void> {
  const names = await lookUp(
    () => slot.run(() => naming.candidates(listReader(panel), planned)),
    thing.label,
    "an earlier apply's POST",
    'got no answer',
  );
  const known = earlier.known ?? new Set<string>();
  const unknown = (names ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0) throw strays(thing, unknown);
}
