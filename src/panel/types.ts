import type { ClientField, LiveClient } from '../kinds/client/index.js';
import type { LiveHostingPlan } from '../kinds/common.js';

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
}

export type { LiveHostingPlan } from '../kinds/common.js';
export type { LiveClient } from '../kinds/client/index.js';

/** The client fields a manifest may manage, by their manifest names (the client's field table). */
export type ManagedField = ClientField;

export interface LiveDomain {
  readonly id: number;
  /** Lowercase ASCII (punycode for IDNs). */
  readonly name: string;
  readonly idUser: number;
  /**
   * Created by the panel itself: never deleted, never counted as unmanaged. undefined when the
   * record does not say (no `is_system_domain`, or null): then prune never deletes it (it may be
   * the panel's own), and it is counted like any other domain (unmanaged, going with its
   * client); `state: absent` in the manifest, which names it, still deletes it.
   */
  readonly isSystem: boolean | undefined;
}
