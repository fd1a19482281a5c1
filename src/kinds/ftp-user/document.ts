/**
 * An FTP user's change in the plan document, both ways (`type: ftp_user`, `name`, `client`, its
 * fields in the manifest's names), with the check a change read back must pass: its request sends
 * what the change says. No password is ever in it. Pure.
 */
import { assertNever, canonical, isRecord } from '../../util.js';
import type { ChangeBase } from '../common.js';
import {
  FTP_USER_KIND_NAME,
  type FtpUserChange,
  ftpUserChangeId,
  type FtpUserCreateValues,
  type FtpUserKindName,
  ftpUserRequest,
} from './changes.js';
import type { FtpUserFieldChange } from './fields.js';
import { DEFAULT_FTP_HOME } from './home.js';

/** An FTP user's change as the plan document holds it, beside the common fields; the schema checked it. */
export interface FtpUserChangeJson {
  readonly action: 'create' | 'update' | 'delete';
  readonly client?: string;
  readonly client_id?: number | null;
  readonly values?: FtpUserCreateValues;
  readonly ftp_user_id?: number;
  readonly fields?: readonly FtpUserFieldChange[];
  readonly request?: unknown;
}

/** What an FTP user's change adds to the common fields, in the document's order. */
export function ftpUserToJson(change: FtpUserChange): Record<string, unknown> {
  switch (change.action) {
    case 'create':
      return { client: change.client, client_id: change.clientId, values: change.wants };
    case 'update':
      return { client: change.client, ftp_user_id: change.ftpUserId, fields: change.fields };
    case 'delete':
      return { client: change.client, ftp_user_id: change.ftpUserId };
    default:
      return assertNever(change);
  }
}

/** An FTP user's change read back (the schema requires each action's fields; the fallbacks are never used). */
export function ftpUserFromJson(
  item: FtpUserChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): FtpUserChange {
  const common = {
    ...base,
    id: ftpUserChangeId(base.name),
    type: FTP_USER_KIND_NAME as FtpUserKindName,
    client: item.client ?? '',
  };
  switch (item.action) {
    case 'create':
      return {
        ...common,
        action: 'create',
        clientId: item.client_id ?? null,
        wants: item.values ?? { home: DEFAULT_FTP_HOME },
      };
    case 'update':
      return { ...common, action: 'update', ftpUserId: item.ftp_user_id ?? 0, fields: item.fields ?? [] };
    case 'delete':
      return { ...common, action: 'delete', ftpUserId: item.ftp_user_id ?? 0 };
    default:
      return assertNever(item.action);
  }
}

/**
 * What an FTP user's change read back must say of itself beyond the schema: its request is the
 * one the change makes (a create's `id_user` aside, which apply fills in when the client is
 * created in the same run).
 */
export function ftpUserProblems(change: FtpUserChange, item: FtpUserChangeJson, path: string): string[] {
  const sent = isRecord(item.request) ? item.request : {};
  const made = ftpUserRequest(change);
  const body = (value: unknown): string => {
    if (!isRecord(value)) return canonical(value);
    return canonical(Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id_user')));
  };
  return sent.method !== made.method || sent.path !== made.path || body(sent.body) !== body(made.body)
    ? [`${path}.request: is not the request the change makes: the file was edited`]
    : [];
}
