/**
 * How apply and `secrets reset` find a thing with a password on the panel: in the panel read
 * (readLive, for the journal's repairs), by name (after a create whose answer was lost; the names
 * `secrets reset` is given) and by id (is it gone?).
 * One entry per kind with a password (kinds/kind.ts SecretKindName): a kind added there fails
 * to compile until it has its look-ups here. The rooms stay pure: the reading is the panel's.
 */
import type { SecretKindName } from '../kinds/kind.js';
import type { PanelClient } from '../panel/client.js';
import { findClient, findClientById } from '../panel/read.js';
import type { Live } from '../panel/types.js';
import { SECRET_KINDS } from '../secrets/kinds.js';
import type { ExistingSecret, LookedUp } from '../secrets/recovery.js';
import { liveClients } from '../kinds/index.js';

/** A thing as a look-up finds it: the panel's id of it is all the secrets code needs. */
export interface FoundSecret {
  readonly id: number;
}

export interface SecretLookups {
  /**
   * The things of the kind the panel read holds, by name and id: every one on the panel, or
   * undefined when the read does not hold the kind whole (then none of its things is judged gone).
   */
  inLive(live: Live): readonly { readonly name: string; readonly id: number }[] | undefined;
  /** The thing named `name` (a client's username), as the panel lists it; undefined when it has none. */
  find(panel: PanelClient, name: string): Promise<FoundSecret | undefined>;
  /** The thing the panel knows as `id`; undefined when it has none (deleted meanwhile). */
  findById(panel: PanelClient, id: number): Promise<FoundSecret | undefined>;
}

export const SECRET_LOOKUPS: { readonly [K in SecretKindName]: SecretLookups } = {
  // readLive reads every client, whatever --clients says (the scope filters the plan).
  client: {
    inLive: (live) => liveClients(live).map((c) => ({ name: c.username, id: c.id })),
    find: findClient,
    findById: findClientById,
  },
};

/**
 * The things with a password the panel read holds, of each kind with one, and what was read,
 * said per kind (the journal's repairs, apply/recover.ts): a kind the read holds whole is in
 * `lookedUp.every`; one it does not is not, so none of its things is judged gone.
 */
export function secretsInLive(live: Live): { readonly existing: ExistingSecret[]; readonly lookedUp: LookedUp } {
  const existing: ExistingSecret[] = [];
  const every: string[] = [];
  for (const { name: kind } of SECRET_KINDS) {
    const things = SECRET_LOOKUPS[kind].inLive(live);
    if (things === undefined) continue;
    every.push(kind);
    for (const { name, id } of things) existing.push({ kind, name, id });
  }
  return { existing, lookedUp: { every } };
}
