import type { WantedClient } from '../kinds/client/diff-rule.js';
import type { WantedDomain } from '../kinds/domain/diff-rule.js';
import type { DesiredZone } from '../kinds/zone.js';
import type { WantedHostingPlan } from '../kinds/hosting-plan/diff-rule.js';
import type { SectionLists } from '../kinds/index.js';

/** A place in a source file; line and column count from 1. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One problem found in a manifest, with where it is and what to do. */
export interface Diagnostic extends Location {
  readonly severity: 'error' | 'warning';
  /** One line: what is wrong and what to do about it. */
  readonly message: string;
}

/**
 * A domain the manifest wants. `name` is the comparison key: lowercase ASCII (IDNs in
 * punycode), no trailing dot. `input` is what the manifest said, for messages.
 */
export interface DesiredDomain extends WantedDomain {
  readonly input: string;
  /** `absent`: delete it when the panel has it (`{name: x, state: absent}`); default `present`. */
  readonly state: 'present' | 'absent';
  /**
   * The settings it manages (object form only), by their dotted names; each managed only when
   * given; undefined when it gives none. Never on a domain marked absent (the manifest refuses it).
   */
  readonly settings?: NonNullable<WantedDomain['settings']>;
  /**
   * Its DNS zone (`dns:`, object form only, never on a subdomain or a domain marked absent): the
   * records with their TTLs resolved (a record's own, else the zone's `ttl`, else DEFAULT_TTL),
   * whether unlisted records go, and the hosts prune keeps; undefined when not managed.
   */
  readonly dns?: DesiredZone;
  /**
   * The lists of the kinds with a section under a domain item (Kind.section), by kind name, as
   * their sections read them; a kind's key only when the item gives its list, undefined when it
   * gives none.
   */
  readonly sections?: SectionLists<'domain'>;
  readonly loc?: Location;
}

/**
 * A client the manifest wants. `username` already satisfies the rule (lowercase letter
 * first, then lowercase letters, digits, `-`, `_`); it is never rewritten. The managed fields
 * (ClientWants, one per row of the client's field table) are each managed only when given: the
 * manifest cannot say "none" (leave the field out: not managed). `plan` is a hosting plan's
 * name as written; absent means the panel's default resources.
 */
export interface DesiredClient extends WantedClient {
  /**
   * `absent`: delete the client when the panel has it (its domains go with it); such an entry
   * has no other keys, so its managed fields are undefined and `domains` is empty.
   */
  readonly state: 'present' | 'absent';
  readonly domains: readonly DesiredDomain[];
  /**
   * The lists of the kinds with a section under a client item (Kind.section), by kind name; a
   * kind's key only when the item gives its list, undefined when it gives none.
   */
  readonly sections?: SectionLists<'client'>;
  readonly loc?: Location;
  /** Where the `plan:` value stands, for an unknown plan's error. */
  readonly planLoc?: Location;
}

/**
 * What may be deleted for not being listed (`prune:` in the manifest). Without `prune`, all
 * false and `keep` empty: nothing is deleted for being unlisted. `keep` holds glob patterns
 * (`*` any run of characters, `?` one) matched against usernames and domain names (ASCII
 * form); a match is never pruned.
 */
export interface Prune {
  /** A listed client's domains that the manifest does not list are deleted. */
  readonly domains: boolean;
  /** Clients the manifest does not list are deleted. */
  readonly clients: boolean;
  readonly keep: readonly string[];
  /**
   * Hosting plans the manifest does not list are deleted (never one in use; `prune.hosting_plans`);
   * undefined when not given: false.
   */
  readonly hostingPlans?: boolean;
  /**
   * The typed keep entries of hosting plans (KEEP_PLAN_EXAMPLE in src/kinds/hosting-plan/manifest.ts):
   * glob patterns (`*` any run of characters, `?` one) matched against plan names as written,
   * case-sensitive (planNameMatcher there); a match is never pruned. Undefined when none: [].
   * The string patterns of `keep` match usernames and domain names only.
   */
  readonly keepHostingPlans?: readonly string[];
  /**
   * The prune keys of the kinds with a section (KindSection.prune: `prune.<key>`), by kind name,
   * as written; undefined when the manifest gives none of them. A thing of such a kind is pruned
   * only under a client the manifest lists (and the scope covers).
   */
  readonly sections?: { readonly [kind: string]: boolean };
  /** Where `prune:` stands, for messages. */
  readonly loc?: Location;
}

export const NO_PRUNE: Prune = { domains: false, clients: false, keep: [] };

/**
 * A hosting plan the manifest defines (`hosting_plans:`). `name` is as written (plan names are
 * compared exactly; they may hold spaces). `wants` holds each object's managed keys: each key
 * managed only when given; a key the panel's plans lack is kept here (validate warns; plan
 * refuses to manage it). A plan marked absent has empty `wants`.
 */
export interface DesiredHostingPlan extends WantedHostingPlan {
  /** Where its name stands. */
  readonly loc?: Location;
}

/**
 * A valid manifest: usernames unique, each domain listed once in the whole file, each plan name
 * listed once, no client on a plan the manifest marks absent.
 */
export interface Desired {
  readonly file: string;
  readonly clients: readonly DesiredClient[];
  readonly prune: Prune;
  /** The plans the manifest defines, in manifest order; undefined when it lists none. */
  readonly hostingPlans?: readonly DesiredHostingPlan[];
}
