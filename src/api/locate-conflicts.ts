import type { LocatedProblem } from '../errors.js';
import { conflictPlan, isPlanConflict } from '../kinds/hosting-plan/changes.js';
import { isSectionConflict, type SectionKind, sectionOfConflict } from '../kinds/index.js';
import type { SectionPlace } from '../kinds/section.js';
import { isZoneConflict } from '../kinds/zone/conflicts.js';
import { originOfIndex, type PlacedRecords } from '../kinds/zone/places.js';
import type { Desired, DesiredClient, DesiredDomain } from '../manifest/types.js';
import type { Plan } from '../plan/types.js';
import { conflictLine } from '../render/common.js';

/**
 * Each conflict at the manifest entry that causes it: a domain owned by another client at its
 * name under its client; a domain to delete at its `state: absent` entry, or at `prune:` when
 * pruning deletes it. The message names no other customer: under GitHub Actions it becomes an
 * annotation on the pull request (the text plan on stdout names the owner for the log).
 *
 * The entries are found through maps made once a call, as the conflicts ask for them (Entries):
 * searching the manifest's lists for each conflict took time in their product (20,000 domains
 * owned by another client, a big zone's conflicts).
 */
export function locateConflicts(plan: Plan, desired: Desired): LocatedProblem[] {
  const located: LocatedProblem[] = [];
  if (plan.conflicts.length === 0) return located;
  const entries = new Entries(desired);
  for (const conflict of plan.conflicts) {
    const section = sectionOfConflict(conflict);
    if (section !== undefined) {
      const loc = entries.sectionItemLoc(section, conflict);
      if (loc !== undefined)
        located.push({ file: loc.file, line: loc.line, column: loc.column, message: conflictLine(conflict, false) });
      continue;
    }
    if (isSectionConflict(conflict)) continue;
    const domain = isPlanConflict(conflict) ? undefined : entries.domain(conflict.client, conflict.domain);
    const loc = isPlanConflict(conflict)
      ? (entries.hostingPlanLoc(conflictPlan(conflict)) ?? desired.prune.loc)
      : isZoneConflict(conflict) // a zone's conflict: at its record's line
        ? domain?.loc && { ...domain.loc, ...recordPlace(domain.dns, conflict.record.index) }
        : (domain?.loc ?? (conflict.subdomains === undefined ? undefined : desired.prune.loc));
    if (loc !== undefined)
      located.push({
        file: loc.file,
        line: loc.line,
        column: loc.column,
        message: conflictLine(conflict, false),
      });
  }
  return located;
}

/** The line and column of the record at `index` in a zone block's `records`, when kept. */
function recordPlace(zone: PlacedRecords | undefined, index: number): { line: number; column: number } | undefined {
  const origin = zone === undefined ? undefined : originOfIndex(zone, index);
  return origin === undefined ? undefined : { line: origin.line, column: origin.column };
}

/** A section kind's item as the look-up keeps it. */
type Item = { readonly loc: SectionPlace };

/**
 * The manifest's entries by name, each map made on its first question: the first entry of a
 * name wins, as a search from the start of the list finds it.
 */
class Entries {
  readonly #desired: Desired;
  #clients: ReadonlyMap<string, DesiredClient> | undefined;
  #plans: ReadonlyMap<string, { readonly loc?: SectionPlace }> | undefined;
  /** A client's domains by name, by username. */
  readonly #domains = new Map<string, ReadonlyMap<string, DesiredDomain>>();
  /** A client's items of a section kind (its own, then its domains', in order) by name, by kind and username. */
  readonly #items = new Map<SectionKind, Map<string, ReadonlyMap<string, Item>>>();

  constructor(desired: Desired) {
    this.#desired = desired;
  }

  client(username: string): DesiredClient | undefined {
    this.#clients ??= firstOfEach(this.#desired.clients, (c) => c.username);
    return this.#clients.get(username);
  }

  domain(username: string, name: string): DesiredDomain | undefined {
    const client = this.client(username);
    if (client === undefined) return undefined;
    let byName = this.#domains.get(username);
    if (byName === undefined) this.#domains.set(username, (byName = firstOfEach(client.domains, (d) => d.name)));
    return byName.get(name);
  }

  hostingPlanLoc(name: string): SectionPlace | undefined {
    this.#plans ??= firstOfEach(this.#desired.hostingPlans ?? [], (p) => p.name);
    return this.#plans.get(name)?.loc;
  }

  /** Where the manifest lists the item a section kind's conflict is of: under its client, or one of its domains. */
  sectionItemLoc(kind: SectionKind, conflict: object): SectionPlace | undefined {
    const conflicts = kind.section.conflicts;
    if (conflicts === undefined || !conflicts.is(conflict)) return undefined;
    const { client, name } = conflicts.at(conflict);
    let byClient = this.#items.get(kind);
    if (byClient === undefined) this.#items.set(kind, (byClient = new Map<string, ReadonlyMap<string, Item>>()));
    let byName = byClient.get(client);
    if (byName === undefined) {
      const entry = this.client(client);
      const lists = [entry?.sections?.[kind.name], ...(entry?.domains ?? []).map((d) => d.sections?.[kind.name])];
      byName = firstOfEach(
        lists.flatMap((list) => list ?? []),
        (item) => conflicts.nameOf(item),
      );
      byClient.set(client, byName);
    }
    return byName.get(name)?.loc;
  }
}

/** `items` by `key`, the first of each key kept. */
function firstOfEach<T>(items: readonly T[], key: (item: T) => string): ReadonlyMap<string, T> {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    if (!byKey.has(k)) byKey.set(k, item);
  }
  return byKey;
}
