/**
 * A database's change in the plan document, both ways (`type: database`, `name`, `client`, its
 * fields in the manifest's names, `destroys_data: true` on a delete), with the checks a change
 * read back must pass: its request sends what the change says. No password is ever in it. Pure.
 */
import { assertNever, canonical, isRecord } from '../../util.js';
import type { ChangeBase } from '../common.js';
import {
  databaseChangeId,
  DATABASE_KIND_NAME,
  type DatabaseChange,
  type DatabaseKindName,
  databaseRequest,
} from './changes.js';
import type { DatabaseFieldChange, DatabaseWants } from './fields.js';

/** A database's change as the plan document holds it, beside the common fields; the schema checked it. */
export interface DatabaseChangeJson {
  readonly action: 'create' | 'update' | 'delete';
  readonly client?: string;
  readonly client_id?: number | null;
  readonly user?: string;
  readonly values?: DatabaseWants;
  readonly database_id?: number;
  readonly fields?: readonly DatabaseFieldChange[];
  readonly destroys_data?: boolean;
  readonly request?: unknown;
}

/** What a database's change adds to the common fields, in the document's order. */
export function databaseToJson(change: DatabaseChange): Record<string, unknown> {
  switch (change.action) {
    case 'create':
      return { client: change.client, client_id: change.clientId, user: change.user, values: change.wants };
    case 'update':
      return { client: change.client, database_id: change.databaseId, fields: change.fields };
    case 'delete':
      return { client: change.client, database_id: change.databaseId, destroys_data: change.destroysData };
    default:
      return assertNever(change);
  }
}

/** A database's change read back (the schema requires each action's fields; the fallbacks are never used). */
export function databaseFromJson(
  item: DatabaseChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): DatabaseChange {
  const common = {
    ...base,
    id: databaseChangeId(base.name),
    type: DATABASE_KIND_NAME as DatabaseKindName,
    client: item.client ?? '',
  };
  switch (item.action) {
    case 'create':
      return {
        ...common,
        action: 'create',
        clientId: item.client_id ?? null,
        user: item.user ?? base.name,
        wants: item.values ?? {},
      };
    case 'update':
      return { ...common, action: 'update', databaseId: item.database_id ?? 0, fields: item.fields ?? [] };
    case 'delete':
      return { ...common, action: 'delete', databaseId: item.database_id ?? 0, destroysData: true };
    default:
      return assertNever(item.action);
  }
}

/**
 * What a database's change read back must say of itself beyond the schema: its request is the one
 * the change makes (a create's `id_user` aside, which apply fills in when the client is created
 * in the same run).
 */
export function databaseProblems(change: DatabaseChange, item: DatabaseChangeJson, path: string): string[] {
  const sent = isRecord(item.request) ? item.request : {};
  const made = databaseRequest(change);
  const body = (value: unknown): string => {
    if (!isRecord(value)) return canonical(value);
    return canonical(Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id_user')));
  };
  return sent.method !== made.method || sent.path !== made.path || body(sent.body) !== body(made.body)
    ? [`${path}.request: is not the request the change makes: the file was edited`]
    : [];
}
