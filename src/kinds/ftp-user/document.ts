/**
 * An FTP user's change in the plan document, both ways (`type: ftp_user`, `name`, `client`, its
 * fields in the manifest's names), with the check a change read back must pass: its request sends
 * what the change says. No password is ever in it. Pure.
 */
import type { ChangeBase } from '../common.js';
import { passwordKindFromJson, passwordKindToJson, type PasswordKindShape, requestProblem } from '../password-kind.js';
import {
  FTP_USER_KIND_NAME,
  FTP_USER_REQUESTS,
  type FtpUserChange,
  type FtpUserCreateValues,
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

/** The FTP user's part of the plan document the password kinds share (../password-kind.ts). */
const FTP_USER_DOCUMENT: PasswordKindShape<FtpUserChange, FtpUserChangeJson> = {
  ...FTP_USER_REQUESTS,
  type: FTP_USER_KIND_NAME,
  idKey: 'ftp_user_id',
  withId: (ftpUserId) => ({ ftpUserId }),
  destroysData: false,
  createJson: () => ({}),
  createFromJson: (item) => ({ wants: item.values ?? { home: DEFAULT_FTP_HOME } }),
};

/** What an FTP user's change adds to the common fields, in the document's order. */
export function ftpUserToJson(change: FtpUserChange): Record<string, unknown> {
  return passwordKindToJson(FTP_USER_DOCUMENT, change);
}

/** An FTP user's change read back (the schema requires each action's fields; the fallbacks are never used). */
export function ftpUserFromJson(
  item: FtpUserChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): FtpUserChange {
  return passwordKindFromJson(FTP_USER_DOCUMENT, item, base);
}

/**
 * What an FTP user's change read back must say of itself beyond the schema: its request is the
 * one the change makes (a create's `id_user` aside, which apply fills in when the client is
 * created in the same run).
 */
export function ftpUserProblems(change: FtpUserChange, item: FtpUserChangeJson, path: string): string[] {
  const problem = requestProblem(item, ftpUserRequest(change), path);
  return problem === undefined ? [] : [problem];
}
