/**
 * The DNS zone's diff rule, as the planner (plan/diff.ts) asks it under each domain that manages
 * `dns`, after the domain's own rule. The zone as the manifest would leave it is checked first:
 * a conflict sends nothing. A new domain's zone is written after its POST (what the manifest alone
 * breaks is a conflict now; the panel's defaults are checked after the POST); an existing domain's
 * zone gets its update when its records differ, after the domain's own update. `dns` on a
 * subdomain of the panel, or on a zone the panel serves no DNS for, is a conflict. Pure: the
 * planner hands in the zone it read.
 */
import type { ChangeId } from '../common.js';
import type { DomainConflict } from '../domain/changes.js';
import { newZone, updateZone, type UpdateZone } from './changes.js';
import { type ZoneConflict, zoneConflicts } from './conflicts.js';
import type { DesiredZone } from './diff.js';
import type { LiveZone } from './record.js';

/** What the rule decides of one domain's zone. */
export interface ZoneDecision {
  readonly change: UpdateZone | undefined;
  readonly conflicts: readonly (ZoneConflict | DomainConflict)[];
}

/** The rule for the zone of a domain the plan creates (`domain`: its name and client's username). */
export function diffNewZone(
  domain: { readonly name: string; readonly client: string },
  want: DesiredZone,
): ZoneDecision {
  const conflicts = zoneConflicts(domain, want, { records: [] });
  return { change: conflicts.length > 0 ? undefined : newZone(domain.name, domain.client, want), conflicts };
}

/**
 * The rule for the zone of a domain on the panel (`domain`: its name, id, client's username and
 * whether the panel has it as a subdomain), against the zone read (undefined: none was read).
 * `after`: the domain's own change, which its zone's waits for.
 */
export function diffZone(
  domain: {
    readonly name: string;
    readonly id: number;
    readonly client: string;
    readonly isSubdomain?: boolean | undefined;
  },
  want: DesiredZone,
  zone: LiveZone | undefined,
  after: readonly ChangeId[],
): ZoneDecision {
  const dns = domain.isSubdomain === true ? 'subdomain' : zone?.isDisabled ? 'disabled' : undefined;
  if (dns !== undefined)
    return {
      change: undefined,
      conflicts: [{ domain: domain.name, client: domain.client, owner: domain.client, dns }],
    };
  if (zone === undefined) return { change: undefined, conflicts: [] };
  const conflicts = zoneConflicts(domain, want, zone);
  return {
    change: conflicts.length > 0 ? undefined : updateZone(domain, want, zone, after),
    conflicts,
  };
}
