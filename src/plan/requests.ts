import { kindOf } from '../kinds/index.js';
import type { NewIds, PanelRequest } from '../kinds/common.js';
import type { Change } from './types.js';

/**
 * The request for `change`: its kind's one converter (src/kinds). A change that names something
 * created in the same run (a domain's client, a client's hosting plan, a subdomain's parent)
 * takes its id from `newIds`, by that create's change id; before apply (a preview) it is null:
 * known after apply. An update sends only the fields that differ.
 */
export function requestFor(change: Change, newIds?: NewIds): PanelRequest {
  return kindOf(change).request(change, newIds);
}
