/**
 * What every kind's room shares: the parts of a change that are the same for all kinds, the
 * request a change becomes, and the readers of panel fields. Pure, ground floor only.
 */
import { type JsonObject, type JsonValue, plural } from '../util.js';

/**
 * `<kind>:<name>`: `client:<username>`, `domain:<ascii name>`, ...: unique within a plan (one
 * change per resource). `N` narrows it to one kind's.
 */
export type ChangeId<N extends string = string> = `${N}:${string}`;

/**
 * The ids the panel gave to what the same run created, by change id (`client:alice` → 7): a change
 * that names something created before it takes its id from here. Empty (or absent) before apply:
 * a preview says "known after apply".
 */
export type NewIds = ReadonlyMap<ChangeId, number>;

/** How people's text names a kind: `1 client`, `2 clients`, `clients to create`. */
export interface KindNoun {
  readonly one: string;
  readonly many: string;
}

/** Each kind's `type:` prefix, made once: an id then holds its name and a shared prefix (memory, at 100,000 ids). */
const ID_PREFIXES = new Map<string, string>();

/** The change id of a resource of kind `type`: the one place the form is written. */
export function changeId<N extends string>(type: N, name: string): ChangeId<N> {
  let prefix = ID_PREFIXES.get(type);
  if (prefix === undefined) {
    prefix = `${type}:`;
    ID_PREFIXES.set(type, prefix);
  }
  return (prefix + name) as ChangeId<N>;
}

/**
 * The `dependsOn` of a change that waits for nothing: one frozen empty list shared by every such
 * change (a list each is about 16 bytes, and a list grown by a spread about 100).
 */
export const NO_DEPENDENCIES: readonly ChangeId[] = Object.freeze([]);

/** A `dependsOn` of the ids given (undefined: none), in that order, exactly as long as it is. */
export function dependencies(...ids: readonly (ChangeId | undefined)[]): readonly ChangeId[] {
  let n = 0;
  for (const id of ids) if (id !== undefined) n++;
  if (n === 0) return NO_DEPENDENCIES;
  // Its places allocated at once: a list grown by push or a spread takes 17.
  const list = new Array<ChangeId>(n);
  let i = 0;
  for (const id of ids) if (id !== undefined) list[i++] = id;
  return list;
}

/** What every change has, whatever its kind and action. */
export interface ChangeBase<N extends string = string> {
  readonly id: ChangeId<N>;
  /** Its kind's name (the table of kinds, ./index.ts). */
  readonly type: N;
  readonly name: string;
  /** Why this change is in the plan, for people. */
  readonly reason: string;
  /** Changes that must succeed first; empty when none. */
  readonly dependsOn: readonly ChangeId[];
}

/** The HTTP call a change becomes: "what changes" (the plan) kept apart from "how it is sent". */
export interface PanelRequest {
  readonly method: 'POST' | 'PUT' | 'DELETE';
  /** Relative to the API base: '/clients', '/domains', '/clients/7', '/domains/12'. */
  readonly path: string;
  /** The JSON body (nested objects for a domain's settings); null for a DELETE, which has none. */
  readonly body: Readonly<Record<string, JsonValue>> | null;
}

/** A hosting plan as the panel lists it (GET /hosting-plans). */
export interface LiveHostingPlan {
  readonly id: number;
  readonly name: string;
  /**
   * Its nested objects as read (`resources`, `permissions`, `php`, `php_fpm`: the plan's room,
   * src/kinds/hosting-plan), kept whole to send back; absent when the record carries none.
   */
  readonly objects?: { readonly [object: string]: JsonObject };
}

/**
 * A hosting plan as a change names it: by name for people, by id for the panel; id null for a plan
 * the same run creates (the change then waits for its create, and apply takes the id from its answer).
 */
export interface HostingPlanRef {
  readonly name: string;
  readonly id: number | null;
}

/** A problem with a manifest's value, for the manifest's checks. */
export interface FieldProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** A field's reader: its value (never undefined), or a description of what it must be. */
export type FieldReader<T> = (
  value: unknown,
) => { readonly value: T } | { readonly problem: string } | { readonly unreadable: string };

/** What a flag must be, as a problem says it. */
export const FLAG_PROBLEM = 'a boolean (or 0 or 1)';

/**
 * A boolean as panels answer it: true or false, 0 or 1, or those as strings ("0", "1", "true",
 * "false"; any case, spaces around: PHP panels send numbers and booleans as strings); undefined
 * for anything else. The one reader of the panel's flags: a client's, a domain's, a setting's.
 */
export function readFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (text === '1' || text === 'true') return true;
  if (text === '0' || text === 'false') return false;
  return undefined;
}

/** A boolean field as panels answer it (readFlag), or a problem naming what it must be. */
export const flagReader: FieldReader<boolean> = (value) => {
  const flag = readFlag(value);
  return flag === undefined ? { problem: FLAG_PROBLEM } : { value: flag };
};

/**
 * What the manifest can say about one managed field of a live resource:
 * - `value`: this value, writable as is;
 * - `none`: the panel says there is none (a plan id of 0/null, an email of ""/null), which the
 *   manifest can only say by leaving the field out;
 * - `unknown`: the panel's records do not carry the field;
 * - `unwritable`: a value the manifest cannot hold (`reason` says why, for a warning).
 */
export type FieldView<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'unwritable'; readonly reason: string };

/**
 * Half of a UTF-16 surrogate pair on its own: JSON can carry it, a UTF-8 file cannot (it would read
 * back as U+FFFD).
 */
export const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** What a delete waits for, as the plan's text says it: `, after 2 subdomains`, or nothing. */
export function afterSubdomains(dependsOn: readonly unknown[]): string {
  return dependsOn.length === 0 ? '' : `, after ${plural(dependsOn.length, 'subdomain')}`;
}
