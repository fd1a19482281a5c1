/**
 * The CLI's rails over a plan, as functions of the library (api/prepare.ts re-exports them): the
 * warnings of the mass-change limits, and the refusals of a plan past them or with conflicts.
 * They send nothing and print nothing: the caller decides what a refusal becomes.
 */
import { type LocatedProblem, ProvisionError } from '../errors.js';
import { isPlanConflict } from '../kinds/hosting-plan/changes.js';
import { isSectionConflict, type SectionConflict, type SectionKind, sectionOfConflict } from '../kinds/index.js';
import { isZoneConflict } from '../kinds/zone/conflicts.js';
import { type Limits, massChanges, planWarnings } from '../plan/guards.js';
import type { Conflict, Plan } from '../plan/types.js';
import type { PlanView } from '../render/common.js';
import { plural } from '../util.js';

/** The view with the warnings of `limits` (a mass change, what looks like a rename), when there are any. */
export function withWarnings(view: PlanView, limits: Limits): PlanView {
  // Added to the view's own (viewOf's look-alikes), each once however often this is called.
  const warnings = [...new Set([...(view.warnings ?? []), ...planWarnings(view.plan, limits)])];
  return warnings.length === 0 ? view : { ...view, warnings };
}

/** Refuses, before anything is sent, a plan past a mass-change limit (the CLI's rail: exit massChange). */
export function refuseMassChanges(plan: Plan, limits: Limits): void {
  const found = massChanges(plan, limits);
  if (found.length === 0) return;
  throw new ProvisionError('mass_change', `${found.join('; ')}: nothing was sent`, {
    hint: 'check the plan; if it is meant, run apply again with the --allow flag it names (or a higher limit)',
  });
}

/**
 * Conflicts make plan and apply fail: apply sends nothing until they are resolved. `located`:
 * the conflicts at their manifest lines (Prepared.conflictsAt), printed under the error and,
 * under GitHub Actions, annotated on those lines.
 */
export function refuseConflicts(plan: Plan, located: readonly LocatedProblem[] = []): void {
  if (plan.conflicts.length === 0) return;
  // The sections' conflicts (a thing listed on another client's domain), each kind's counted in its words.
  const sectionCounts = new Map<SectionKind, number>();
  for (const c of plan.conflicts) {
    const kind = sectionOfConflict(c);
    if (kind !== undefined) sectionCounts.set(kind, (sectionCounts.get(kind) ?? 0) + 1);
  }
  const others = plan.conflicts.filter((c): c is Exclude<Conflict, SectionConflict> => !isSectionConflict(c));
  const plans = others.filter(isPlanConflict).length;
  const zones = others.filter(isZoneConflict).length;
  const dns = others.filter((c) => !isPlanConflict(c) && c.dns !== undefined).length - zones;
  const owned = others.filter(
    (c) => !isPlanConflict(c) && !isZoneConflict(c) && c.subdomains === undefined && c.dns === undefined,
  ).length;
  const blocked = others.length - owned - plans - dns - zones;
  const sections = [...sectionCounts].map(([kind, n]) => kind.section.conflicts?.summary(n) ?? '');
  const sectionHint = [...sectionCounts.keys()][0]?.section.conflicts?.hint;
  const what = [
    plans > 0 ? `${plural(plans, 'hosting plan')} cannot be changed as the manifest says` : '',
    owned > 0
      ? `${plural(owned, 'domain')} of the manifest belong${owned === 1 ? 's' : ''} to another client on the panel`
      : '',
    blocked > 0 ? `${plural(blocked, 'domain')} to delete ${blocked === 1 ? 'has' : 'have'} subdomains that stay` : '',
    dns > 0
      ? `${plural(dns, 'domain')} of the manifest manage${dns === 1 ? 's' : ''} "dns" the panel has no zone to write for`
      : '',
    zones > 0
      ? `${plural(zones, 'DNS record')} of the manifest would leave ${zones === 1 ? 'its zone' : 'zones'} broken`
      : '',
    ...sections,
  ].filter(Boolean);
  throw new ProvisionError('plan_conflict', `${what.join('; ')}: apply sends nothing until this is resolved`, {
    located,
    hint:
      others.length === 0 && sectionHint !== undefined
        ? sectionHint
        : owned > 0
          ? 'move the domain under its owner in the manifest, remove it, or move it on the panel'
          : blocked > 0
            ? 'mark the subdomains absent too (or let prune.domains take them), or keep the domain'
            : dns > 0
              ? `remove "dns" from the domain, or list a subdomain's records in its parent's zone; turn DNS on in the panel for a domain it serves none for`
              : zones > 0
                ? 'each conflict above names the record, the one it meets and the fix'
                : 'each conflict above says what to change: the clients on a plan, or the keys the panel lacks',
  });
}
