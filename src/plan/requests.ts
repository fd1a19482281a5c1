import { clientRequest } from '../kinds/client/index.js';
import type { PanelRequest } from '../kinds/common.js';
import { domainRequest } from '../kinds/domain.js';
import { zoneRequest } from '../kinds/zone.js';
import { hostingPlanRequest } from '../kinds/hosting-plan.js';
import { assertNever } from '../util.js';
import type { Change } from './types.js';

export type { PanelRequest } from '../kinds/common.js';

/**
 * The request for `change`: each kind's one converter (src/kinds). A domain of a client created
 * in the same run takes its `id_user` from `newClientIds`, a client on a hosting plan created in
 * the same run its `id_hosting_plan` from `newPlanIds`, a subdomain of a domain created in the
 * same run its `id_parent_domain` from `newDomainIds`; before apply (a preview) they are null:
 * known after apply. An update sends only the fields that differ.
 */
export function requestFor(
  change: Change,
  newClientIds?: ReadonlyMap<string, number>,
  newPlanIds?: ReadonlyMap<string, number>,
  newDomainIds?: ReadonlyMap<string, number>,
): PanelRequest {
  switch (change.type) {
    case 'client':
      return clientRequest(change, newPlanIds);
    case 'domain':
      return domainRequest(change, newClientIds, newDomainIds);
    case 'dns_zone':
      return zoneRequest(change);
    case 'hosting_plan':
      return hostingPlanRequest(change);
    default:
      return assertNever(change);
  }
}
