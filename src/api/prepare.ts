import { extname } from 'node:path';
import { type LocatedProblem, ProvisionError } from '../errors.js';
import type { Desired } from '../manifest/types.js';
import type { Live, PanelClient } from '../panel/index.js';
import { readLive } from '../panel/index.js';
import { diffWithin } from '../plan/diff.js';
import type { OnEvent } from '../plan/events.js';
import { planFingerprint, staleReasons } from '../plan/fingerprint.js';
import { hostingPlanLookalikes } from '../kinds/hosting-plan/lookalikes.js';
import { locateConflicts } from './locate-conflicts.js';
import { takesAsks, withTakes } from '../plan/takes.js';
import { oddCharacter, skeleton } from '../manifest/lookalike.js';
import { type PlanReads, readsForManifest, readsForSavedPlan } from '../plan/reads.js';
import type { SavedPlan } from '../plan/saved.js';
import type { Plan } from '../plan/types.js';
import type { PlanView } from '../render/common.js';
import type { EarlierCreates, Existing, ExistingSecret } from '../secrets/recovery.js';
import type { Redactions } from '../redact.js';
import type { JournalState } from '../apply/recover.js';
import type { Snapshot } from './snapshot.js';
import { plural } from '../util.js';
import { type ClientScope, clientScope } from '../names.js';
import { type ManifestFiles, manifestDigest } from '../manifest/parts.js';
import { liveClients, liveDomainsComplete, liveHostingPlans } from '../kinds/index.js';

/**
 * The stage plan and apply share, over a panel already connected: read the panel, settle what
 * earlier runs left in the secrets file, plan (or check a saved plan against the panel), plus
 * the checks made on the result (conflicts, the mass-change rails the CLI applies). Reads no
 * environment and prints nothing: what it has to say goes out through `onEvent`.
 *
 * What only some runs need is imported where they need it (test/cli/startup.test.ts): the
 * saved-plan reader (and its validator) for a saved plan, the secrets journal for a secrets file.
 */

export { DEFAULT_MAX_CREATES, DEFAULT_MAX_DELETES, type Limits } from '../plan/guards.js';
export { refuseConflicts, refuseMassChanges, withWarnings } from './rails.js';
export type { SavedPlan } from '../plan/saved.js';
export type { OnEvent, ProvisionEvent } from '../plan/events.js';

/** What plan, apply or show was given, read once: a pipe or stdin cannot be read twice. */
export type Input =
  { readonly kind: 'saved'; readonly saved: SavedPlan } | { readonly kind: 'manifest'; readonly files: ManifestFiles };

/**
 * Tells a saved plan from a manifest: a saved plan is a JSON object with `format_version`
 * (then validated fully), or a `.json` file that mentions `"format_version"` (so a damaged
 * plan file is reported as one). Anything else is a manifest (YAML reads JSON too, so a
 * `.json` manifest works). `path` names the source in messages.
 */
export async function classifyInput(bytes: Uint8Array, path: string): Promise<Input> {
  const text = new TextDecoder().decode(bytes);
  const manifest = {
    kind: 'manifest',
    files: { name: path, directory: false, parts: [{ file: path, bytes }] },
  } as const;
  if (!text.trimStart().startsWith('{')) return manifest;
  let isPlan: boolean;
  try {
    const document = JSON.parse(text) as unknown;
    isPlan = typeof document === 'object' && document !== null && 'format_version' in document;
  } catch {
    isPlan = extname(path).toLowerCase() === '.json' && text.includes('"format_version"');
  }
  if (!isPlan) return manifest;
  const { parsePlanFile } = await import('../plan/saved.js');
  return { kind: 'saved', saved: parsePlanFile(text, path) };
}

/** A plan ready to show or apply. */
export interface Prepared {
  readonly view: PlanView;
  /** Each conflict at the manifest entry it comes from (none for a saved plan): for refuseConflicts. */
  readonly conflictsAt: readonly LocatedProblem[];
  /** Usernames whose create an earlier run left unsettled in the secrets file (PanelAdapterOptions.unsettled). */
  readonly unsettled: ReadonlyMap<string, EarlierCreates>;
  /** Clients whose password the secrets file cannot tell: apply sets new ones (api/apply.ts settlePasswords). */
  readonly unknownPasswords: readonly ExistingSecret[];
}

