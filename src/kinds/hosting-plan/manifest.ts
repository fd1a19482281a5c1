/**
 * A hosting plan item of the manifest's top-level `hosting_plans` list, as the plan's room reads
 * it: `{name, state, resources, permissions, php, php_fpm}`, each object's keys the panel's own
 * (fields.ts: KNOWN_KEYS, checkPlanValue). The JSON Schema checks the item's shape (its keys, the
 * name's and state's types, each object a mapping of scalars); this reads an item it accepted
 * (planItem: the name, the state, the PlanWants, and the checks the schema leaves to the room:
 * every value's own check, unknown keys as warnings, an empty name, an empty object, a plan
 * marked absent with other keys), words the schema's refusals of an item (planRefused) and the
 * checks across items (planListedAgain, absentPlanUsed). `prune.keep` holds the typed entries
 * `{hosting_plan: "Premium*"}` (planKeepProblem, planNameMatcher). Pure.
 */
import { quote } from '../../escape.js';
import { isRecord } from '../../util.js';
import { wildcardMatcher } from '../../names.js';
import type { FieldProblem } from '../common.js';
import { checkPlanValue, PLAN_OBJECTS, type PlanObject, type PlanValue, type PlanWants } from './fields.js';

/** The manifest's top-level key of the plans. */
export const HOSTING_PLANS_KEY = 'hosting_plans';

/** The key under which an item names its plan. */
export const PLAN_NAME_KEY = 'name';

/** The keys of a plan item, in the order the schema lists them. */
export const PLAN_ITEM_KEYS: readonly string[] = [PLAN_NAME_KEY, 'state', ...PLAN_OBJECTS];

/** The key of a typed `prune.keep` entry that matches plan names: `{hosting_plan: "Premium*"}`. */
export const KEEP_PLAN_KEY = 'hosting_plan';

/** A typed keep entry as messages show it. */
export const KEEP_PLAN_EXAMPLE = `{${KEEP_PLAN_KEY}: "Premium*"}`;

/** Each object as messages show it, with keys the panel knows. */
const OBJECT_EXAMPLES: { readonly [O in PlanObject]: string } = {
  resources: 'resources: {disk_space: 10737418240, traffic: -1}',
  permissions: 'permissions: {ssh: true, backup: true}',
  php: 'php: {memory_limit: "512M", max_execution_time: 60}',
  php_fpm: 'php_fpm: {pm: ondemand, max_children: 10}',
};

/** A problem of a plan item, at `path` in the item (`['resources', 'disk_space']`; `[]`: the item). */
export interface PlanProblem extends FieldProblem {
  readonly path: readonly (string | number)[];
  /** Point at the key the path ends with rather than at its value. */
  readonly atKey?: boolean;
}

/** A plan item as the manifest gives it. */
export interface PlanItem {
  /** The name as written (plan names are compared exactly: they may hold spaces and any text). */
  readonly name: string;
  readonly state: 'present' | 'absent';
  /** The objects' managed keys; empty for a plan marked absent. */
  readonly wants: PlanWants;
}

/**
 * How messages name the plan item at `index` (from 0): `hosting plan "Business"` by its name
 * when it has one, else `hosting plan #2`.
 */
