/**
 * A plan is plain data: what would change and why, plus what apply will not change.
 * It never holds the API key or a password. Changes are ordered so that every change comes
 * after the changes it depends on; apply may still run independent ones concurrently.
 */
export interface Plan {
  readonly changes: readonly Change[];
  /** Manifest domains owned on the panel by another client: plan and apply fail. */
  readonly conflicts: readonly Conflict[];
  /** Clients on another hosting plan than the manifest says: a warning only. */
  readonly drift: readonly Drift[];
  readonly unmanaged: Unmanaged;
}

/** `client:<username>` or `domain:<ascii name>`: unique within a plan. */
export type ChangeId = `client:${string}` | `domain:${string}`;

/** One create; `action` is a literal so later kinds (update, delete) extend the union. */
export type Change = CreateClient | CreateDomain;

interface ChangeBase {
  readonly id: ChangeId;
  readonly action: 'create';
  readonly name: string;
  /** Why this change is in the plan, for people. */
  readonly reason: string;
  /** Changes that must succeed first; empty when none. */
  readonly dependsOn: readonly ChangeId[];
}

export interface CreateClient extends ChangeBase {
  readonly type: 'client';
  /** The hosting plan, resolved by name; absent: the panel's default resources. */
  readonly hostingPlan?: { readonly name: string; readonly id: number };
  readonly email?: string;
}

export interface CreateDomain extends ChangeBase {
  readonly type: 'domain';
  /** The owning client's username. */
  readonly client: string;
  /** The owner's id when it exists already; null when it is created in the same run. */
  readonly clientId: number | null;
  /** A parent domain created in the same run, which this subdomain waits for. */
  readonly parent?: string;
}

export interface Conflict {
  readonly domain: string;
  /** The manifest's client for the domain. */
  readonly client: string;
  /** The panel's owner: a username, or `#<id>` when the owner is not in the client list. */
  readonly owner: string;
}

export interface Drift {
  readonly client: string;
  /** The hosting plan the manifest names. */
  readonly expected: string;
  /** The plan the panel has, or 'unknown' when its record does not say. */
  readonly actual: string;
}

/**
 * What the panel has and the manifest does not list. Names are kept for `--show-unmanaged`
 * (they may be other customers', so renderers show counts unless asked); the panel's system
 * domains are never here. `domains` is undefined when the panel could not list domains.
 */
export interface Unmanaged {
  readonly clients: readonly string[];
  readonly domains: readonly string[] | undefined;
}
