/**
 * The panel's records as apply looks them up (kinds/apply.ts PanelLookUps): the reads a room's
 * changes are read back and built from, each the panel's own (read.ts, object-reads.ts).
 */
import type { PanelLookUps } from '../kinds/apply.js';
import type { PanelClient } from './client.js';
import { readRecords } from './list-read.js';
import { DOMAIN_RECORD } from '../kinds/domain/read.js';
import { HOSTING_PLAN_RECORD } from '../kinds/hosting-plan/read.js';
import { PanelHttpError } from './errors.js';
import { readById } from './object-reads.js';
import { findClientById, findDomain, findHostingPlan } from './reader.js';
import { parseClientRecord } from '../kinds/client/read.js';

/** The look-ups of `panel`, none through a slot (the caller runs each through one). */
export function panelLookUps(panel: PanelClient): PanelLookUps {
  return {
    clientById: (id) => findClientById(panel, id),
    domainById: (id) => readById(panel, DOMAIN_RECORD, id),
    domainNamed: (name) => findDomain(panel, name),
    hostingPlanById: (id) => readById(panel, HOSTING_PLAN_RECORD, id),
    hostingPlanNamed: (name) => findHostingPlan(panel, name),
    clients: () => readRecords(panel, '/clients', parseClientRecord),
    recordById: async (read, id) => {
      try {
        return await readById(panel, read, id);
      } catch (error) {
        if (error instanceof PanelHttpError && error.status === 404) return undefined;
        throw error;
      }
    },
  };
}
