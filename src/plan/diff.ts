import { type LocatedProblem, ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import type { Desired, DesiredClient, DesiredHostingPlan, Location } from '../manifest/types.js';
import { closest, globMatcher, scopeMatcher } from '../names.js';
import type { Live, LiveClient, LiveHostingPlan } from '../panel/types.js';
import { orderChanges } from './order.js';
import { NO_PLAN_CHANGES, planHostingPlans } from './hosting-plans.js';
import type {
  Change,
  Conflict,
  CreateDomain,
  DeleteClient,
  DeleteDomain,
  Plan,
  Unknown,
  UpdateDomain,
} from './types.js';
import { deleteDomain, nearestParent, subdomainsFirst, withoutBlocked } from './domain-deletes.js';
import { compare } from '../util.js';
import { refuseStalePlanCopies } from './scope.js';
import { refuseNewSubdomainZones } from './new-subdomain-dns.js';
import { LiveIndex } from './live-index.js';
import { parentDomainOf } from './parents.js';
import { createClient, deleteClient as clientDelete, type HostingPlans, updateClient } from '../kinds/client/index.js';
import { createDomain, type DomainSettings, updateDomain } from '../kinds/domain.js';
import { newZone, updateZone, type UpdateZone, zoneConflicts } from '../kinds/zone.js';

/**
 * Diffs the manifest against the live panel. Pure and deterministic: no I/O, no clock; the
 * same inputs give the same plan, in the same order. Throws ProvisionError
 * 'unknown_hosting_plan' when the manifest names plans neither the panel has nor the manifest
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
 *   refused at its line (new-subdomain-dns.ts).
 * - Hosting plans the manifest defines (hosting-plans.ts): created before the clients on them,
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
 * any unknown plan, and one put on a plan the manifest changes: scope.ts); the unmanaged counts
 * are of matching clients and their domains.
 */
export function diff(desired: Desired, live: Live, options: DiffOptions = {}): Plan {
  const index = new LiveIndex(live);
  const { scope } = options;
  const inScope = scopeMatcher(scope);
  // The plans the manifest defines and the panel lacks: created in this run, before their clients.
  const defined = new Set(
    (scope === undefined ? (desired.hostingPlans ?? []) : []).flatMap((p) =>
      p.state === 'present' && index.plans.byName(p.name) === undefined ? [p.name] : [],
    ),
  );
  const plans: HostingPlans = { ...index.plans, creates: (name) => defined.has(name) };
  const scoped = desired.clients.filter((c) => inScope(c.username));
  resolveHostingPlans(scoped, plans, live.hostingPlans, scope === undefined ? undefined : desired.hostingPlans);
  const keep = globMatcher(desired.prune.keep);
  const listedClients = new Set<string>();
  const listedDomains = new Set<string>();
  for (const client of desired.clients) {
    listedClients.add(client.username);
    for (const domain of client.domains) listedDomains.add(domain.name);
  }

  const conflicts: Conflict[] = [];
  const unknowns: Unknown[] = [];
  const clientChanges: Change[] = [];
  const domainCreates: {
    client: DesiredClient;
    name: string;
    liveClient: LiveClient | undefined;
    settings: DomainSettings | undefined;
  }[] = [];
  const domainUpdates: UpdateDomain[] = [];
  const zoneChanges: UpdateZone[] = [];
  const domainDeletes: DeleteDomain[] = [];
  const deletedClients = new Set<number>();

  for (const client of scoped) {
    const liveClient = index.clients.get(client.username);
    if (client.state === 'absent') {
      if (liveClient !== undefined) {
        clientChanges.push(deleteClient(liveClient, index, 'state: absent in the manifest'));
        deletedClients.add(liveClient.id);
      }
      continue;
    }
    if (liveClient === undefined) {
      clientChanges.push(createClient(client.username, client, plans));
    } else {
      const update = updateClient(client.username, client, liveClient, plans, (field) =>
        unknowns.push({ client: client.username, field }),
      );
      if (update !== undefined) clientChanges.push(update);
    }

    for (const domain of client.domains) {
      const liveDomain = index.domains.get(domain.name);
      if (liveDomain === undefined) {
        if (domain.state === 'present') {
          domainCreates.push({ client, name: domain.name, liveClient, settings: domain.settings });
          // What the manifest alone breaks is a conflict now; the panel's defaults are checked after the POST.
          const broken =
            domain.dns === undefined
              ? []
              : zoneConflicts({ name: domain.name, client: client.username }, domain.dns, { records: [] });
          conflicts.push(...broken);
          const zone =
            domain.dns === undefined || broken.length > 0
              ? undefined
              : newZone(domain.name, client.username, domain.dns);
          if (zone !== undefined) zoneChanges.push(zone);
        }
      } else if (liveClient === undefined || liveDomain.idUser !== liveClient.id) {
        conflicts.push({
          domain: domain.name,
          client: client.username,
          owner: index.ownerName(liveDomain.idUser),
        });
      } else if (domain.state === 'absent' && !liveDomain.isSystem) {
        // A system domain is the panel's own: never deleted.
        domainDeletes.push(deleteDomain(liveDomain, liveClient, 'state: absent in the manifest'));
      } else if (domain.state === 'present') {
        const update =
          domain.settings === undefined
            ? undefined
            : updateDomain(domain.settings, liveDomain, liveClient, (field, keys) =>
                unknowns.push({
                  client: client.username,
                  domain: domain.name,
                  field,
                  ...(keys.length === 0 ? {} : { keys }),
                }),
              );
        if (update !== undefined) domainUpdates.push(update);
        if (domain.dns !== undefined) {
          const dns =
            liveDomain.isSubdomain === true
              ? 'subdomain'
              : index.zones.get(domain.name)?.isDisabled
                ? 'disabled'
                : undefined;
          const zone = index.zones.get(domain.name);
          if (dns !== undefined)
            conflicts.push({ domain: domain.name, client: client.username, owner: client.username, dns });
          else if (zone !== undefined) {
            // The zone as the manifest would leave it is checked first: a conflict sends nothing.
            const broken = zoneConflicts({ name: domain.name, client: client.username }, domain.dns, zone);
            conflicts.push(...broken);
            const change =
              broken.length > 0
                ? undefined
                : updateZone(
                    { name: domain.name, id: liveDomain.id, client: client.username },
                    domain.dns,
                    zone,
                    update === undefined ? [] : [update.id],
                  );
            if (change !== undefined) zoneChanges.push(change);
          }
        }
      }
    }
    if (desired.prune.domains && liveClient !== undefined) {
      for (const liveDomain of index.sortedDomainsOf(liveClient.id)) {
        // A system domain, or one whose record does not say (undefined), is never pruned.
        if (liveDomain.isSystem !== false || listedDomains.has(liveDomain.name) || keep(liveDomain.name)) continue;
        domainDeletes.push(deleteDomain(liveDomain, liveClient, 'not in the manifest (prune.domains)'));
      }
    }
  }

  if (desired.prune.clients) {
    const unlisted = live.clients.filter(
      (c) => inScope(c.username) && !listedClients.has(c.username) && !keep(c.username),
    );
    for (const liveClient of [...unlisted].sort((a, b) => compare(a.username, b.username))) {
      clientChanges.push(deleteClient(liveClient, index, 'not in the manifest (prune.clients)'));
      deletedClients.add(liveClient.id);
    }
  }
  // A scoped delete of a client never takes a domain the manifest lists under a client out of
  // the scope: the conflict a plan without the scope finds at that client's entry.
  if (scope !== undefined) conflicts.push(...takenWith(desired, inScope, index, deletedClients));

  refuseNewSubdomainZones(domainCreates, new Set(live.domains.map((d) => d.name)));
  // What will stand after the plan beside the live domains: new domains of existing clients.
  const deletes = withoutBlocked(domainDeletes, live.domains, domainCreates, conflicts);
  const created = new Set(domainCreates.map((d) => d.name));
  const createdBy = new Map(domainCreates.map((d) => [d.name, d.client.username] as const));
  const domainChanges: (CreateDomain | UpdateDomain | UpdateZone)[] = domainCreates.map(
    ({ client, name, liveClient, settings }) =>
      createDomain(
        name,
        client.username,
        liveClient?.id ?? null,
        nearestParent(name, created),
        settings,
        parentDomainOf(name, { username: client.username, id: liveClient?.id }, index.domains, createdBy),
      ),
  );
  domainChanges.push(...domainUpdates, ...zoneChanges);

  const planned = planHostingPlans(desired, live, clientChanges);
  if (scope !== undefined) refuseStalePlanCopies(clientChanges, planned.first, desired);
  const hostingPlans = scope === undefined ? planned : NO_PLAN_CHANGES;
  conflicts.push(...hostingPlans.conflicts);
  return {
    changes: orderChanges(
      desired,
      afterPlanChanges(clientChanges, hostingPlans.first),
      domainChanges,
      subdomainsFirst(deletes),
      hostingPlans,
    ),
    conflicts,
    unknowns,
    unmanaged: {
      ...unmanaged(
        live,
        listedClients,
        listedDomains,
        deletedClients,
        new Set(deletes.map((d) => d.name)),
        scope === undefined ? undefined : (id) => inScope(index.ownerName(id)),
      ),
      ...(hostingPlans.unmanaged === undefined ? {} : { hostingPlans: hostingPlans.unmanaged }),
    },
    ...(scope === undefined ? {} : { scope: { clients: [...scope] } }),
  };
}

/** What diff takes beside the manifest and the panel. */
export interface DiffOptions {
  /** `--clients`: plan only the clients whose username matches one of these glob patterns (see diff). */
  readonly scope?: readonly string[] | undefined;
}

/**
 * Clients created on, or moved to, a plan the same run creates or updates wait for that change:
 * a new plan's id comes from its create's answer, and the panel copies a plan into a client when
 * it is assigned, so one assigned before the update would keep the old values.
 */
function afterPlanChanges(clientChanges: readonly Change[], planChanges: readonly Change[]): Change[] {
  const changed = new Map(planChanges.map((c) => [c.name, c.id] as const));
  return clientChanges.map((c) => {
    if (changed.size === 0 || c.type !== 'client' || c.action === 'delete' || c.hostingPlan === undefined) return c;
    const plan = changed.get(c.hostingPlan.name);
    return plan === undefined ? c : { ...c, dependsOn: [...c.dependsOn, plan] };
  });
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

/** The delete of a live client, with the domains that go with it (null when the panel cannot list them). */
function deleteClient(live: LiveClient, index: LiveIndex, reason: string): DeleteClient {
  const domainNames = index.complete ? index.domainNamesOf(live.id) : null;
  return clientDelete(live, domainNames, reason);
}

/**
 * Throws unknown_hosting_plan when `clients` name plans the panel does not have (see diff).
 * `leftAlone`: in a scoped run, the plans the manifest defines (one of them named: run without
 * --clients first).
 */
function resolveHostingPlans(
  clients: readonly DesiredClient[],
  plans: HostingPlans,
  onPanel: readonly LiveHostingPlan[],
  leftAlone: readonly DesiredHostingPlan[] | undefined,
): void {
  const unknown = new Map<string, Location | undefined>();
  for (const client of clients) {
    if (
      client.plan !== undefined &&
      plans.byName(client.plan) === undefined &&
      plans.creates?.(client.plan) !== true &&
      !unknown.has(client.plan)
    ) {
      unknown.set(client.plan, client.planLoc);
    }
  }
  if (unknown.size > 0) {
    const available = [...new Set(onPanel.map((p) => p.name))].sort();
    const details: string[] = [];
    const located: LocatedProblem[] = [];
    for (const [name, loc] of unknown) {
      const suggestion = closest(name, available);
      const message =
        `hosting plan ${quote(name)} is not on the panel` +
        (suggestion === undefined ? '' : `: did you mean ${quote(suggestion)}?`);
      if (loc === undefined) details.push(message);
      else located.push({ file: loc.file, line: loc.line, column: loc.column, message });
    }
    throw new ProvisionError(
      'unknown_hosting_plan',
      unknown.size === 1
        ? 'the manifest names a hosting plan the panel does not have'
        : `the manifest names ${unknown.size} hosting plans the panel does not have`,
      {
        details,
        located,
        hint: [...unknown.keys()].some((name) => leftAlone?.some((p) => p.name === name) === true)
          ? 'the manifest defines it, and a run scoped by --clients leaves hosting plans alone: ' +
            'apply without --clients first, which creates it'
          : available.length === 0
            ? 'the panel has no hosting plans: create one, or leave "plan" out'
            : `the panel has: ${available.map((n) => quote(n)).join(', ')} (names are case-sensitive)`,
      },
    );
  }
}

/** On the panel, not listed, and touched by no change: counted (names on request), system domains never. */
function unmanaged(
  live: Live,
  usernames: ReadonlySet<string>,
  domainNames: ReadonlySet<string>,
  deletedClients: ReadonlySet<number>,
  deletedDomains: ReadonlySet<string>,
  /** A scoped plan's test of a client by id; undefined: every client. */
  inScope: ((id: number) => boolean) | undefined,
): Plan['unmanaged'] {
  const within = inScope ?? (() => true);
  return {
    clients: live.clients
      .filter((c) => within(c.id) && !usernames.has(c.username) && !deletedClients.has(c.id))
      .map((c) => c.username)
      .sort(compare),
    domains: live.domainsComplete
      ? live.domains
          .filter(
            (d) =>
              within(d.idUser) &&
              !d.isSystem &&
              !domainNames.has(d.name) &&
              !deletedDomains.has(d.name) &&
              !deletedClients.has(d.idUser),
          )
          .map((d) => d.name)
          .sort(compare)
      : undefined,
  };
}
