import { type LocatedProblem, ProvisionError } from '../errors.js';
import type { Desired } from '../manifest/types.js';
import { quote } from '../escape.js';
import { plural } from '../util.js';
import type { Change } from './types.js';

/**
 * In a run scoped by --clients, which leaves hosting plans alone: a client created on, or moved
 * to, a plan the manifest changes would get the panel's copy of the plan as it is now, and keep it
 * (the panel copies a plan into a client when it is assigned). Refused, as a plan the panel
 * lacks is: the run without --clients changes the plan first.
 */
export function refuseStalePlanCopies(
  clientChanges: readonly Change[],
  planChanges: readonly Change[],
  desired: Desired,
): void {
  const changed = new Set(planChanges.map((c) => c.name));
  const waiting = clientChanges.flatMap((c) =>
    c.type === 'client' && c.action !== 'delete' && c.hostingPlan !== undefined && changed.has(c.hostingPlan.name)
      ? [{ client: c.name, message: `client ${quote(c.name)} on hosting plan ${quote(c.hostingPlan.name)}` }]
      : [],
  );
  if (waiting.length === 0) return;
  // Each at the client's `plan:` in the manifest (an annotation on its line under GitHub Actions).
  const located: LocatedProblem[] = [];
  const details: string[] = [];
  for (const { client, message } of waiting) {
    const wanted = desired.clients.find((c) => c.username === client);
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
