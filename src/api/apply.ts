import { DEFAULT_CONCURRENCY, executeChanges, MAX_CONCURRENCY, type Outcome } from '../apply/execute.js';
import { DEFAULT_SETTLE_TIMEOUT_MS } from '../apply/adapter-options.js';
import { panelAdapter } from '../apply/panel-adapter.js';
import { ProvisionError } from '../errors.js';
import type { PanelClient } from '../panel/client.js';
import type { OnEvent } from '../plan/events.js';
import { createsSecrets, secretNouns } from '../plan/guards.js';
import type { Plan } from '../plan/types.js';
import { Redactions } from '../redact.js';
import type { SecretsSink } from '../secrets/journal.js';
import { generatePassword } from '../secrets/password.js';
import { SecretsLock } from '../secrets/lock.js';
import type { EarlierCreates, Existing, ExistingSecret } from '../secrets/recovery.js';
import type { JournalState } from '../apply/recover.js';
import { settleUnknown, unsettledPassword } from '../apply/reset.js';
import { SECRET_LOOKUPS } from '../apply/secret-lookups.js';
import { secretArg, secretLabel } from '../secrets/kinds.js';
import { clientScope } from '../names.js';
import { loadEncryption, openSecretsSink, requireSecretsPath } from '../secrets/sink.js';
import { settleJournal } from './prepare.js';

/**
 * Apply: a plan carried out against a panel, through the panel adapter and the executor, with
 * progress told through one `onEvent`. `runPlan` is the composition both front doors use;
 * `executePlan` is the library's whole run around it (the secrets file's lock, its repairs,
 * its sink). The CLI takes the lock and opens the sink itself, under its own rails.
 */

export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../apply/execute.js';
export { DEFAULT_SETTLE_TIMEOUT_MS } from '../apply/adapter-options.js';
export { createsClients, createsSecrets, secretNouns } from '../plan/guards.js';
export { type Outcome, tally } from '../plan/outcome.js';

/** How executePlan runs; every field is optional. */
export interface ApplyOptions {
  /** Requests in flight at once, 1 to MAX_CONCURRENCY (64); default DEFAULT_CONCURRENCY (4). */
  readonly concurrency?: number;
  /**
   * The secrets file (JSON Lines, created 0600) that new clients' passwords go to, as
   * `apply --secrets-file`: a plan that creates clients is refused without one. Given, the run
   * holds its lock (`<file>.lock`) from start to end, and first settles what a killed run left
   * in it (as apply does), saying so through onWarning.
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
  /**
   * Told each event of the run (ProvisionEvent): `outcome` as each change finishes, `note`
   * before each wait or look-up, `warning` and `note` about the secrets file.
   */
  readonly onEvent?: OnEvent;
  /** Called as each change finishes (succeeded, failed or skipped): the `outcome` events. */
  readonly onOutcome?: (outcome: Outcome) => void;
  /** Told, in one sentence, before each wait or look-up (never the key or a password): the run's `note` events. */
  readonly onWait?: (message: string) => void;
  /**
   * Told what the CLI prints on stderr about the secrets file: it lies in a git work tree
   * without being ignored; a killed run's client whose password is lost, or whose password
   * written ahead is now recorded; a create or reset whose outcome is still unknown.
   */
  readonly onWarning?: (message: string) => void;
}

/**
 * Carries out `plan` (from `diff`) against `panel`, as `provision apply` does once the plan
 * is approved: creates and updates first, then deletes, each after what it depends on; a
 * failure skips its dependents and nothing else. Returns one outcome per change; a failed
 * change does not throw. Throws ProvisionError before anything is sent for a plan with
 * conflicts (`plan_conflict`), one that creates clients without `secretsFile` (`secrets`), or
 * when another run (this process's or another's) holds the secrets file's lock (`secrets`).
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
  const creates = secretNouns(plan.changes);
  const path =
    creates !== undefined
      ? requireSecretsPath(options.secretsFile, `this plan creates ${creates}, and their passwords need`)
      : options.secretsFile === ''
        ? undefined
        : options.secretsFile;
  const onEvent: OnEvent = (event) => {
    options.onEvent?.(event);
    if (event.type === 'outcome') options.onOutcome?.(event.outcome);
    else if (event.type === 'note') options.onWait?.(event.message);
  };
  const warn = (message: string): void => {
    options.onEvent?.({ type: 'warning', message });
    options.onWarning?.(message);
  };
  const run = (secrets: SecretsSink | undefined, unsettled: JournalState['unsettled']): Promise<Outcome[]> =>
    runPlan(plan, panel, {
      concurrency,
      settleTimeoutMs: options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS,
      secrets,
      unsettled,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.generatePasswords === true ? { newPassword: () => generatePassword() } : {}),
      onEvent,
    });
  if (path === undefined) return run(undefined, new Map());
  // As the CLI's apply: one run at a time per secrets file, for the whole run (the journal's
  // repairs included); a second one, in this process or another, is refused before anything is sent.
  const lock = await SecretsLock.acquire(path, 'executePlan');
  try {
    const redactions = new Redactions();
    const journal = await settleLookedUp(
      path,
      panel,
      redactions,
      (event) => {
        options.onEvent?.(event);
        if (event.type === 'warning' || event.type === 'note') options.onWarning?.(event.message);
      },
      plan.scope?.clients,
    );
    const writes = createsSecrets(plan.changes) || journal.unknown.length > 0;
    const secrets = writes ? await openSecretsSink({ path, encryption, redactions }) : undefined;
    for (const warning of secrets?.warnings ?? []) warn(warning);
    try {
      if (secrets !== undefined)
        for (const failure of await settlePasswords(panel, secrets.sink, journal.unknown, {
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          onEvent,
        }))
          warn(failure);
      return await run(secrets?.sink, journal.unsettled);
    } finally {
      await secrets?.close();
    }
  } finally {
    await lock.release();
  }
}

/** How runPlan carries a plan out: everything decided by the caller. */
interface RunOptions {
  /** Requests in flight at once (checked by the caller). */
  readonly concurrency: number;
  /** How long a new client's domains are retried while the panel sets the account up. */
  readonly settleTimeoutMs: number;
  /** Where new clients' passwords go; a plan that creates clients is refused without one. */
  readonly secrets: SecretsSink | undefined;
  /** Usernames whose create an earlier run left unsettled (settleJournal), with what they wrote ahead; default none. */
  readonly unsettled?: ReadonlyMap<string, EarlierCreates>;
  readonly signal?: AbortSignal;
  /** Makes each new client's password here (apply --generate-passwords). */
  readonly newPassword?: () => string;
  /** Told `outcome` as each change finishes and `note` before each wait or look-up. */
  readonly onEvent?: OnEvent;
}

