/**
 * The mailbox's diff rule, as the planner asks it under each domain it plans: a mailbox the panel
 * lacks is created (after the creates it needs in the same run); one it has gets an update with
 * the managed fields that differ (fields.ts: aliases and forwardings as sets of addresses, a field
 * the record does not carry an unknown, never a change); `state: absent` deletes one the panel
 * has. Pure: the planner hands in what it knows of the client and the domains it creates. What the
 * rule leaves to the planner: a mailbox whose domain another client owns (a conflict), prune, and
 * the order of what frees an address or a catch-all before what takes it.
 */
import { type ChangeId, changeId } from '../common.js';
import { addressOrder, domainOf } from './address.js';
import { createMailbox, deleteMailbox, type DeleteMailbox, type MailboxChange, updateMailbox } from './changes.js';
import { fieldChanges, type MailboxField } from './fields.js';
import type { WantedMailbox } from './manifest.js';
import type { LiveMailbox } from './record.js';

/** What the rule reads beside the mailbox's own record. */
export interface MailboxDiffView {
  /** The owner's username. */
  readonly client: string;
  /** The owner's id on the panel; null when the same run creates the client. */
  readonly clientId: number | null;
  /** Whether the same run creates this domain (lowercase ASCII): a create on it, or with an alias on it, waits. */
  domainCreated(domain: string): boolean;
}

/** What the rule decides of one mailbox. */
export interface MailboxDecision {
  readonly change: MailboxChange | undefined;
  /** The managed fields the panel's record does not carry, in the table's order. */
  readonly unknowns: readonly MailboxField[];
}

/** The rule for a mailbox the manifest lists, against its record on the panel (undefined: none). */
export function diffMailbox(
  want: WantedMailbox,
  live: LiveMailbox | undefined,
  view: MailboxDiffView,
): MailboxDecision {
  if (want.state === 'absent')
    return {
      change: live === undefined ? undefined : removeMailbox(live, view.client, 'state: absent in the manifest'),
      unknowns: [],
    };
  if (live === undefined)
    return {
      change: createMailbox(want.address, want.domain, want.wants, {
        client: view.client,
        clientId: view.clientId,
        dependsOn: waitsFor(want, view),
      }),
      unknowns: [],
    };
  // A mailbox named only (no managed field): nothing to compare, nothing allocated.
  if (isEmpty(want.wants)) return NOTHING;
  const unknowns: MailboxField[] = [];
  const fields = fieldChanges(want.wants, live, (field) => unknowns.push(field));
  return {
    change: fields.length === 0 ? undefined : updateMailbox(want.address, view.client, live.id, fields),
    unknowns,
  };
}

/** The decision of a mailbox the panel has as the manifest wants it: one, shared, never changed. */
const NOTHING: MailboxDecision = Object.freeze({ change: undefined, unknowns: Object.freeze([]) });

/** Whether an object has no own key. */
function isEmpty(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return false;
  return true;
}

/** The delete of a live mailbox (`state: absent`, or pruned: `reason` says which). */
export function removeMailbox(live: LiveMailbox, client: string, reason: string): DeleteMailbox {
  return deleteMailbox(live.address, client, live.id, reason);
}

/**
 * `prune.mailboxes` for one client the manifest lists: the deletes of its mailboxes on the panel
 * that the manifest does not list (`listed`: every address the manifest gives the client,
 * present or absent, in comparison form), never one `keep` matches (addressKeepMatcher), sorted
 * by address. The caller passes only clients the manifest lists: prune never reaches others.
 */
export function pruneMailboxes(
  live: readonly LiveMailbox[],
  listed: ReadonlySet<string>,
  keep: (address: string) => boolean,
  client: string,
): DeleteMailbox[] {
  return live
    .filter((m) => !listed.has(m.address) && !keep(m.address))
    .sort((a, b) => addressOrder(a.address, b.address))
    .map((m) => removeMailbox(m, client, 'not in the manifest (prune.mailboxes)'));
}

/** The creates a new mailbox waits for: its client's, its domain's, its aliases' domains'. */
function waitsFor(want: WantedMailbox, view: MailboxDiffView): ChangeId[] {
  const waits: ChangeId[] = [];
  if (view.clientId === null) waits.push(changeId('client', view.client));
  const domains = new Set([want.domain, ...(want.wants.aliases ?? []).map(domainOf)]);
  for (const domain of domains) if (view.domainCreated(domain)) waits.push(changeId('domain', domain));
  return waits;
}
