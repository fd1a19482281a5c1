import pLimit from 'p-limit';
import { ProvisionError } from '../errors.js';
import { requestFor } from '../plan/requests.js';
import type { Change, ChangeId, Plan } from '../plan/types.js';
import type { SecretsSink } from './secrets.js';

/** What happened to one change. Failures carry a one-line message (never a secret). */
export type Outcome =
  | { readonly change: Change; readonly status: 'succeeded'; readonly id: number }
  | { readonly change: Change; readonly status: 'failed'; readonly error: string }
  | { readonly change: Change; readonly status: 'skipped'; readonly because: ChangeId };

/** The one call the executor makes; PanelClient satisfies it. */
export interface Poster {
  post(path: string, body: unknown): Promise<unknown>;
}

export interface ExecuteOptions {
  /** How many requests may be in flight at once. */
  readonly concurrency: number;
  /** Where new clients' passwords go; required when the plan creates clients. */
  readonly secrets: SecretsSink | undefined;
  /** Recorded with each password so the user knows which panel it belongs to. */
  readonly panelUrl: string;
  /** Called as each change finishes (succeeded, failed or skipped), for progress output. */
  readonly onOutcome?: (outcome: Outcome) => void;
  /** Injected for tests; the time stamped on secrets records. */
  readonly now?: () => Date;
}

/**
 * Runs the plan's changes: each starts once the changes it depends on have succeeded, at most
 * `concurrency` at a time. A failure skips its dependents (transitively) and nothing else;
 * nothing throws for a failed change: the outcomes, one per change, say what happened.
 * A new client's password is on disk before the client counts as created, so no dependent
 * request (and no later failure) can leave it only in memory.
 */
export async function executePlan(plan: Plan, panel: Poster, options: ExecuteOptions): Promise<Outcome[]> {
  if (plan.conflicts.length > 0) {
    throw new ProvisionError('plan_conflict', 'the plan has conflicts: nothing was sent');
  }
  if (options.secrets === undefined && plan.changes.some((c) => c.type === 'client')) {
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
    const request = requestFor(change, newClientIds);
    let answer: unknown;
    try {
      answer = await panel.post(request.path, request.body);
    } catch (error) {
      return { change, status: 'failed', error: messageOf(error) };
    }
    const id = integerField(answer, 'id');
    if (id === undefined) {
      return { change, status: 'failed', error: `${request.method} ${request.path}: the answer has no integer "id": check the panel before running apply again` };
    }
    if (change.type === 'client') {
      const password = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>).password : undefined;
      if (typeof password !== 'string' || password === '') {
        return { change, status: 'failed', error: `client "${change.name}" was created (id ${id}) but the panel's answer holds no password: set one in the panel` };
      }
      try {
        await options.secrets?.record({ created_at: now().toISOString(), panel_url: options.panelUrl, username: change.name, id, password });
      } catch (error) {
        return {
          change,
          status: 'failed',
          error: `client "${change.name}" was created (id ${id}) but its password could not be saved (${messageOf(error)}): set a new password in the panel`,
        };
      }
      newClientIds.set(change.name, id);
    }
    return { change, status: 'succeeded', id };
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

function integerField(value: unknown, key: string): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return Number.isSafeInteger(field) ? (field as number) : undefined;
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
