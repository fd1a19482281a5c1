/**
 * How apply and `secrets reset` find a thing with a password on the panel: by name (after a
 * create whose answer was lost; the names `secrets reset` is given) and by id (is it gone?).
 * One entry per kind with a password (kinds/kind.ts SecretKindName): a kind added there fails
 * to compile until it has its look-ups here. The rooms stay pure: the reading is the panel's.
 */
import type { SecretKindName } from '../kinds/kind.js';
import type { PanelClient } from '../panel/client.js';
import { findClient, findClientById } from '../panel/read.js';

/** A thing as a look-up finds it: the panel's id of it is all the secrets code needs. */
export interface FoundSecret {
  readonly id: number;
}

export interface SecretLookups {
  /** The thing named `name` (a client's username), as the panel lists it; undefined when it has none. */
  find(panel: PanelClient, name: string): Promise<FoundSecret | undefined>;
  /** The thing the panel knows as `id`; undefined when it has none (deleted meanwhile). */
  findById(panel: PanelClient, id: number): Promise<FoundSecret | undefined>;
}

export const SECRET_LOOKUPS: { readonly [K in SecretKindName]: SecretLookups } = {
  client: { find: findClient, findById: findClientById },
};
