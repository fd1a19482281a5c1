/**
 * Hosting plans in export (Kind.export: the manifest's `hosting_plans` section): the panel's
 * plans as the section's items (`export --with hosting-plans`), and the edits that make a
 * manifest's `hosting_plans` describe the panel (`export --into`):
 * - a listed plan the panel has (by its exact name): each key the manifest gives whose value
 *   differs gets the panel's value; a key left out stays out; a key the panel's record lacks stays
 *   as written (warned: plan refuses to manage it), and so does one whose panel value the manifest
 *   cannot hold (warned). A plan marked absent, and a listed plan the panel lacks (a pending
 *   create), stay as written;
 * - with `add` (--with hosting-plans, or `prune.hosting_plans: true`, which claims every plan),
 *   the panel's plans the manifest does not list are added whole at the end of the list, sorted
 *   by name, as export writes them; never one a typed `prune.keep` entry (KEEP_PLAN_KEY) matches.
 * The splices: export-rewrite.ts. Pure.
 */
import { jsonText, quote } from '../../escape.js';
import { compare } from '../../util.js';
import type { LiveHostingPlan } from '../common.js';
import type { SectionExport } from '../export.js';
import { exportedPlan, exportPlanValue, type PlanEntry } from './export.js';
import { editPlans, type PlanEdit } from './export-rewrite.js';
import { PLAN_OBJECTS, type PlanWants, samePlanValue } from './fields.js';
import { HOSTING_PLANS_KEY, planNameMatcher } from './manifest.js';

/** The live panel as the plans' export looks it up (export/model.ts LiveModel is one). */
export interface PlanExportPanel {
  readonly live: { readonly hosting_plan: readonly LiveHostingPlan[] };
}

/** The manifest as the plans' edits read it (manifest/types.ts Desired is one). */
export interface PlanManifest {
  /** The plans it defines, in manifest order; undefined when it lists none. */
  readonly hostingPlans?: readonly {
    readonly name: string;
    readonly state: 'present' | 'absent';
    readonly wants: PlanWants;
    readonly loc?: { readonly file: string };
  }[];
  readonly prune: {
    /** `prune.hosting_plans`: every plan is claimed. */
    readonly hostingPlans?: boolean;
    /** The typed keep entries' patterns. */
    readonly keepHostingPlans?: readonly string[];
  };
}

/**
 * The panel's plans as manifest items, sorted by name, each whole (exportedPlan). A value the
 * manifest cannot hold is left out with a warning naming the plan and the key; a plan whose
 * name the manifest refuses (empty), or that another plan's name repeats, is left out with a
 * warning. `note` hears of the keys written that panel-provision does not know (validate warns).
 */
export function exportPlans(
  plans: readonly LiveHostingPlan[],
  warn: (message: string) => void,
  note: (message: string) => void = () => undefined,
): PlanEntry[] {
  const out: PlanEntry[] = [];
  const seen = new Set<string>();
  for (const plan of [...plans].sort((a, b) => compare(a.name, b.name) || a.id - b.id)) {
    if (plan.name.trim() === '') {
      warn(`hosting plan id ${plan.id} has an empty name, which the manifest refuses: left out`);
      continue;
    }
    if (seen.has(plan.name)) {
      warn(
        `hosting plan ${quote(plan.name)} (id ${plan.id}) has the name of another plan, ` +
          'and the manifest lists a name once: left out',
      );
      continue;
    }
    seen.add(plan.name);
    const { entry, unwritable, unknown } = exportedPlan(plan);
    for (const u of unwritable) warn(`${u.reason}: the panel's value ${jsonText(u.value)} is left out (not managed)`);
    if (unknown.length > 0)
      note(
        `hosting plan ${quote(plan.name)}: ${unknown.join(', ')} written as the panel holds ` +
          `${unknown.length === 1 ? 'it' : 'them'} (keys panel-provision does not know: validate warns of them)`,
      );
    out.push(entry);
  }
  return out;
}

/** The edits that make the manifest's `hosting_plans` describe `plans`, the panel's (see the module comment). */
export function planEdits(
  desired: PlanManifest,
  plans: readonly LiveHostingPlan[],
  add: boolean,
  warn: (message: string) => void,
): PlanEdit[] {
  const edits: PlanEdit[] = [];
  const listed = desired.hostingPlans ?? [];
  const byName = new Map<string, LiveHostingPlan>();
  for (const p of plans) if (!byName.has(p.name)) byName.set(p.name, p);
  listed.forEach((plan, index) => {
    const now = byName.get(plan.name);
    if (plan.state === 'absent' || now === undefined) return;
    const name = `hosting plan ${quote(plan.name)}`;
    for (const object of PLAN_OBJECTS) {
      const wanted = plan.wants[object];
      if (wanted === undefined) continue;
      const record = now.objects?.[object];
      for (const [key, value] of Object.entries(wanted)) {
        if (record === undefined || !Object.hasOwn(record, key)) {
          warn(
            `${name}: the panel's record has no ${record === undefined ? `"${object}"` : `"${object}.${key}"`}: ` +
              `"${object}.${key}" left as written (plan refuses to manage it)`,
          );
          continue;
        }
        const seen = record[key];
        if (seen === undefined || samePlanValue(seen, value)) continue;
        const written = exportPlanValue(object, key, seen, `"${object}.${key}" of ${name}`);
        if ('refused' in written)
          warn(`${written.refused}: the panel's value ${jsonText(seen)} cannot be written, so it is left as written`);
        else edits.push({ kind: 'set-plan-value', plan: index, object, key, value: written.value });
      }
    }
  });
  if (!add && desired.prune.hostingPlans !== true) return edits;
  const names = new Set(listed.map((p) => p.name));
  const keep = planNameMatcher(desired.prune.keepHostingPlans ?? []);
  const unlisted = plans.filter((p) => !names.has(p.name) && !keep(p.name));
  const added = exportPlans(unlisted, warn);
  if (added.length > 0) edits.push({ kind: 'add-plans', plans: added });
  return edits;
}

/** The hosting plans in export: the `hosting_plans` section. */
export const PLANS_EXPORT: SectionExport<PlanExportPanel, PlanManifest, PlanEntry, PlanEdit> = {
  key: HOSTING_PLANS_KEY,
  entries: (panel, warn, note) => exportPlans(panel.live.hosting_plan, warn, note),
  listed: (manifest) => manifest.hostingPlans ?? [],
  edits: (manifest, panel, add, warn) => planEdits(manifest, panel.live.hosting_plan, add, warn),
  placeOf: (edit) => (edit.kind === 'set-plan-value' ? edit.plan : undefined),
  moved: (edit, index) => (edit.kind === 'set-plan-value' ? { ...edit, plan: index } : edit),
  rewrite: editPlans,
};
