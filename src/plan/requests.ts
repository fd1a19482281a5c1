import { assertNever } from '../util.js';
import type { Change } from './types.js';

/** The HTTP call a change becomes: "what changes" (the plan) kept apart from "how it is sent". */
export interface PanelRequest {
  readonly method: 'POST' | 'PUT' | 'DELETE';
  /** Relative to the API base: '/clients', '/domains', '/clients/7', '/domains/12'. */
  readonly path: string;
  /** The JSON body; null for a DELETE, which has none. */
  readonly body: Readonly<Record<string, string | number | boolean | null>> | null;
}

/**
 * The request for `change`: the one converter per change kind. A domain of a client created in
 * the same run takes its `id_user` from `newClientIds`; before apply (a preview) it is null:
 * known after apply. An update sends only the fields that differ.
 */
export function requestFor(change: Change, newClientIds?: ReadonlyMap<string, number>): PanelRequest {
  switch (change.action) {
    case 'create':
      switch (change.type) {
        case 'client':
          return {
            method: 'POST',
            path: '/clients',
            body: {
              username: change.name,
              ...(change.hostingPlan === undefined ? {} : { id_hosting_plan: change.hostingPlan.id }),
              ...(change.email === undefined ? {} : { email: change.email }),
              ...(change.suspended === undefined ? {} : { is_suspended: change.suspended }),
            },
          };
        case 'domain':
          return {
            method: 'POST',
            path: '/domains',
            body: {
              domain: change.name,
              id_user: change.clientId ?? newClientIds?.get(change.client) ?? null,
            },
          };
        default:
          return assertNever(change);
      }
    case 'update': {
      const body: Record<string, string | number | boolean> = {};
      for (const field of change.fields) {
        switch (field.field) {
          case 'plan':
            // diff sets hostingPlan with every plan field; the plan file's reader checks it.
            if (change.hostingPlan === undefined)
              throw new Error(`the update of ${change.id} changes the plan but names no hosting plan`);
            body.id_hosting_plan = change.hostingPlan.id;
            break;
          case 'email':
            body.email = field.after;
            break;
          case 'suspended':
            body.is_suspended = field.after;
            break;
          default:
            return assertNever(field);
        }
      }
      return { method: 'PUT', path: `/clients/${change.clientId}`, body };
    }
    case 'delete':
      switch (change.type) {
        case 'client':
          return { method: 'DELETE', path: `/clients/${change.clientId}`, body: null };
        case 'domain':
          return { method: 'DELETE', path: `/domains/${change.domainId}`, body: null };
        default:
          return assertNever(change);
      }
    default:
      return assertNever(change);
  }
}