export function planLabel(item: unknown, index: number | string): string {
  const name = isRecord(item) ? item[PLAN_NAME_KEY] : undefined;
  return typeof name === 'string' && name.trim() !== ''
    ? `hosting plan ${quote(name)}`
    : `hosting plan #${Number(index) + 1}`;
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
function quoteList(keys: readonly string[]): string {
  const quoted = keys.map((key) => `"${key}"`);
  const last = quoted.pop() ?? '';
  return quoted.length === 0 ? last : `${quoted.join(', ')} and ${last}`;
}

/**
 * The item's name, state and wants (undefined when the schema refuses its shape: not a mapping,
 * no string name), and every problem the schema leaves to the room, each at a path in the item.
 */
export function planItem(
  item: unknown,
  index: number,
): { readonly plan: PlanItem | undefined; readonly problems: PlanProblem[] } {
  const problems: PlanProblem[] = [];
  if (!isRecord(item)) return { plan: undefined, problems };
  const label = planLabel(item, index);
  const name = item[PLAN_NAME_KEY];
  const state = item.state === 'absent' ? 'absent' : 'present';
  if (typeof name === 'string') {
    if (name.trim() === '')
      problems.push({
        path: [PLAN_NAME_KEY],
        severity: 'error',
        message: `"${PLAN_NAME_KEY}" of ${label} is empty: give the plan's name as the panel shows it`,
      });
    else if (name.trim() !== name)
      problems.push({
        path: [PLAN_NAME_KEY],
        severity: 'warning',
        message:
          `the name ${quote(name)} of ${label} has spaces around it: plan names are compared exactly, ` +
          'so it names another plan than one without them',
      });
  }

  if (state === 'absent') {
    // A plan to delete is named, nothing more: its objects would say what it should be.
    const extra = PLAN_OBJECTS.filter((key) => Object.hasOwn(item, key));
    const [first] = extra;
    if (first !== undefined)
      problems.push({
        path: [first],
        atKey: true,
        severity: 'error',
        message:
          `${label} has state: absent: remove ${quoteList(extra)} ` +
          `(a plan that is deleted has no other keys than "${PLAN_NAME_KEY}" and "state"), ` +
          'or remove "state: absent" to keep the plan',
      });
    return { plan: typeof name === 'string' ? { name, state, wants: {} } : undefined, problems };
  }

  const wants: { [O in PlanObject]?: Record<string, PlanValue> } = {};
  for (const object of PLAN_OBJECTS) {
    const given = item[object];
    if (!isRecord(given)) continue; // absent, or refused by the schema
    const keys = Object.keys(given);
    if (keys.length === 0) {
      problems.push({
        path: [object],
        atKey: true,
        severity: 'warning',
        message: `"${object}" of ${label} is empty and manages nothing: give its keys, like ${OBJECT_EXAMPLES[object]}, or remove it`,
      });
      continue;
    }
    const values: [string, PlanValue][] = [];
    for (const key of keys) {
      const value = given[key];
      const where = `"${object}.${key}" of ${label}`;
      const problem = checkPlanValue(object, key, value, where);
      if (problem !== undefined)
        problems.push({ path: [object, key], atKey: problem.severity === 'warning', ...problem });
      if (!isPlanValue(value)) {
        // A known key's check refuses it already; an unknown key's only warns.
        if (problem?.severity !== 'error')
          problems.push({
            path: [object, key],
            severity: 'error',
            message: `${where} must be a string, a number, true or false, or null`,
          });
        continue;
      }
      if (problem?.severity !== 'error') values.push([key, value]);
    }
    // fromEntries defines each key: an assignment to `__proto__` would set no key.
    wants[object] = Object.fromEntries(values);
  }
  return { plan: typeof name === 'string' ? { name, state, wants } : undefined, problems };
}

function isPlanValue(value: unknown): value is PlanValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * The message for the schema's refusal (`keyword`) of a plan item's value at `rest` in the item
 * (`[]`: the item; `['resources']`), from that value; undefined when another error says it, or
 * when planItem words it (a value inside an object). `label` names the item (planLabel);
 * `missing` is a `required` refusal's missing key. `state` is worded by the caller, as for every
 * kind's state.
 */
export function planRefused(
  rest: readonly (string | number)[],
  keyword: string,
  value: unknown,
  label: string,
  missing: string | undefined,
): string | undefined {
  const [field, key] = rest;
  if (field === undefined) {
    if (keyword === 'required' && missing !== undefined)
      return `${label} has no "${missing}": add the plan's name as the panel shows it, like ${PLAN_NAME_KEY}: Business`;
    return `${label} must be a mapping with a "${PLAN_NAME_KEY}" (and optionally ${quoteList(PLAN_ITEM_KEYS.slice(1))})`;
  }
  if (field === PLAN_NAME_KEY) {
    const hint = typeof value === 'number' ? `: quote it, like ${PLAN_NAME_KEY}: "${String(value)}"` : '';
    return `"${PLAN_NAME_KEY}" of ${label} must be a string: the plan's name as the panel shows it${hint}`;
  }
  const object = PLAN_OBJECTS.find((o) => o === field);
  if (object === undefined) return undefined;
  // A value inside the object: planItem words it with checkPlanValue.
  if (key !== undefined) return undefined;
  return `"${object}" of ${label} must be a mapping, like ${OBJECT_EXAMPLES[object]}`;
}

/** The error for a plan name listed again (first at `first`: `line 3`, or `a.yaml:3` in another part). */
export function planListedAgain(name: string, first: string): string {
  return `hosting plan ${quote(name)} is listed twice (first at ${first}): remove one`;
}

/**
 * The error at a client's `plan` naming a plan the manifest marks absent (at `absentAt`: `line 3`,
 * or `a.yaml:3` in another part): the panel never deletes a plan in use, and the client could not be on it.
 */
export function absentPlanUsed(name: string, client: string, absentAt: string): string {
  return (
    `"plan" of ${client} names hosting plan ${quote(name)}, which is marked state: absent at ${absentAt}: ` +
    'give the client another plan, or remove "state: absent" from the plan'
  );
}

/**
 * What is wrong with a typed keep pattern (`{hosting_plan: ...}`), the end of a sentence
 * starting with the pattern; undefined when nothing. Plan names may hold spaces and any text, so
 * any non-empty pattern is taken; spaces around it match only names with those spaces.
 */
export function planKeepProblem(pattern: string): FieldProblem | undefined {
  if (pattern.trim() === '')
    return {
      severity: 'error',
      message: `is empty: write a plan's name, with * or ? as wildcards (like ${KEEP_PLAN_EXAMPLE}), or remove it`,
    };
  if (pattern.trim() !== pattern)
    return {
      severity: 'warning',
      message:
        'has spaces around it: it keeps only plans whose names have them (names are compared exactly): ' +
        `write ${quote(pattern.trim())} for the plan without them`,
    };
  return undefined;
}

/**
 * A test for plan names against the typed keep patterns: `*` matches any run of characters, `?`
 * exactly one, everything else literal, the whole name, case-sensitive (plan names are compared
 * exactly).
 */
export function planNameMatcher(patterns: readonly string[]): (name: string) => boolean {
  return wildcardMatcher(patterns);
}
