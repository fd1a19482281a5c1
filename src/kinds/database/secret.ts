/**
 * What the secrets code needs of a database (the descriptor's `secret`; docs/passwords.md): the
 * panel makes no password for a database, so the engine makes every one and adds it to the create's
 * body only as it is sent; a new one is set by a PUT; the journal names a database by its name
 * (`secrets reset database:alice_wp`). Pure.
 */
import type { PanelRequest } from '../common.js';
import { DATABASE_NAME_PATTERN, DATABASE_NAME_RULE } from './manifest.js';
import { DATABASES_PATH } from './record.js';

/** Whether the panel makes a database's password when the create sends none: never (docs/panel-api.md). */
export const DATABASE_PANEL_MAKES_PASSWORD = false;

/** The names the journal holds for databases. */
export const DATABASE_SECRET_PATTERN = DATABASE_NAME_PATTERN;

/** What DATABASE_SECRET_PATTERN says, for people. */
export const DATABASE_SECRET_RULE = `a database is named by its name: ${DATABASE_NAME_RULE}, like alice_wp`;

/** The create request as planned, with the password made here added to its body (a plan never holds one). */
export function databaseWithPassword(request: PanelRequest, password: string): PanelRequest {
  return { ...request, body: { ...request.body, password } };
}

/** The request that sets a new password on the database the panel knows as `id`. */
export function databaseResetRequest(id: number, password: string): PanelRequest {
  return { method: 'PUT', path: `${DATABASES_PATH}/${id}`, body: { password } };
}

/** A database's name in the journal from what a person typed, or what is wrong with it as the end of a sentence. */
export function databaseSecretName(input: string): { readonly name: string } | { readonly problem: string } {
  const name = input.trim();
  return DATABASE_NAME_PATTERN.test(name) ? { name } : { problem: `is not a database's name: ${DATABASE_SECRET_RULE}` };
}
