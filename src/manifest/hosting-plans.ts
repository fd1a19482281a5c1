import { quote } from '../escape.js';
import { placeOf } from '../util.js';
import { type Locator, locateIn } from './locate.js';
import type { DesiredClient, DesiredHostingPlan, Diagnostic, Location } from './types.js';
import {
  absentPlanUsed,
  HOSTING_PLANS_KEY,
  PLAN_NAME_KEY,
  planItem,
  planListedAgain,
} from '../kinds/hosting-plan/manifest.js';

/**
 * The manifest's top-level `hosting_plans` as Desired.hostingPlans: each item the schema accepted
 * (read and checked by the plan's room, src/kinds/hosting-plan/manifest.ts: each problem at its
 * path in the item) in manifest order, located at its name; a name listed twice is an error at
 * the second, naming the first's line. Undefined when the manifest lists none. The same for the
 * whole read and the chunked one (whose top level holds the list). Problems go to `diagnostics`.
 */
export function buildHostingPlans<N>(
  data: unknown,
  source: Locator<N>,
  diagnostics: Diagnostic[],
): DesiredHostingPlan[] | undefined {
  const list = (data as Record<string, unknown> | null)?.[HOSTING_PLANS_KEY];
  const root = source.root();
  const listNode = root && source.step(root, HOSTING_PLANS_KEY);
  if (!Array.isArray(list) || listNode === undefined || list.length === 0) return undefined;
  const plans: DesiredHostingPlan[] = [];
  const first = new Map<string, Location>();
  list.forEach((item: unknown, i) => {
    const node = source.step(listNode, i);
    if (node === undefined) return;
    const { plan, problems } = planItem(item, i);
    for (const { path, atKey, ...problem } of problems)
      diagnostics.push({ ...locateIn(source, node, path, atKey === true), ...problem });
    if (plan === undefined) return; // the schema check reported it
    const loc = source.at(source.step(node, PLAN_NAME_KEY) ?? node);
    const earlier = first.get(plan.name);
    if (earlier === undefined) first.set(plan.name, loc);
    else
      diagnostics.push({ ...loc, severity: 'error', message: planListedAgain(plan.name, placeOf(earlier, loc.file)) });
    plans.push({ name: plan.name, state: plan.state, wants: plan.wants, loc });
  });
  return plans;
}

/**
 * A client's `plan` naming a plan the manifest marks `state: absent` is an error at the
 * client's plan value: the plan would be deleted, or refused for being in use.
 */
export function checkClientPlans(
  clients: readonly DesiredClient[],
  plans: readonly DesiredHostingPlan[] | undefined,
  file: string,
  diagnostics: Diagnostic[],
): void {
  const absent = new Map<string, Location | undefined>();
  for (const plan of plans ?? [])
    if (plan.state === 'absent' && !absent.has(plan.name)) absent.set(plan.name, plan.loc);
  if (absent.size === 0) return;
  for (const client of clients) {
    if (client.plan === undefined || !absent.has(client.plan)) continue;
    const at = client.planLoc ?? client.loc ?? { file, line: 1, column: 1 };
    const plan = absent.get(client.plan) ?? { file, line: 1 };
    diagnostics.push({
      ...at,
      severity: 'error',
      message: absentPlanUsed(client.plan, `client ${quote(client.username)}`, placeOf(plan, at.file)),
    });
  }
}
