/**
 * A hosting plan as export writes it (`export --with hosting-plans`, `export --into`): its name
 * and each object the record carries, with every key the record holds, each value in the
 * manifest's terms where the manifest's checks (fields.ts checkPlanValue) take it and plan reads
 * it as the panel's (samePlanValue): a resource the panel sends as a numeric string (`"10"`) is
 * the number, a permission the panel sends as 0/1 is the boolean. A value the manifest refuses
 * is left out (the caller warns, naming the plan and the key); a key panel-provision does not
 * know is written as read (the record has it, so plan manages it; validate warns). Pure.
 */
import { quote } from '../../escape.js';
import { isRecord, type JsonValue } from '../../util.js';
import { type LiveHostingPlan, readFlag } from '../common.js';
import { checkPlanValue, KNOWN_KEYS, PLAN_OBJECTS, type PlanObject, type PlanValue, samePlanValue } from './fields.js';

/** A plan item as export writes it: the objects in PLAN_OBJECTS order, each key in the record's order. */
export type PlanEntry = { readonly name: string } & {
  readonly [O in PlanObject]?: Readonly<Record<string, PlanValue>>;
};

/**
 * The php keys whose values are sizes (fields.ts checks them against PHP_SIZE): export writes
 * them double-quoted (`memory_limit: "512M"`), as the manifest's documentation does. No other
 * mapping of a manifest has these keys.
 */
export const PHP_SIZE_KEYS: ReadonlySet<string> = new Set(['memory_limit', 'post_max_size', 'upload_max_filesize']);

/** A value of the panel's record the manifest cannot hold. */
export interface UnwritablePlanValue {
  /** `php.memory_limit`. */
  readonly field: `${PlanObject}.${string}`;
  readonly value: JsonValue;
  /** The manifest's refusal, a sentence naming the plan and the key. */
  readonly reason: string;
}

/** A plan's entry, the values left out of it, and the keys it holds that panel-provision does not know. */
export interface ExportedPlan {
  readonly entry: PlanEntry;
  readonly unwritable: readonly UnwritablePlanValue[];
  readonly unknown: readonly string[];
}

/**
 * The panel's `value` of `object.key` in the manifest's terms, or the manifest's refusal (a
 * sentence starting with the key's name in `where`).
 */
export function exportPlanValue(
  object: PlanObject,
  key: string,
  value: JsonValue | undefined,
  where: string,
): { readonly value: PlanValue } | { readonly refused: string } {
  const converted = manifestValue(object, value);
  if (converted === undefined) return { refused: `${where} must be a string, a number, true or false, or null` };
  const problem = checkPlanValue(object, key, converted, where);
  if (problem?.severity === 'error') return { refused: problem.message };
  // What export writes plan reads as the panel's: no change.
  if (value === undefined || !samePlanValue(value, converted)) return { refused: `${where} cannot be written as read` };
  return { value: converted };
}

/**
 * The value as the manifest says it: permissions as booleans however the panel spells them
 * (readFlag), numeric-string resources as numbers.
 */
function manifestValue(object: PlanObject, value: JsonValue | undefined): PlanValue | undefined {
  if (value === undefined || (value !== null && typeof value === 'object')) return undefined;
  const flag = object === 'permissions' ? readFlag(value) : undefined;
  if (flag !== undefined) return flag;
  if (object === 'resources' && typeof value === 'string' && /^-?[0-9]+$/.test(value.trim())) {
    const n = Number(value);
    if (Number.isSafeInteger(n)) return n;
  }
  return value;
}

/** The plan as export writes it (see the module comment). */
export function exportedPlan(plan: LiveHostingPlan): ExportedPlan {
  const entry: { name: string } & { [O in PlanObject]?: Record<string, PlanValue> } = { name: plan.name };
  const unwritable: UnwritablePlanValue[] = [];
  const unknown: string[] = [];
  for (const object of PLAN_OBJECTS) {
    const live = plan.objects?.[object];
    if (!isRecord(live)) continue;
    const values: [string, PlanValue][] = [];
    for (const [key, value] of Object.entries(live)) {
      const field = `${object}.${key}` as const;
      const written = exportPlanValue(object, key, value, `"${field}" of hosting plan ${quote(plan.name)}`);
      if ('refused' in written) {
        unwritable.push({ field, value, reason: written.refused });
        continue;
      }
      if (!KNOWN_KEYS[object].includes(key)) unknown.push(field);
      values.push([key, written.value]);
    }
    // An empty object manages nothing (the manifest warns of it): left out. fromEntries defines
    // each key (an assignment to `__proto__` would set no key).
    if (values.length > 0) entry[object] = Object.fromEntries(values);
  }
  return { entry, unwritable, unknown };
}
