import { assertNever } from '../util.js';
import type { Change } from './types.js';

/** The HTTP call a change becomes: "what changes" (the plan) kept apart from "how it is sent". */
export interface PanelRequest {
  readonly method: 'POST';
  readonly path: '/clients' | '/domains';
  readonly body: Readonly<Record<string, string | number | null>>;
}

/**
 * The request for `change`. A domain of a client created in the same run takes its `id_user`
 * from `newClientIds`; before apply (a preview) it is null: known after apply.
 */
export function requestFor(change: Change, newClientIds?: ReadonlyMap<string, number>): PanelRequest {
  switch (change.type) {
    case 'client':
      return {
        method: 'POST',
        path: '/clients',
        body: {
          username: change.name,
          ...(change.hostingPlan === undefined ? {} : { id_hosting_plan: change.hostingPlan.id }),
          ...(change.email === undefined ? {} : { email: change.email }),
        },
      };
    case 'domain':
      return {
        method: 'POST',
        path: '/domains',
        body: { domain: change.name, id_user: change.clientId ?? newClientIds?.get(change.client) ?? null },
      };
    default:
      return assertNever(change);
  }
}
