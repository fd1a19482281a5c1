/**
 * A hosting plan's diff rule and the bodies its requests carry. An update sends only the
 * top-level objects that differ, each whole: as read, with the managed keys changed (the panel
 * takes a nested object given whole, so a key left out would be lost). A managed key the panel's
 * record lacks is never sent: the planner refuses it (a release without it would store nothing,
 * or refuse the request). Pure.
 */
import type { JsonObject, JsonValue } from '../../util.js';
import {
  type LivePlanObjects,
  PLAN_OBJECTS,
  type PlanObject,
  type PlanValue,
  type PlanWants,
  samePlanValue,
} from './fields.js';

/** One managed key that differs: `resources.disk_space`, in the manifest's terms. */
export interface PlanFieldChange {
  readonly field: `${PlanObject}.${string}`;
  readonly before: JsonValue;
  readonly after: PlanValue;
}

/** A plan's diff: the keys that differ, the body of its PUT, and the managed keys the panel's record lacks. */
export interface PlanDiff {
  readonly fields: readonly PlanFieldChange[];
  readonly body: { readonly [O in PlanObject]?: JsonObject };
  /** `php.sendmail_from`, or `php_fpm` for an object the record lacks whole. */
  readonly lacking: readonly string[];
}

export function planDiff(wants: PlanWants, live: LivePlanObjects | undefined): PlanDiff {
  const fields: PlanFieldChange[] = [];
  const body: { [O in PlanObject]?: JsonObject } = {};
  const lacking: string[] = [];
  for (const object of PLAN_OBJECTS) {
    const wanted = wants[object];
    if (wanted === undefined) continue;
    const now = live?.[object];
    if (now === undefined) {
      lacking.push(object);
      continue;
    }
    const changed: [string, JsonValue][] = [];
    for (const [key, value] of Object.entries(wanted)) {
      // Own keys only: `constructor` or `toString` are keys a panel may hold, not ones every object inherits.
      if (!Object.hasOwn(now, key)) {
        lacking.push(`${object}.${key}`);
        continue;
      }
      if (samePlanValue(now[key], value)) continue;
      changed.push([key, value]);
      fields.push({ field: `${object}.${key}`, before: now[key] ?? null, after: value });
    }
    // fromEntries and spread define keys (an assignment to `__proto__` would set no key).
    if (changed.length > 0) body[object] = { ...now, ...Object.fromEntries(changed) };
  }
  return { fields, body, lacking };
}

/** The body of a new plan's POST: its name and the objects the manifest gives (the panel fills in the rest). */
export function newPlanBody(name: string, wants: PlanWants): Record<string, JsonValue> {
  const body: Record<string, JsonValue> = { name };
  for (const object of PLAN_OBJECTS) {
    const wanted = wants[object];
    if (wanted !== undefined) body[object] = { ...wanted };
  }
  return body;
}

/**
 * Who is on a plan: the usernames of the clients whose `id_hosting_plan` is its id, sorted; null
 * when some client's record does not say which plan it is on (then a delete is never safe).
 */
export function clientsOnPlan(
  planId: number,
  clients: readonly { readonly username: string; readonly idHostingPlan?: number | null | undefined }[],
): readonly string[] | null {
  const on: string[] = [];
  for (const c of clients) {
    if (c.idHostingPlan === undefined) return null;
    if (c.idHostingPlan === planId) on.push(c.username);
  }
  return on.sort();
}
