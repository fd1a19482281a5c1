/**
 * The simulator's kinds: one module each (kind.ts says what a module holds), keyed by the kind's
 * name as src/kinds names it, so a kind without a module fails to compile; a kind the simulator
 * serves before src/kinds has its room is keyed by its name in kind.ts SIM_ONLY_KINDS. Their
 * order is the order the seed is built in: hosting plans before the clients that name them.
 */
import type { Family, ParentHooks, SimKind, SimKindName } from '../kind.js';
import { CLIENT_SIM } from './client.js';
import { DATABASE_SIM } from './database.js';
import { DOMAIN_SIM } from './domain.js';
import { FTP_USER_SIM } from './ftp-user.js';
import { HOSTING_PLAN_SIM } from './hosting-plan.js';
import { MAILBOX_SIM } from './mailbox.js';
import { ZONE_SIM } from './zone.js';

export const SIM_KINDS = {
  hosting_plan: HOSTING_PLAN_SIM,
  client: CLIENT_SIM,
  domain: DOMAIN_SIM,
  dns_zone: ZONE_SIM,
  mailbox: MAILBOX_SIM,
  database: DATABASE_SIM,
  ftp_user: FTP_USER_SIM,
} as const satisfies { readonly [N in SimKindName]: SimKind<object, N> };

/** The modules, in SIM_KINDS' order. */
export const SIM_KIND_LIST: readonly SimKind[] = Object.values(SIM_KINDS);

/** The hooks of the kinds that follow `parent`, in SIM_KINDS' order. */
const followers = (parent: SimKindName): ParentHooks[] =>
  SIM_KIND_LIST.flatMap((kind) => (kind.follows?.parent === parent ? [kind.follows] : []));

/** The kinds' ParentHooks, for the routes and the seed to hand to the kinds above them. */
export const SIM_FAMILY: Family = {
  created: (parent, store, record, when) => {
    for (const hooks of followers(parent)) hooks.created?.(store, record, when);
  },
  removing: (parent, store, id) => {
    for (const hooks of followers(parent)) hooks.removing?.(store, id, SIM_FAMILY);
  },
};

/** Each kind's routes, by the first segment of their path after /api/v2. */
export const SIM_ROUTES: ReadonlyMap<string, SimKind['routes'][string]> = new Map(
  SIM_KIND_LIST.flatMap((kind) => Object.entries(kind.routes)),
);
