import { ProvisionError } from '../errors.js';
import type { Desired, DesiredClient, Location } from '../manifest/types.js';
import { closest } from '../names.js';
import type { Live, LiveClient, LiveHostingPlan } from '../panel/types.js';
import type { Change, ChangeId, Conflict, CreateClient, CreateDomain, Drift, Plan } from './types.js';
import { quote } from '../escape.js';

/**
 * Diffs the manifest against the live panel. Pure and deterministic: no I/O, no clock; the
 * same inputs give the same plan, in the same order. Throws ProvisionError
 * 'unknown_hosting_plan' when the manifest names plans the panel does not have (all of them
 * at once, each with its location and the closest name).
 *
 * Order: clients in manifest order, each followed by its domains in manifest order, except
 * that a change is pulled ahead of anything that depends on it (a parent domain created for
 * another client listed later, say).
 */
export function diff(desired: Desired, live: Live): Plan {
  const hostingPlans = resolveHostingPlans(desired, live.hostingPlans);
  const clientsByName = new Map(live.clients.map((c) => [c.username, c]));
  const clientsById = new Map(live.clients.map((c) => [c.id, c]));
  const domainsByName = new Map(live.domains.map((d) => [d.name, d]));
  const hostingPlanNames = new Map(live.hostingPlans.map((p) => [p.id, p.name]));

  const conflicts: Conflict[] = [];
  const drift: Drift[] = [];
  const clientChanges = new Map<string, CreateClient>();
  const domainsToCreate: { client: DesiredClient; name: string; liveClient: LiveClient | undefined }[] = [];

  for (const client of desired.clients) {
    const liveClient = clientsByName.get(client.username);
    const hostingPlan = client.plan === undefined ? undefined : hostingPlans.get(client.plan);
    if (liveClient === undefined) {
      clientChanges.set(client.username, {
        id: `client:${client.username}`,
        action: 'create',
        type: 'client',
        name: client.username,
        reason: 'not on the panel',
        dependsOn: [],
        ...(hostingPlan === undefined ? {} : { hostingPlan: { name: hostingPlan.name, id: hostingPlan.id } }),
        ...(client.email === undefined ? {} : { email: client.email }),
      });
    } else if (hostingPlan !== undefined && liveClient.idHostingPlan !== hostingPlan.id) {
      const actual = liveClient.idHostingPlan === undefined ? 'unknown' : (hostingPlanNames.get(liveClient.idHostingPlan) ?? `#${liveClient.idHostingPlan}`);
      drift.push({ client: client.username, expected: hostingPlan.name, actual });
    }

    for (const domain of client.domains) {
      const liveDomain = domainsByName.get(domain.name);
      if (liveDomain === undefined) {
        domainsToCreate.push({ client, name: domain.name, liveClient });
      } else if (liveClient === undefined || liveDomain.idUser !== liveClient.id) {
        const owner = clientsById.get(liveDomain.idUser)?.username ?? `#${liveDomain.idUser}`;
        conflicts.push({ domain: domain.name, client: client.username, owner });
      }
    }
  }

  const created = new Set(domainsToCreate.map((d) => d.name));
  const domainChanges = new Map<string, CreateDomain>();
  for (const { client, name, liveClient } of domainsToCreate) {
    const parent = nearestParent(name, created);
    const dependsOn: ChangeId[] = [];
    if (liveClient === undefined) dependsOn.push(`client:${client.username}`);
    if (parent !== undefined) dependsOn.push(`domain:${parent}`);
    domainChanges.set(name, {
      id: `domain:${name}`,
      action: 'create',
      type: 'domain',
      name,
      client: client.username,
      clientId: liveClient?.id ?? null,
      reason: 'not on the panel',
      dependsOn,
      ...(parent === undefined ? {} : { parent }),
    });
  }

  return {
    changes: orderChanges(desired, clientChanges, domainChanges),
    conflicts,
    drift,
    unmanaged: unmanaged(desired, live),
  };
}

function resolveHostingPlans(desired: Desired, onPanel: readonly LiveHostingPlan[]): Map<string, LiveHostingPlan> {
  const byName = new Map(onPanel.map((p) => [p.name, p]));
  const unknown = new Map<string, Location | undefined>();
  for (const client of desired.clients) {
    if (client.plan !== undefined && !byName.has(client.plan) && !unknown.has(client.plan)) {
      unknown.set(client.plan, client.planLoc);
    }
  }
  if (unknown.size > 0) {
    const available = [...byName.keys()].sort();
    const details = [...unknown].map(([name, loc]) => {
      const where = loc === undefined ? '' : `${loc.file}:${loc.line}:${loc.column}: `;
      const suggestion = closest(name, available);
      return `${where}hosting plan ${quote(name)} is not on the panel${suggestion === undefined ? '' : `: did you mean ${quote(suggestion)}?`}`;
    });
    throw new ProvisionError(
      'unknown_hosting_plan',
      unknown.size === 1 ? 'the manifest names a hosting plan the panel does not have' : `the manifest names ${unknown.size} hosting plans the panel does not have`,
      {
        details,
        hint: available.length === 0 ? 'the panel has no hosting plans: create one, or leave "plan" out' : `the panel has: ${available.map((n) => quote(n)).join(', ')} (names are case-sensitive)`,
      },
    );
  }
  return byName;
}

/** The longest proper suffix of `name` (two labels at least) that is created in the same run. */
function nearestParent(name: string, created: ReadonlySet<string>): string | undefined {
  let dot = name.indexOf('.');
  while (dot !== -1) {
    const suffix = name.slice(dot + 1);
    if (!suffix.includes('.')) return undefined;
    if (created.has(suffix)) return suffix;
    dot = name.indexOf('.', dot + 1);
  }
  return undefined;
}

/** Manifest order, grouped by client, with every change's dependencies emitted before it. */
function orderChanges(
  desired: Desired,
  clients: ReadonlyMap<string, CreateClient>,
  domains: ReadonlyMap<string, CreateDomain>,
): Change[] {
  const ordered: Change[] = [];
  const emitted = new Set<ChangeId>();
  const byId = (id: ChangeId): Change | undefined =>
    id.startsWith('client:') ? clients.get(id.slice('client:'.length)) : domains.get(id.slice('domain:'.length));
  // Dependencies only point at clients or at shorter domain names, so there are no cycles.
  const visit = (change: Change): void => {
    if (emitted.has(change.id)) return;
    emitted.add(change.id);
    for (const dep of change.dependsOn) {
      const first = byId(dep);
      if (first !== undefined) visit(first);
    }
    ordered.push(change);
  };
  for (const client of desired.clients) {
    const create = clients.get(client.username);
    if (create !== undefined) visit(create);
    for (const domain of client.domains) {
      const change = domains.get(domain.name);
      if (change !== undefined) visit(change);
    }
  }
  return ordered;
}

function unmanaged(desired: Desired, live: Live): Plan['unmanaged'] {
  const usernames = new Set(desired.clients.map((c) => c.username));
  const domainNames = new Set(desired.clients.flatMap((c) => c.domains.map((d) => d.name)));
  return {
    clients: live.clients.filter((c) => !usernames.has(c.username)).map((c) => c.username).sort(),
    domains: live.domainsComplete
      ? live.domains.filter((d) => !d.isSystem && !domainNames.has(d.name)).map((d) => d.name).sort()
      : undefined,
  };
}
