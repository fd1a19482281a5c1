import type { LocatedProblem } from '../errors.js';
import { conflictPlan, isPlanConflict } from '../kinds/hosting-plan/changes.js';
import { isSectionConflict, type SectionKind, sectionOfConflict } from '../kinds/index.js';
import type { SectionPlace } from '../kinds/section.js';
import { isZoneConflict } from '../kinds/zone/conflicts.js';
import { originOfIndex, type RecordPlaces } from '../kinds/zone/places.js';
import type { Desired } from '../manifest/types.js';
import type { Plan } from '../plan/types.js';
import { conflictLine } from '../render/common.js';

/**
 * Each conflict at the manifest entry that causes it: a domain owned by another client at its
 * name under its client; a domain to delete at its `state: absent` entry, or at `prune:` when
 * pruning deletes it. The message names no other customer: under GitHub Actions it becomes an
 * annotation on the pull request (the text plan on stdout names the owner for the log).
 */
export function locateConflicts(plan: Plan, desired: Desired): LocatedProblem[] {
  const located: LocatedProblem[] = [];
  for (const conflict of plan.conflicts) {
    const section = sectionOfConflict(conflict);
    if (section !== undefined) {
      const loc = sectionItemLoc(desired, section, conflict);
      if (loc !== undefined)
        located.push({ file: loc.file, line: loc.line, column: loc.column, message: conflictLine(conflict, false) });
      continue;
    }
    if (isSectionConflict(conflict)) continue;
    const domain = isPlanConflict(conflict)
      ? undefined
      : desired.clients.find((c) => c.username === conflict.client)?.domains.find((d) => d.name === conflict.domain);
    const loc = isPlanConflict(conflict)
      ? (desired.hostingPlans?.find((p) => p.name === conflictPlan(conflict))?.loc ?? desired.prune.loc)
      : isZoneConflict(conflict) // a zone's conflict: at its record's line
        ? domain?.loc && { ...domain.loc, ...recordPlace(domain.dns?.origin, conflict.record.index) }
        : (domain?.loc ?? (conflict.subdomains === undefined ? undefined : desired.prune.loc));
    if (loc !== undefined)
      located.push({
        file: loc.file,
        line: loc.line,
        column: loc.column,
        message: conflictLine(conflict, false),
      });
  }
  return located;
}

/** Where the manifest lists the item a section kind's conflict is of: under its client, or one of its domains. */
function sectionItemLoc(desired: Desired, kind: SectionKind, conflict: object): SectionPlace | undefined {
  const conflicts = kind.section.conflicts;
  if (conflicts === undefined || !conflicts.is(conflict)) return undefined;
  const { client, name } = conflicts.at(conflict);
  const entry = desired.clients.find((c) => c.username === client);
  const lists = [entry?.sections?.[kind.name], ...(entry?.domains ?? []).map((d) => d.sections?.[kind.name])];
  for (const list of lists) {
    const item = list?.find((i) => conflicts.nameOf(i) === name);
    if (item !== undefined) return item.loc;
  }
  return undefined;
}

/** The line and column of the record at `index` in a zone block's `records`, when kept. */
function recordPlace(places: RecordPlaces | undefined, index: number): { line: number; column: number } | undefined {
  const origin = places === undefined ? undefined : originOfIndex(places, index);
  return origin === undefined ? undefined : { line: origin.line, column: origin.column };
}
