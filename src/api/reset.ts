import { resetPasswords, type ResetOutcome, type ResetTarget } from '../apply/reset.js';
import { SECRET_LOOKUPS } from '../apply/secret-lookups.js';
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { PanelClient } from '../panel/client.js';
import type { OnEvent } from '../plan/events.js';
import type { Redactions } from '../redact.js';
import { isClientKind, type SecretsSink } from '../secrets/journal.js';
import { type ExistingSecret, type SecretName, secretArg, secretLabel } from '../secrets/kinds.js';
import { settleJournal } from './prepare.js';

/**
 * `secrets reset` over a connected panel: the things named (clients, and each kind with a
 * password) looked up by name, what an interrupted apply left for them settled, then their
 * passwords reset in order (apply/reset.ts). The caller holds the secrets file's lock and
 * opens its sink (with its own rails: clear text under CI).
 */

export type { ResetOutcome, ResetTarget } from '../apply/reset.js';

/**
 * The things named, looked up on the panel one by one, each by its kind's look-up: a name the
 * panel does not have is refused, naming it, before anything is sent. Then what an
 * interrupted apply wrote ahead for them in the journal at `path` is settled and told
 * (`warning`, `note`), so a password it left is current before it is replaced.
 */
export async function resetTargets(
  panel: PanelClient,
  names: readonly SecretName[],
  options: { readonly path: string; readonly redactions: Redactions; readonly onEvent?: OnEvent },
): Promise<ExistingSecret[]> {
  const targets: ExistingSecret[] = [];
  const missing: SecretName[] = [];
  for (const { kind, name } of names) {
    const found = await SECRET_LOOKUPS[kind].find(panel, name);
    if (found === undefined) missing.push({ kind, name });
    else targets.push({ kind, name, id: found.id });
  }
  if (missing.length > 0) {
    const clients = missing.every(({ kind }) => isClientKind(kind));
    throw new ProvisionError(
      'usage',
      clients
        ? `the panel has no client ${missing.map(({ name }) => quote(name)).join(', ')}: nothing was sent`
        : `the panel has no ${missing.map(({ kind, name }) => secretLabel(kind, name)).join(', ')}: nothing was sent`,
      {
        hint:
          'check the names (provision plan --show-unmanaged lists the clients the manifest does not); ' +
          'administrators cannot be reset here',
      },
    );
  }
  await settleJournal(
    options.path,
    panel.baseUrl,
    { found: targets, names: names.map(({ kind, name }) => secretArg(kind, name)) },
    options.redactions,
    options.onEvent,
  );
  return targets;
}

/** The resets, in order, each new password written to `sink` first; `onOutcome` told as each thing is done. */
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
