/**
 * What a saved plan's fingerprint covers for a domain's changes (plan/fingerprint.ts gathers
 * the facts of every change and hashes them). Pure.
 */
import { quote } from '../../escape.js';
import { assertNever } from '../../util.js';
import { type ClientFactIndex, existingClient } from '../client/index.js';
import { type Fact, namesDifference, namesFact, valueOf } from '../facts.js';
import type { DomainChange } from './changes.js';
import type { LiveDomain } from './record.js';

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
