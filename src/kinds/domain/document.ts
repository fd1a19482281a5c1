/** A domain's changes in the plan document, both ways, with the checks a change read back must pass. Pure. */
import { quote } from '../../escape.js';
import { assertNever } from '../../util.js';
import { type ChangeBase, changeId } from '../common.js';
import type { DomainChange } from './changes.js';

/** A domain's change as the plan document holds it (snake_case), beside the common fields; the schema checked it. */
export interface DomainChangeJson {
  readonly action: 'create' | 'update' | 'delete';
  readonly client?: string;
  readonly client_id?: number | null;
  readonly parent?: string;
  readonly domain_id?: number;
  readonly subdomains?: readonly string[];
}

/** What a domain's change adds to the common fields, in the document's order. */
export function domainToJson(change: DomainChange): Record<string, unknown> {
  switch (change.action) {
    case 'create':
      return {
        client: change.client,
        client_id: change.clientId,
        ...(change.parent === undefined ? {} : { parent: change.parent }),
      };
    case 'delete':
      return {
        domain_id: change.domainId,
        client: change.client,
        client_id: change.clientId,
        subdomains: change.subdomains,
      };
    default:
      return assertNever(change);
  }
}

/**
 * A domain's change read back; `base` holds the common fields. A domain has no update: the
 * schema refuses one, and it is read as a create (whose problems then name it).
 */
export function domainFromJson(
  item: DomainChangeJson,
  base: Pick<ChangeBase, 'name' | 'reason' | 'dependsOn'>,
): DomainChange {
  const id = changeId('domain', base.name);
  // The schema requires each action's fields; the fallbacks are never used.
  if (item.action === 'delete')
    return {
      ...base,
      id,
      action: 'delete',
      type: 'domain',
      domainId: item.domain_id ?? 0,
      client: item.client ?? '',
      clientId: item.client_id ?? 0,
      subdomains: item.subdomains ?? [],
    };
  return {
    ...base,
    id,
    action: 'create',
    type: 'domain',
    client: item.client ?? '',
    clientId: item.client_id ?? null,
    ...(item.parent === undefined ? {} : { parent: item.parent }),
  };
}

/** What a domain's change read back must say of itself beyond the schema: a create waits for what it names. */
export function domainProblems(change: DomainChange, path: string): string[] {
  if (change.action !== 'create') return [];
  const problems: string[] = [];
  const owner = changeId('client', change.client);
  if (change.clientId === null && !change.dependsOn.includes(owner))
    problems.push(`${path}.client_id: null, yet the change does not depend on ${quote(owner)}`);
  const parent = change.parent === undefined ? undefined : changeId('domain', change.parent);
  if (parent !== undefined && !change.dependsOn.includes(parent))
    problems.push(`${path}.parent: ${quote(change.parent ?? '')}, yet the change does not depend on ${quote(parent)}`);
  return problems;
}
