/**
 * A hosting plan's update rebuilt from the plan record read just before its PUT (docs/reliability.md,
 * "Whole-object writes"): each object it sends starts from that read with only the managed keys
 * of the change written, so a key changed in the panel since the plan goes back as it is now. A
 * key the change writes that moved since the plan read it (to neither the plan's value nor the
 * manifest's), or that the record no longer holds, makes the change stale. Pure.
 */
import { canonical, type JsonObject, type JsonValue } from '../../util.js';
import type { PlanFieldChange } from './diff.js';
import { type LivePlanObjects, PLAN_OBJECTS, type PlanObject, samePlanValue } from './fields.js';

/** A managed key someone changed since the plan read it; `now` undefined when the record no longer holds it. */
export interface MovedPlanKey {
  readonly field: PlanFieldChange['field'];
  readonly before: JsonValue;
  readonly now: JsonValue | undefined;
}

/** `resources.disk_space` -> [`resources`, `disk_space`]. */
function place(field: PlanFieldChange['field']): readonly [PlanObject, string] {
  const dot = field.indexOf('.');
  return [field.slice(0, dot) as PlanObject, field.slice(dot + 1)];
}

/** The value of `key` in the fresh object: own keys only (a key named `constructor` is data). */
function valueOf(fresh: LivePlanObjects | undefined, object: PlanObject, key: string): JsonValue | undefined {
  const o = fresh?.[object];
  return o !== undefined && Object.hasOwn(o, key) ? o[key] : undefined;
}

/**
 * The PUT's body for `fields` built on `fresh` (the plan's objects as just read), or the managed
 * keys that moved since the plan (then nothing is to be sent).
 */
export function rebuildPlanBody(
  fields: readonly PlanFieldChange[],
  fresh: LivePlanObjects | undefined,
): { readonly body: { readonly [O in PlanObject]?: JsonObject } } | { readonly moved: readonly MovedPlanKey[] } {
  const moved: MovedPlanKey[] = [];
  // Pairs, made into objects by fromEntries: a key named `__proto__` stays a key.
  const changed = new Map<PlanObject, [string, JsonValue][]>();
  for (const f of fields) {
    const [object, key] = place(f.field);
    const now = valueOf(fresh, object, key);
    if (now === undefined || (canonical(now) !== canonical(f.before) && !samePlanValue(now, f.after))) {
      moved.push({ field: f.field, before: f.before, now });
      continue;
    }
    const into = changed.get(object);
    if (into === undefined) changed.set(object, [[key, f.after]]);
    else into.push([key, f.after]);
  }
  if (moved.length > 0) return { moved };
  const body: { [O in PlanObject]?: JsonObject } = {};
  for (const object of PLAN_OBJECTS) {
    const keys = changed.get(object);
    // valueOf found each key in it: the object was read.
    if (keys !== undefined) body[object] = { ...(fresh?.[object] ?? {}), ...Object.fromEntries(keys) };
  }
  return { body };
}

/** Whether `fresh` holds every key of `fields` as the change writes it (a PUT whose answer was lost landed). */
export function planLanded(fields: readonly PlanFieldChange[], fresh: LivePlanObjects | undefined): boolean {
  return fields.every((f) => {
    const [object, key] = place(f.field);
    const now = valueOf(fresh, object, key);
    return now !== undefined && samePlanValue(now, f.after);
  });
}
