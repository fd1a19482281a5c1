/** The hosting plan's doctor check (Kind.doctor; docs/doctor.md, "key accepted", "list shapes"): its list, read first. */
import { HOSTING_PLAN_NOUN } from './changes.js';
import type { KindDoctor } from '../doctor.js';
import { parseHostingPlanRecord } from './read.js';

/** GET /hosting-plans read whole, first: only a list read proves the key. No line of its own. */
export const HOSTING_PLAN_DOCTOR: KindDoctor = {
  list: { path: '/hosting-plans', noun: HOSTING_PLAN_NOUN, parse: parseHostingPlanRecord, provesKey: true },
};
