import { DEFAULT_CONCURRENCY, executePlan as walkPlan, MAX_CONCURRENCY, type Outcome } from '../apply/execute.js';
import { DEFAULT_SETTLE_TIMEOUT_MS, panelAdapter } from '../apply/panel-adapter.js';
import { ProvisionError } from '../errors.js';
import type { PanelClient } from '../panel/client.js';
import { createsClients } from '../plan/guards.js';
import type { Plan } from '../plan/types.js';
import { Redactions } from '../redact.js';
import { generatePassword } from '../secrets/password.js';
import { loadEncryption, openSecretsSink, requireSecretsPath } from '../secrets/sink.js';

/** How executePlan runs; every field is optional. */
export interface ApplyOptions {
  /** Requests in flight at once, 1 to MAX_CONCURRENCY (64); default DEFAULT_CONCURRENCY (4). */
  readonly concurrency?: number;
  /**
   * The secrets file (JSON Lines, created 0600) that new clients' passwords go to, as
   * `apply --secrets-file`: a plan that creates clients is refused without one.
   */
  readonly secretsFile?: string;
  /** An age public key (`age1…`): every password in the file is encrypted to it. Empty is an error. */
  readonly secretsRecipient?: string;
  /** Make each new client's password here and write it ahead (as `apply --generate-passwords`). */
  readonly generatePasswords?: boolean;
  /** How long a new client's domains are retried while the panel sets the account up (default 30 s). */
  readonly settleTimeoutMs?: number;
  /** Aborting stops new work: changes not yet sent are skipped as `interrupted`; in-flight ones finish. */
  readonly signal?: AbortSignal;
  /** Called as each change finishes (succeeded, failed or skipped). */
  readonly onOutcome?: (outcome: Outcome) => void;
  /** Told, in one sentence, before each wait or look-up (never the key or a password). */
  readonly onWait?: (message: string) => void;
  /** Told what the CLI prints as a warning (the secrets file lies in a git work tree without being ignored). */
  readonly onWarning?: (message: string) => void;
}

/**
 * Carries out `plan` (from `diff`) against `panel`, as `provision apply` does once the plan
 * is approved: creates and updates first, then deletes, each after what it depends on; a
 * failure skips its dependents and nothing else. Returns one outcome per change; a failed
 * change does not throw. Throws ProvisionError before anything is sent for a plan with
 * conflicts (`plan_conflict`), or one that creates clients without `secretsFile` (`secrets`).
 * Prints nothing. The CLI's mass-change limits (--max-creates, --max-deletes) are not
 * applied here: check `plan.changes` first if you want them.
 */
export async function executePlan(plan: Plan, panel: PanelClient, options: ApplyOptions = {}): Promise<Outcome[]> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new ProvisionError('usage', `concurrency ${String(concurrency)} is out of range`, {
      hint: `give a whole number from 1 to ${MAX_CONCURRENCY}`,
    });
  }
  const encryption = await loadEncryption(options.secretsRecipient);
  const what = 'this plan creates clients, and their passwords need';
  const secrets = createsClients(plan.changes)
    ? await openSecretsSink({
        path: requireSecretsPath(options.secretsFile, what),
        encryption,
        redactions: new Redactions(),
      })
    : undefined;
  for (const warning of secrets?.warnings ?? []) options.onWarning?.(warning);
  try {
    const adapter = panelAdapter(panel, {
      settleTimeoutMs: options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS,
      secrets: secrets?.sink,
      panelUrl: panel.baseUrl,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.generatePasswords === true ? { newPassword: () => generatePassword() } : {}),
      ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
    });
    return await walkPlan(plan, adapter, {
      concurrency,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onOutcome === undefined ? {} : { onOutcome: options.onOutcome }),
    });
  } finally {
    await secrets?.close();
  }
}
