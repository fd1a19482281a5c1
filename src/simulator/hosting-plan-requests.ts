/**
 * POST, PUT and DELETE /hosting-plans (panel-api.md: the /hosting-plans rows); the record, its
 * keys, types and defaults are hosting-plans.ts's. The real panel's rules are not documented;
 * the simulator chooses:
 * - POST /hosting-plans: body shape -> `id` given (400: the panel numbers plans) -> `name` (a
 *   non-empty string, required) -> sections -> name taken (400; names are exact and
 *   case-sensitive, like /hosting-plans/name/). 201 `{"id"}`.
 * - PUT /hosting-plans/{id}: unknown id 404 -> body shape -> an `id` other than the path's
 *   (400) -> `name` and sections -> name taken by another plan (400). Partial at the top level:
 *   only `name` and the sections given change. A section given is taken whole: it replaces the
 *   stored one, and the keys it leaves out are gone (the record then shows only the keys sent),
 *   the strict reading of "partial at the top level": a client must send a section back whole
 *   as read, with its changes. 200 `{"id"}`.
 * - DELETE /hosting-plans/{id}: unknown id 404; a plan that any client's `id_hosting_plan`
 *   names is refused with 400 ("... is assigned to 2 clients ..."), as a clone was seen to do;
 *   else 200 `{"id"}`, or 204 without a body with `deleteStatus: 204` (like clients and
 *   domains). POST /clients without a plan then takes the first plan left.
 */
import { isRecord } from '../util.js';
import type { Answer } from './answer.js';
import {
  mergedSections,
  NEW_PLAN,
  type PlanProblem,
  planProblem,
  sectionsOf,
  type SimPlan,
  type SimPlanSections,
} from './hosting-plans.js';

/** The store as plan requests use it (kinds/hosting-plan.ts makes it of the simulator's store), declared here like zones.ts's. */
export interface PlanStore {
  readonly plans: ReadonlyMap<number, SimPlan>;
  readonly clients: ReadonlyMap<number, { readonly id_hosting_plan?: number }>;
  planNamed(name: string): SimPlan | undefined;
  addPlan(name: string, sections: SimPlanSections): SimPlan;
  replacePlan(plan: SimPlan): void;
  removePlan(id: number): void;
}

type Refuse = (status: number, message: string) => Answer;

const message = (problem: PlanProblem): string => `The field '${problem.field}' ${problem.fault}.`;
const taken = (name: string): string => `A hosting plan named '${name}' already exists.`;

/** POST /hosting-plans: a whole plan record without `id`; what it leaves out is NEW_PLAN's. */
export function createPlan(store: PlanStore, body: Record<string, unknown>, refuse: Refuse): Answer {
  if (body.id !== undefined) return refuse(400, "The field 'id' cannot be given: the panel numbers hosting plans.");
  const problem = planProblem(body, true);
  if (problem !== undefined) return refuse(400, message(problem));
  const name = body.name as string;
  if (store.planNamed(name) !== undefined) return refuse(400, taken(name));
  const plan = store.addPlan(name, mergedSections(NEW_PLAN, sectionsOf(body)));
  return { status: 201, json: { id: plan.id }, mutated: true };
}

/** PUT /hosting-plans/{id}: `name` and the sections given replace the stored ones, each whole. */
export function updatePlan(store: PlanStore, id: number, body: unknown, refuse: Refuse): Answer {
  const plan = store.plans.get(id);
  if (plan === undefined) return refuse(404, 'The requested hosting plan was not found.');
  if (!isRecord(body)) return refuse(400, 'The request body must be a JSON object.');
  if (body.id !== undefined && body.id !== id)
    return refuse(400, `The field 'id' must be ${id}, the id in the path, or be left out.`);
  const problem = planProblem(body, false);
  if (problem !== undefined) return refuse(400, message(problem));
  const name = (body.name as string | undefined) ?? plan.name;
  const other = store.planNamed(name);
  if (other !== undefined && other.id !== id) return refuse(400, taken(name));
  store.replacePlan({ ...plan, ...sectionsOf(body), id, name });
  return { status: 200, json: { id }, mutated: true };
}

/** DELETE /hosting-plans/{id}: refused while a client is on the plan. */
export function deletePlan(store: PlanStore, id: number, deleteStatus: 200 | 204, refuse: Refuse): Answer {
  const plan = store.plans.get(id);
  if (plan === undefined) return refuse(404, 'The requested hosting plan was not found.');
  let users = 0;
  for (const client of store.clients.values()) if (client.id_hosting_plan === id) users++;
  if (users > 0) {
    const clients = users === 1 ? '1 client' : `${users} clients`;
    return refuse(
      400,
      `The hosting plan '${plan.name}' is assigned to ${clients}: assign them another plan before deleting it.`,
    );
  }
  store.removePlan(id);
  return deleteStatus === 204 ? { status: 204, mutated: true } : { status: 200, json: { id }, mutated: true };
}
