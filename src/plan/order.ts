import type { Desired } from '../manifest/types.js';
import type { Change, ChangeId, CreateDomain, DeleteDomain, UpdateDomain, UpdateZone } from './types.js';
import { phaseOf } from './types.js';
import { kindOf } from '../kinds/index.js';

/**
 * The plan's order: creates and updates first, in manifest order, each client followed by its
 * domains (created or updated, then their zones); then deletes, domains before clients. Every change comes after those it depends on
 * (a parent domain created for a client listed later is pulled ahead; a subdomain's delete goes
 * before its parent's). Dependencies point only at clients, at shorter domain names, or (for
 * deletes) at longer ones of the same phase, or from a zone's change at creates (nothing waits for
 * a zone's change), so there are no cycles.
 */
export function orderChanges(
  desired: Desired,
  clientChanges: readonly Change[],
  domainChanges: readonly (CreateDomain | UpdateDomain | UpdateZone)[],
  domainDeletes: readonly DeleteDomain[],
  /** Hosting plans: creates and updates before every client, deletes after everything. */
  hostingPlans: { readonly first: readonly Change[]; readonly last: readonly Change[] } = { first: [], last: [] },
): Change[] {
  const domainFirst = afterSubdomainCreates(domainChanges);
  const byId = new Map<ChangeId, Change>();
  for (const change of [
    ...hostingPlans.first,
    ...clientChanges,
    ...domainFirst,
    ...domainDeletes,
    ...hostingPlans.last,
  ])
    byId.set(change.id, change);
  const ordered: Change[] = [];
  const emitted = new Set<ChangeId>();
  // Iterative depth-first (a long chain of subdomains must not overflow the stack).
  const visit = (root: Change): void => {
    if (emitted.has(root.id)) return;
    emitted.add(root.id);
    const stack: { change: Change; next: number }[] = [{ change: root, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { change: Change; next: number };
      const dep = top.change.dependsOn[top.next++];
      if (dep === undefined) {
        ordered.push(top.change);
        stack.pop();
        continue;
      }
      const first = byId.get(dep);
      if (first === undefined || emitted.has(dep)) continue;
      emitted.add(dep);
      stack.push({ change: first, next: 0 });
    }
  };
  for (const change of hostingPlans.first) visit(change);
  // Looked up by name, not by a built id: no string per manifest client.
  const firstPhase = new Map<string, Change>();
  for (const change of clientChanges) if (phaseOf(change) === 0) firstPhase.set(change.name, change);
  // A domain's own create or update, then its zone's: each after what it depends on.
  const firstDomains = new Map<string, Change[]>();
  for (const d of domainFirst) {
    const list = firstDomains.get(d.name);
    if (list === undefined) firstDomains.set(d.name, [d]);
    else list.push(d);
  }
  if (firstPhase.size > 0 || firstDomains.size > 0) {
    for (const client of desired.clients) {
      const change = firstPhase.get(client.username);
      if (change !== undefined) visit(change);
      if (firstDomains.size === 0) continue;
      for (const domain of client.domains) {
        for (const change of firstDomains.get(domain.name) ?? []) visit(change);
      }
    }
  }
  for (const change of domainDeletes) visit(change);
  for (const change of clientChanges) if (phaseOf(change) === 1) visit(change);
  for (const change of hostingPlans.last) visit(change);
  return ordered;
}

/**
 * Whether `change` only waits for `dep` (apply/walk.ts `waitsOnly`): a change whose kind waits for
 * the creates below its name (Kind.waitsForCreatesBelow: a zone's), for such a create
 * (afterSubdomainCreates). One that failed added nothing the change must keep (or, landed after
 * all, makes the zone stale, nothing sent): the zone is written all the same.
 */
export function waitsOnly(change: Change, dep: ChangeId): boolean {
  return kindOf(change).waitsForCreatesBelow && dep.startsWith('domain:') && dep.endsWith(`.${change.name}`);
}

/**
 * Each change whose kind waits for the creates below its name (a zone's) waits for the creates in
 * the same apply of the domains below it: a subdomain's POST adds its records to its parent's
 * zone, and the zone's PUT, built from a read taken after them, must not drop them (the zone's
 * write, kinds/zone/write.ts, keeps them). A create below a zone that turns out to be a zone of
 * its own costs an order, nothing more.
 */
function afterSubdomainCreates(
  domainFirst: readonly (CreateDomain | UpdateDomain | UpdateZone)[],
): readonly (CreateDomain | UpdateDomain | UpdateZone)[] {
  const waiting = (c: Change): boolean => kindOf(c).waitsForCreatesBelow;
  const below = new Map<string, ChangeId[]>();
  for (const c of domainFirst) if (waiting(c)) below.set(c.name, []);
  if (below.size === 0) return domainFirst;
  for (const c of domainFirst) {
    if (c.type !== 'domain' || c.action !== 'create') continue;
    for (let dot = c.name.indexOf('.'); dot !== -1; dot = c.name.indexOf('.', dot + 1))
      below.get(c.name.slice(dot + 1))?.push(c.id);
  }
  return domainFirst.map((c) => {
    const creates = waiting(c) ? (below.get(c.name) ?? []) : [];
    const added = creates.filter((id) => !c.dependsOn.includes(id));
    return added.length === 0 ? c : { ...c, dependsOn: [...c.dependsOn, ...added] };
  });
}
