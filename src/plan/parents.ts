import type { ParentDomain } from '../kinds/domain.js';
import type { LiveDomain } from '../panel/types.js';

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
  created: ReadonlyMap<string, string>,
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
