/**
 * A client's changes in the plan document (plan/saved.ts owns the document around them): the
 * fields each change adds to the common ones, both ways, and what a change read back must say
 * of itself beyond the schema. Pure.
 */
import { quote } from '../../escape.js';
import { assertNever } from '../../util.js';
import { type ChangeBase, changeId } from '../common.js';
import type { ClientChange } from './changes.js';
import { takesFromJson, takesProblems, takesToJson } from '../takes.js';
import { CLIENT_FIELDS, type ClientTargets, type ClientTargetsJson, clientField, type FieldChange } from './fields.js';

/** A client's change as the document holds it (snake_case), beside the common fields; the schema checked it. */
export interface ClientChangeJson extends ClientTargetsJson {
  readonly action: ClientChange['action'];
  /** A create's: absent only in a plan file of format 2.3 or older. */
  readonly send_login_credentials?: boolean;
  readonly client_id?: number | null;
  readonly fields?: readonly FieldChange[];
  readonly domains?: number | null;
  readonly domain_names?: readonly string[] | null;
  /** A delete's: what it takes of other kinds, by kind (../takes.ts); absent when none was counted. */
  readonly takes?: { readonly [kind: string]: number };
  /** A delete's: how many more of a kind counted in `takes` the panel lists without an owner (any may go); absent when none. */
  readonly takes_unattributed?: { readonly [kind: string]: number };
  /** A delete's: true when what it takes holds data. */
  readonly destroys_data?: boolean;
}

/** What a client's change adds to the common fields, in the document's order. */
export function clientToJson(change: ClientChange): Record<string, unknown> {
  switch (change.action) {
    case 'create': {
      // Added to the fresh object, not `{ ...targets, ... }`: V8 keeps what such a literal (a
      // spread first, then more) holds alive past the young generation (docs/benchmarks.md).
      const json: Record<string, unknown> = targetsToJson(change);
      if (change.sendLoginCredentials !== undefined) json.send_login_credentials = change.sendLoginCredentials;
      return json;
    }
    case 'update':
      return {
        client_id: change.clientId,
        fields: change.fields,
        ...(change.hostingPlan === undefined ? {} : { hosting_plan: change.hostingPlan }),
      };
    case 'delete':
      return {
        client_id: change.clientId,
        domains: change.domainNames?.length ?? null,
        domain_names: change.domainNames,
        ...takesToJson(change.takes),
      };
    default:
      return assertNever(change);
  }
}

/** A client's change read back; `base` holds the common fields. */
export function clientFromJson(
  item: ClientChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): ClientChange {
  const id = changeId('client', base.name);
  // The schema requires each action's fields; the fallbacks are never used.
  const clientId = item.client_id ?? 0;
  switch (item.action) {
    case 'create':
      return {
        ...base,
        id,
        action: 'create',
        type: 'client',
        ...targetsFromJson(item),
        ...(item.send_login_credentials === undefined ? {} : { sendLoginCredentials: item.send_login_credentials }),
      };
    case 'update':
      return {
        ...base,
        id,
        action: 'update',
        type: 'client',
        clientId,
        fields: item.fields ?? [],
        ...(item.hosting_plan === undefined
          ? {}
          : { hostingPlan: { name: item.hosting_plan.name, id: item.hosting_plan.id } }),
      };
    case 'delete': {
      const takes = takesFromJson(item);
      return {
        ...base,
        id,
        action: 'delete',
        type: 'client',
        clientId,
        domainNames: item.domain_names ?? null,
        ...(takes === undefined ? {} : { takes }),
      };
    }
    default:
      return assertNever(item.action);
  }
}

/** What a client's change read back must say of itself beyond the schema; empty when nothing. */
export function clientProblems(change: ClientChange, item: ClientChangeJson, path: string): string[] {
  switch (change.action) {
    case 'create':
      return newPlanProblems(change, path);
    case 'update':
      return [...updateProblems(change.fields, change.hostingPlan, path), ...newPlanProblems(change, path)];
    case 'delete': {
      // A delete's count must be the length of its names (both null when unknown).
      const names = item.domain_names ?? null;
      const count = names === null ? null : names.length;
      return [
        ...((item.domains ?? null) === count
          ? []
          : [`${path}.domains: must be the number of domain_names (${String(count)})`]),
        ...takesProblems(item, path),
      ];
    }
    default:
      return assertNever(change);
  }
}

/** A client on a hosting plan the run creates (its id null) waits for that plan's create. */
function newPlanProblems(change: Exclude<ClientChange, { action: 'delete' }>, path: string): string[] {
  const plan = change.hostingPlan;
  if (plan === undefined || plan.id !== null) return [];
  const create = changeId('hosting_plan', plan.name);
  return change.dependsOn.includes(create)
    ? []
    : [`${path}.hosting_plan.id: null, yet the change does not depend on ${quote(create)}`];
}

function updateProblems(
  fields: readonly FieldChange[],
  hostingPlan: ClientTargets['hostingPlan'],
  path: string,
): string[] {
  const problems: string[] = [];
  const names = fields.map((f) => f.field);
  if (new Set(names).size !== names.length) problems.push(`${path}.fields: a field is listed twice`);
  const plan = fields.find((f) => f.field === 'plan');
  if (plan === undefined && hostingPlan !== undefined)
    problems.push(`${path}.hosting_plan: given, yet "plan" is not among the fields`);
  if (plan !== undefined && hostingPlan?.name !== plan.after)
    problems.push(`${path}.hosting_plan: must name the plan the "plan" field moves to`);
  for (const f of fields) {
    const ok =
      clientField(f.field).type === 'boolean'
        ? typeof f.before === 'boolean' && typeof f.after === 'boolean'
        : typeof f.after === 'string' && (f.before === null || typeof f.before === 'string');
    if (!ok) problems.push(`${path}.fields: ${quote(f.field)} has values of the wrong type`);
  }
  return problems;
}

/** A client create's targets as the plan document holds them (snake_case), in the table's order. */
function targetsToJson(change: ClientTargets): ClientTargetsJson {
  const json: Record<string, unknown> = {};
  for (const row of CLIENT_FIELDS) {
    const target = (change as unknown as Readonly<Record<string, unknown>>)[row.changeKey];
    if (target !== undefined) json[row.jsonKey] = target;
  }
  return json;
}

/** A client create's targets read back from the plan document. */
function targetsFromJson(item: ClientTargetsJson): ClientTargets {
  const targets: Record<string, unknown> = {};
  for (const row of CLIENT_FIELDS) {
    const value = (item as unknown as Readonly<Record<string, unknown>>)[row.jsonKey];
    if (value !== undefined) targets[row.changeKey] = row.fromJson(value as never);
  }
  return targets;
}
