/**
 * What the secrets code needs of an FTP user (the descriptor's `secret`; docs/passwords.md): the
 * panel makes no password for an FTP user, so the engine makes every one and adds it to the
 * create's body only as it is sent; a new one is set by a PUT; the journal names an FTP user by its
 * name (lowercase), and `secrets reset ftp_user:NAME` takes any case of it. Pure.
 */
import type { PanelRequest } from '../common.js';
import type { PanelNaming } from '../kind.js';
import { panelNamedFtpUser } from './changes.js';
import { ftpUserCandidates, ftpUserNameOf } from './read.js';
import { FTP_USER_NAME_PATTERN, FTP_USER_NAME_RULE } from './manifest.js';
import { FTP_USERS_PATH } from './record.js';

/** Whether the panel makes an FTP user's password when the create sends none: never (docs/panel-api.md). */
export const FTP_USER_PANEL_MAKES_PASSWORD = false;

/** The names the journal holds for FTP users. */
export const FTP_USER_SECRET_PATTERN = FTP_USER_NAME_PATTERN;

/** What FTP_USER_SECRET_PATTERN says, for people. */
export const FTP_USER_SECRET_RULE = FTP_USER_NAME_RULE;

/** The create request as planned, with the password made here added to its body (a plan never holds one). */
export function ftpUserWithPassword(request: PanelRequest, password: string): PanelRequest {
  return { ...request, body: { ...request.body, password } };
}

/** The request that sets a new password on the FTP user the panel knows as `id`. */
export function ftpUserResetRequest(id: number, password: string): PanelRequest {
  return { method: 'PUT', path: `${FTP_USERS_PATH}/${id}`, body: { password } };
}

/** An FTP user's name in the journal from what a person typed (`secrets reset ftp_user:Alice_Deploy`), or what is wrong with it. */
export function ftpUserSecretName(input: string): { readonly name: string } | { readonly problem: string } {
  const name = input.trim().toLowerCase();
  return FTP_USER_NAME_PATTERN.test(name) ? { name } : { problem: `is not an FTP user name: ${FTP_USER_NAME_RULE}` };
}

/**
 * A panel whose "custom FTP usernames" setting is off names each new FTP user itself
 * (`<client>_ftp<N>`): the one write-ahead create reads the user it created back by its id, and
 * when the panel's name is not the one sent, records the password under the panel's name and
 * fails the create naming both, with what to do (changes.ts panelNamedFtpUser). A later apply
 * that finds such a create left open asks for the client's FTP users (read.ts ftpUserCandidates).
 */
export const FTP_USER_PANEL_NAMING: PanelNaming = {
  nameOf: ftpUserNameOf,
  renamed: panelNamedFtpUser,
  candidates: ftpUserCandidates,
};
