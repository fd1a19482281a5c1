import { CLIENT_FIELDS, type ClientLiveFields, type ClientWants } from '../../src/kinds/client/index.js';
import { type DomainSettings, readSettings } from '../../src/kinds/domain.js';
import type { DesiredZone, LiveZone } from '../../src/kinds/zone.js';
import { NO_PRUNE } from '../../src/manifest/types.js';
import type { Desired, DesiredClient, DesiredDomain, Prune } from '../../src/manifest/types.js';
import type { Live, LiveClient, LiveDomain, LiveHostingPlan } from '../../src/panel/types.js';
import type { CreateClient } from '../../src/plan/types.js';

/** A client as `desired` takes it: a domain is a name (present) or `{ name, state, settings }`. */
export interface ClientSpec extends ClientWants {
  state?: 'present' | 'absent';
  domains?: (string | { name: string; state?: 'present' | 'absent'; settings?: DomainSettings; dns?: DesiredZone })[];
}

/**
 * `desired({ alice: { plan: 'Basic', domains: ['alice.example'] } })`, in key order. Clients and
 * domains are `present` unless given `state`; `prune` is NO_PRUNE unless given (what is left
 * out of it is false, `keep` []).
 */
export function desired(
  clients: Record<string, ClientSpec>,
  options: { prune?: Partial<Omit<Prune, 'loc'>> } = {},
): Desired {
  return {
    file: 'manifest.yaml',
    clients: Object.entries(clients).map(([username, c]): DesiredClient => ({
      username,
      state: c.state ?? 'present',
      ...Object.fromEntries(CLIENT_FIELDS.flatMap((row) => (c[row.key] === undefined ? [] : [[row.key, c[row.key]]]))),
      domains: (c.domains ?? []).map((d): DesiredDomain =>
        typeof d === 'string'
          ? { name: d, input: d, state: 'present' }
          : {
              name: d.name,
              input: d.name,
              state: d.state ?? 'present',
              ...(d.settings === undefined ? {} : { settings: d.settings }),
              ...(d.dns === undefined ? {} : { dns: d.dns }),
            },
      ),
    })),
    prune: options.prune === undefined ? NO_PRUNE : { ...NO_PRUNE, ...options.prune },
  };
}

export const PLANS: LiveHostingPlan[] = [
  { id: 1, name: 'Basic' },
  { id: 2, name: 'Standard' },
  { id: 3, name: 'Premium Plus' },
];

/**
 * A live panel; clients as `[id, username, planId?, {email, suspended, ...}?]` (a field left
 * out is one the panel's record does not carry), domains as `[id, name, ownerId, system?,
 * record?]`: `record` the settings part of the panel's record (`php_version`, `security`,
 * `target`, in any shape), read as the panel client reads it (readSettings).
 */
export function live(
  clients: [number, string, (number | null | undefined)?, Omit<ClientLiveFields, 'idHostingPlan'>?][] = [],
  domains: [number, string, number, boolean?, Record<string, unknown>?][] = [],
  options: {
    plans?: LiveHostingPlan[];
    domainsComplete?: boolean;
    /** The zones read, by domain name. */
    zones?: ReadonlyMap<string, LiveZone>;
    /** Domains (by name) the panel says are subdomains. */
    subdomains?: readonly string[];
  } = {},
): Live {
  return {
    hosting_plan: options.plans ?? PLANS,
    client: clients.map(([id, username, idHostingPlan, fields]): LiveClient => ({
      id,
      username,
      idHostingPlan,
      email: fields?.email,
      suspended: fields?.suspended,
      ...fields,
    })),
    domain: {
      records: domains.map(([id, name, idUser, isSystem, record]): LiveDomain => {
        const settings = record === undefined ? undefined : readSettings(record);
        return {
          id,
          name,
          idUser,
          isSystem: isSystem ?? false,
          ...(settings === undefined ? {} : { settings }),
          ...(options.subdomains?.includes(name) === true ? { isSubdomain: true } : {}),
        };
      }),
      complete: options.domainsComplete ?? true,
    },
    dns_zone: options.zones ?? new Map(),
    // The mailboxes not read, as a run without them reads none.
    mailbox: { read: false, records: [] },
    database: { read: false, records: [] },
    ftp_user: { read: false, records: [] },
  };
}

/** A create of client `name` (and its `email`), as the planner makes it (for executor and adapter tests). */
export const newClient = (name: string, fields: { email?: string } = {}): CreateClient => ({
  id: `client:${name}`,
  action: 'create',
  type: 'client',
  name,
  reason: 'test',
  dependsOn: [],
  ...(fields.email === undefined ? {} : { email: fields.email }),
});
