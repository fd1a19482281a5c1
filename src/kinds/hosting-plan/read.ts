/** A hosting plan's record as the panel answers it, read and checked, and the plans' list read. Pure: no I/O. */
import type { LiveHostingPlan } from '../common.js';
import { asRecord, integer, nonEmptyString, type RecordRead } from '../panel-record.js';
import { type KindRead, notAsked, type PanelListReader, unique } from '../read.js';
import { quote } from '../../escape.js';
import type { JsonObject } from '../../util.js';
import { readPlanObjects } from './fields.js';

/**
 * One hosting plan record: integer id, string name, and its nested objects as read (never a
 * contract error: a plan no manifest manages must not stop the plan). `where` names it in errors
 * ('GET /api/v2/hosting-plans[3]').
 */
export function parseHostingPlanRecord(record: unknown, where: string): LiveHostingPlan {
  const r = asRecord(record, where);
  const objects = readPlanObjects(r);
  return {
    id: integer(r, 'id', where),
    name: nonEmptyString(r, 'name', where),
    ...(objects === undefined ? {} : { objects }),
  };
}

/** A plan read by its id: `GET /hosting-plans/{id}`. */
export const HOSTING_PLAN_RECORD: RecordRead<LiveHostingPlan> = {
  path: (id) => `/hosting-plans/${id}`,
  parse: parseHostingPlanRecord,
};

/** The hosting plans as one read of the panel holds them (Live, src/kinds/index.ts). */
export type HostingPlansPart = readonly LiveHostingPlan[];

/** The plans' list read (Kind.read): GET /hosting-plans, always; ids and names unique. */
export const HOSTING_PLAN_READ: KindRead<HostingPlansPart, object, object> = {
  after: [],
  needed: () => true,
  empty: [],
  list: (panel) => panel.list('/hosting-plans', parseHostingPlanRecord),
  check: (plans, panel) => {
    const where = panel.describe('GET', '/hosting-plans');
    unique(plans, (p) => p.id, where, 'id');
    unique(plans, (p) => p.name, where, 'name');
    return Promise.resolve();
  },
  snapshot: {
    write: (plans) => ({ hosting_plans: plans.map(planRecord) }),
    read: (reading) =>
      reading.list('hosting_plans').map((r, i) => parseHostingPlanRecord(r, `${reading.at('hosting_plans')}[${i}]`)),
  },
};

/** A hosting plan in the panel's shape, as a snapshot holds it: id, name, its nested objects as read. */
function planRecord(plan: LiveHostingPlan): JsonObject {
  return { id: plan.id, name: plan.name, ...plan.objects };
}

/**
 * GET /hosting-plans/name/<name>, parsed; undefined when absent; a record for another name is a
 * contract error (names are compared exactly: they are case-sensitive, and may hold spaces).
 */
export async function findHostingPlan(
  panel: Pick<PanelListReader, 'findByName' | 'describe'>,
  name: string,
): Promise<LiveHostingPlan | undefined> {
  const where = panel.describe('GET', `/hosting-plans/name/${encodeURIComponent(name)}`);
  const found = await panel.findByName('hosting-plans', name);
  if (found === undefined) return undefined;
  const record = parseHostingPlanRecord(found, where);
  if (record.name !== name) throw notAsked(where, `hosting plan ${quote(record.name)} (id ${record.id})`);
  return record;
}
