/**
 * The reads a whole-object write is built from (apply/whole-write.ts): one record by id, read just
 * before its PUT. A record of another id is a contract error, never written over; a record that
 * is gone (404) is a failure saying so: nothing is sent to it.
 */
import { ProvisionError } from '../errors.js';
import type { PanelClient } from './client.js';
import { parseDomainRecord, parseHostingPlanRecord } from './records.js';
import type { LiveDomain, LiveHostingPlan } from './types.js';

/** GET /domains/{id}, parsed and checked. */
export function readDomainById(client: PanelClient, id: number): Promise<LiveDomain> {
  return readById(client, `/domains/${id}`, id, parseDomainRecord);
}

/** GET /hosting-plans/{id}, parsed and checked. */
export function readHostingPlanById(client: PanelClient, id: number): Promise<LiveHostingPlan> {
  return readById(client, `/hosting-plans/${id}`, id, parseHostingPlanRecord);
}

async function readById<R extends { readonly id: number }>(
  client: PanelClient,
  path: string,
  id: number,
  parse: (record: unknown, where: string) => R,
): Promise<R> {
  const where = client.describe('GET', path);
  const record = parse(await client.get(path), where);
  if (record.id !== id)
    throw new ProvisionError(
      'panel_contract',
      `${where} answered the record of id ${record.id}, not the one asked for`,
      {
        hint: 'nothing was written to it; check that the URL names the panel itself, not a cache in front of it',
      },
    );
  return record;
}
