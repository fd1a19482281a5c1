/**
 * The client's diff rule, as the planner (plan/diff.ts) asks it at the top of its tree (a client,
 * then its domains, then their zones): a client the panel lacks is created; one it has gets an
 * update with the managed fields that differ (a field the panel's record does not carry is an
 * unknown, never a change); `state: absent` deletes a client the panel has (its domains go with
 * it, and nothing is planned below it). Pure: the planner hands in what it reads of the panel.
 */
import { type ClientChange, createClient, deleteClient, type DeleteClient, updateClient } from './changes.js';
import type { ClientCreateOnly, ClientField, ClientWants, HostingPlans } from './fields.js';
import type { LiveClient } from './record.js';

/** A client as the manifest wants it, as the rule reads it (manifest/types.ts DesiredClient). */
export interface WantedClient extends ClientWants, ClientCreateOnly {
  readonly username: string;
  readonly state: 'present' | 'absent';
}

/** What the rule reads of the panel beside the client's own record. */
export interface ClientDiffView {
  /** The panel's hosting plans (and those the run creates), as a client's `plan` names them. */
  readonly plans: HostingPlans;
  /** Whether the panel listed every domain (else which go with a delete is unknown). */
  readonly complete: boolean;
  /** A client's domains that go with its delete, sorted, system domains not counted. */
  domainNamesOf(clientId: number): readonly string[];
}

/** What the rule decides of one client. */
export interface ClientDecision {
  readonly change: ClientChange | undefined;
  /** The managed fields the panel's record does not carry, in the table's order. */
  readonly unknowns: readonly ClientField[];
  /** Whether the planner goes on to its domains: not for a client marked absent. */
  readonly descend: boolean;
}

/** The rule for a client the manifest lists, against its record on the panel (undefined: none). */
export function diffClient(want: WantedClient, live: LiveClient | undefined, view: ClientDiffView): ClientDecision {
  if (want.state === 'absent')
    return {
      change: live === undefined ? undefined : removeClient(live, view, 'state: absent in the manifest'),
      unknowns: [],
      descend: false,
    };
  if (live === undefined) return { change: createClient(want.username, want, view.plans), unknowns: [], descend: true };
  const unknowns: ClientField[] = [];
  const change = updateClient(want.username, want, live, view.plans, (field) => unknowns.push(field));
  return { change, unknowns, descend: true };
}

/** The delete of a live client, with the domains that go with it (null when the panel cannot list them). */
export function removeClient(live: LiveClient, view: ClientDiffView, reason: string): DeleteClient {
  return deleteClient(live, view.complete ? view.domainNamesOf(live.id) : null, reason);
}
