import type { Outcome } from '../plan/outcome.js';
import type { Desired } from '../manifest/types.js';
import type { Live } from '../panel/types.js';
import { DEFAULT_LIMITS } from '../plan/guards.js';
import type { Plan } from '../plan/types.js';
import type { PlanView } from '../render/common.js';
import { renderApplyJson as applyJson, renderApplySummary, renderOutcomeLine } from '../render/outcome.js';
import { renderPlanText as planText } from '../render/text.js';
import type { LoadedManifest } from './manifest.js';
import { fingerprintNow, viewOf, withWarnings } from './prepare.js';

/** What planView needs beside the plan: where it was made, from what. */
export interface PlanContext {
  /** The panel the plan was made against: `panel.baseUrl`. */
  readonly panelUrl: string;
  /** The manifest it was made from (its name and digest go into the JSON plan). */
  readonly manifest: LoadedManifest | { readonly file: string; readonly desired: Desired; readonly sha256: string };
  /** The panel as read for the plan: the JSON plan's fingerprint is made from it. */
  readonly live: Live;
  /** Sentences about how the panel was read (readLive's onNote), shown with the plan. */
  readonly notes?: readonly string[];
  /** Name the clients and domains the manifest does not list (default: counts only). */
  readonly showUnmanaged?: boolean;
}

/**
 * A plan ready to render: the plan with where it was made, and the warnings `provision plan`
 * shows beside it at the default limits (more than 100 creates or 10 deletes, what looks like
 * a rename).
 */
export function planView(plan: Plan, context: PlanContext): PlanView {
  const parts: LoadedManifest['parts'] = 'parts' in context.manifest ? context.manifest.parts : undefined;
  const view = viewOf(plan, context.live, {
    panelUrl: context.panelUrl,
    manifest: context.manifest.file,
    manifestSha256: context.manifest.sha256,
    ...(parts === undefined ? {} : { manifestParts: parts }),
    notes: context.notes ?? [],
    showUnmanaged: context.showUnmanaged === true,
  });
  // Its fingerprint made now, against `live` as it is (viewOf makes it when first read).
  return withWarnings(fingerprintNow(view), DEFAULT_LIMITS);
}

/** The plan as `provision plan` prints it; `color` adds ANSI colours (default none). */
export function renderPlanText(view: PlanView, options: { readonly color?: boolean } = {}): string {
  return planText(view, { color: options.color === true });
}

/** One line per outcome (`✓ created client "alice" (id 12)`), then the summary line, as `provision apply` ends. */
export function renderApplyText(outcomes: readonly Outcome[], options: { readonly color?: boolean } = {}): string {
  const color = options.color === true;
  return [...outcomes.map((o) => renderOutcomeLine(o, { color })), renderApplySummary(outcomes)]
    .map((line) => `${line}\n`)
    .join('');
}

/** The outcomes as `apply --format json` prints them (schemas/apply-result.schema.json), in the plan's order. */
export function renderApplyJson(outcomes: readonly Outcome[], view: PlanView): string {
  return applyJson(outcomes, view.plan, view.panelUrl);
}
