/**
 * A zone's change, carried out: the zone is read again just before its PUT. An existing domain's
 * zone must be as the plan read it (its digest): one changed since (an ACME hook, a person in the
 * panel) fails as stale and sends nothing, and the other changes go on. A new domain's zone is
 * read after its POST (the panel fills in its default records) and diffed then.
 */
import { ProvisionError } from '../errors.js';
import { quote } from '../escape.js';
import { type UpdateZone, wantOfNewZone, zoneBody, zoneDiff, zoneRequest, type ZoneBody } from '../kinds/zone.js';
import type { PanelClient } from '../panel/client.js';
import { readZone } from '../panel/zones.js';
import type { Applied } from './execute.js';
import { send } from './send.js';
import type { Slot } from './walk.js';

/** Carries out zone changes; `domainIdOf` gives the id of a domain created in this run. */
export function zoneWriter(
  panel: PanelClient,
  domainIdOf: (name: string) => number | undefined,
  signal: AbortSignal | undefined,
): (change: UpdateZone, slot: Slot) => Promise<Applied> {
  return async (change, slot) => {
    const id = change.domainId ?? domainIdOf(change.name);
    if (id === undefined)
      throw new Error(`the id of domain ${quote(change.name)} is unknown: it was not created in this run`);
    const zone = await slot.run(() => readZone(panel, { name: change.name, id }));
    let body: ZoneBody;
    if (change.domainId === null) {
      body = zoneBody(zone, zoneDiff(wantOfNewZone(change), zone.records).other);
    } else {
      if (zone.digest !== change.zoneDigest || change.body === null)
        throw new ProvisionError(
          'stale_plan',
          `the zone of ${quote(change.name)} changed on the panel since the plan read it: nothing was sent to it`,
          { hint: 'run plan again: it shows the zone as it is now' },
        );
      body = change.body;
    }
    await slot.run(() => send(panel, zoneRequest(change, { id, body }), signal));
    return { id };
  };
}
