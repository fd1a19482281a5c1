import type { Desired } from '../manifest/types.js';
import type { ManagedField } from '../panel/index.js';
import type { Plan } from './types.js';
import { managedFields } from '../kinds/client/index.js';
import { kindOf, type ReadAsk } from '../kinds/index.js';
import { type ClientScope, clientScope } from '../names.js';

/**
 * What a plan needs read from the panel (readLive's options, without the callbacks and bounds):
 * every kind's ask (src/kinds/index.ts ReadAsk, each kind's list read's `A`).
 */
export type PlanReads = ReadAsk;

/**
 * For planning a manifest: its domains (looked up one by one on a panel without GET /domains),
 * the clients that manage a field with those fields (what GET /clients must show, else
 * GET /clients/{id}), and the domains whose zones it manages. With `scope` (`--clients`), of
 * the matching clients only; but when the scope may delete a client, every domain the manifest
 * lists is looked up, so that diff sees one the delete would take (a conflict, as unscoped).
 */
export function readsForManifest(desired: Desired, scope?: ClientScope | readonly string[]): PlanReads {
  const usernames = new Set<string>();
  const fields = new Set<ManagedField>();
  const { covers } = clientScope(scope);
  const clients = desired.clients.filter((c) => covers(c.username));
  for (const client of clients) {
    const managed = managedFields(client);
    if (managed.length === 0) continue;
    usernames.add(client.username);
    for (const field of managed) fields.add(field);
  }
  const deletes = desired.prune.clients || clients.some((c) => c.state === 'absent');
  return {
    domainNames: (deletes ? desired.clients : clients).flatMap((c) => c.domains.map((d) => d.name)),
    details: { usernames, fields },
    // The zones of the domains that manage DNS: one GET /dns/{id} each, for those on the panel.
    zones: clients.flatMap((c) => c.domains.flatMap((d) => (d.dns === undefined ? [] : [d.name]))),
  };
}

/**
 * For checking a saved plan against the panel: what each change's kind reads again (Kind.readsAgain:
 * its domains and the parents its creates name, the zones it changes), and the fields a client's
 * update compares.
 */
export function readsForSavedPlan(plan: Plan): PlanReads {
  const usernames = new Set<string>();
  const fields = new Set<ManagedField>();
  const domainNames: string[] = [];
  const zones: string[] = [];
  for (const change of plan.changes) {
    const again = kindOf(change).readsAgain(change);
    domainNames.push(...again.domainNames);
    zones.push(...again.zones);
    // A domain's settings come with GET /domains: no details to read.
    if (change.action !== 'update' || change.type !== 'client') continue;
    usernames.add(change.name);
    for (const f of change.fields) fields.add(f.field);
  }
  return { domainNames, details: { usernames, fields }, zones };
}
