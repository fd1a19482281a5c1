import { resetPasswords, type ResetOutcome, type ResetTarget } from '../apply/reset.js';
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { PanelClient } from '../panel/client.js';
import { findClient } from '../panel/read.js';
import type { OnEvent } from '../plan/events.js';
import type { Redactions } from '../redact.js';
import type { SecretsSink } from '../secrets/journal.js';
import { settleJournal } from './prepare.js';

/**
 * `secrets reset` over a connected panel: the clients looked up by name, what an interrupted
 * apply left for them settled, then their passwords reset in order (apply/reset.ts). The caller
 * holds the secrets file's lock and opens its sink (with its own rails: clear text under CI).
 */

export type { ResetOutcome, ResetTarget } from '../apply/reset.js';

/**
 * The clients named, looked up on the panel one by one: a name the panel does not have is
 * refused, naming it, before anything is sent. Then what an interrupted apply wrote ahead for
 * them in the journal at `path` is settled and told (`warning`, `note`), so a password it
 * left is current before it is replaced.
 */
export async function resetTargets(
  panel: PanelClient,
  usernames: readonly string[],
  options: { readonly path: string; readonly redactions: Redactions; readonly onEvent?: OnEvent },
): Promise<ResetTarget[]> {
  const targets: ResetTarget[] = [];
  const missing: string[] = [];
  for (const username of usernames) {
    const found = await findClient(panel, username);
    if (found === undefined) missing.push(username);
    else targets.push({ username, id: found.id });
  }
  if (missing.length > 0) {
    throw new ProvisionError('usage', `the panel has no client ${missing.map(quote).join(', ')}: nothing was sent`, {
      hint:
        'check the names (provision plan --show-unmanaged lists the clients the manifest does not); ' +
        'administrators cannot be reset here',
    });
  }
  await settleJournal(
    options.path,
    panel.baseUrl,
    { clients: targets },
    options.redactions,
    usernames,
    options.onEvent,
  );
  return targets;
}

/** The resets, in order, each new password written to `sink` first; `onOutcome` told as each client is done. */
export function resetClients(
  panel: PanelClient,
  sink: SecretsSink,
  targets: readonly ResetTarget[],
  options: {
    readonly newPassword: () => string;
    readonly signal?: AbortSignal;
    readonly onOutcome?: (outcome: ResetOutcome) => void;
  },
): Promise<ResetOutcome[]> {
  return resetPasswords(panel, sink, targets, { panelUrl: panel.baseUrl, ...options });
}
