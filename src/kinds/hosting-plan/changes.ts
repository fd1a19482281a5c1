/**
 * A hosting plan's changes: their types, how the planner makes them, the requests they become and
 * their phrases. Pure.
 */
import { jsonText, quote } from '../../escape.js';
import { assertNever, type JsonObject, plural } from '../../util.js';
import { type ChangeBase, changeId, type KindNoun, type LiveHostingPlan, type PanelRequest } from '../common.js';
import { newPlanBody, type PlanFieldChange, planDiff } from './diff.js';
import type { PlanObject, PlanWants } from './fields.js';

/** A plan the panel lacks: `POST /hosting-plans` with its name and the objects the manifest gives. */
export interface CreateHostingPlan extends ChangeBase<'hosting_plan'> {
  readonly action: 'create';
  readonly type: 'hosting_plan';
  readonly objects: PlanWants;
}

/**
 * A plan whose managed keys differ: `PUT /hosting-plans/{id}` with only the objects that differ,
 * each whole as read with the managed keys changed. The panel copied the plan into each client
 * on it when it was assigned: they keep their copied values.
 */
export interface UpdateHostingPlan extends ChangeBase<'hosting_plan'> {
  readonly action: 'update';
  readonly type: 'hosting_plan';
  readonly planId: number;
  /** In the order of the objects, then of the manifest's keys; at least one. */
  readonly fields: readonly PlanFieldChange[];
  readonly body: { readonly [O in PlanObject]?: JsonObject };
  /** How many clients are on it (they keep their copied values); null when the panel does not say. */
  readonly clients: number | null;
}

/** A plan deleted (`state: absent`, or pruned); only one no client stays on. */
export interface DeleteHostingPlan extends ChangeBase<'hosting_plan'> {
  readonly action: 'delete';
  readonly type: 'hosting_plan';
  readonly planId: number;
  /** The clients on it when the plan was made, which the same plan deletes or moves off (sorted). */
  readonly leaving: readonly string[];
}

export type HostingPlanChange = CreateHostingPlan | UpdateHostingPlan | DeleteHostingPlan;

/** The create of a plan the panel lacks. */
export function createHostingPlan(name: string, objects: PlanWants): CreateHostingPlan {
  return {
    id: changeId('hosting_plan', name),
    action: 'create',
    type: 'hosting_plan',
    name,
    objects,
    reason: 'not on the panel',
    dependsOn: [],
  };
}

/**
 * The diff rule for a plan the panel has: the update when its managed keys differ, or undefined;
 * the managed keys the panel's record lacks go to `lacking` (the planner refuses them).
 */
export function updateHostingPlan(
  wants: PlanWants,
  live: LiveHostingPlan,
  clients: number | null,
  lacking: (keys: readonly string[]) => void,
): UpdateHostingPlan | undefined {
  const d = planDiff(wants, live.objects);
  if (d.lacking.length > 0) lacking(d.lacking);
  if (d.fields.length === 0) return undefined;
  return {
    id: changeId('hosting_plan', live.name),
    action: 'update',
    type: 'hosting_plan',
    name: live.name,
    planId: live.id,
    fields: d.fields,
    body: d.body,
    clients,
    reason: 'differs from the manifest',
    dependsOn: [],
  };
}

/** The delete of a plan no client stays on; `leaving`: those on it the same plan deletes or moves off. */
export function deleteHostingPlan(
  live: LiveHostingPlan,
  reason: string,
  leaving: readonly string[] = [],
): DeleteHostingPlan {
  return {
    id: changeId('hosting_plan', live.name),
    action: 'delete',
    type: 'hosting_plan',
    name: live.name,
    planId: live.id,
    leaving: [...leaving].sort(),
    reason,
    dependsOn: [],
  };
}

/** The request a plan's change becomes. */
export function hostingPlanRequest(change: HostingPlanChange): PanelRequest {
  switch (change.action) {
    case 'create':
      return { method: 'POST', path: '/hosting-plans', body: newPlanBody(change.name, change.objects) };
    case 'update':
      return { method: 'PUT', path: `/hosting-plans/${change.planId}`, body: change.body };
    case 'delete':
      return { method: 'DELETE', path: `/hosting-plans/${change.planId}`, body: null };
    default:
      return assertNever(change);
  }
}

