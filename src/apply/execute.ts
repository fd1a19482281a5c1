import pLimit from 'p-limit';
import { ProvisionError } from '../errors.js';
import { requestFor, type PanelRequest } from '../plan/requests.js';
import type { Change, ChangeId, Plan } from '../plan/types.js';
import type { SecretsSink } from '../secrets/journal.js';

/** What happened to one change. Failures carry a one-line message (never a secret). */
export type Outcome =
  | { readonly change: Change; readonly status: 'succeeded'; readonly id: number; readonly note?: string }
  | { readonly change: Change; readonly status: 'failed'; readonly error: string }
  | { readonly change: Change; readonly status: 'skipped'; readonly because: ChangeId | 'interrupted' };

/**
 * How a change reaches the panel. The executor decides what and when; a Creator decides how
 * (retries, look-ups after an ambiguous failure, waiting for a new account to settle):
 * panelCreator in src/apply/panel-adapter.ts.
 */
export interface Creator {
  /**
   * POST /clients. `password` is undefined when the client turned out to exist already after
   * an ambiguous failure (the answer with its password was lost): it is adopted, and the user
   * must set a new password in the panel.
   */
  createClient(body: PanelRequest['body']): Promise<{ readonly id: number; readonly password: string | undefined }>;
  /** POST /domains. `clientIsNew`: its client was created in this run and may still be settling. */
  createDomain(body: PanelRequest['body'], clientIsNew: boolean): Promise<{ readonly id: number }>;
}

export interface ExecuteOptions {
  /** How many changes may be in flight at once. */
  readonly concurrency: number;
  /** Where new clients' passwords go; required when the plan creates clients. */
  readonly secrets: SecretsSink | undefined;
  /** Recorded with each password so the user knows which panel it belongs to. */
  readonly panelUrl: string;
  /** Called as each change finishes (succeeded, failed or skipped), for progress output. */
  readonly onOutcome?: (outcome: Outcome) => void;
  /** Aborting stops new work: changes not yet sent are skipped as 'interrupted'; in-flight ones finish. */
  readonly signal?: AbortSignal;
  /** Injected for tests; the time stamped on secrets records. */
  readonly now?: () => Date;
}

/**
 * Runs the plan's changes: each starts once the changes it depends on have succeeded, at most
 * `concurrency` at a time. A failure skips its dependents (transitively) and nothing else;
 * nothing throws for a failed change: the outcomes, one per change, say what happened.
 *
 * Passwords: before a POST /clients leaves, its intent is on disk (write-ahead), so a run
 * killed mid-request leaves a trace a later run can name; after it answers, the password is
 * on disk before the client counts as created, so no dependent request, and no later failure,
 * can leave it only in memory.
 */
export async function executePlan(plan: Plan, creator: Creator, options: ExecuteOptions): Promise<Outcome[]> {
  if (plan.conflicts.length > 0) {
    throw new ProvisionError('plan_conflict', 'the plan has conflicts: nothing was sent');
  }
  const { secrets } = options;
  if (secrets === undefined && plan.changes.some((c) => c.type === 'client')) {
    throw new ProvisionError('secrets', 'creating clients needs a secrets file for their passwords: nothing was sent');
  }
  const limit = pLimit(options.concurrency);
  const now = options.now ?? (() => new Date());
  const newClientIds = new Map<string, number>();
  const outcomes: Outcome[] = [];
  const running = new Map<ChangeId, Promise<Outcome>>();

  const finish = (outcome: Outcome): Outcome => {
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
    return outcome;
  };

  const send = async (change: Change): Promise<Outcome> => {
    if (options.signal?.aborted === true) return { change, status: 'skipped', because: 'interrupted' };
    const { body } = requestFor(change, newClientIds);
    if (change.type === 'domain') {
      try {
        const { id } = await creator.createDomain(body, change.clientId === null);
        return { change, status: 'succeeded', id };
      } catch (error) {
        return { change, status: 'failed', error: messageOf(error) };
      }
    }
    // A client: write-ahead intent, POST, then the password on disk before anything else.
    const base = { panel_url: options.panelUrl, username: change.name };
    try {
      await secrets?.intend({ ...base, at: now().toISOString() });
    } catch (error) {
      return { change, status: 'failed', error: `the secrets file cannot be written (${messageOf(error)}): nothing was sent for this client` };
    }
    let created;
    try {
      created = await creator.createClient(body);
    } catch (error) {
      return { change, status: 'failed', error: messageOf(error) };
    }
    const { id, password } = created;
    try {
      await secrets?.record({ ...base, created_at: now().toISOString(), id, password: password ?? null });
    } catch (error) {
      return {
        change,
        status: 'failed',
        error: `client "${change.name}" was created (id ${id}) but its password could not be saved (${messageOf(error)}): set a new password in the panel`,
      };
    }
    newClientIds.set(change.name, id);
    return password === undefined
      ? { change, status: 'succeeded', id, note: 'its password was lost with the interrupted answer: set a new one in the panel' }
      : { change, status: 'succeeded', id };
  };

  const start = async (change: Change): Promise<Outcome> => {
    for (const dep of change.dependsOn) {
      const before = await running.get(dep);
      if (before !== undefined && before.status !== 'succeeded') {
        return finish({ change, status: 'skipped', because: before.status === 'skipped' ? before.because : dep });
      }
    }
    return finish(await limit(send, change));
  };

  // Plan order puts every change after its dependencies, so each lookup above finds a promise.
  for (const change of plan.changes) running.set(change.id, start(change));
  await Promise.all(running.values());
  return outcomes;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** succeeded / failed / skipped counts. */
export function tally(outcomes: readonly Outcome[]): Record<Outcome['status'], number> {
  const counts = { succeeded: 0, failed: 0, skipped: 0 };
  for (const o of outcomes) counts[o.status]++;
  return counts;
}
