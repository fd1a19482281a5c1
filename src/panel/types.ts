import type { ClientField, LiveClient } from '../kinds/client/index.js';
import type { LiveHostingPlan } from '../kinds/common.js';
import type { LiveDomain } from '../kinds/domain.js';
import type { LiveZone } from '../kinds/zone/record.js';

/**
 * The live panel as the engine sees it after one read: names normalised (usernames and
 * domains lowercase, domains in ASCII/punycode), ids as integers.
 */
export interface Live {
  readonly hostingPlans: readonly LiveHostingPlan[];
  readonly clients: readonly LiveClient[];
  readonly domains: readonly LiveDomain[];
  /**
   * true when `domains` is the panel's whole list (GET /domains); false when the panel has
   * no list endpoint and only the manifest's domains were looked up one by one, so
   * unmanaged domains cannot be counted.
   */
  readonly domainsComplete: boolean;
  /**
   * The DNS zones read (GET /dns/{id}), by domain name: only those of existing domains whose
   * manifest entry manages DNS; absent or empty when none was asked for.
   */
  readonly zones?: ReadonlyMap<string, LiveZone>;
}

export type { LiveHostingPlan } from '../kinds/common.js';
export type { LiveClient } from '../kinds/client/index.js';

/** The client fields a manifest may manage, by their manifest names (the client's field table). */
export type ManagedField = ClientField;

export type { LiveDomain } from '../kinds/domain.js';
