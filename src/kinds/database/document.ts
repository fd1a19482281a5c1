/**
 * A database's change in the plan document, both ways (`type: database`, `name`, `client`, its
 * fields in the manifest's names, `destroys_data: true` on a delete), with the checks a change
 * read back must pass: its request sends what the change says. No password is ever in it. Pure.
 */
import type { ChangeBase } from '../common.js';
import { passwordKindFromJson, passwordKindToJson, type PasswordKindShape, requestProblem } from '../password-kind.js';
import { DATABASE_KIND_NAME, DATABASE_REQUESTS, type DatabaseChange, databaseRequest } from './changes.js';
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

/** The database's part of the plan document the password kinds share (../password-kind.ts). */
const DATABASE_DOCUMENT: PasswordKindShape<DatabaseChange, DatabaseChangeJson> = {
  ...DATABASE_REQUESTS,
  type: DATABASE_KIND_NAME,
  idKey: 'database_id',
  withId: (databaseId) => ({ databaseId }),
  destroysData: true,
  createJson: (change) => ({ user: change.user }),
  createFromJson: (item, name) => ({ user: item.user ?? name, wants: item.values ?? {} }),
};

/** What a database's change adds to the common fields, in the document's order. */
export function databaseToJson(change: DatabaseChange): Record<string, unknown> {
  return passwordKindToJson(DATABASE_DOCUMENT, change);
}

/** A database's change read back (the schema requires each action's fields; the fallbacks are never used). */
export function databaseFromJson(
  item: DatabaseChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): DatabaseChange {
  return passwordKindFromJson(DATABASE_DOCUMENT, item, base);
}

/**
 * What a database's change read back must say of itself beyond the schema: its request is the one
 * the change makes (a create's `id_user` aside, which apply fills in when the client is created
 * in the same run).
 */
export function databaseProblems(change: DatabaseChange, item: DatabaseChangeJson, path: string): string[] {
  const problem = requestProblem(item, databaseRequest(change), path);
  return problem === undefined ? [] : [problem];
}
