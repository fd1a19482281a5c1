/**
 * The planner's part for hosting plans (diff.ts calls it): each plan the manifest defines is
 * created, updated (only the objects that differ) or, marked absent, deleted; `prune.hosting_plans`
 * deletes the panel's plans the manifest does not list. A plan any client is on is never deleted:
 * `state: absent` on it is a conflict naming the clients, prune passes over it (it stays, counted
 * as unmanaged); when a client's record does not say which plan it is on, a delete (prune's too)
 * is a conflict.
 * A managed key the panel's record lacks is a conflict too (the panel would store nothing, or
 * refuse): releases differ. Clients this plan deletes, or moves to another plan, no longer count
 * as on it; the delete then waits for them. Pure.
 */
import { planNameMatcher } from '../kinds/hosting-plan/manifest.js';
import {
  clientsOnPlan,
  createHostingPlan,
  deleteHostingPlan,
  type DeleteHostingPlan,
  type HostingPlanChange,
  updateHostingPlan,
} from '../kinds/hosting-plan.js';
import { changeId, type ChangeId, type LiveHostingPlan } from '../kinds/common.js';
import { oddCharacter, skeleton } from '../manifest/lookalike.js';
import type { Desired } from '../manifest/types.js';
import { quote } from '../escape.js';
import type { Live } from '../panel/types.js';
import type { Change, Plan, PlanConflict } from './types.js';
import { compare } from '../util.js';

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
export function planHostingPlans(desired: Desired, live: Live, clientChanges: readonly Change[]): PlannedHostingPlans {
  const wanted = desired.hostingPlans ?? [];
  if (wanted.length === 0 && desired.prune.hostingPlans !== true) return NO_PLAN_CHANGES;
  const byName = new Map(live.hostingPlans.map((p) => [p.name, p]));
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
    const staying = live.clients.filter((c) => {
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
   * not say: a conflict either way (the rule: a delete is never a guess).
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
    const on = clientsOnPlan(now.id, live.clients);
    const update = updateHostingPlan(plan.wants, now, on === null ? null : on.length, (lacking) =>
      conflicts.push({ hosting_plan: plan.name, lacking }),
    );
    if (update !== undefined) first.push(update);
  }

  const unmanaged: string[] = [];
  const keep = planNameMatcher(desired.prune.keepHostingPlans ?? []);
  const named = new Set(desired.clients.flatMap((c) => (c.plan === undefined ? [] : [c.plan])));
  for (const plan of [...live.hostingPlans].sort((a, b) => compare(a.name, b.name))) {
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
function leavers(changes: readonly Change[]): Map<string, ChangeId | undefined> {
  const leaving = new Map<string, ChangeId | undefined>();
  for (const change of changes) {
    if (change.type !== 'client') continue;
    if (change.action === 'delete') leaving.set(change.name, changeId('client', change.name));
    else if (change.action === 'update' && change.hostingPlan !== undefined) leaving.set(change.name, undefined);
  }
  return leaving;
}

/**
 * Warnings for each hosting plan the plan creates whose name looks like a plan the panel has
 * (same skeleton, manifest/lookalike.ts): a Cyrillic `Вasic` created beside the panel's `Basic`
 * is most likely a typo or a spoof, and with prune the real one would be deleted. Said whether or
 * not the plan also deletes the panel's one (it then says so).
 */
export function hostingPlanLookalikes(plan: Plan, live: Live): string[] {
  const created = plan.changes.flatMap((c) => (c.type === 'hosting_plan' && c.action === 'create' ? [c.name] : []));
  if (created.length === 0) return [];
  const deleted = new Set(
    plan.changes.flatMap((c) => (c.type === 'hosting_plan' && c.action === 'delete' ? [c.name] : [])),
  );
  const panelBySkeleton = new Map<string, string[]>();
  for (const p of live.hostingPlans) {
    const key = skeleton(p.name);
    panelBySkeleton.set(key, [...(panelBySkeleton.get(key) ?? []), p.name]);
  }
  const warnings: string[] = [];
  for (const name of created)
    for (const twin of panelBySkeleton.get(skeleton(name)) ?? [])
      if (twin !== name)
        warnings.push(
          `hosting plan ${quote(name)} is to be created, and the panel has hosting plan ${quote(twin)}, ` +
            `which looks like it: they differ only by case, spacing or look-alike characters${oddCharacter(name, twin)}` +
            (deleted.has(twin) ? `; this plan also deletes ${quote(twin)}` : '') +
            ": if the manifest means the panel's plan, write its name as the panel shows it",
        );
  return warnings;
}
