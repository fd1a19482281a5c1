import { quote } from '../escape.js';
import { canonical } from '../util.js';
import { requestFor } from './requests.js';
import type { Change, ChangeAction, ChangeId } from './types.js';
import { phaseOf } from './types.js';
import type { ClientChangeJson } from '../kinds/client/index.js';
import type { DomainChangeJson } from '../kinds/domain.js';
import type { ZoneChangeJson } from '../kinds/zone.js';
import { KINDS, kindOf } from '../kinds/index.js';

/**
 * The plan document's changes, both ways (plan/saved.ts owns the document around them): each
 * change as the document holds it (snake_case, with the request it becomes), and read back
 * with every check the schema cannot make (ids, dependencies within a phase, each kind's own
 * rules, the request matching the change).
 */

/**
 * One change as the document holds it (snake_case), with the request it becomes: the common fields
 * around its kind's own.
 */
export function changeToJson(change: Change): Record<string, unknown> {
  // Filled in place, the same keys in the same order as `{ ...common, ...own, ...tail }`: V8 keeps
  // what such a literal (a spread first, then more) holds alive past the young generation, every
  // change's JSON copied into the old one as a plan is written (docs/benchmarks.md).
  const json: Record<string, unknown> = { id: change.id, action: change.action, type: change.type, name: change.name };
  Object.assign(json, kindOf(change).toJson(change));
  json.reason = change.reason;
  json.depends_on = change.dependsOn;
  json.request = requestFor(change);
  return json;
}

/** The fields of a document that passed the schema, as the reader uses them: the common ones and each kind's. */
export interface ChangeJson
  extends
    Omit<ClientChangeJson, 'fields'>,
    Omit<DomainChangeJson, 'fields' | 'request' | 'domain_id'>,
    Omit<ZoneChangeJson, 'client' | 'request' | 'domain_id'> {
  /** A domain's id (a zone's: null for a new domain). */
  readonly domain_id?: number | null;
  /** An update's fields: a client's or a domain's, as `type` says (each kind reads its own). */
  readonly fields?: ClientChangeJson['fields'] | DomainChangeJson['fields'];
  readonly id: string;
  readonly action: ChangeAction;
  readonly type: Change['type'];
  readonly name: string;
  readonly reason: string;
  readonly depends_on: readonly ChangeId[];
  readonly request: unknown;
}

/** The Plan's changes from a document that passed the schema; what the schema cannot check goes to `problems`. */
export function readChanges(list: readonly ChangeJson[], problems: string[]): Change[] {
  const changes: Change[] = [];
  const seen = new Map<string, Change>();
  list.forEach((item, i) => {
    const path = `changes[${i}]`;
    const change = changeFromJson(item);
    const before = problems.length;
    if (item.id !== change.id) problems.push(`${path}.id: must be ${quote(change.id)}`);
    else if (seen.has(change.id)) problems.push(`${path}.id: ${quote(change.id)} appears twice`);
    for (const dep of change.dependsOn) {
      const first = seen.get(dep);
      if (first === undefined)
        problems.push(`${path}.depends_on: ${quote(dep)} is not a change listed before this one`);
      // A create or update may wait for a delete (one that frees what it takes: both then run in
      // phase 0, plan/types.ts phasesOf); a delete never waits for a create or an update.
      else if (phaseOf(change) === 1 && phaseOf(first) === 0)
        problems.push(`${path}.depends_on: ${quote(dep)} is a ${first.action}; a ${change.action} cannot wait for it`);
    }
    problems.push(...kindProblems(change, item, path, seen));
    if (problems.length === before && canonical(item.request) !== canonical(requestFor(change)))
      problems.push(`${path}.request: does not match the change: the file was edited`);
    // Listed, even when wrong in itself: its dependents are not blamed for its mistakes.
    seen.set(change.id, change);
    if (problems.length === before) changes.push(change);
  });
  return changes;
}

/** What a change of its kind must say about itself beyond the schema: its room says. */
function kindProblems(change: Change, item: ChangeJson, path: string, seen: ReadonlyMap<string, Change>): string[] {
  return [...kindOf(change).problems(change, item, path, (id) => seen.get(id))];
}

/** The change an item describes, built by its kind's room from the common fields. */
function changeFromJson(item: ChangeJson): Change {
  const base = { name: item.name, reason: item.reason, dependsOn: item.depends_on };
  // The schema allows only the table's kinds in `type`.
  return (KINDS[item.type] as unknown as { fromJson(item: ChangeJson, b: typeof base): Change }).fromJson(item, base);
}
