import type { Desired, DesiredClient } from '../../src/manifest/types.js';
import type { Live, LiveClient, LiveDomain, LiveHostingPlan } from '../../src/panel/types.js';

/** `desired({ alice: { plan: 'Basic', domains: ['alice.example'] } })`, in key order. */
export function desired(clients: Record<string, { plan?: string; email?: string; domains?: string[] }>): Desired {
  return {
    file: 'manifest.yaml',
    clients: Object.entries(clients).map(([username, c]): DesiredClient => ({
      username,
      ...(c.plan === undefined ? {} : { plan: c.plan }),
      ...(c.email === undefined ? {} : { email: c.email }),
      domains: (c.domains ?? []).map((name) => ({ name, input: name })),
    })),
  };
}

export const PLANS: LiveHostingPlan[] = [
  { id: 1, name: 'Basic' },
  { id: 2, name: 'Standard' },
  { id: 3, name: 'Premium Plus' },
];

/** A live panel; clients as `[id, username, planId?]`, domains as `[id, name, ownerId, system?]`. */
export function live(
  clients: [number, string, (number | undefined)?][] = [],
  domains: [number, string, number, boolean?][] = [],
  options: { plans?: LiveHostingPlan[]; domainsComplete?: boolean } = {},
): Live {
  return {
    hostingPlans: options.plans ?? PLANS,
    clients: clients.map(([id, username, idHostingPlan]): LiveClient => ({ id, username, idHostingPlan })),
    domains: domains.map(([id, name, idUser, isSystem]): LiveDomain => ({ id, name, idUser, isSystem: isSystem ?? false })),
    domainsComplete: options.domainsComplete ?? true,
  };
}
