/**
 * The hosting plan's diff rule (the planner, plan/diff.ts, asks it once: plans stand on their
 * own, under no client): each plan the manifest defines is created, updated (only the objects
 * that differ) or, marked absent, deleted; `prune.hosting_plans` deletes the panel's plans the
 * manifest does not list. A plan any client is on is never deleted: `state: absent` on it is a
 * conflict naming the clients, prune passes over it (it stays, counted as unmanaged); when a
 * client's record does not say which plan it is on, a delete (prune's too) is a conflict.
 * A managed key the panel's record lacks is a conflict too (the panel would store nothing, or
 * refuse): releases differ. Clients this plan deletes, or moves to another plan, no longer count
 * as on it; the delete then waits for them. Pure.
 */
import { compare } from '../../util.js';
import { changeId, type ChangeId, type LiveHostingPlan } from '../common.js';
import {
  createHostingPlan,
  deleteHostingPlan,
  type DeleteHostingPlan,
  type HostingPlanChange,
  type PlanConflict,
  updateHostingPlan,
} from './changes.js';
import { clientsOnPlan } from './diff.js';
import type { PlanWants } from './fields.js';
import { planNameMatcher } from './manifest.js';

/** A hosting plan the manifest defines, as the rule reads it (manifest/types.ts DesiredHostingPlan adds its place). */
export interface WantedHostingPlan {
  readonly name: string;
  readonly state: 'present' | 'absent';
  readonly wants: PlanWants;
}

/** What the rule reads of the manifest: its plans, its prune of plans, the plans its clients name. */
export interface PlansWanted {
  readonly hostingPlans?: readonly WantedHostingPlan[] | undefined;
  readonly prune: {
    readonly hostingPlans?: boolean | undefined;
    readonly keepHostingPlans?: readonly string[] | undefined;
  };
  readonly clients: readonly { readonly plan?: string | undefined }[];
}

/** A client on the panel, as the rule tells who is on a plan. */
export interface PlanUser {
  readonly username: string;
  readonly idHostingPlan?: number | null | undefined;
}

/** What the rule reads of the panel. */
export interface PlansLive {
  readonly hosting_plan: readonly LiveHostingPlan[];
  readonly client: readonly PlanUser[];
}

/** A client's change as the rule reads it: a delete, or an update that moves it to another plan. */
export interface ClientMove {
  readonly type: 'client';
  readonly action: 'create' | 'update' | 'delete';
  readonly name: string;
  readonly hostingPlan?: { readonly name: string } | undefined;
}

/** What the planner decides of hosting plans. */
export interface PlannedHostingPlans {
  /** Creates and updates: before any client (a client on a new plan waits for its create). */
  readonly first: readonly HostingPlanChange[];
  /** Deletes: after the clients' deletes and moves they wait for. */
  readonly last: readonly DeleteHostingPlan[];
  readonly conflicts: readonly PlanConflict[];
  /** The panel's plans the manifest does not list and no change touches (undefined: it lists none). */
  readonly unmanaged: readonly string[] | undefined;
}

/** No change to any plan: a manifest that defines none, or a run scoped by --clients. */
export const NO_PLAN_CHANGES: PlannedHostingPlans = { first: [], last: [], conflicts: [], unmanaged: undefined };

/**
 * The plans' changes, given the clients' changes already planned (`clientChanges`: a client's
 * delete, or an update moving it off a plan, frees the plan it was on).
 */
