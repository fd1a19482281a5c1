/**
 * The domain's room: a domain as the panel holds it, the field part of its record, its changes
 * and the requests they become, its phrases and its written form in a manifest. A domain's
 * identity is its ASCII name; it has no managed fields yet (domain settings will be rows of a
 * table here). Pure.
 */
import { domainToUnicode } from 'node:url';
import { quote, safeText } from '../escape.js';
import { normalizeDomain } from '../names.js';
import { assertNever, compare, plural } from '../util.js';
import { type ClientFactIndex, existingClient } from './client/index.js';
import { type ChangeBase, changeId, type PanelRequest } from './common.js';
import { type Fact, namesDifference, namesFact, valueOf } from './facts.js';

export interface LiveDomain {
  readonly id: number;
  /** Lowercase ASCII (punycode for IDNs). */
  readonly name: string;
  readonly idUser: number;
  /**
   * Created by the panel itself: never deleted, never counted as unmanaged. undefined when the
   * record does not say (no `is_system_domain`, or null): then prune never deletes it (it may be
   * the panel's own), and it is counted like any other domain (unmanaged, going with its
   * client); `state: absent` in the manifest, which names it, still deletes it.
   */
  readonly isSystem: boolean | undefined;
}

/**
 * `is_system_domain` as read: a boolean, 0 or 1, or those as strings ("0", "1", "true",
 * "false": PHP panels send numbers and booleans as strings) give true or false; a record
 * without the field, with null or with "" does not say (undefined). Anything else is a problem.
 */
export function systemFlag(value: unknown): boolean | undefined | { readonly problem: string } {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === '') return undefined;
    if (text === '1' || text === 'true') return true;
    if (text === '0' || text === 'false') return false;
  }
  return { problem: 'a boolean (or 0 or 1)' };
}

/**
 * A domain's name as read (`domain`): normalised to lowercase ASCII, or kept lowercased when
 * normalizeDomain refuses it (the panel has it, it must still be seen).
 */
export function domainName(raw: string): string {
  const normal = normalizeDomain(raw);
  return 'name' in normal ? normal.name : raw.toLowerCase();
}

/** A domain the panel lacks: `POST /domains` for its client. */
export interface CreateDomain extends ChangeBase {
  readonly action: 'create';
  readonly type: 'domain';
  /** The owning client's username. */
  readonly client: string;
  /** The owner's id when it exists already; null when it is created in the same run. */
  readonly clientId: number | null;
  /** A parent domain created in the same run, which this subdomain waits for. */
  readonly parent?: string;
}

/** A domain deleted (`state: absent`, or pruned); after its subdomains that are deleted too. */
export interface DeleteDomain extends ChangeBase {
  readonly action: 'delete';
  readonly type: 'domain';
  readonly domainId: number;
  /** The owner's username on the panel. */
  readonly client: string;
  readonly clientId: number;
  /** Its subdomains on the panel (same owner, not system domains), sorted: the plan deletes each of them first. */
  readonly subdomains: readonly string[];
}

export type DomainChange = CreateDomain | DeleteDomain;

/**
 * The create of `name` for `client` (`clientId` null when the client is created in the same
 * run: it then waits for the client's create), after its `parent` when that is created too.
 */
export function createDomain(name: string, client: string, clientId: number | null, parent?: string): CreateDomain {
  return {
    id: changeId('domain', name),
    action: 'create',
    type: 'domain',
    name,
    client,
    clientId,
    reason: 'not on the panel',
    dependsOn: [
      ...(clientId === null ? [changeId('client', client)] : []),
      ...(parent === undefined ? [] : [changeId('domain', parent)]),
    ],
    ...(parent === undefined ? {} : { parent }),
  };
}

/** The delete of a live domain from its owner; the planner adds the subdomains it waits for. */
export function deleteDomain(
  live: LiveDomain,
  owner: { readonly id: number; readonly username: string },
  reason: string,
): DeleteDomain {
  return {
    id: changeId('domain', live.name),
    action: 'delete',
    type: 'domain',
    name: live.name,
    domainId: live.id,
    client: owner.username,
    clientId: owner.id,
    reason,
    dependsOn: [],
    subdomains: [],
  };
}

/**
 * The request a domain's change becomes. A domain of a client created in the same run takes
 * its `id_user` from `newClientIds`; before apply (a preview) it is null: known after apply.
 */
export function domainRequest(change: DomainChange, newClientIds?: ReadonlyMap<string, number>): PanelRequest {
  switch (change.action) {
    case 'create':
      return {
        method: 'POST',
        path: '/domains',
        body: {
          domain: change.name,
          id_user: change.clientId ?? newClientIds?.get(change.client) ?? null,
        },
      };
    case 'delete':
      return { method: 'DELETE', path: `/domains/${change.domainId}`, body: null };
    default:
      return assertNever(change);
  }
}

/**
 * ` (bücher.example)` beside an international name's ASCII form, so people can read it; else ''.
 * The Unicode form is data like the name (safeText: a decoded label holding a control or
 * bidirectional character shows it escaped).
 */
export function unicodeForm(ascii: string): string {
  if (!ascii.includes('xn--')) return '';
  const unicode = domainToUnicode(ascii);
  return unicode === '' || unicode === ascii ? '' : ` (${safeText(unicode)})`;
}

