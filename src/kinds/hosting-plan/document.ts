/** A hosting plan's change in the plan document, both ways, with the checks a change read back must pass. Pure. */
import { quote } from '../../escape.js';
import { assertNever, canonical, isRecord } from '../../util.js';
import { type ChangeBase, changeId } from '../common.js';
import type { HostingPlanChange } from './changes.js';
import type { PlanFieldChange } from './diff.js';
import { PLAN_OBJECTS, type PlanObject, type PlanWants } from './fields.js';

/** A plan's change as the plan document holds it, beside the common fields; the schema checked it. */
export interface HostingPlanChangeJson {
  readonly action: 'create' | 'update' | 'delete';
  readonly objects?: PlanWants;
  readonly plan_id?: number;
  readonly fields?: readonly PlanFieldChange[];
  readonly clients?: number | null;
  readonly leaving?: readonly string[];
  readonly request?: unknown;
}

/** What a plan's change adds to the common fields, in the document's order. */
export function hostingPlanToJson(change: HostingPlanChange): Record<string, unknown> {
  switch (change.action) {
    case 'create':
      return { objects: change.objects };
    case 'update':
      return { plan_id: change.planId, fields: change.fields, clients: change.clients };
    case 'delete':
      return { plan_id: change.planId, leaving: change.leaving };
    default:
      return assertNever(change);
  }
}

/** A plan's change read back; an update's body is its request's (hostingPlanProblems checks it). */
export function hostingPlanFromJson(
  item: HostingPlanChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): HostingPlanChange {
  const common = { ...base, id: changeId('hosting_plan', base.name), type: 'hosting_plan' as const };
  // The schema requires each action's fields; the fallbacks are never used.
  if (item.action === 'delete')
    return { ...common, action: 'delete', planId: item.plan_id ?? 0, leaving: item.leaving ?? [] };
  if (item.action === 'update') {
    const request = isRecord(item.request) ? item.request : {};
    return {
      ...common,
      action: 'update',
      planId: item.plan_id ?? 0,
      fields: item.fields ?? [],
      body: isRecord(request.body) ? request.body : {},
      clients: item.clients ?? null,
    };
  }
  return { ...common, action: 'create', objects: item.objects ?? {} };
}

/**
 * What a plan's update read back must say of itself beyond the schema: its body sends each field
 * as the change says, the objects its fields touch and no other.
 */
export function hostingPlanProblems(change: HostingPlanChange, path: string): string[] {
  if (change.action !== 'update') return [];
  const problems: string[] = [];
  const touched = new Set<string>();
  for (const [i, f] of change.fields.entries()) {
    const [object, ...rest] = f.field.split('.');
    const key = rest.join('.');
    if (!PLAN_OBJECTS.includes(object as PlanObject) || key === '') {
      problems.push(`${path}.fields[${i}].field: ${quote(f.field)} is not "<object>.<key>"`);
      continue;
    }
    touched.add(object as string);
    const sent = change.body[object as PlanObject];
    if (sent !== undefined && canonical(Object.hasOwn(sent, key) ? sent[key] : undefined) !== canonical(f.after))
      problems.push(`${path}.request.body: does not send ${f.field} as the change says: the file was edited`);
  }
  for (const object of touched)
    if (change.body[object as PlanObject] === undefined) problems.push(`${path}.request.body: lacks ${quote(object)}`);
  for (const object of Object.keys(change.body))
    if (!touched.has(object)) problems.push(`${path}.request.body: sends ${quote(object)}, which no field changes`);
  return problems;
}
