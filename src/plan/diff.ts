import type { Desired, DesiredClient } from '../manifest/types.js';
import { type ClientScope, clientScope, globMatcher } from '../names.js';
import type { Live } from '../panel/types.js';
import { orderChanges } from './order.js';
import type { Change, Conflict, DeleteDomain, Plan, Unknown, UpdateDomain } from './types.js';
import { subdomainsFirst, withoutBlocked } from './domain-deletes.js';
import { assertNever, compare } from '../util.js';
import { LiveIndex } from './live-index.js';
import { DomainCreates } from './parents.js';
import type { ClientChange, HostingPlans } from '../kinds/client/index.js';
import { type ClientDiffView, diffClient, removeClient } from '../kinds/client/diff-rule.js';
import { diffDomain, unlistedDomains } from '../kinds/domain/diff-rule.js';
import type { UpdateZone } from '../kinds/zone.js';
import { diffNewZone, diffZone } from '../kinds/zone/diff-rule.js';
import { refuseNewSubdomainZones } from '../kinds/zone/new-subdomain.js';
import { afterPlanChanges, NO_PLAN_CHANGES, planHostingPlans, plansCreated } from '../kinds/hosting-plan/diff-rule.js';
import { refuseStalePlanCopies, refuseUnknownPlans } from '../kinds/hosting-plan/refusals.js';
import {
  liveClients,
  liveDomains,
  liveDomainsComplete,
  liveHostingPlans,
  SECTION_KINDS,
  type SectionKind,
} from '../kinds/index.js';
import { type DomainDecided, SectionWalk } from './sections.js';
import { ProvisionError } from '../errors.js';

/**
 * Diffs the manifest against the live panel. Pure and deterministic: no I/O, no clock; the
 * same inputs give the same plan, in the same order. The planner walks the kinds' tree, parent
 * to child (a client, its domains, their zones; hosting plans stand on their own), and asks each
 * kind's diff rule in its room (`diff-rule.ts`) what to do with the part of the manifest and the
 * panel it is given: the rules decide, the planner collects, orders and counts. Throws
 * ProvisionError 'unknown_hosting_plan' when the manifest names plans neither the panel has nor the manifest
 * defines (all of them at once, each with its location and the closest name).
 *
 * - A client the panel lacks is created; one it has gets an update with the managed fields
 *   (the client's field table, src/kinds/client: each only when the manifest gives it) that
 *   differ; a field the panel's record does not carry is an Unknown, never a change. `state: absent` deletes a
 *   client the panel has (its domains go with it).
 * - A domain the panel lacks is created, with the settings the manifest gives in the same
 *   request; one owned by another client is a conflict (listed, or marked absent alike); one
 *   whose managed settings differ is updated (a setting its record does not show is an Unknown);
 *   `state: absent` deletes it from its client.
 * - A domain with `dns` gets its zone's update when its records differ (kinds/zone: after the
 *   domain's own create or update; a new domain's zone is written after its POST); `dns` on a
 *   subdomain of the panel, or on a zone the panel serves no DNS for, is a conflict; on a new
 *   domain that will be a subdomain (of a panel domain, or of another new one), the plan is
 *   refused at its line (kinds/zone/new-subdomain.ts).
 * - Hosting plans the manifest defines (kinds/hosting-plan/diff-rule.ts): created before the clients on them,
 *   updated, or deleted when no client stays on them; clients created on or moved to a plan the
 *   run creates or updates wait for that change.
 * - `prune.domains`: a listed client's domains the manifest does not list are deleted;
 *   `prune.clients`: clients the manifest does not list are deleted; never a `prune.keep`
 *   match, never a system domain (the panel's own; nor are administrators ever in the lists),
 *   nor a domain whose record does not say whether it is one.
 *
 * Order (order.ts): creates and updates in manifest order, grouped by client, then deletes;
 * every change after those it depends on (a subdomain's create after its parent's, a parent's
 * delete after its subdomains').
 *
 * `options.scope` (`--clients`): username glob patterns. Only the manifest's clients that match
 * are planned, with their domains and zones; prune deletes only matching clients, and domains of
 * matching clients, and never a name the manifest lists anywhere (a matching client's delete
 * that would take a domain listed under another client is a conflict, as without the scope);
 * hosting plans are left alone (a matching client on a plan the panel lacks is refused, as for
 * any unknown plan, and one put on a plan the manifest changes: kinds/hosting-plan/refusals.ts); the unmanaged counts
 * are of matching clients and their domains.
 */
