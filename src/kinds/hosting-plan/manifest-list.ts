/**
 * The manifest's hosting plans as the manifest stage reads them (manifest/load.ts, parts.ts): the
 * list, and the clients' `plan` checked against it. Pure: the stage hands in where things stand
 * in its source (its Locator, manifest/locate.ts).
 */
import { quote } from '../../escape.js';
import { placeOf } from '../../util.js';
import type { WantedHostingPlan } from './diff-rule.js';
import { absentPlanUsed, HOSTING_PLANS_KEY, PLAN_NAME_KEY, planItem, planListedAgain } from './manifest.js';
import type { PlacedProblem, SectionPlace as Place } from '../section.js';

type Problem<L extends Place> = PlacedProblem<L>;

/** What the list needs of the manifest's source: its nodes `F` by key or index, and their places `L`. */
export interface PlanListSource<F, L extends Place> {
  /** The document's top node, when there is one. */
  root(): F | undefined;
  /** The child of `from` under a key or index. */
  step(from: F, key: string | number): F | undefined;
  /** Where a message about a node should point. */
  at(found: F): L;
}

/** Where a problem at `path` below `node` stands (at its key when `atKey`): manifest/locate.ts locateIn. */
export type LocateIn<F, L extends Place> = (node: F, path: readonly (string | number)[], atKey: boolean) => L;

/** A hosting plan the manifest defines, where its name stands (manifest/types.ts DesiredHostingPlan). */
export interface ListedHostingPlan<L extends Place> extends WantedHostingPlan {
  readonly loc: L;
}

/**
 * The manifest's top-level `hosting_plans` as Desired.hostingPlans: each item the schema accepted
 * (read and checked by the plan's room, src/kinds/hosting-plan/manifest.ts: each problem at its
 * path in the item) in manifest order, located at its name; a name listed twice is an error at
 * the second, naming the first's line. Undefined when the manifest lists none. The same for the
 * whole read and the chunked one (whose top level holds the list). Problems go to `diagnostics`.
 */
export function buildHostingPlans<F, L extends Place>(
  data: unknown,
  source: PlanListSource<F, L>,
  diagnostics: Problem<L>[],
  locate: LocateIn<F, L>,
): ListedHostingPlan<L>[] | undefined {
  const list = (data as Record<string, unknown> | null)?.[HOSTING_PLANS_KEY];
  const root = source.root();
  const listNode = root && source.step(root, HOSTING_PLANS_KEY);
  if (!Array.isArray(list) || listNode === undefined || list.length === 0) return undefined;
  const plans: ListedHostingPlan<L>[] = [];
  const first = new Map<string, L>();
  list.forEach((item: unknown, i) => {
    const node = source.step(listNode, i);
    if (node === undefined) return;
    const { plan, problems } = planItem(item, i);
    for (const { path, atKey, ...problem } of problems)
      diagnostics.push({ ...locate(node, path, atKey === true), ...problem });
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
export function checkClientPlans<L extends Place>(
  clients: readonly {
    readonly username: string;
    readonly plan?: string | undefined;
    readonly planLoc?: L | undefined;
    readonly loc?: L | undefined;
  }[],
  plans:
    | readonly { readonly name: string; readonly state: 'present' | 'absent'; readonly loc?: L | undefined }[]
    | undefined,
  file: string,
  diagnostics: Problem<Place>[],
): void {
  const absent = new Map<string, L | undefined>();
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
