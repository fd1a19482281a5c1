/**
 * What a saved plan's fingerprint covers for a domain's changes (plan/fingerprint.ts gathers
 * the facts of every change and hashes them). Pure.
 */
import { quote } from '../../escape.js';
import { assertNever, canonical } from '../../util.js';
import { type ClientFactIndex, existingClient } from '../client/index.js';
import { type Fact, namesDifference, namesFact, valueOf } from '../facts.js';
import type { DomainChange } from './changes.js';
import type { LiveDomain } from './record.js';
import { settingBefore, type SettingObject, settingRow, settingsBody } from './settings.js';

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
 * - a create: `domain:<name>` absent; an existing owner: `owner:<name>` `id:<n>`; a parent on
 *   the panel (`id_parent_domain`): `domain-parent:<name>` with the parent's id and owner;
 * - an update: `domain-record:<name>` with its id and owner, each setting's value before
 *   (`domain-setting:<name>:<field>`, as settingBefore reads it: `true` for HSTS or forwarding on
 *   whose details do not read), and each nested object it sends whole
 *   (`domain-object:<name>:<object>`, as it would be sent now): a key no manifest manages that
 *   was changed in the panel after review makes the plan stale instead of being sent back;
 * - a delete: its subdomains (`subdomains:<name>`), and `domain-record:<name>` with its id and
 *   owner.
 */
export function domainFacts(change: DomainChange): Fact<DomainFactIndex>[] {
  switch (change.action) {
    case 'create': {
      const { name, client, clientId } = change;
      const facts: Fact<DomainFactIndex>[] = [
        {
          topic: 'domain',
          subject: name,
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
      const above = change.parentDomain;
      if (above?.id != null && clientId !== null) {
        // The request names the parent by id: one deleted and made again is another domain.
        const parentId = above.id;
        facts.push({
          topic: 'domain-parent',
          subject: name,
          expected: `id:${parentId},owner:${clientId}`,
          actual: (live) => {
            const domain = live.domains.get(above.name);
            return domain === undefined ? 'absent' : `id:${domain.id},owner:${domain.idUser}`;
          },
          reason: (actual) =>
            actual === 'absent'
              ? `domain ${quote(above.name)}, the parent the plan creates ${quote(name)} under, is no longer on the panel`
              : `domain ${quote(above.name)}, the parent the plan creates ${quote(name)} under, is now ${actual} ` +
                `(the plan names id ${parentId} of client id ${clientId})`,
        });
      }
      return facts;
    }
    case 'update': {
      const { name, domainId, clientId, fields, body } = change;
      const facts: Fact<DomainFactIndex>[] = [domainRecord(name, domainId, clientId, 'updates')];
      for (const f of fields) {
        const row = settingRow(f.field);
        const expected = JSON.stringify(f.before);
        facts.push({
          topic: 'domain-setting',
          subject: `${name}:${f.field}`,
          expected,
          actual: (live) => {
            const domain = live.domains.get(name);
            if (domain === undefined) return 'absent';
            const now = settingBefore(row, domain.settings ?? {});
            return now === undefined ? 'unknown' : JSON.stringify(now);
          },
          reason: (actual) =>
            `domain ${quote(name)}'s ${f.field} is now ${actual === 'absent' ? 'gone' : actual}; ` +
            `the plan was made when it was ${expected}`,
        });
      }
      for (const object of ['security', 'target'] as const satisfies readonly SettingObject[]) {
        const sent = body[object];
        if (sent === undefined) continue;
        const mine = fields.filter((f) => settingRow(f.field).object === object);
        facts.push({
          topic: 'domain-object',
          subject: `${name}:${object}`,
          expected: canonical(sent),
          actual: (live) => {
            const settings = live.domains.get(name)?.settings;
            return settings?.[object] === undefined ? 'absent' : canonical(settingsBody(mine, settings)[object]);
          },
          reason: (actual) =>
            actual === 'absent'
              ? `domain ${quote(name)}'s record no longer shows its ${object} settings, which the plan sends whole`
              : `domain ${quote(name)}'s ${object} settings changed on the panel since the plan was made ` +
                '(keys the plan sends back as they were): it would undo that change',
        });
      }
      return facts;
    }
    case 'delete': {
      const { name, domainId, clientId, subdomains } = change;
      const below = namesFact(subdomains);
      return [
        {
          topic: 'subdomains',
          subject: name,
          expected: below,
          actual: (live) => namesFact(live.subdomains(name, clientId)),
          reason: (actual) =>
            `the subdomains of ${quote(name)}, which the plan deletes, changed: ${namesDifference(below, actual)}`,
        },
        domainRecord(name, domainId, clientId, 'deletes'),
      ];
    }
    default:
      return assertNever(change);
  }
}

/** `domain-record:<name>` is `id:<n>,owner:<n>`: the domain the plan updates or deletes is still that one. */
function domainRecord(
  name: string,
  domainId: number,
  clientId: number,
  does: 'updates' | 'deletes',
): Fact<DomainFactIndex> {
  return {
    topic: 'domain-record',
    subject: name,
    expected: `id:${domainId},owner:${clientId}`,
    actual: (live) => {
      const domain = live.domains.get(name);
      return domain === undefined ? 'absent' : `id:${domain.id},owner:${domain.idUser}`;
    },
    reason: (actual, live) => {
      if (actual === 'absent') return `domain ${quote(name)}, which the plan ${does}, is no longer on the panel`;
      const domain = live.domains.get(name);
      const from = does === 'deletes' ? 'deletes it from' : 'updates it for';
      return domain === undefined || domain.id !== domainId
        ? `domain ${quote(name)} was made again on the panel (id ${domain?.id ?? '?'}; the plan ${does} id ${domainId})`
        : `domain ${quote(name)} now belongs to ${ownerText(domain.idUser, live)}; the plan ${from} client id ${clientId}`;
    },
  };
}

function ownerText(id: number, live: DomainFactIndex): string {
  const owner = live.usernames.get(id);
  return owner === undefined ? `client id ${id}` : `client ${quote(owner)}`;
}
