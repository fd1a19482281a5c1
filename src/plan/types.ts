import type { DomainConflict, DomainSetting } from '../kinds/domain.js';
import type { ClientField } from '../kinds/client/index.js';
import { assertNever } from '../util.js';
import type { ZoneConflict } from '../kinds/zone/conflicts.js';
import type { PlanConflict } from '../kinds/hosting-plan/changes.js';
import type { Change, ChangeId, SectionConflict, SectionUnknown } from '../kinds/index.js';

export type { HostingPlanRef } from '../kinds/common.js';
export { changeId } from '../kinds/common.js';
export type { Change, ChangeId, KindName } from '../kinds/index.js';
export type { CreateClient, DeleteClient, FieldChange, UpdateClient } from '../kinds/client/index.js';
export type { CreateDomain, DeleteDomain, UpdateDomain } from '../kinds/domain.js';
export type { UpdateZone } from '../kinds/zone/changes.js';
export type {
  CreateHostingPlan,
  DeleteHostingPlan,
  PlanConflict,
  UpdateHostingPlan,
} from '../kinds/hosting-plan/changes.js';

/**
 * A plan is plain data: what would change and why, plus what apply will not change.
 * It never holds the API key or a password. Changes are ordered so that every change comes
 * after the changes it depends on, creates and updates before deletes; apply may still run
 * independent ones concurrently (deletes only once every create and update is done: phaseOf).
 */
export interface Plan {
  readonly changes: readonly Change[];
  /** Manifest domains owned on the panel by another client: plan and apply fail. */
  readonly conflicts: readonly Conflict[];
  /** Managed fields the panel shows nowhere: neither compared nor sent, said once. */
  readonly unknowns: readonly Unknown[];
  readonly unmanaged: Unmanaged;
  /**
   * A plan scoped by `--clients` (docs/commands.md, "Scoped runs"): the username patterns it was
   * made for. Only matching clients, their domains and zones were planned, prune acted within
   * them, hosting plans were left alone, and the unmanaged counts are of the scope. Undefined: the
   * whole manifest.
   */
  readonly scope?: { readonly clients: readonly string[] };
  /**
   * What the kinds' sections say beside the changes (a listed client's things of a kind that is
   * never pruned, counted and kept), one sentence each: the run's notes. Undefined when none:
   * not in the plan document.
   */
  readonly notes?: readonly string[];
}

export type ChangeAction = Change['action'];

/** What apply cannot do as the manifest says: a domain's, a zone's, a hosting plan's or a kind's section's conflict (see their rooms). */
export type Conflict = DomainConflict | PlanConflict | ZoneConflict | SectionConflict;

/**
 * A managed field that the panel shows nowhere: a client's (not even GET /clients/{id}), a
 * domain's setting (`domain` set) that its record in GET /domains lacks, or a field of a kind's
 * section (its room's unknown).
 */
export type Unknown =
  | SectionUnknown
  | { readonly client: string; readonly field: ClientField; readonly domain?: undefined }
  | {
      readonly client: string;
      readonly domain: string;
      readonly field: DomainSetting;
      /** The panel's keys that did not read (`security.hsts_preload`), when the record shows some of them. */
      readonly keys?: readonly string[];
    };

/**
 * What the panel has and the manifest does not list, and no change touches. Names are kept for
 * `--show-unmanaged` (they may be other customers', so renderers show counts unless asked);
 * the panel's system domains are never here. `domains` is undefined when the panel could not
 * list domains.
 */
export interface Unmanaged {
  readonly clients: readonly string[];
  readonly domains: readonly string[] | undefined;
  /**
   * The panel's hosting plans the manifest does not list and no change deletes (prune passes
   * over the plans clients are on); absent when the manifest defines no plans.
   */
  readonly hostingPlans?: readonly string[];
}

/**
 * When a change may start: creates and updates in phase 0, deletes in phase 1, which starts
 * only once every change of phase 0 is done (succeeded, failed or skipped). So a delete never
 * races a create, and a panel refusing a create never finds the same run deleting meanwhile.
 * A delete that a create or update waits for (it frees what the other takes) runs in phase 0
 * instead: phasesOf.
 */
export function phaseOf(change: Change): 0 | 1 {
  switch (change.action) {
    case 'create':
    case 'update':
      return 0;
    case 'delete':
      return 1;
    default:
      return assertNever(change);
  }
}

/**
 * Each change's phase in a plan (apply runs phase 0, then phase 1): phaseOf's, except that a
 * delete linked by waits to a create or update (one waits for it, as a create waits for the
 * delete that frees the address it takes; or it waits for one such delete) runs in phase 0,
 * in its place among those waits. So every wait stays within a phase, and deletes nothing
 * waits for still run last. Only a delete can move, so what is kept is the deletes that do
 * (a set of every create's id cost 2.6 MB through an apply of 90,000 creates).
 */
export function phasesOf(changes: readonly Change[]): (change: Change) => 0 | 1 {
  const deletes = new Set<ChangeId>();
  for (const change of changes) if (phaseOf(change) === 1) deletes.add(change.id);
  if (deletes.size === 0) return phaseOf;
  const planned = new Set<ChangeId>(changes.map((change) => change.id));
  /** A delete's links to other deletes, both ways. */
  const links = new Map<ChangeId, ChangeId[]>();
  const link = (from: ChangeId, to: ChangeId): void => {
    const list = links.get(from);
    if (list === undefined) links.set(from, [to]);
    else list.push(to);
  };
  const early = new Set<ChangeId>();
  const todo: ChangeId[] = [];
  const moves = (id: ChangeId): void => {
    if (early.has(id)) return;
    early.add(id);
    todo.push(id);
  };
  for (const change of changes) {
    const isDelete = deletes.has(change.id);
    for (const dep of change.dependsOn) {
      if (!planned.has(dep)) continue;
      const depIsDelete = deletes.has(dep);
      if (isDelete && depIsDelete) {
        link(change.id, dep);
        link(dep, change.id);
      } else if (isDelete) moves(change.id);
      else if (depIsDelete) moves(dep);
    }
  }
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) for (const next of links.get(id) ?? []) moves(next);
  return (change) => (phaseOf(change) === 0 || early.has(change.id) ? 0 : 1);
}
