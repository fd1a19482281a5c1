/**
 * The panel's records as apply looks them up (kinds/apply.ts PanelLookUps): the reads a room's
 * changes are read back and built from, each the panel's own (read.ts, object-reads.ts).
 */
import type { PanelLookUps } from '../kinds/apply.js';
import type { PanelClient } from './client.js';
import { readRecords } from './list-read.js';
import { readDomainById, readHostingPlanById } from './object-reads.js';
import { findClientById, findDomain, findHostingPlan } from './read.js';
import { parseClientRecord } from './records.js';

/** The look-ups of `panel`, none through a slot (the caller runs each through one). */
export function panelLookUps(panel: PanelClient): PanelLookUps {
  return {
    clientById: (id) => findClientById(panel, id),
    domainById: (id) => readDomainById(panel, id),
    domainNamed: (name) => findDomain(panel, name),
    hostingPlanById: (id) => readHostingPlanById(panel, id),
    hostingPlanNamed: (name) => findHostingPlan(panel, name),
    clients: () => readRecords(panel, '/clients', parseClientRecord),
  };
}
