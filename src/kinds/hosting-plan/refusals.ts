/**
 * What the planner refuses of hosting plans before it plans anything (ProvisionError, each
 * problem at the manifest line it comes from): a client on a plan the panel lacks and the run
 * does not create, and, in a run scoped by --clients, a client put on a plan the manifest changes.
 * Pure: the planner hands in the plans it knows.
 */
import { type LocatedProblem, ProvisionError } from '../../errors.js';
import { quote } from '../../escape.js';
import { closest } from '../../names.js';
import { plural } from '../../util.js';
import type { ClientMove } from './diff-rule.js';
import type { SectionPlace as Place } from '../section.js';

/** A client of the manifest, as these refusals read it. */
export interface PlanClient {
  readonly username: string;
  /** The plan it names, as written. */
  readonly plan?: string | undefined;
  /** Where the `plan:` value stands. */
  readonly planLoc?: Place | undefined;
  readonly loc?: Place | undefined;
}

/** The plans a run knows of: the panel's by name, and whether the run creates one. */
export interface KnownPlans {
  byName(name: string): unknown;
  creates?(name: string): boolean;
}

/**
 * Throws unknown_hosting_plan when `clients` name plans neither the panel has nor the run creates
 * (all of them at once, each at its location, with the closest name). `onPanel`: the panel's
 * plan names. `leftAlone`: in a scoped run, the plans the manifest defines (one of them named:
 * run without --clients first).
 */
export function refuseUnknownPlans(
  clients: readonly PlanClient[],
  plans: KnownPlans,
  onPanel: readonly { readonly name: string }[],
  leftAlone: readonly { readonly name: string }[] | undefined,
): void {
  const unknown = new Map<string, Place | undefined>();
  for (const client of clients) {
    if (
      client.plan !== undefined &&
      plans.byName(client.plan) === undefined &&
      plans.creates?.(client.plan) !== true &&
      !unknown.has(client.plan)
    ) {
      unknown.set(client.plan, client.planLoc);
    }
  }
  if (unknown.size === 0) return;
  const available = [...new Set(onPanel.map((p) => p.name))].sort();
  const details: string[] = [];
  const located: LocatedProblem[] = [];
  for (const [name, loc] of unknown) {
    const suggestion = closest(name, available);
    const message =
      `hosting plan ${quote(name)} is not on the panel` +
      (suggestion === undefined ? '' : `: did you mean ${quote(suggestion)}?`);
    if (loc === undefined) details.push(message);
    else located.push({ file: loc.file, line: loc.line, column: loc.column, message });
  }
  throw new ProvisionError(
    'unknown_hosting_plan',
    unknown.size === 1
      ? 'the manifest names a hosting plan the panel does not have'
      : `the manifest names ${unknown.size} hosting plans the panel does not have`,
    {
      details,
      located,
      hint: [...unknown.keys()].some((name) => leftAlone?.some((p) => p.name === name) === true)
        ? 'the manifest defines it, and a run scoped by --clients leaves hosting plans alone: ' +
          'apply without --clients first, which creates it'
        : available.length === 0
          ? 'the panel has no hosting plans: create one, or leave "plan" out'
          : `the panel has: ${available.map((n) => quote(n)).join(', ')} (names are case-sensitive)`,
    },
  );
}

/**
 * In a run scoped by --clients, which leaves hosting plans alone: a client created on, or moved
 * to, a plan the manifest changes would get the panel's copy of the plan as it is now, and keep it
 * (the panel copies a plan into a client when it is assigned). Refused, as a plan the panel
 * lacks is: the run without --clients changes the plan first.
 */
export function refuseStalePlanCopies(
  clientChanges: readonly ClientMove[],
  planChanges: readonly { readonly name: string }[],
  clients: readonly PlanClient[],
): void {
  const changed = new Set(planChanges.map((c) => c.name));
  const waiting = clientChanges.flatMap((c) =>
    c.action !== 'delete' && c.hostingPlan !== undefined && changed.has(c.hostingPlan.name)
      ? [{ client: c.name, message: `client ${quote(c.name)} on hosting plan ${quote(c.hostingPlan.name)}` }]
      : [],
  );
  if (waiting.length === 0) return;
  // Each at the client's `plan:` in the manifest (an annotation on its line under GitHub Actions).
  const located: LocatedProblem[] = [];
  const details: string[] = [];
  for (const { client, message } of waiting) {
    const wanted = clients.find((c) => c.username === client);
    const at = wanted?.planLoc ?? wanted?.loc;
    if (at === undefined) details.push(message);
    else located.push({ file: at.file, line: at.line, column: at.column, message });
  }
  throw new ProvisionError(
    'plan_conflict',
    `a run scoped by --clients leaves hosting plans alone, and the manifest changes the plan ${plural(waiting.length, 'client')} would be put on: nothing was planned`,
    {
      details,
      located,
      hint:
        'the panel copies a plan into a client when it is assigned, so the client would keep the old values: ' +
        'apply without --clients first (it changes the plan, then the client), or leave the client on its plan',
    },
  );
}
