/**
 * The live panel indexed as the stages look it up: the planner (diff.ts), the saved plan's
 * facts (fingerprint.ts, for every kind's room) and export (export/model.ts, adopt.ts). One
 * index, each part built on first use: a plan without prunes, deletes or conflicts asks for no
 * domain lists, and a plan without changes asks the fingerprint for nothing (at 100,000
 * clients, building what is not asked for is a good part of plan's peak memory after the
 * read: docs/benchmarks.md).
 */
import { type HostingPlans, hostingPlans } from '../kinds/client/index.js';
import type { LiveZone } from '../kinds/zone.js';
import type { LiveHostingPlan } from '../kinds/common.js';
import type { Live, LiveClient, LiveDomain } from '../panel/types.js';
import { compare } from '../util.js';
import {
  type FactIndex,
  type IndexedKindName,
  type LiveIndexPart,
  liveClients,
  liveDomains,
  liveDomainsComplete,
  liveHostingPlans,
  liveZones,
} from '../kinds/index.js';
import { readOf } from '../kinds/reads.js';

/** Every kind's FactIndex (src/kinds/index.ts), and what the planner and export look up beside. */
export class LiveIndex implements FactIndex {
  readonly live: Live;
  /** Whether the domains are the panel's whole list (not only the manifest's, looked up by name). */
  readonly complete: boolean;
  /** Each kind's index of its part (KindRead.index), by kind, as built. */
  private readonly parts = new Map<IndexedKindName, unknown>();
  private byId: Map<number, string> | undefined;
  private hostingPlans: HostingPlans | undefined;
  private planNames: Map<string, LiveHostingPlan> | undefined;
  private byOwner: Map<number, LiveDomain[]> | undefined;
  private readonly sortedByOwner = new Map<number, readonly LiveDomain[]>();
  private below: Map<string, string[]> | undefined;

  constructor(live: Live) {
    this.live = live;
    this.complete = liveDomainsComplete(live);
  }

  /** The panel's hosting plans by name. */
  get plansByName(): ReadonlyMap<string, LiveHostingPlan> {
    this.planNames ??= new Map(liveHostingPlans(this.live).map((p) => [p.name, p]));
    return this.planNames;
  }

  /** The clients, as a plan's facts tell who is on it. */
  get clientList(): readonly LiveClient[] {
    return liveClients(this.live);
  }

  /** The zones read, by domain name (none when the plan manages no DNS). */
  get zones(): ReadonlyMap<string, LiveZone> {
    return liveZones(this.live);
  }

  /**
   * The index of kind `name`'s part, as its list read builds it (KindRead.index: its records by
   * what its facts look them up by), built on first use. A kind's facts reach their own through
   * it (their FactIndex: `indexOf(kind: '<its name>'): ...`), so a new kind adds nothing here.
   */
  indexOf<N extends IndexedKindName>(name: N): LiveIndexPart<N> {
    if (!this.parts.has(name)) {
      const index = readOf(name).index?.(this.live[name]);
      if (index === undefined) throw new Error(`the kind "${name}" has no index of its records (KindRead.index)`);
      this.parts.set(name, index);
    }
    return this.parts.get(name) as LiveIndexPart<N>;
  }

  /** The clients by username. */
  get clients(): ReadonlyMap<string, LiveClient> {
    return this.indexOf('client');
  }

  /** The domains by name (ASCII). */
  get domains(): ReadonlyMap<string, LiveDomain> {
    return this.indexOf('domain');
  }

  /** Client id → username. */
  get usernames(): ReadonlyMap<number, string> {
    if (this.byId === undefined) {
      this.byId = new Map();
      for (const c of liveClients(this.live)) this.byId.set(c.id, c.username);
    }
    return this.byId;
  }

  /** The hosting plans, as a managed field's value is compared and printed by. */
  get plans(): HostingPlans {
    this.hostingPlans ??= hostingPlans(liveHostingPlans(this.live));
    return this.hostingPlans;
  }

  /** A domain owner's username, or `#<id>` when the owner is not in the client list (an administrator). */
  ownerName(id: number): string {
    return this.usernames.get(id) ?? `#${id}`;
  }

  /** A client's domains, system domains included, in the panel's order. */
  domainsOf(clientId: number): readonly LiveDomain[] {
    return this.owners().get(clientId) ?? [];
  }

  /** Each owner's domains, in the panel's order. */
  private owners(): ReadonlyMap<number, readonly LiveDomain[]> {
    if (this.byOwner === undefined) {
      this.byOwner = new Map();
      for (const domain of liveDomains(this.live)) {
        const owned = this.byOwner.get(domain.idUser);
        if (owned === undefined) this.byOwner.set(domain.idUser, [domain]);
        else owned.push(domain);
      }
    }
    return this.byOwner;
  }

  /** A client's domains, system domains included, sorted by name. */
  sortedDomainsOf(clientId: number): readonly LiveDomain[] {
    let sorted = this.sortedByOwner.get(clientId);
    if (sorted === undefined) {
      sorted = [...this.domainsOf(clientId)].sort((a, b) => compare(a.name, b.name));
      this.sortedByOwner.set(clientId, sorted);
    }
    return sorted;
  }

  /** The names of a client's domains, system domains not counted, sorted. */
  domainNamesOf(clientId: number): readonly string[] {
    return this.sortedDomainsOf(clientId)
      .filter((d) => !d.isSystem)
      .map((d) => d.name);
  }

  /** The domains of `owner` under `name` (system domains not counted), sorted. */
  subdomains(name: string, owner: number): readonly string[] {
    if (this.below === undefined) {
      // Each domain files itself under its suffixes of the same owner, so the whole index costs
      // the domains times their labels.
      const below = new Map<string, string[]>();
      for (const idUser of this.owners().keys()) {
        for (const d of this.sortedDomainsOf(idUser)) {
          if (d.isSystem) continue;
          for (let dot = d.name.indexOf('.'); dot !== -1; dot = d.name.indexOf('.', dot + 1)) {
            const suffix = d.name.slice(dot + 1);
            if (this.domains.get(suffix)?.idUser !== d.idUser) continue;
            const key = `${d.idUser}:${suffix}`;
            const list = below.get(key);
            if (list === undefined) below.set(key, [d.name]);
            else list.push(d.name);
          }
        }
      }
      this.below = below;
    }
    return this.below.get(`${owner}:${name}`) ?? [];
  }
}
