/**
 * What a saved plan's fingerprint covers for a hosting plan's changes (plan/fingerprint.ts
 * gathers the facts of every change and hashes them). Pure.
 */
import { quote } from '../../escape.js';
import { assertNever, canonical, type JsonObject } from '../../util.js';
import type { LiveHostingPlan } from '../common.js';
import { type Fact, idFact, namesDifference, namesFact, valueOf } from '../facts.js';
import type { HostingPlanChange } from './changes.js';
import { clientsOnPlan } from './diff.js';
import type { PlanObject } from './fields.js';

/** The live panel as a plan's facts look it up. */
export interface HostingPlanFactIndex {
  /** The panel's plans by name. */
  readonly plansByName: ReadonlyMap<string, LiveHostingPlan>;
  /** The clients, to tell who is on a plan. */
  readonly clientList: readonly { readonly username: string; readonly idHostingPlan?: number | null | undefined }[];
}

/**
 * The facts a plan's change depends on:
 * - a create: `plan-record:<name>` absent;
 * - an update: `plan-record:<name>` `id:<n>`, each object it sends whole as it would be sent now
 *   (`plan-object:<name>:<object>`: a key changed in the panel after review makes it stale);
 * - a delete: `plan-record:<name>` `id:<n>`, and who is on it (`plan-clients:<name>`: the clients
 *   the same plan deletes or moves off, none else).
 */
export function hostingPlanFacts(change: HostingPlanChange): Fact<HostingPlanFactIndex>[] {
  const { name } = change;
  const record = (expected: string, does: string): Fact<HostingPlanFactIndex> => ({
    topic: 'plan-record',
    subject: name,
    expected,
    actual: (live) => idFact(live.plansByName.get(name)?.id),
    reason: (actual) =>
      actual === 'absent'
        ? `hosting plan ${quote(name)}, which the plan ${does}, is no longer on the panel`
        : expected === 'absent'
          ? `hosting plan ${quote(name)} now exists on the panel (id ${valueOf(actual)}); the plan would create it`
          : `hosting plan ${quote(name)} now has id ${valueOf(actual)}; the plan ${does} id ${valueOf(expected)}`,
  });
  switch (change.action) {
    case 'create':
      return [record('absent', 'creates')];
    case 'update': {
      const facts = [record(idFact(change.planId), 'updates')];
      for (const [object, sent] of Object.entries(change.body) as [PlanObject, JsonObject][]) {
        const mine = Object.fromEntries(
          change.fields
            .filter((f) => f.field.startsWith(`${object}.`))
            .map((f) => [f.field.slice(object.length + 1), f.after]),
        );
        facts.push({
          topic: 'plan-object',
          subject: `${name}:${object}`,
          expected: canonical(sent),
          actual: (live) => {
            const now = live.plansByName.get(name)?.objects?.[object];
            return now === undefined ? 'absent' : canonical({ ...now, ...mine });
          },
          reason: () =>
            `hosting plan ${quote(name)}'s ${object} changed on the panel since the plan was made ` +
            '(keys the plan sends back as they were): it would undo that change',
        });
      }
      return facts;
    }
    case 'delete':
      return [
        record(idFact(change.planId), 'deletes'),
        {
          topic: 'plan-clients',
          subject: name,
          expected: namesFact(change.leaving),
          actual: (live) => {
            const id = live.plansByName.get(name)?.id;
            return namesFact(id === undefined ? [] : clientsOnPlan(id, live.clientList));
          },
          reason: (actual) =>
            `the clients on hosting plan ${quote(name)} changed: ${namesDifference(namesFact(change.leaving), actual)}`,
        },
      ];
    default:
      return assertNever(change);
  }
}