/** The plan, through the panel adapter and the executor: the one composition of apply. */
export function runPlan(plan: Plan, panel: PanelClient, options: RunOptions): Promise<Outcome[]> {
  const { onEvent } = options;
  const adapter = panelAdapter(panel, {
    settleTimeoutMs: options.settleTimeoutMs,
    secrets: options.secrets,
    panelUrl: panel.baseUrl,
    ...(options.unsettled === undefined ? {} : { unsettled: options.unsettled }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.newPassword === undefined ? {} : { newPassword: options.newPassword }),
    ...(onEvent === undefined ? {} : { onEvent }),
  });
  return executeChanges(plan, adapter, {
    concurrency: options.concurrency,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}

/**
 * Gives each thing whose password the secrets file cannot tell (settleJournal's `unknown`:
 * an earlier run's requests left open) a new one, before the plan is carried out: written
 * ahead to `sink`, then its kind's reset request (a client's `PUT /clients/{id}`), sent again
 * with the same password while its outcome is unknown, then recorded (apply/reset.ts
 * settleUnknown). Each one set is told as a `note`, as is a thing the panel no longer has;
 * returns a sentence for each one it could not settle (the run then fails: exit 1).
 */
export async function settlePasswords(
  panel: PanelClient,
  sink: SecretsSink,
  clients: readonly Existing[],
  options: { readonly signal?: AbortSignal; readonly onEvent?: OnEvent },
): Promise<string[]> {
  if (clients.length === 0) return [];
  const outcomes = await settleUnknown(panel, sink, clients, {
    panelUrl: panel.baseUrl,
    newPassword: () => generatePassword(),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const failures: string[] = [];
  for (const outcome of outcomes) {
    const failure = unsettledPassword(outcome);
    // Deleted since the panel was read: no password is left to know (its journal says unknown).
    if (outcome.status === 'refused' && outcome.gone === true)
      options.onEvent?.({
        type: 'note',
        message: `${secretLabel(outcome.kind, outcome.name)} (id ${outcome.id}) is no longer on the panel: no password to set`,
      });
    else if (failure !== undefined) failures.push(failure);
    else
      options.onEvent?.({
        type: 'note',
        message:
          `${secretLabel(outcome.kind, outcome.name)} (id ${outcome.id}): its password was unknown: ` +
          'a new one is set and recorded',
      });
  }
  return failures;
}

/**
 * What a killed run left in the journal, settled before anything is sent, as the CLI does
 * while it plans (api/prepare.ts settleJournal): the CLI reads every client, so here the
 * things the journal needs are looked up by name, each by its kind's look-up (a GET each,
 * usually none). Returns what the run must still settle.
 */
async function settleLookedUp(
  path: string,
  panel: PanelClient,
  redactions: Redactions,
  onEvent: OnEvent,
  /** The plan's `--clients` scope: as apply, a password outside it is left to a run that covers it. */
  scope: readonly string[] | undefined,
): Promise<JournalState> {
  // Imported here, as the CLI's apply imports the journal's repairs: only a run with a secrets file loads them.
  const { secretsToSettle } = await import('../secrets/recovery.js');
  const things: ExistingSecret[] = [];
  const names = await secretsToSettle(path, panel.baseUrl);
  for (const { kind, name } of names) {
    const found = await SECRET_LOOKUPS[kind].find(panel, name);
    if (found !== undefined) things.push({ kind, name, id: found.id });
  }
  return settleJournal(
    path,
    panel.baseUrl,
    { found: things, names: names.map(({ kind, name }) => secretArg(kind, name)) },
    redactions,
    onEvent,
    clientScope(scope),
  );
}
