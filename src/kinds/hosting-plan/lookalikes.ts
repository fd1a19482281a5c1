/**
 * Warnings for each hosting plan a plan creates whose name looks like a plan the panel has (same
 * skeleton): a Cyrillic `Вasic` created beside the panel's `Basic` is most likely a typo or a
 * spoof, and with prune the real one would be deleted. Said whether or not the plan also deletes
 * the panel's one (it then says so). Pure: the stage hands in how names are compared
 * (manifest/lookalike.ts).
 */
import { quote } from '../../escape.js';
import type { HostingPlanChange } from './changes.js';

/** How names are compared for looking alike: their skeleton, and what tells two apart in words. */
export interface LookAlike {
  skeleton(name: string): string;
  /** ` ("а" is U+0430)` for the first differing character that is not plain ASCII; '' when there is none. */
  oddCharacter(name: string, twin: string): string;
}

export function hostingPlanLookalikes(
  changes: readonly { readonly type: string }[],
  onPanel: readonly { readonly name: string }[],
  look: LookAlike,
): string[] {
  const plans = changes.filter((c): c is HostingPlanChange => c.type === 'hosting_plan');
  const created = plans.flatMap((c) => (c.action === 'create' ? [c.name] : []));
  if (created.length === 0) return [];
  const deleted = new Set(plans.flatMap((c) => (c.action === 'delete' ? [c.name] : [])));
  const panelBySkeleton = new Map<string, string[]>();
  for (const p of onPanel) {
    const key = look.skeleton(p.name);
    panelBySkeleton.set(key, [...(panelBySkeleton.get(key) ?? []), p.name]);
  }
  const warnings: string[] = [];
  for (const name of created)
    for (const twin of panelBySkeleton.get(look.skeleton(name)) ?? [])
      if (twin !== name)
        warnings.push(
          `hosting plan ${quote(name)} is to be created, and the panel has hosting plan ${quote(twin)}, ` +
            `which looks like it: they differ only by case, spacing or look-alike characters${look.oddCharacter(name, twin)}` +
            (deleted.has(twin) ? `; this plan also deletes ${quote(twin)}` : '') +
            ": if the manifest means the panel's plan, write its name as the panel shows it",
        );
  return warnings;
}
