import type { LiveClient, LiveDomain } from '../panel/types.js';
import { changeId, type Conflict, type DeleteDomain } from './types.js';
import { compare } from '../util.js';

/**
 * Domain deletes and their subdomains: a parent waits for its children, and one whose
 * subdomains stay on the panel is a conflict instead.
 */

/**
 * The deletes that can be carried out; each domain whose subdomains (same owner, not system
 * domains) stay on the panel or are created by the plan is a conflict instead: the panel may
 * refuse it, or take them with it. Linear: each standing domain looks up its own suffixes.
 */
export function withoutBlocked(
  deletes: readonly DeleteDomain[],
  live: readonly LiveDomain[],
  /** The domains the plan creates, read once (only when there are deletes). */
  creates: Iterable<{ readonly name: string; readonly liveClient: LiveClient | undefined }>,
  conflicts: Conflict[],
): DeleteDomain[] {
  if (deletes.length === 0) return [];
  const byName = new Map(deletes.map((d) => [d.name, d]));
  const kept = new Map<string, string[]>();
  const stand = (name: string, idUser: number): void => {
    if (byName.has(name)) return;
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
      const parent = byName.get(name.slice(dot + 1));
      if (parent === undefined || parent.clientId !== idUser) continue;
      const list = kept.get(parent.name);
      if (list === undefined) kept.set(parent.name, [name]);
      else list.push(name);
    }
  };
  for (const domain of live) if (!domain.isSystem) stand(domain.name, domain.idUser);
  // New domains of existing clients stand after the plan too.
  for (const { name, liveClient } of creates) if (liveClient !== undefined) stand(name, liveClient.id);
  return deletes.filter((d) => {
    const subdomains = kept.get(d.name);
    if (subdomains === undefined) return true;
    conflicts.push({
      domain: d.name,
      client: d.client,
      owner: d.client,
      subdomains: [...subdomains].sort(compare),
    });
    return false;
  });
}

/**
 * Each deleted domain waits for the deletes of its nearest subdomains (a panel may refuse a
 * parent that has children), and names all its subdomains of the same owner that the plan
 * deletes (withoutBlocked has made sure no other stays): the fingerprint holds a saved plan to them.
 */
export function subdomainsFirst(deletes: readonly DeleteDomain[]): DeleteDomain[] {
  const byName = new Map(deletes.map((d) => [d.name, d]));
  const names = new Set(byName.keys());
  const children = new Map<string, string[]>();
  const below = new Map<string, string[]>();
  const push = (map: Map<string, string[]>, key: string, value: string): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [value]);
    else list.push(value);
  };
  for (const d of deletes) {
    const parent = nearestParent(d.name, names);
    if (parent !== undefined) push(children, parent, d.name);
    for (let dot = d.name.indexOf('.'); dot !== -1; dot = d.name.indexOf('.', dot + 1)) {
      const above = byName.get(d.name.slice(dot + 1));
      if (above !== undefined && above.clientId === d.clientId) push(below, above.name, d.name);
    }
  }
  return deletes.map((d) => {
    const first = children.get(d.name);
    return {
      ...d,
      ...(first === undefined ? {} : { dependsOn: first.map((name) => changeId('domain', name)) }),
      subdomains: [...(below.get(d.name) ?? [])].sort(compare),
    };
  });
}

/** The longest proper suffix of `name` (two labels at least) that is in `names`. */
export function nearestParent(name: string, names: { has(name: string): boolean }): string | undefined {
  let dot = name.indexOf('.');
  while (dot !== -1) {
    const suffix = name.slice(dot + 1);
    if (!suffix.includes('.')) return undefined;
    if (names.has(suffix)) return suffix;
    dot = name.indexOf('.', dot + 1);
  }
  return undefined;
}