/** What preparing needs beside the panel and the input. */
interface PrepareOptions {
  readonly showUnmanaged: boolean;
  /** The secrets file, to name clients whose password an earlier killed run lost (the caller holds its lock). */
  readonly secretsPath?: string | undefined;
  /** The run's redaction set: a password recovered from the secrets file joins it before it is told. */
  readonly redactions: Redactions;
  /** Told `read`, `planned`, and the secrets file's repairs and losses (`note`, `warning`). */
  readonly onEvent?: OnEvent | undefined;
  /** How many DNS zones are read at once: apply's --concurrency; default apply's DEFAULT_CONCURRENCY. */
  readonly concurrency?: number | undefined;
  /** `--clients`: plan only the clients these username patterns match (plan/diff.ts). */
  readonly scope?: readonly string[] | undefined;
}

/** A manifest's digest as a plan records it (manifest/parts.ts manifestDigest). */
export type ManifestDigest = ReturnType<typeof manifestDigest>;

/**
 * A manifest loaded: what it wants, its name in messages, its files or their digest taken
 * already (it goes into the plan; a caller that hands the digest need not hold the bytes while
 * the panel is read).
 */
interface ManifestSource {
  readonly desired: Desired;
  readonly name: string;
  readonly files: ManifestFiles | ManifestDigest;
}

/** What a plan records of its manifest: its name, digest, and a directory's parts. */
function manifestFields(manifest: ManifestSource): Pick<PlanView, 'manifest' | 'manifestSha256' | 'manifestParts'> {
  const digest = 'sha256' in manifest.files ? manifest.files : manifestDigest(manifest.files);
  return {
    manifest: manifest.name,
    manifestSha256: digest.sha256,
    ...(digest.parts === undefined ? {} : { manifestParts: digest.parts }),
  };
}

/** Panel, then diff: the plan of a manifest against `panel`. */
export async function planManifest(
  panel: PanelClient,
  manifest: ManifestSource,
  options: PrepareOptions,
): Promise<Prepared> {
  const { desired } = manifest;
  // `--clients`, compiled once for the reads, the notes, the journal and the plan.
  const scope = clientScope(options.scope);
  const read = await readAndSettle(panel, readsForManifest(desired, scope), options, scope);
  const { notes, journal } = read;
  notes.push(...planNotes(desired, read.live, scope));
  const planned = diffWithin(desired, read.live, scope);
  // What its deletes take of other kinds, counted: their lists read only when one is planned
  // (api/takes.ts, loaded only then: test/cli/startup.test.ts).
  const { plan, live } =
    takesAsks(planned, read.live).length === 0
      ? { plan: withTakes(planned, read.live), live: read.live }
      : await (await import('./takes.js')).countTaken(panel, planned, read.live);
  // What the kinds' sections say beside the changes (Plan.notes): the run's notes.
  notes.push(...(plan.notes ?? []));
  options.onEvent?.({ type: 'planned', plan });
  const view = viewOf(plan, live, {
    panelUrl: panel.baseUrl,
    ...manifestFields(manifest),
    notes,
    showUnmanaged: options.showUnmanaged,
  });
  return {
    view,
    conflictsAt: locateConflicts(plan, desired),
    unsettled: journal.unsettled,
    unknownPasswords: journal.unknown,
  };
}

/**
 * The plan of a manifest against a snapshot (api/snapshot.ts) instead of the panel: no request,
 * no key. Refused (usage) when the manifest needs reads the snapshot lacks. With a digest
 * snapshot the manifest's emails are hashed alike before the diff and given back after it (an
 * update's `before` shows as `(digest)`). The first note names the snapshot and its age.
 */
