import { quote } from '../escape.js';
import { assertNever } from '../util.js';
import { requestFor } from './requests.js';
import type { Change, ChangeAction, ChangeId, FieldChange, HostingPlanRef } from './types.js';
import { changeId, phaseOf } from './types.js';
import { type ClientTargetsJson, targetsFromJson, targetsToJson, updateProblems } from '../kinds/client/index.js';

/**
 * The plan document's changes, both ways (plan/saved.ts owns the document around them): each
 * change as the document holds it (snake_case, with the request it becomes), and read back
 * with every check the schema cannot make (ids, dependencies within a phase, each kind's own
 * rules, the request matching the change).
 */

/** One change as the document holds it (snake_case), with the request it becomes. */
export function changeToJson(change: Change): Record<string, unknown> {
  const common = { id: change.id, action: change.action, type: change.type, name: change.name };
  const tail = { reason: change.reason, depends_on: change.dependsOn, request: requestFor(change) };
  const plan = (ref: HostingPlanRef | undefined): object => (ref === undefined ? {} : { hosting_plan: ref });
  switch (change.action) {
    case 'create':
      switch (change.type) {
        case 'client':
          return { ...common, ...targetsToJson(change), ...tail };
        case 'domain':
          return {
            ...common,
            client: change.client,
            client_id: change.clientId,
            ...(change.parent === undefined ? {} : { parent: change.parent }),
            ...tail,
          };
        default:
          return assertNever(change);
      }
    case 'update':
      return {
        ...common,
        client_id: change.clientId,
        fields: change.fields,
        ...plan(change.hostingPlan),
        ...tail,
      };
    case 'delete':
      switch (change.type) {
        case 'client':
          return {
            ...common,
            client_id: change.clientId,
            domains: change.domainNames?.length ?? null,
            domain_names: change.domainNames,
            ...tail,
          };
        case 'domain':
          return {
            ...common,
            domain_id: change.domainId,
            client: change.client,
            client_id: change.clientId,
            subdomains: change.subdomains,
            ...tail,
          };
        default:
          return assertNever(change);
      }
    default:
      return assertNever(change);
  }
}

/** JSON with object keys sorted, so a file reformatted by another tool compares equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** The fields of a document that passed the schema, as the reader uses them. */
export interface ChangeJson extends ClientTargetsJson {
  readonly id: string;
  readonly action: ChangeAction;
  readonly type: 'client' | 'domain';
  readonly name: string;
  readonly reason: string;
  readonly depends_on: readonly ChangeId[];
  readonly request: unknown;
  readonly client?: string;
  readonly client_id?: number | null;
  readonly parent?: string;
  readonly fields?: readonly FieldChange[];
  readonly domains?: number | null;
  readonly domain_names?: readonly string[] | null;
  readonly domain_id?: number;
  readonly subdomains?: readonly string[];
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
      else if (phaseOf(first) !== phaseOf(change))
        problems.push(`${path}.depends_on: ${quote(dep)} is a ${first.action}; a ${change.action} cannot wait for it`);
    }
    problems.push(...kindProblems(change, path), ...countProblems(item, path));
    if (problems.length === before && canonical(item.request) !== canonical(requestFor(change)))
      problems.push(`${path}.request: does not match the change: the file was edited`);
    // Listed, even when wrong in itself: its dependents are not blamed for its mistakes.
    seen.set(change.id, change);
    if (problems.length === before) changes.push(change);
  });
  return changes;
}

/** What a change of its kind must say about itself beyond the schema. */
function kindProblems(change: Change, path: string): string[] {
  const problems: string[] = [];
  switch (change.action) {
    case 'create':
      switch (change.type) {
        case 'client':
          break;
        case 'domain': {
          const owner = changeId('client', change.client);
          if (change.clientId === null && !change.dependsOn.includes(owner)) {
            problems.push(`${path}.client_id: null, yet the change does not depend on ${quote(owner)}`);
          }
          const parent = change.parent === undefined ? undefined : changeId('domain', change.parent);
          if (parent !== undefined && !change.dependsOn.includes(parent)) {
            problems.push(
              `${path}.parent: ${quote(change.parent ?? '')}, yet the change does not depend on ${quote(parent)}`,
            );
          }
          break;
        }
        default:
          assertNever(change);
      }
      break;
    case 'update':
      problems.push(...updateProblems(change, path));
      break;
    case 'delete':
      break;
    default:
      assertNever(change);
  }
  return problems;
}

/** A client delete's count must be the length of its names (both null when unknown). */
function countProblems(item: ChangeJson, path: string): string[] {
  if (item.action !== 'delete' || item.type !== 'client') return [];
  const count = item.domain_names === null || item.domain_names === undefined ? null : item.domain_names.length;
  return (item.domains ?? null) === count
    ? []
    : [`${path}.domains: must be the number of domain_names (${String(count)})`];
}

function changeFromJson(item: ChangeJson): Change {
  const base = { name: item.name, reason: item.reason, dependsOn: item.depends_on };
  const hostingPlan =
    item.hosting_plan === undefined ? {} : { hostingPlan: { name: item.hosting_plan.name, id: item.hosting_plan.id } };
  // The schema requires each kind's fields; the fallbacks are never used.
  const clientId = item.client_id ?? 0;
  switch (item.action) {
    case 'create':
      switch (item.type) {
        case 'client':
          return {
            ...base,
            id: changeId('client', item.name),
            action: 'create',
            type: 'client',
            ...targetsFromJson(item),
          };
        case 'domain':
          return {
            ...base,
            id: changeId('domain', item.name),
            action: 'create',
            type: 'domain',
            client: item.client ?? '',
            clientId: item.client_id ?? null,
            ...(item.parent === undefined ? {} : { parent: item.parent }),
          };
        default:
          return assertNever(item.type);
      }
    case 'update':
      return {
        ...base,
        id: changeId('client', item.name),
        action: 'update',
        type: 'client',
        clientId,
        fields: item.fields ?? [],
        ...hostingPlan,
      };
    case 'delete':
      switch (item.type) {
        case 'client':
          return {
            ...base,
            id: changeId('client', item.name),
            action: 'delete',
            type: 'client',
            clientId,
            domainNames: item.domain_names ?? null,
          };
        case 'domain':
          return {
            ...base,
            id: changeId('domain', item.name),
            action: 'delete',
            type: 'domain',
            domainId: item.domain_id ?? 0,
            client: item.client ?? '',
            clientId,
            subdomains: item.subdomains ?? [],
          };
        default:
          return assertNever(item.type);
      }
    default:
      return assertNever(item.action);
  }
}
