/**
 * The planner's side of the kinds' sections (src/kinds/section.ts, Kind.section): under each
 * client the walk plans (diff.ts), each section kind's diff over the client's list (a client
 * section) or each domain's list (a domain section, once the domain's rule decided it stays or
 * is created; on a domain the panel has under another client, its things are conflicts naming
 * that client), then what it does with the client's things the manifest does not list (prune,
 * a note). Names no kind: it loops over the kinds that have a section, or a table a test hands in.
 */
import type { SectionKind } from '../kinds/index.js';
import type { SectionClientView, SectionDiff, SectionParentView } from '../kinds/section.js';
import type { DesiredClient, DesiredDomain, Prune } from '../manifest/types.js';
import type { Live } from '../panel/types.js';
import type { LiveIndex } from './live-index.js';

/** A domain of the client and what its rule decided, as the sections under a domain are diffed by it. */
export interface DomainDecided {
  readonly domain: DesiredDomain;
  /** `other`: the panel has it under another client (named); `stays`: created or kept. */
  readonly decided: { readonly stays: true } | { readonly stays: false; readonly owner: string };
}

/** What the sections' diffs found over the whole walk, in walk order. */
export class SectionWalk {
  readonly changes: unknown[] = [];
  readonly conflicts: unknown[] = [];
  readonly unknowns: unknown[] = [];
  readonly notes: string[] = [];
  /** Each section kind's index of its part, built on first use. */
  private readonly indexes = new Map<string, unknown>();

  constructor(
    private readonly kinds: readonly SectionKind[],
    private readonly live: Live,
    private readonly index: LiveIndex,
    private readonly prune: Prune,
  ) {}

  /** Whether any kind has a section: the walk collects what they need only then. */
  get active(): boolean {
    return this.kinds.length > 0;
  }

  /**
   * The sections under `client` (which stays: created or kept; `clientId` null when created) and
   * under its domains that stay or that another client has (`domains`, in manifest order), then
   * the client's unlisted things. `domainCreated` answers for every domain the run creates so far
   * (the client's own are all known by now); `domainDeleted`, whether the run deletes one of its domains.
   */
  walkClient(
    client: DesiredClient,
    clientId: number | null,
    domains: readonly DomainDecided[],
    domainCreated: (name: string) => boolean,
    domainDeleted: (name: string) => boolean,
  ): void {
    if (this.kinds.length === 0) return;
    const { ownerName } = this;
    const view = (domain: string | undefined, otherOwner: string | undefined): SectionParentView => ({
      client: client.username,
      clientId,
      domain,
      otherOwner,
      domainCreated,
      ownerName,
    });
    for (const kind of this.kinds) {
      const { name, section } = kind;
      // The lists of the kind under the client (one for a client section; a domain section's, one
      // a domain that has it), joined only when there are several.
      let wanted: readonly unknown[] | undefined;
      let joined = false;
      if (section.parent === 'client') {
        const list = client.sections?.[name];
        if (list !== undefined) {
          wanted = list;
          if (list.length > 0) this.add(section.diff(list, this.indexOf(kind), view(undefined, undefined)));
        }
      } else {
        for (const { domain, decided } of domains) {
          const list = domain.sections?.[name];
          if (list === undefined) continue;
          if (wanted === undefined) wanted = list;
          else if (joined) (wanted as unknown[]).push(...list);
          else {
            wanted = [...wanted, ...list];
            joined = true;
          }
          if (list.length === 0) continue;
          this.add(
            section.diff(list, this.indexOf(kind), view(domain.name, decided.stays ? undefined : decided.owner)),
          );
        }
      }
      const pruned = this.prune.sections?.[name] === true;
      if (wanted === undefined && !pruned) continue;
      this.add(
        section.unlisted(
          wanted as never[] | undefined,
          this.indexOf(kind),
          new ClientView(this, client.username, clientId, domainDeleted, pruned, this.prune.keep),
        ),
      );
    }
  }

  /**
   * Each section kind's changes put in the order they run among themselves (KindSection.arrange);
   * the sentences of those that cannot be ordered.
   */
  arranged(): { readonly changes: readonly unknown[]; readonly problems: readonly string[] } {
    const problems: string[] = [];
    let changes: readonly unknown[] = this.changes;
    for (const kind of this.kinds) {
      if (kind.section.arrange === undefined || !this.indexes.has(kind.name)) continue;
      const own = this.ownChanges(kind.name);
      if (own.length === 0) continue;
      const answer = kind.section.arrange(own, this.indexOf(kind));
      problems.push(...answer.problems);
      const byId = new Map(answer.changes.map((c) => [(c as { id: string }).id, c] as const));
      changes = changes.map((c) => byId.get((c as { id: string }).id) ?? c);
    }
    return { changes, problems };
  }

  /** The username of a client by id (SectionParentView.ownerName): one function for the whole walk. */
  private readonly ownerName = (id: number): string => this.index.ownerName(id);

  /**
   * A client's domains whose things a section may prune: as prune of domains, never one the panel
   * says is a system domain nor one whose record does not say (docs/manifest.md, "Prune").
   */
  liveDomainsOf(clientId: number): readonly string[] {
    return this.index
      .sortedDomainsOf(clientId)
      .filter((d) => d.isSystem === false)
      .map((d) => d.name);
  }

  /** The changes of kind `name` found so far. */
  private ownChanges(name: string): unknown[] {
    return this.changes.filter((c) => (c as { type: string }).type === name);
  }

  private add(found: SectionDiff<unknown, unknown, unknown>): void {
    // Most diffs find nothing (a converged plan): nothing spread then.
    if (found.changes.length > 0) this.changes.push(...found.changes);
    if (found.conflicts.length > 0) this.conflicts.push(...found.conflicts);
    if (found.unknowns.length > 0) this.unknowns.push(...found.unknowns);
    if (found.notes.length > 0) this.notes.push(...found.notes);
  }

  /**
   * Kind `kind`'s index of its part of the live panel (a kind of the table always has one; a
   * test's kind outside it, an empty list).
   */
  private indexOf(kind: SectionKind): unknown {
    if (!this.indexes.has(kind.name)) {
      const part = (this.live as unknown as { readonly [name: string]: unknown })[kind.name] ?? [];
      this.indexes.set(kind.name, kind.section.index(part as never));
    }
    return this.indexes.get(kind.name);
  }
}

/**
 * What a section sees of a client for its unlisted things (SectionClientView): its live domains
 * found only when the section asks (most ask only to prune): a sort and a filter per client saved,
 * and no getter made per client.
 */
class ClientView implements SectionClientView {
  constructor(
    private readonly walk: SectionWalk,
    readonly client: string,
    readonly clientId: number | null,
    readonly domainDeleted: (domain: string) => boolean,
    readonly prune: boolean,
    readonly keep: readonly string[],
  ) {}

  get liveDomains(): readonly string[] {
    return this.clientId === null ? [] : this.walk.liveDomainsOf(this.clientId);
  }
}
