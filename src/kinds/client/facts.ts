/**
 * What a saved plan's fingerprint covers for a client's changes (plan/fingerprint.ts gathers
 * the facts of every change and hashes them). Pure.
 */
import { quote } from '../../escape.js';
import { assertNever } from '../../util.js';
import type { HostingPlanRef } from '../common.js';
import { type Fact, idFact, namesDifference, namesFact, valueOf } from '../facts.js';
import type { ClientChange } from './changes.js';
import { type ClientField, clientField, type HostingPlans, liveValue } from './fields.js';
import type { LiveClient } from './record.js';

/** The live panel as a client's facts look it up. */
export interface ClientFactIndex {
  readonly clients: ReadonlyMap<string, LiveClient>;
  /** The hosting plans, as a managed field's value is compared and printed by. */
  readonly plans: HostingPlans;
  /** The names of a client's domains (by id), system domains not counted, sorted. */
  domainNamesOf(clientId: number): readonly string[];
  /** Whether the domains are the panel's whole list. */
  readonly complete: boolean;
}

/**
 * The facts a client's change depends on, in this order:
 * - a create: `client:<name>` absent; the hosting plan it names: `hosting-plan:<name>` `id:<n>`;
 * - an update: `client:<name>` `id:<n>`, each field's value before (`field:<name>:<field>`),
 *   and the hosting plan it moves to;
 * - a delete: `client:<name>` `id:<n>`, and the domains that go with it
 *   (`client-domains:<name>`): a domain added since would be deleted unreviewed.
 */
export function clientFacts(change: ClientChange): Fact<ClientFactIndex>[] {
  switch (change.action) {
    case 'create':
      return [
        absentClient(change.name),
        ...(change.hostingPlan === undefined || change.hostingPlan.id === null
          ? []
          : [hostingPlanFact(change.hostingPlan)]),
      ];
    case 'update': {
      const { name, clientId } = change;
      const facts: Fact<ClientFactIndex>[] = [existingClient(name, clientId, 'client', 'which the plan updates')];
      for (const field of change.fields) {
        const expected = JSON.stringify(field.before);
        facts.push({
          topic: 'field',
          subject: `${name}:${field.field}`,
          expected,
          actual: (live) => {
            const client = live.clients.get(name);
            return client === undefined ? 'absent' : fieldFact(client, field.field, live.plans);
          },
          reason: (actual) =>
            `client ${quote(name)}'s ${field.field} is now ${actual === 'absent' ? 'gone' : actual}; ` +
            `the plan was made when it was ${expected}`,
        });
      }
      // A plan the run creates: its create's facts say it is still absent.
      if (change.hostingPlan !== undefined && change.hostingPlan.id !== null)
        facts.push(hostingPlanFact(change.hostingPlan));
      return facts;
    }
    case 'delete': {
      const { name, clientId, domainNames } = change;
      const expected = namesFact(domainNames);
      return [
        existingClient(name, clientId, 'client', 'which the plan deletes'),
        {
          topic: 'client-domains',
          subject: name,
          expected,
          actual: (live) => namesFact(live.complete ? live.domainNamesOf(live.clients.get(name)?.id ?? -1) : null),
          reason: (actual) =>
            `the domains that go with client ${quote(name)} changed: ${namesDifference(expected, actual)}`,
        },
      ];
    }
    default:
      return assertNever(change);
  }
}

function absentClient(name: string): Fact<ClientFactIndex> {
  return {
    topic: 'client',
    subject: name,
    expected: 'absent',
    actual: (live) => idFact(live.clients.get(name)?.id),
    reason: (actual) =>
      `client ${quote(name)} now exists on the panel (id ${valueOf(actual)}); the plan would create it`,
  };
}

/**
 * `prefix:<name>` is `id:<clientId>`: the client is still there, under the same id (a domain's
 * create names its owner so).
 */
export function existingClient(
  name: string,
  clientId: number,
  prefix: 'client' | 'owner',
  role: string,
): Fact<Pick<ClientFactIndex, 'clients'>> {
  return {
    topic: prefix,
    subject: name,
    expected: idFact(clientId),
    actual: (live) => idFact(live.clients.get(name)?.id),
    reason: (actual) =>
      actual === 'absent'
        ? `client ${quote(name)} (id ${clientId}), ${role}, is no longer on the panel`
        : `client ${quote(name)} now has id ${valueOf(actual)}; the plan says ${clientId}`,
  };
}

function hostingPlanFact(plan: HostingPlanRef): Fact<ClientFactIndex> {
  return {
    topic: 'hosting-plan',
    subject: plan.name,
    expected: idFact(plan.id ?? undefined),
    actual: (live) => idFact(live.plans.byName(plan.name)?.id),
    reason: (actual) =>
      actual === 'absent'
        ? `hosting plan ${quote(plan.name)} is no longer on the panel`
        : `hosting plan ${quote(plan.name)} now has id ${valueOf(actual)}; the plan says ${plan.id}`,
  };
}

/**
 * A managed field of a live client as a saved plan's fingerprint holds it: the update's
 * `before` as JSON, or `unknown` when the record lacks the field.
 */
export function fieldFact(client: LiveClient, field: ClientField, plans: HostingPlans): string {
  const row = clientField(field);
  const now = liveValue(row, client);
  return now === undefined ? 'unknown' : JSON.stringify(row.before(now, plans));
}
