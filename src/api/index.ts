/**
 * The library API of @panel-provision/cli (`import { … } from '@panel-provision/cli'`): the
 * steps of `provision plan` and `provision apply`, for other tools (billing hooks, custom
 * pipelines). The names exported here are the stable surface, under semver; everything else
 * in dist/ is internal (the package's `exports` map refuses deep imports). Nothing here prints,
 * reads the environment or exits the process: errors are thrown as ProvisionError, whose
 * `code` is stable.
 *
 *   const { desired, ...manifest } = loadManifest(text, 'manifest.yaml');
 *   const panel = connectPanel({ url, apiKey });
 *   const live = await readLive(panel, desired);
 *   const plan = diff(desired, live);
 *   console.log(renderPlanText(planView(plan, { panelUrl: panel.baseUrl, manifest, live })));
 *   const outcomes = await executePlan(plan, panel, { secretsFile: 'secrets.jsonl' });
 *   await panel.close();
 *
 * See examples/use-from-code.mjs for a whole run against the simulator.
 */

// The manifest: load and validate.
export { loadManifest, loadManifestParts, type LoadedManifest, type LoadOptions } from './manifest.js';
export { partOrder } from '../manifest/part-names.js';
export type { Desired, DesiredClient, DesiredDomain, Diagnostic, Location, Prune } from '../manifest/types.js';

// The panel: connect and read.
export { connectPanel, readLive, type ConnectOptions, type ReadOptions } from './panel.js';
export type { PanelClient } from '../panel/client.js';
export type { Live, LiveClient, LiveDomain, LiveHostingPlan, ManagedField } from '../panel/types.js';

// Doctor: read-only checks of a panel, one line each.
export {
  doctor,
  type DoctorCheck,
  type DoctorCheckId,
  type DoctorOptions,
  type DoctorResult,
  type DoctorStatus,
} from './doctor.js';

// Snapshots: the panel as plan reads it, saved, for planning without the key.
export {
  emailDigest,
  parseSnapshot,
  snapshotDocument,
  takeSnapshot,
  type KindReading,
  type Snapshot,
  type SnapshotOptions,
  type SnapshotReads,
} from './snapshot.js';

// The plan: a pure function of the manifest and the panel.
export { diff, type DiffOptions } from '../plan/diff.js';
export type {
  Change,
  ChangeAction,
  ChangeId,
  Conflict,
  CreateClient,
  CreateDomain,
  DeleteClient,
  DeleteDomain,
  FieldChange,
  HostingPlanRef,
  Plan,
  Unknown,
  Unmanaged,
  UpdateClient,
  UpdateDomain,
} from '../plan/types.js';
export type {
  DomainSetting,
  DomainSettings,
  DomainSettingTypes,
  Hsts,
  LiveDomainSettings,
  Redirect,
  SettingChange,
} from '../kinds/domain.js';

// Events: what a run tells as it goes (connectPanel, readLive and executePlan take one `onEvent`).
export type { OnEvent, ProvisionEvent } from '../plan/events.js';
export type { PanelEvent } from '../events.js';

// Apply: carry the plan out.
export { executePlan, type ApplyOptions } from './apply.js';
export type { FailureCode, Outcome } from '../plan/outcome.js';

// Render: text, Markdown (a pull-request comment) and JSON, as the CLI prints them.
export { planView, renderApplyJson, renderApplyText, renderPlanText, type PlanContext } from './render.js';
export type { PlanView } from '../render/common.js';
export { renderPlanMarkdown } from '../render/markdown.js';
export { renderPlanJson } from '../render/json.js';

// The simulator: a local panel on loopback, for tests and demos.
export {
  startSimulator,
  type Simulator,
  type SimulatorOptions,
  type SimulatorRequest,
  type SimulatorSeed,
  type SimulatorSeedClient,
  type SimulatorSeedDomain,
  type SimulatorState,
} from '../simulator/index.js';

// Errors and the version.
export { ProvisionError, type ErrorCode, type LocatedProblem } from '../errors.js';
export { VERSION } from '../version.js';
