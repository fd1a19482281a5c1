/**
 * What the secrets code needs of a mailbox (the descriptor's `secret`; docs/passwords.md): the
 * panel makes no password for a mailbox, so the engine makes every one and adds it to the create's
 * body only as it is sent; a new one is set by a PUT; the journal names a mailbox by its address in
 * comparison form, and `secrets reset mailbox:ADDRESS` takes any spelling of it. Pure.
 */
import type { PanelRequest } from '../common.js';
import { normalizeAddress } from './address.js';
import { MAILBOXES_PATH } from './record.js';

/** Whether the panel makes a mailbox's password when the create sends none: never (docs/panel-api.md). */
export const MAILBOX_PANEL_MAKES_PASSWORD = false;

/** The names the journal holds for mailboxes: an address in lowercase ASCII. */
export const MAILBOX_NAME_PATTERN = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/;

/** What MAILBOX_NAME_PATTERN says, for people. */
export const MAILBOX_NAME_RULE =
  'a mailbox is named by its address, like info@example.com (an international domain in any spelling)';

/** The create request as planned, with the password made here added to its body (a plan never holds one). */
export function mailboxWithPassword(request: PanelRequest, password: string): PanelRequest {
  return { ...request, body: { ...request.body, password } };
}

/** The request that sets a new password on the mailbox the panel knows as `id`. */
export function mailboxResetRequest(id: number, password: string): PanelRequest {
  return { method: 'PUT', path: `${MAILBOXES_PATH}/${id}`, body: { password } };
}

/**
 * A mailbox's name in the journal from what a person typed (`secrets reset mailbox:Info@Bücher.example`):
 * its address in comparison form, or what is wrong with it as the end of a sentence.
 */
export function mailboxSecretName(input: string): { readonly name: string } | { readonly problem: string } {
  const read = normalizeAddress(input);
  return 'address' in read ? { name: read.address } : read;
}