/** How people's text names hosting plans. */
export const HOSTING_PLAN_NOUN: KindNoun = { one: 'hosting plan', many: 'hosting plans' };

/** `hosting plan "Business"`. */
export function hostingPlanSubject(change: HostingPlanChange): string {
  return `hosting plan ${quote(change.name)}`;
}

/**
 * What the text plan's comment line says of a plan's change after its reason: for an update, the
 * clients on it, who keep their copied values (the panel copies a plan at assignment).
 */
export function hostingPlanDetails(change: HostingPlanChange): { what: string; after: string } {
  const note = hostingPlanNote(change);
  return { what: '', after: note === undefined ? '' : `; ${note}` };
}

/**
 * `the 2 clients on it keep their copied values (the panel copies a plan when it is assigned)`:
 * what an update of a plan does not do to the clients on it; undefined for a create or a delete
 * (a plan is deleted only when no client is on it).
 */
export function hostingPlanNote(change: HostingPlanChange): string | undefined {
  switch (change.action) {
    case 'create':
    case 'delete':
      return undefined;
    case 'update':
      return change.clients === null
        ? 'the panel does not say how many clients are on it (they keep their copied values)'
        : change.clients === 0
          ? 'no client is on it'
          : `the ${plural(change.clients, 'client')} on it ${change.clients === 1 ? 'keeps its' : 'keep their'} copied values (the panel copies a plan when it is assigned)`;
    default:
      return assertNever(change);
  }
}

/** `resources.disk_space: 2048`: the keys a create sets, one part each, values as JSON text (data). */
export function planCreatedParts(change: CreateHostingPlan): string[] {
  return Object.entries(change.objects).flatMap(([object, keys]) =>
    Object.entries(keys).map(([key, value]) => `${object}.${key}: ${jsonText(value)}`),
  );
}

/** What a plan's delete takes with it, as a note on deletes says it: nothing of any client. */
export const HOSTING_PLAN_DELETE_TAKES = 'a hosting plan alone (no client is on it)';

/** `resources.disk_space: 1024 -> 2048`: one part per key, values as JSON text (data). */
export function planFieldsText(fields: readonly PlanFieldChange[]): string[] {
  return fields.map((f) => `${f.field}: ${jsonText(f.before)} -> ${jsonText(f.after)}`);
}

/**
 * What apply cannot do as the manifest says of a hosting plan: delete one clients are on
 * (`clients`), delete one while the client list does not say who is on it (`use_unknown`), or
 * manage keys the panel's record lacks (`lacking`).
 */
export interface PlanConflict {
  readonly hosting_plan: string;
  readonly clients?: readonly string[];
  readonly use_unknown?: true;
  readonly lacking?: readonly string[];
}

/** Whether a plan's conflict is a hosting plan's: it names one. */
export function isPlanConflict(c: object): c is PlanConflict {
  return 'hosting_plan' in c;
}

/** The hosting plan a conflict is of, by name as the manifest writes it. */
export function conflictPlan(c: PlanConflict): string {
  return c.hosting_plan;
}

/** The conflict in one sentence; `nameClients: false` (a pull-request comment) counts the clients instead. */
export function planConflictText(c: PlanConflict, nameClients = true): string {
  const plan = `hosting plan ${quote(c.hosting_plan)}`;
  if (c.lacking !== undefined)
    return (
      `${plan}: the panel's record has no ${c.lacking.map((k) => quote(k)).join(', ')}: ` +
      'this panel release does not hold those keys; remove them from the manifest'
    );
  if (c.use_unknown === true)
    return (
      `${plan} is to be deleted, but the panel's client list does not say which plan each client is on: ` +
      'delete it in the panel, or keep it (list it in the manifest, or turn prune.hosting_plans off)'
    );
  const clients = c.clients ?? [];
  const shown = nameClients
    ? `${clients
        .slice(0, 5)
        .map((n) => quote(n))
        .join(', ')}${clients.length > 5 ? ` and ${clients.length - 5} more` : ''}`
    : plural(clients.length, 'client');
  return `${plan} is to be deleted, but ${shown} ${clients.length === 1 ? 'is' : 'are'} on it: move them to another plan first`;
}