export function planHostingPlans(
  desired: PlansWanted,
  live: PlansLive,
  clientChanges: readonly ClientMove[],
): PlannedHostingPlans {
  const wanted = desired.hostingPlans ?? [];
  if (wanted.length === 0 && desired.prune.hostingPlans !== true) return NO_PLAN_CHANGES;
  const byName = new Map(live.hosting_plan.map((p) => [p.name, p]));
  const leaving = leavers(clientChanges);
  const first: HostingPlanChange[] = [];
  const last: DeleteHostingPlan[] = [];
  const conflicts: PlanConflict[] = [];

  /** Who stays on a plan after this plan, and the changes a delete must wait for; null: unknown. */
  const onAfter = (plan: LiveHostingPlan): { stay: readonly string[]; wait: ChangeId[]; leaving: string[] } | null => {
    // Clients this plan deletes or moves off count as gone (whatever their record says); a delete
    // waits for the clients deleted that were, or may have been, on the plan.
    const wait: ChangeId[] = [];
    const going: string[] = [];
    const staying = live.client.filter((c) => {
      if (!leaving.has(c.username)) return true;
      const gone = leaving.get(c.username);
      if (gone !== undefined && (c.idHostingPlan === undefined || c.idHostingPlan === plan.id)) wait.push(gone);
      if (c.idHostingPlan === plan.id) going.push(c.username);
      return false;
    });
    const stay = clientsOnPlan(plan.id, staying);
    return stay === null ? null : { stay, wait, leaving: going };
  };
  /**
   * Deletes a plan no client stays on. One clients stay on: a conflict for `state: absent`
   * (`strict`), passed over by prune (counted as unmanaged). One whose use the client list does
   * not say: a conflict either way (a delete is never a guess).
   */
  const remove = (plan: LiveHostingPlan, reason: string, strict: boolean): boolean => {
    const after = onAfter(plan);
    if (after === null) {
      conflicts.push({ hosting_plan: plan.name, use_unknown: true });
      return false;
    }
    if (after.stay.length > 0) {
      if (strict) conflicts.push({ hosting_plan: plan.name, clients: after.stay });
      return false;
    }
    last.push({ ...deleteHostingPlan(plan, reason, after.leaving), dependsOn: after.wait });
    return true;
  };

  const listed = new Set<string>();
  for (const plan of wanted) {
    listed.add(plan.name);
    const now = byName.get(plan.name);
    if (plan.state === 'absent') {
      if (now !== undefined) remove(now, 'state: absent in the manifest', true);
      continue;
    }
    if (now === undefined) {
      first.push(createHostingPlan(plan.name, plan.wants));
      continue;
    }
    const on = clientsOnPlan(now.id, live.client);
    const update = updateHostingPlan(plan.wants, now, on === null ? null : on.length, (lacking) =>
      conflicts.push({ hosting_plan: plan.name, lacking }),
    );
    if (update !== undefined) first.push(update);
  }

  const unmanaged: string[] = [];
  const keep = planNameMatcher(desired.prune.keepHostingPlans ?? []);
  const named = new Set(desired.clients.flatMap((c) => (c.plan === undefined ? [] : [c.plan])));
  for (const plan of [...live.hosting_plan].sort((a, b) => compare(a.name, b.name))) {
    if (listed.has(plan.name)) continue;
    const pruned =
      desired.prune.hostingPlans === true &&
      !keep(plan.name) &&
      !named.has(plan.name) &&
      remove(plan, 'not in the manifest (prune.hosting_plans)', false);
    if (!pruned) unmanaged.push(plan.name);
  }
  return { first, last, conflicts, unmanaged };
}

/**
 * The clients a plan's changes take off their plan, by username: a delete (which a plan's delete
 * waits for, in the same phase), or a move to another plan (an update: done before any delete
 * starts, so nothing to wait for: undefined).
 */
function leavers(changes: readonly ClientMove[]): Map<string, ChangeId | undefined> {
  const leaving = new Map<string, ChangeId | undefined>();
  for (const change of changes) {
    if (change.action === 'delete') leaving.set(change.name, changeId('client', change.name));
    else if (change.action === 'update' && change.hostingPlan !== undefined) leaving.set(change.name, undefined);
  }
  return leaving;
}

/**
 * Clients created on, or moved to, a plan the same run creates or updates wait for that change:
 * a new plan's id comes from its create's answer, and the panel copies a plan into a client when
 * it is assigned, so one assigned before the update would keep the old values.
 */
export function afterPlanChanges<C extends ClientMove & { readonly dependsOn: readonly ChangeId[] }>(
  clientChanges: readonly C[],
  planChanges: readonly HostingPlanChange[],
): C[] {
  const changed = new Map(planChanges.map((c) => [c.name, c.id] as const));
  return clientChanges.map((c) => {
    if (changed.size === 0 || c.action === 'delete' || c.hostingPlan === undefined) return c;
    const plan = changed.get(c.hostingPlan.name);
    return plan === undefined ? c : { ...c, dependsOn: [...c.dependsOn, plan] };
  });
}

/** The plans the manifest defines and the panel (`onPanel`: a plan by name) lacks: the run creates them, before their clients. */
export function plansCreated(desired: PlansWanted, onPanel: (name: string) => unknown): ReadonlySet<string> {
  return new Set(
    (desired.hostingPlans ?? []).flatMap((p) =>
      p.state === 'present' && onPanel(p.name) === undefined ? [p.name] : [],
    ),
  );
}
