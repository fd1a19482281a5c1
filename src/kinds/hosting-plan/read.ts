/** A hosting plan's record as the panel answers it, read and checked. Pure: no I/O. */
import type { LiveHostingPlan } from '../common.js';
import { asRecord, integer, nonEmptyString, type RecordRead } from '../panel-record.js';
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