export function diff(desired: Desired, live: Live, options: DiffOptions = {}): Plan {
  return diffWithin(desired, live, clientScope(options.scope));
}

/** diff, with `--clients` compiled once (names.ts clientScope) by a caller that asks it elsewhere too. */
export function diffWithin(
  desired: Desired,
  live: Live,
  scope: ClientScope,
  sections: readonly SectionKind[] = SECTION_KINDS,
): Plan {
  const index = new LiveIndex(live);
  const scoped = scope.patterns !== undefined;
  // The plans created in this run, before their clients (none in a scoped run: it leaves plans alone).
  const defined = scoped ? new Set<string>() : plansCreated(desired, (name) => index.plans.byName(name));
  const plans: HostingPlans = { ...index.plans, creates: (name) => defined.has(name) };
  const clients = desired.clients.filter((c) => scope.covers(c.username));
  refuseUnknownPlans(clients, plans, liveHostingPlans(live), scoped ? desired.hostingPlans : undefined);

  const tree = walk(
    desired,
    clients,
    index,
    { plans, complete: index.complete, domainNamesOf: (id) => index.domainNamesOf(id) },
    scope,
    new SectionWalk(sections, live, index, desired.prune),
  );
  const { clientChanges, domainCreates, conflicts } = tree;
  // A scoped delete of a client never takes a domain the manifest lists under a client out of
  // the scope: the conflict a plan without the scope finds at that client's entry.
  if (scoped) conflicts.push(...takenWith(desired, scope.covers, index, tree.deletedClients));

  // Only a new domain with `dns` can be refused (its set of names is built only then: memory).
  if (tree.createsZones)
    refuseNewSubdomainZones([...domainCreates.entries(index)], new Set(liveDomains(live).map((d) => d.name)));
  // What will stand after the plan beside the live domains: new domains of existing clients.
  const deletes = withoutBlocked(tree.domainDeletes, liveDomains(live), domainCreates.entries(index), conflicts);
  const domainCreated = domainCreates.changes(index);
  // What the creates were made from is done with: it goes before the plan is ordered (memory).
  domainCreates.clear();
  // The sections' changes (Kind.section), each kind's in the order it runs them among themselves.
  const sectioned = tree.sections.arranged();
  if (sectioned.problems.length > 0)
    throw new ProvisionError('plan_conflict', `${sectioned.problems.join('; ')}: nothing was planned`);
  conflicts.push(...(tree.sections.conflicts as Conflict[]));

  // Hosting plans stand on their own: their rule sees the clients' changes (a delete or a move frees a plan).
  const planned = planHostingPlans(desired, live, clientChanges);
  if (scoped) refuseStalePlanCopies(clientChanges, planned.first, desired.clients);
  const hostingPlans = scoped ? NO_PLAN_CHANGES : planned;
  conflicts.push(...hostingPlans.conflicts);
  // Counted before the changes are ordered, so the names listed go first (memory).
  const unlisted = unmanaged(
    live,
    tree.listed,
    tree.deletedClients,
    new Set(deletes.map((d) => d.name)),
    scoped ? (id) => scope.covers(index.ownerName(id)) : undefined,
  );
  tree.listed.clients.clear();
  tree.listed.domains.clear();
  return {
    // The lists in the order of changes given: read as one, never copied into one (memory).
    changes: orderChanges(desired, [
      hostingPlans.first,
      afterPlanChanges(clientChanges, hostingPlans.first),
      domainCreated,
      tree.domainUpdates,
      tree.zoneChanges,
      sectioned.changes as Change[],
      subdomainsFirst(deletes),
      hostingPlans.last,
    ]),
    conflicts,
    unknowns: [...tree.unknowns, ...(tree.sections.unknowns as Unknown[])],
    unmanaged: {
      ...unlisted,
      ...(hostingPlans.unmanaged === undefined ? {} : { hostingPlans: hostingPlans.unmanaged }),
    },
    ...(scope.patterns === undefined ? {} : { scope: { clients: [...scope.patterns] } }),
    ...(tree.sections.notes.length === 0 ? {} : { notes: tree.sections.notes }),
  };
}

