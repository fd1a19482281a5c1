/**
 * The domain's diff rule, as the planner (plan/diff.ts) asks it under each client it plans: a
 * domain the panel lacks is created (the planner makes its create once it knows every new
 * domain: a new subdomain names its parent), with the settings the manifest gives in the same
 * request; one owned by another client is a conflict (listed, or marked absent alike); one whose
 * managed settings differ is updated (a setting its record does not show is an unknown);
 * `state: absent` deletes it from its client, never a system domain. `prune.domains`: a listed
 * client's domains the manifest does not list are deleted, never a system domain nor one whose
 * record does not say whether it is one. Pure: the planner hands in what it reads of the panel.
 */
import { type DeleteDomain, type DomainConflict, deleteDomain, type UpdateDomain, updateDomain } from './changes.js';
import type { LiveDomain } from './record.js';
import type { DomainSetting, DomainSettings } from './settings.js';

/** A domain as the manifest wants it, as the rule reads it (manifest/types.ts DesiredDomain). */
export interface WantedDomain {
  readonly name: string;
  readonly state: 'present' | 'absent';
  readonly settings?: DomainSettings;
}

/** The client a domain is listed under: its username, and its record on the panel (undefined: none). */
export interface DomainOwner {
  readonly username: string;
  readonly live: { readonly id: number; readonly username: string } | undefined;
}

/** A setting the panel's record does not show: with the panel's keys that did not read, when it shows some. */
export interface SettingUnknown {
  readonly field: DomainSetting;
  readonly keys: readonly string[];
}

/** What the rule decides of one domain the manifest lists. */
export type DomainDecision =
  /** Not on the panel, wanted: created (with its zone, when it manages one). */
  | { readonly action: 'create' }
  /** On the panel under another client: nothing is planned of it. */
  | { readonly action: 'conflict'; readonly conflict: DomainConflict }
  | { readonly action: 'delete'; readonly change: DeleteDomain }
  /** On the panel under its client, wanted: updated when its settings differ (its zone is planned after it). */
  | {
      readonly action: 'keep';
      readonly live: LiveDomain;
      readonly owner: { readonly id: number; readonly username: string };
      readonly change: UpdateDomain | undefined;
      readonly unknowns: readonly SettingUnknown[];
    }
  /** Marked absent and not on the panel, or a system domain marked absent: nothing. */
  | { readonly action: 'none' };

/**
 * The rule for a domain listed under `owner`, against its record on the panel (undefined: none).
 * `ownerName`: the username of a client by id (`#<id>` when the panel does not list it).
 */
export function diffDomain(
  want: WantedDomain,
  owner: DomainOwner,
  live: LiveDomain | undefined,
  ownerName: (id: number) => string,
): DomainDecision {
  if (live === undefined) return want.state === 'present' ? { action: 'create' } : { action: 'none' };
  if (owner.live === undefined || live.idUser !== owner.live.id)
    return {
      action: 'conflict',
      conflict: { domain: want.name, client: owner.username, owner: ownerName(live.idUser) },
    };
  // A system domain is the panel's own: never deleted.
  if (want.state === 'absent')
    return live.isSystem
      ? { action: 'none' }
      : { action: 'delete', change: deleteDomain(live, owner.live, 'state: absent in the manifest') };
  const unknowns: SettingUnknown[] = [];
  const change =
    want.settings === undefined
      ? undefined
      : updateDomain(want.settings, live, owner.live, (field, keys) => unknowns.push({ field, keys }));
  return { action: 'keep', live, owner: owner.live, change, unknowns };
}

/**
 * `prune.domains`: the deletes of a listed client's domains on the panel (`domains`, sorted) that
 * `kept` does not keep (the manifest lists them, or a `prune.keep` pattern matches). A system
 * domain, or one whose record does not say (undefined), is never pruned.
 */
export function unlistedDomains(
  owner: { readonly id: number; readonly username: string },
  domains: readonly LiveDomain[],
  kept: (name: string) => boolean,
): DeleteDomain[] {
  const deletes: DeleteDomain[] = [];
  for (const live of domains) {
    if (live.isSystem !== false || kept(live.name)) continue;
    deletes.push(deleteDomain(live, owner, 'not in the manifest (prune.domains)'));
  }
  return deletes;
}
