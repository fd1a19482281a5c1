import type { Change } from '../plan/types.js';
import { requestFor } from '../plan/requests.js';
import type { PlanView } from './common.js';

/**
 * The plan JSON contract (design.md): stable keys in snake_case, `format_version` "major.minor"
 * (a reader refuses a newer major). Never holds the API key or a password; unmanaged names only
 * when asked for, since they may be other customers'.
 */
export const PLAN_FORMAT_VERSION = '1.0';

export function planToJson(view: PlanView): object {
  const { plan } = view;
  const counts: Record<string, number> = {};
  for (const change of plan.changes) counts[change.action] = (counts[change.action] ?? 0) + 1;
  return {
    format_version: PLAN_FORMAT_VERSION,
    panel_url: view.panelUrl,
    manifest: view.manifest,
    changes: plan.changes.map(changeToJson),
    conflicts: plan.conflicts,
    drift: plan.drift,
    unmanaged: {
      clients: plan.unmanaged.clients.length,
      domains: plan.unmanaged.domains?.length ?? null,
      ...(view.showUnmanaged ? { client_names: plan.unmanaged.clients, domain_names: plan.unmanaged.domains ?? null } : {}),
    },
    notes: view.notes,
    summary: { ...counts, conflicts: plan.conflicts.length, drift: plan.drift.length },
  };
}

export function renderPlanJson(view: PlanView): string {
  return `${JSON.stringify(planToJson(view), null, 2)}\n`;
}

function changeToJson(change: Change): object {
  const common = { id: change.id, action: change.action, type: change.type, name: change.name };
  const request = requestFor(change);
  const rest =
    change.type === 'client'
      ? { ...(change.hostingPlan === undefined ? {} : { hosting_plan: change.hostingPlan }), ...(change.email === undefined ? {} : { email: change.email }) }
      : { client: change.client, client_id: change.clientId, ...(change.parent === undefined ? {} : { parent: change.parent }) };
  return { ...common, ...rest, reason: change.reason, depends_on: change.dependsOn, request };
}