export async function planSnapshot(
  snapshot: Snapshot,
  file: string,
  manifest: ManifestSource,
  options: {
    readonly showUnmanaged: boolean;
    readonly now?: Date | undefined;
    readonly scope?: readonly string[] | undefined;
  },
): Promise<Prepared> {
  // Loaded only for a plan from a snapshot (test/cli/startup.test.ts).
  const { snapshotFromFuture, snapshotGaps, snapshotNote, withEmailDigests, withEmailsRestored } =
    await import('./snapshot.js');
  const { desired } = manifest;
  const scope = clientScope(options.scope);
  const gaps = snapshotGaps(snapshot, desired, scope);
  if (gaps.length > 0) {
    throw new ProvisionError(
      'usage',
      `the snapshot ${file} lacks ${plural(gaps.length, 'read')} the manifest needs: nothing was planned`,
      {
        details: gaps,
        hint:
          'take the snapshot again with this manifest where the key is (the default branch): ' +
          `provision snapshot ${manifest.name} --out ${file}; or plan against the panel`,
        meta: { file },
      },
    );
  }
  const { live } = snapshot;
  const now = options.now ?? new Date();
  const future = snapshotFromFuture(snapshot, file, now);
  const notes = [snapshotNote(snapshot, file, now), ...snapshot.notes, ...planNotes(desired, live, scope)];
  const digests = snapshot.emails === 'digest';
  const planned = diffWithin(digests ? withEmailDigests(desired) : desired, live, scope);
  // What its deletes take of other kinds, counted in the snapshot's lists (unknown: not in it).
  const plan = withTakes(digests ? withEmailsRestored(planned, desired) : planned, live);
  notes.push(...(plan.notes ?? []));
  const view = viewOf(plan, live, {
    panelUrl: snapshot.panelUrl,
    ...manifestFields(manifest),
    notes,
    showUnmanaged: options.showUnmanaged,
  });
  const warned = future === undefined ? view : { ...view, warnings: [...(view.warnings ?? []), future] };
  return { view: warned, conflictsAt: locateConflicts(plan, desired), unsettled: new Map(), unknownPasswords: [] };
}

/** What plan says of how it could read the panel for `desired`, and of a scope that matches no client. */
function planNotes(desired: Desired, live: Live, scope: ClientScope): string[] {
  const notes: string[] = [];
  if (!liveDomainsComplete(live) && desired.prune.domains) {
    notes.push(
      "prune.domains needs the panel's domain list, which it cannot give: no domain is pruned for being unlisted; " +
        'state: absent entries still are deleted.',
    );
  }
  if (scope.patterns !== undefined) {
    const { covers } = scope;
    if (!desired.clients.some((c) => covers(c.username)) && !liveClients(live).some((c) => covers(c.username)))
      notes.push('--clients matches no client of the manifest or the panel: nothing is planned.');
  }
  return notes;
}

/**
 * A plan made against `live`, ready to render and save: the one place a PlanView is made of a
 * fresh plan (plan and apply here, the library's planView); its fingerprint covers exactly the
 * panel facts the plan depends on. A saved plan's view is the saved document itself (planSaved).
 *
 * The fingerprint is made when first read, once, and `live` let go then: so it is made after
 * the manifest is gone (the caller reads it once the stage has returned: fingerprintNow), never
 * beside it (its facts are a string or two per change: memory, at 100,000 creates).
 */
export function viewOf(plan: Plan, live: Live, source: Omit<PlanView, 'plan' | 'fingerprint' | 'warnings'>): PlanView {
  // What needs the panel's names beside the plan (a saved plan's view keeps its document's).
  const lookalikes = hostingPlanLookalikes(plan.changes, liveHostingPlans(live), { skeleton, oddCharacter });
  let fingerprint: string | undefined;
  let against: Live | undefined = live;
  return {
    plan,
    ...source,
    get fingerprint(): string {
      if (fingerprint === undefined && against !== undefined) {
        fingerprint = planFingerprint(plan, against);
        against = undefined;
      }
      return fingerprint as string;
    },
    ...(lookalikes.length === 0 ? {} : { warnings: lookalikes }),
  };
}

/**
 * `view` with its fingerprint made now (viewOf: made when first read), as a plain value: for a
 * caller that has let the manifest go, so the panel read goes too, before the plan is written.
 */
export function fingerprintNow(view: PlanView): PlanView {
  return { ...view };
}

/**
 * A saved plan checked against `panel`, read again: refused when made for another panel, or
 * stale when anything it depends on changed (then nothing is sent). `file` names it in messages.
 */