/** What diff takes beside the manifest and the panel. */
export interface DiffOptions {
  /** `--clients`: plan only the clients whose username matches one of these glob patterns (see diff). */
  readonly scope?: readonly string[] | undefined;
}

/** What the walk over the tree collects, in the order the rules answer. */
interface Walked {
  readonly clientChanges: ClientChange[];
  readonly domainCreates: DomainCreates;
  /** Whether a domain created has `dns` (a zone written after its POST). */
  createsZones: boolean;
  readonly domainUpdates: UpdateDomain[];
  readonly zoneChanges: UpdateZone[];
  readonly domainDeletes: DeleteDomain[];
  readonly conflicts: Conflict[];
  readonly unknowns: Unknown[];
  /** The ids of the clients deleted. */
  readonly deletedClients: Set<number>;
  /** The clients and domains the manifest lists (in the scope or not) that the panel has. */
  readonly listed: Listed;
  /** What the kinds' sections found under the clients walked. */
  readonly sections: SectionWalk;
}

/**
 * The walk over the kinds' tree, parent to child: each client of the scope (`clients`) asks the
 * client's rule; one that stays goes on to its domains (the domain's rule), each domain that
 * stays to its zone (the zone's rule); then `prune.domains` under it; then the kinds' sections
 * under the client and under its domains that stay (./sections.ts), and their unlisted things.
 * Then `prune.clients` over the panel's clients.
 */
function walk(
  desired: Desired,
  clients: readonly DesiredClient[],
  index: LiveIndex,
  view: ClientDiffView,
  scope: ClientScope,
  sections: SectionWalk,
): Walked {
  const keep = globMatcher(desired.prune.keep);
  const listed = listedOnPanel(desired, index);
  const found: Walked = {
    clientChanges: [],
    domainCreates: new DomainCreates(),
    createsZones: false,
    domainUpdates: [],
    zoneChanges: [],
    domainDeletes: [],
    conflicts: [],
    unknowns: [],
    deletedClients: new Set(),
    listed,
    sections,
  };
  // The domains the run creates, as the sections' creates wait for them (only with sections).
  const sectioned = sections.active;
  const createdNames = new Set<string>();
  const ownerName = (id: number): string => index.ownerName(id);

  for (const client of clients) {
    const liveClient = index.clients.get(client.username);
    const decided = diffClient(client, liveClient, view);
    if (decided.change !== undefined) found.clientChanges.push(decided.change);
    if (decided.change?.action === 'delete') found.deletedClients.add(decided.change.clientId);
    for (const field of decided.unknowns) found.unknowns.push({ client: client.username, field });
    if (!decided.descend) continue;

    const owner = { username: client.username, live: liveClient };
    // Its create's own id, which its new domains' creates wait for.
    const clientCreate = decided.change?.action === 'create' ? decided.change.id : undefined;
    const decidedDomains: DomainDecided[] = [];
    const deletesFrom = found.domainDeletes.length;
    for (const domain of client.domains) {
      const rule = diffDomain(domain, owner, index.domains.get(domain.name), ownerName);
      switch (rule.action) {
        case 'create': {
          found.domainCreates.add(client, domain, clientCreate);
          if (sectioned) {
            createdNames.add(domain.name);
            decidedDomains.push({ domain, decided: { stays: true } });
          }
          if (domain.dns === undefined) break;
          found.createsZones = true;
          const zone = diffNewZone({ name: domain.name, client: client.username }, domain.dns);
          found.conflicts.push(...zone.conflicts);
          if (zone.change !== undefined) found.zoneChanges.push(zone.change);
          break;
        }
        case 'conflict':
          found.conflicts.push(rule.conflict);
          if (sectioned) decidedDomains.push({ domain, decided: { stays: false, owner: rule.conflict.owner } });
          break;
        case 'delete':
          found.domainDeletes.push(rule.change);
          break;
        case 'keep': {
          for (const { field, keys } of rule.unknowns)
            found.unknowns.push({
              client: client.username,
              domain: domain.name,
              field,
              ...(keys.length === 0 ? {} : { keys }),
            });
          if (rule.change !== undefined) found.domainUpdates.push(rule.change);
          if (sectioned) decidedDomains.push({ domain, decided: { stays: true } });
          if (domain.dns === undefined) break;
          const zone = diffZone(
            { name: domain.name, id: rule.live.id, client: client.username, isSubdomain: rule.live.isSubdomain },
            domain.dns,
            index.zones.get(domain.name),
            rule.change === undefined ? [] : [rule.change.id],
          );
          found.conflicts.push(...zone.conflicts);
          if (zone.change !== undefined) found.zoneChanges.push(zone.change);
          break;
        }
        case 'none':
          break;
        default:
          assertNever(rule);
      }
    }
    if (desired.prune.domains && liveClient !== undefined)
      found.domainDeletes.push(
        ...unlistedDomains(
          liveClient,
          index.sortedDomainsOf(liveClient.id),
          (name) => listed.domains.has(name) || keep(name),
        ),
      );
    if (sectioned) {
      const deleted = new Set(found.domainDeletes.slice(deletesFrom).map((d) => d.name));
      sections.walkClient(
        client,
        liveClient?.id ?? null,
        decidedDomains,
        (name) => createdNames.has(name),
        (name) => deleted.has(name),
      );
    }
  }

  if (desired.prune.clients) {
    const unlisted = liveClients(index.live).filter(
      (c) => scope.covers(c.username) && !listed.clients.has(c.username) && !keep(c.username),
    );
    for (const liveClient of [...unlisted].sort((a, b) => compare(a.username, b.username))) {
      found.clientChanges.push(removeClient(liveClient, view, 'not in the manifest (prune.clients)'));
      found.deletedClients.add(liveClient.id);
    }
  }
  return found;
}

