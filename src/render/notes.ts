/**
 * What a change does beyond its own lines, as each kind's room words it: what a delete takes
 * with it, and the notes a change's lines carry in the pull-request comment. Pure.
 */
import { CLIENT_DELETE_TAKES } from '../kinds/client/index.js';
import { DOMAIN_DELETE_TAKES } from '../kinds/domain.js';
import { HOSTING_PLAN_DELETE_TAKES, hostingPlanNote } from '../kinds/hosting-plan.js';
import { zoneNotes } from '../kinds/zone.js';
import type { Change } from '../plan/types.js';
import { assertNever } from '../util.js';

/**
 * What a delete of the change's kind takes with it, as its kind's room says it: `a client with
 * its domains, mail, databases and files`, a domain with its zone, a hosting plan alone.
 */
export function deleteTakes(change: Extract<Change, { action: 'delete' }>): string {
  switch (change.type) {
    case 'client':
      return CLIENT_DELETE_TAKES;
    case 'domain':
      return DOMAIN_DELETE_TAKES;
    case 'hosting_plan':
      return HOSTING_PLAN_DELETE_TAKES;
    default:
      return assertNever(change);
  }
}

/**
 * What a change does beyond what its lines say, one sentence each: a zone's write (it becomes
 * custom; a new domain's defaults), a plan's update (its clients keep their copied values).
 */
export function changeNotes(change: Change): string[] {
  switch (change.type) {
    case 'client':
    case 'domain':
      return [];
    case 'dns_zone':
      return zoneNotes(change);
    case 'hosting_plan': {
      const note = hostingPlanNote(change);
      return note === undefined ? [] : [note];
    }
    default:
      return assertNever(change);
  }
}
