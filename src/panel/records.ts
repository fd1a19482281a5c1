/**
 * The panel's records, read one by one: each kind's reader is in its room (its read.ts under src/kinds),
 * over the helpers of src/kinds/panel-record.ts; re-exported here for the stages that read them.
 */
export { parseClientRecord } from '../kinds/client/read.js';
export { parseDomainRecord } from '../kinds/domain/read.js';
export { parseHostingPlanRecord } from '../kinds/hosting-plan/read.js';
export { asRecord, integer, shape } from '../kinds/panel-record.js';
