import type { DesiredClient, DesiredDomain } from '../manifest/types.js';
import { createDomain, type CreateDomain, type ParentDomain } from '../kinds/domain.js';
import type { LiveClient, LiveDomain } from '../panel/types.js';
import { nearestParent } from './domain-deletes.js';
import type { LiveIndex } from './live-index.js';
import { type ChangeId, changeId } from './types.js';

/**
 * The parent a new domain's `POST /domains` names in `id_parent_domain`: the nearest enclosing
 * domain of the same client, on the panel (its id) or created by the same plan (id null: its
 * create's answer gives it). An enclosing domain of another client is passed over (a domain
 * cannot hang under another customer's). Undefined: a top-level domain. A panel left to guess
 * may make a subdomain a top-level domain with a zone of its own, so the plan never leaves it
 * to the panel. Linear in the name's labels.
 */
export function parentDomainOf(
  name: string,
  client: { readonly username: string; readonly id: number | undefined },
  live: ReadonlyMap<string, LiveDomain>,
  /** The domains the plan creates, each with its client's username. */
  created: { get(name: string): string | undefined },
): ParentDomain | undefined {
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
    const suffix = name.slice(dot + 1);
    if (!suffix.includes('.')) return undefined;
    if (created.get(suffix) === client.username) return { name: suffix, id: null };
    const panel = live.get(suffix);
    if (panel !== undefined && client.id !== undefined && panel.idUser === client.id)
      return { name: suffix, id: panel.id };
  }
  return undefined;
}

/**
 * The domains the plan creates, in the walk's order: their creates are made once every new
 * domain is known (a parent may be one). Held as lists side by side, no object a domain (memory,
 * at 100,000 domains): each one's manifest entry, its client's, and the id of its client's create
 * in the same plan (the client's own string), when the plan creates the client.
 */
export class DomainCreates {
  private readonly domains: DesiredDomain[] = [];
  private readonly clients: DesiredClient[] = [];
  private readonly clientCreates: (ChangeId<'client'> | undefined)[] = [];

  add(client: DesiredClient, domain: DesiredDomain, clientCreate: ChangeId<'client'> | undefined): void {
    this.domains.push(domain);
    this.clients.push(client);
    this.clientCreates.push(clientCreate);
  }

  get length(): number {
    return this.domains.length;
  }

  /** Each, with its client and that client on the panel (index), made as it is read. */
  *entries(
    index: LiveIndex,
  ): Generator<{ readonly client: DesiredClient; readonly name: string; readonly liveClient: LiveClient | undefined }> {
    for (let i = 0; i < this.domains.length; i++) {
      const client = this.clients[i] as DesiredClient;
      yield { client, name: (this.domains[i] as DesiredDomain).name, liveClient: index.clients.get(client.username) };
    }
  }

  /** Lets go of them all. */
  clear(): void {
    this.domains.length = 0;
    this.clients.length = 0;
    this.clientCreates.length = 0;
  }

  /**
   * The creates, each after its parent when that is created too. The look-ups they need live
   * only while they are made. Each id is made once: a create's dependency on its client's create
   * or its parent's is that create's own id string, and its parent's name the parent's own string
   * (memory, at 100,000 domains).
   */
  changes(index: LiveIndex): CreateDomain[] {
    const { domains, clients, clientCreates } = this;
    // The domains created, each at its place (its client's username from there).
    const at = new Map<string, number>();
    domains.forEach((d, i) => at.set(d.name, i));
    const ownerOf = { get: (name: string) => clients[at.get(name) ?? -1]?.username };
    const ids = domains.map((d) => changeId('domain', d.name));
    return domains.map(({ name, settings }, i) => {
      const client = clients[i] as DesiredClient;
      const liveClient = index.clients.get(client.username);
      const parentAt = at.get(nearestParent(name, at) ?? '');
      const parent = parentAt === undefined ? undefined : domains[parentAt]?.name;
      const above = parentDomainOf(name, { username: client.username, id: liveClient?.id }, index.domains, ownerOf);
      const sameAsParent = above !== undefined && above.id === null && above.name === parent;
      return createDomain(
        name,
        client.username,
        liveClient?.id ?? null,
        parent,
        settings,
        sameAsParent ? { name: parent, id: null } : above,
        {
          own: ids[i],
          client: clientCreates[i],
          parent: parentAt === undefined ? undefined : ids[parentAt],
        },
      );
    });
  }
}
