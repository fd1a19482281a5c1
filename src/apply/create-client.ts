import { quote } from '../escape.js';
import type { NewIds } from '../kinds/common.js';
import { requestFor } from '../plan/requests.js';
import type { CreateClient } from '../plan/types.js';
import type { SecretsSink } from '../secrets/journal.js';
import { createWithSecret, type SecretContext } from './create-secret.js';
import type { Applied } from './execute.js';
import type { Slot } from './walk.js';

/**
 * A client's create (apply/create.ts creator dispatches to it): what is the client's own, its
 * request with the ids this run's creates gave (its hosting plan's), checked before anything is
 * written; the rest is the one write-ahead create with a secret (apply/create-secret.ts).
 */

/** What creator (apply/create.ts) lends a client's create. */
export interface ClientContext extends SecretContext {
  /** What this run created, by change id: a new client's hosting plan. */
  readonly newIds: NewIds;
}

export async function createClient(
  ctx: ClientContext,
  change: CreateClient,
  sink: SecretsSink,
  slot: Slot,
): Promise<Applied> {
  const planned = requestFor(change, ctx.newIds);
  // A plan this run was to create and did not: its id is unknown (the request leaves it null).
  if (change.hostingPlan?.id === null && planned.body?.id_hosting_plan === null)
    throw new Error(
      `the id of hosting plan ${quote(change.hostingPlan.name)} is unknown: it was not created in this run`,
    );
  return createWithSecret(ctx, { kind: 'client', name: change.name, planned }, sink, slot);
}
