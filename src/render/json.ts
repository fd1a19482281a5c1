import { changeToJson, PLAN_FORMAT_VERSION, planDigest } from '../plan/saved.js';
import type { PlanView } from './common.js';

/**
 * The plan JSON contract (design.md), also the `--out` plan file: stable keys in snake_case,
 * `format_version` "major.minor" (a reader refuses a newer major), the manifest's sha256 and
 * the fingerprint of the panel state it depends on. Never holds the API key or a password;
 * unmanaged names only when asked for, since they may be other customers'.
 */
export function planToJson(view: PlanView): object {
  const { plan } = view;
  const counts: Record<string, number> = { create: 0 };
  for (const change of plan.changes) counts[change.action] = (counts[change.action] ?? 0) + 1;
  return {
    format_version: PLAN_FORMAT_VERSION,
    panel_url: view.panelUrl,
    manifest: view.manifest,
    manifest_sha256: view.manifestSha256,
    fingerprint: view.fingerprint,
    plan_sha256: planDigest(plan),
    changes: plan.changes.map(changeToJson),
    conflicts: plan.conflicts,
    drift: plan.drift,
    unmanaged: {
      clients: plan.unmanaged.clients.length,
      domains: plan.unmanaged.domains?.length ?? null,
      ...(view.showUnmanaged ? { client_names: plan.unmanaged.clients, domain_names: plan.unmanaged.domains ?? null } : {}),
    },
    notes: view.notes,
    ...(view.warnings === undefined || view.warnings.length === 0 ? {} : { warnings: view.warnings }),
    summary: { ...counts, conflicts: plan.conflicts.length, drift: plan.drift.length },
  };
}

export function renderPlanJson(view: PlanView): string {
  return `${JSON.stringify(planToJson(view), null, 2)}\n`;
}