export async function planSaved(
  panel: PanelClient,
  saved: SavedPlan,
  file: string,
  options: Omit<PrepareOptions, 'showUnmanaged'>,
): Promise<Prepared> {
  if (panel.baseUrl !== saved.panelUrl) {
    throw new ProvisionError(
      'plan_file',
      `${file} was made for the panel ${saved.panelUrl}, not ${panel.baseUrl}: nothing was sent`,
      {
        hint: 'apply it with --url / PROVISION_URL set to the panel it was made for, or make a plan for this panel',
      },
    );
  }
  const { live, notes, journal } = await readAndSettle(
    panel,
    readsForSavedPlan(saved.plan),
    options,
    clientScope(saved.plan.scope?.clients),
  );
  if (planFingerprint(saved.plan, live) !== saved.fingerprint) {
    const reasons = staleReasons(saved.plan, live);
    throw new ProvisionError(
      'stale_plan',
      `stale plan: the panel changed since ${file} was made ` +
        `(${plural(reasons.length, 'difference')}): nothing was sent`,
      {
        details: reasons.length > 0 ? reasons : ['the panel state does not match the fingerprint recorded in the plan'],
        hint: 'make a new plan (provision plan <manifest> --out FILE), review it, and apply that',
        meta: { file },
      },
    );
  }
  options.onEvent?.({ type: 'planned', plan: saved.plan });
  const view: PlanView = {
    plan: saved.plan,
    panelUrl: panel.baseUrl,
    manifest: saved.manifest,
    showUnmanaged: false,
    notes,
    manifestSha256: saved.manifestSha256,
    fingerprint: saved.fingerprint,
  };
  return {
    view,
    conflictsAt: [],
    unsettled: journal.unsettled,
    unknownPasswords: journal.unknown,
  };
}

/**
 * The panel read as `reads` says (its notes kept for the plan), then the secrets journal settled
 * against it: before any refusal (an unknown plan, a conflict, a stale saved plan), a client
 * whose password was lost is named.
 */
async function readAndSettle(
  panel: PanelClient,
  reads: PlanReads,
  options: Omit<PrepareOptions, 'showUnmanaged'>,
  /** `--clients`: a password outside it is left to a run that covers it. */
  scope: ClientScope,
): Promise<{ live: Live; notes: string[]; journal: JournalState }> {
  const notes: string[] = [];
  const live = await readLive(panel, {
    ...reads,
    ...(options.concurrency === undefined ? {} : { zoneConcurrency: options.concurrency }),
    onEvent: (event) => {
      if (event.type === 'note') notes.push(event.message);
    },
  });
  options.onEvent?.({ type: 'read', panelUrl: panel.baseUrl, live });
  const journal = await settleJournal(
    options.secretsPath,
    panel.baseUrl,
    { live },
    options.redactions,
    options.onEvent,
    scope,
  );
  return { live, notes, journal };
}

/**
 * What the run read of the things with a password, for the journal's repairs: the panel read
 * (each kind's things as it holds them, and which kinds it holds whole: apply/secret-lookups.ts
 * secretsInLive), or the things looked up by name (`names`, as `[KIND:]NAME`) and those found.
 * A thing of a kind not read whole, and not looked up, is never judged gone.
 */
export type SecretsRead =
  { readonly live: Live } | { readonly found: readonly Existing[]; readonly names: readonly string[] };

/**
 * What earlier runs left in the secrets journal for this panel, settled and told (`warning`,
 * `note`) before the run sends anything (apply/recover.ts): passwords lost or recovered,
 * records completed, and creates and resets whose outcome is still unknown. Sends nothing.
 * Returns what the run must still settle (apply/recover.ts JournalState): creates left open of
 * things the panel does not list, for the panel adapter, and things whose password the file
 * cannot tell, for apply to give new ones; nothing without a secrets file.
 * The caller holds the secrets file's lock: this writes the journal.
 */
export async function settleJournal(
  path: string | undefined,
  panelUrl: string,
  read: SecretsRead,
  redactions: Redactions,
  onEvent: OnEvent | undefined,
  /** The run's `--clients` (apply/recover.ts scopeCovers); default none: every thing. */
  scope?: ClientScope,
): Promise<JournalState> {
  if (path === undefined || path === '') return { unsettled: new Map(), unknown: [] };
  const { recoverJournal, secretsInLive } = await import('../apply/recover.js');
  const { existing, lookedUp } =
    'live' in read ? secretsInLive(read.live) : { existing: read.found, lookedUp: { names: read.names } };
  return recoverJournal(
    path,
    panelUrl,
    existing,
    redactions,
    (message) => onEvent?.({ type: message.kind, message: message.text }),
    lookedUp,
    scope,
  );
}