/** `domain "a.example" of client "alice"`, with the Unicode form of an international name. */
export function domainSubject(change: DomainChange): string {
  return `domain ${quote(change.name)}${unicodeForm(change.name)} of client ${quote(change.client)}`;
}

/**
 * What the text plan's comment line says of a domain's change beside its subject (`what`) and
 * after its reason (`after`): the parent a new subdomain waits for, the subdomains a delete
 * waits for.
 */
export function domainDetails(change: DomainChange): { what: string; after: string } {
  switch (change.action) {
    case 'create':
      return { what: '', after: change.parent === undefined ? '' : `, after ${safeText(change.parent)}` };
    case 'delete':
      return {
        what: '',
        after: change.dependsOn.length === 0 ? '' : `, after ${plural(change.dependsOn.length, 'subdomain')}`,
      };
    default:
      return assertNever(change);
  }
}

/** A live domain the manifest can list: `name` its ASCII comparison form, `text` its written form. */
export interface DomainForm {
  readonly name: string;
  readonly text: string;
}

/**
 * A domain's written form (its export entry): its Unicode form (node:url domainToUnicode) when
 * that normalises back to the same ASCII name, else the ASCII name; undefined when
 * normalizeDomain refuses the name (the manifest would refuse it too).
 */
export function domainForm(name: string): DomainForm | undefined {
  const normal = normalizeDomain(name);
  if (!('name' in normal)) return undefined;
  const unicode = domainToUnicode(normal.name);
  const back = unicode === '' ? undefined : normalizeDomain(unicode);
  return {
    name: normal.name,
    text: back !== undefined && 'name' in back && back.name === normal.name ? unicode : normal.name,
  };
}

/**
 * The order domains are written in: by their labels read from the right (ASCII form), so
 * a parent always comes before its subdomains and a domain's family stays together
 * (`alice.example`, `shop.alice.example`, `bob.example`). Code-unit comparison: the same
 * everywhere, whatever the locale.
 */
export function domainOrder(a: string, b: string): number {
  const la = a.split('.').reverse();
  const lb = b.split('.').reverse();
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const c = compare(la[i] ?? '', lb[i] ?? '');
    if (c !== 0) return c;
  }
  return la.length - lb.length;
}

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

/** The live panel as a domain's facts look it up. */
export interface DomainFactIndex extends Pick<ClientFactIndex, 'clients'> {
  readonly domains: ReadonlyMap<string, LiveDomain>;
  /** Client id → username, to name an owner. */
  readonly usernames: ReadonlyMap<number, string>;
  /** The domains of `owner` under `name` (system domains not counted), sorted. */
  subdomains(name: string, owner: number): readonly string[];
}

/**
 * The facts a domain's change depends on, in this order:
 * - a create: `domain:<name>` absent; an existing owner: `owner:<name>` `id:<n>`;
 * - a delete: its subdomains (`subdomains:<name>`), and `domain-record:<name>` with its id and
 *   owner.
 */
export function domainFacts(change: DomainChange): Fact<DomainFactIndex>[] {
  switch (change.action) {
    case 'create': {
      const { name, client, clientId } = change;
      const facts: Fact<DomainFactIndex>[] = [
        {
          key: `domain:${name}`,
          expected: 'absent',
          actual: (live) => {
            const domain = live.domains.get(name);
            return domain === undefined ? 'absent' : `owner:${domain.idUser}`;
          },
          reason: (actual, live) =>
            `domain ${quote(name)} now exists on the panel (${ownerText(Number(valueOf(actual)), live)}); ` +
            'the plan would create it',
        },
      ];
      if (clientId !== null) facts.push(existingClient(client, clientId, 'owner', 'which the plan adds domains to'));
      return facts;
    }
    case 'delete': {
      const { name, domainId, clientId, subdomains } = change;
      const expected = `id:${domainId},owner:${clientId}`;
      const below = namesFact(subdomains);
      return [
        {
          key: `subdomains:${name}`,
          expected: below,
          actual: (live) => namesFact(live.subdomains(name, clientId)),
          reason: (actual) =>
            `the subdomains of ${quote(name)}, which the plan deletes, changed: ${namesDifference(below, actual)}`,
        },
        {
          key: `domain-record:${name}`,
          expected,
          actual: (live) => {
            const domain = live.domains.get(name);
            return domain === undefined ? 'absent' : `id:${domain.id},owner:${domain.idUser}`;
          },
          reason: (actual, live) => {
            if (actual === 'absent') return `domain ${quote(name)}, which the plan deletes, is no longer on the panel`;
            const domain = live.domains.get(name);
            return domain === undefined || domain.id !== domainId
              ? `domain ${quote(name)} was made again on the panel ` +
                  `(id ${domain?.id ?? '?'}; the plan deletes id ${domainId})`
              : `domain ${quote(name)} now belongs to ${ownerText(domain.idUser, live)}; ` +
                  `the plan deletes it from client id ${clientId}`;
          },
        },
      ];
    }
    default:
      return assertNever(change);
  }
}

function ownerText(id: number, live: DomainFactIndex): string {
  const owner = live.usernames.get(id);
  return owner === undefined ? `client id ${id}` : `client ${quote(owner)}`;
}