/** The manifest's clients and domains that the panel has, by name. */
interface Listed {
  readonly clients: Set<string>;
  readonly domains: Set<string>;
}

/**
 * The manifest's clients and domains (in the scope or not) that the panel has: prune and the
 * unmanaged lists ask only about the panel's names, so the names the panel lacks need no room
 * (a plan of new clients holds none: memory, at 100,000 clients).
 */
function listedOnPanel(desired: Desired, index: LiveIndex): Listed {
  const listed: Listed = { clients: new Set(), domains: new Set() };
  const clients = index.clients;
  const domains = index.domains;
  if (clients.size === 0 && domains.size === 0) return listed;
  for (const client of desired.clients) {
    if (clients.has(client.username)) listed.clients.add(client.username);
    if (domains.size === 0) continue;
    for (const domain of client.domains) if (domains.has(domain.name)) listed.domains.add(domain.name);
  }
  return listed;
}

/** The domains listed under clients out of the scope that the deletes of `deleted` (client ids) would take. */
function takenWith(
  desired: Desired,
  inScope: (username: string) => boolean,
  index: LiveIndex,
  deleted: ReadonlySet<number>,
): Conflict[] {
  const conflicts: Conflict[] = [];
  if (deleted.size === 0) return conflicts;
  for (const client of desired.clients) {
    if (inScope(client.username)) continue;
    for (const domain of client.domains) {
      const owner = index.domains.get(domain.name)?.idUser;
      if (owner !== undefined && deleted.has(owner))
        conflicts.push({ domain: domain.name, client: client.username, owner: index.ownerName(owner) });
    }
  }
  return conflicts;
}

/** On the panel, not listed, and touched by no change: counted (names on request), system domains never. */
function unmanaged(
  live: Live,
  /** The manifest's names the panel has (listedOnPanel). */
  listed: Listed,
  deletedClients: ReadonlySet<number>,
  deletedDomains: ReadonlySet<string>,
  /** A scoped plan's test of a client by id; undefined: every client. */
  inScope: ((id: number) => boolean) | undefined,
): Plan['unmanaged'] {
  const within = inScope ?? (() => true);
  return {
    clients: liveClients(live)
      .filter((c) => within(c.id) && !listed.clients.has(c.username) && !deletedClients.has(c.id))
      .map((c) => c.username)
      .sort(compare),
    domains: liveDomainsComplete(live)
      ? liveDomains(live)
          .filter(
            (d) =>
              within(d.idUser) &&
              !d.isSystem &&
              !listed.domains.has(d.name) &&
              !deletedDomains.has(d.name) &&
              !deletedClients.has(d.idUser),
          )
          .map((d) => d.name)
          .sort(compare)
      : undefined,
  };
}
