/**
 * How apply and `secrets reset` find a thing with a password on the panel: in the panel read
 * (readLive, for the journal's repairs), by name (after a create whose answer was lost; the names
 * `secrets reset` is given) and by id (is it gone?). Each kind with a password says how in its
 * list read (kinds/read.ts KindLookUps); the panel's reader is handed in here, so the rooms stay
 * pure.
 */
import { KIND_NAMES, KINDS, type Live, type ReadKindName } from '../kinds/index.js';
import { readOf } from '../kinds/reads.js';
import type { SecretKindName } from '../kinds/kind.js';
import type { PanelClient } from '../panel/client.js';
import { listReader } from '../panel/read.js';
import { SECRET_KINDS } from '../secrets/kinds.js';
import type { ExistingSecret, LookedUp } from '../secrets/recovery.js';

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

/** The look-ups of the kind whose things the journal names `kind`, from its list read. */
function lookUpsOf(kind: SecretKindName): SecretLookups {
  const name = KIND_NAMES.find(
    (n): n is ReadKindName => KINDS[n].secret?.journalKind === kind && KINDS[n].read !== undefined,
  );
  const lookUps = name === undefined ? undefined : readOf(name).lookUps;
  if (name === undefined || lookUps === undefined)
    throw new Error(`the kind with a password "${kind}" has no look-ups in its list read (kinds/read.ts KindLookUps)`);
  return {
    inLive: (live) => lookUps.inPart(live[name]),
    find: (panel, thing) => lookUps.find(listReader(panel), thing),
    findById: (panel, id) => lookUps.findById(listReader(panel), id),
  };
}

/** Each kind with a password's look-ups, by its name in the journal. */
export const SECRET_LOOKUPS = Object.fromEntries(SECRET_KINDS.map(({ name }) => [name, lookUpsOf(name)] as const)) as {
  readonly [K in SecretKindName]: SecretLookups;
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
