import { ProvisionError } from '../errors.js';
import type { OnEvent } from '../plan/events.js';
import type { Outcome } from '../plan/outcome.js';
import type { Change, ChangeId, Plan } from '../plan/types.js';
import { waitsOnly } from '../plan/order.js';
import { phasesOf } from '../plan/types.js';
import type { Applied } from '../kinds/apply.js';
import { type Slot, walk, type Visited } from './walk.js';

export type { Slot } from './walk.js';
export type { Outcome } from '../plan/outcome.js';

/** Requests in flight at once unless told otherwise (apply --concurrency, the library's executePlan). */
export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../panel/limits.js';

/** A change done: the panel's id of the resource, and a sentence for the user when there is more to say. */
export type { Applied } from '../kinds/apply.js';

/**
 * How a change reaches its target: the executor decides what runs when; the adapter decides
 * how one change is carried out (for the panel: apply/panel-adapter.ts).
 */
export interface ChangeAdapter {
  /** Refuses, before anything is sent, a plan this adapter cannot carry out (throws). */
  check?(changes: readonly Change[]): void;
  /**
   * Carries out one change; throws an Error whose message says why it failed. With
   * `perRequest`, it runs each request it sends through `slot` and its other work (the secrets
   * file's flushes) outside it; without, the whole call holds a slot. Called outside an
   * executor (tests), without a slot: requests are sent at once.
   */
  apply(change: Change, slot?: Slot): Promise<Applied>;
  /** true: apply takes a slot per request (see apply); the concurrency bound then counts requests only. */
  readonly perRequest?: boolean;
}

interface ExecuteOptions {
  /** How many changes (with an adapter that says `perRequest`: requests) may be in flight at once. */
  readonly concurrency: number;
  /** Told an `outcome` as each change finishes (succeeded, failed or skipped), for progress output. */
  readonly onEvent?: OnEvent;
  /** Aborting stops new work: changes not yet sent are skipped as 'interrupted'; in-flight ones finish. */
  readonly signal?: AbortSignal;
}

/**
 * Runs the plan's changes through `adapter`: each starts once the changes it depends on have
 * succeeded, at most `concurrency` at a time (apply/walk.ts: changes, or requests for an
 * adapter that runs each through its slot), deletes once every create and
 * update is done (but those a create or update waits for: plan/types.ts phasesOf). A failure skips its dependents
 * (transitively) and nothing else; nothing throws for a failed change: the outcomes, one per
 * change, say what happened. A plan with conflicts is refused whole.
 */
export async function executeChanges(plan: Plan, adapter: ChangeAdapter, options: ExecuteOptions): Promise<Outcome[]> {
  if (plan.conflicts.length > 0) {
    throw new ProvisionError('plan_conflict', 'the plan has conflicts: nothing was sent');
  }
  adapter.check?.(plan.changes);
  const outcomes: Outcome[] = [];
  // Phases one after the other (plan/types.ts phasesOf): deletes start once every create and
  // update is done, but for those a create or update waits for. Dependencies stay within a phase.
  const phaseOf = phasesOf(plan.changes);
  const later = plan.changes.filter((change) => phaseOf(change) === 1);
  const first = later.length === 0 ? plan.changes : plan.changes.filter((change) => phaseOf(change) === 0);
  for (const changes of [first, later]) {
    await walk<ChangeId, Change, Applied>(changes, (change, slot) => adapter.apply(change, slot), {
      concurrency: options.concurrency,
      perRequest: adapter.perRequest === true,
      waitsOnly,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onVisited: (visited) => {
        const outcome = outcomeOf(visited);
        outcomes.push(outcome);
        options.onEvent?.({ type: 'outcome', outcome });
      },
    });
  }
  return outcomes;
}

function outcomeOf(visited: Visited<Change, ChangeId, Applied>): Outcome {
  const { node: change } = visited;
  switch (visited.status) {
    case 'succeeded':
      return visited.value.note === undefined
        ? { change, status: 'succeeded', id: visited.value.id }
        : { change, status: 'succeeded', id: visited.value.id, note: visited.value.note };
    case 'failed':
      return visited.code === undefined
        ? { change, status: 'failed', error: visited.error }
        : { change, status: 'failed', error: visited.error, code: visited.code };
    case 'skipped':
      return { change, status: 'skipped', because: visited.because };
  }
}
