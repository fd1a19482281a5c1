import { extname } from 'node:path';
import { type LocatedProblem, ProvisionError } from '../errors.js';
import type { Desired } from '../manifest/types.js';
import type { PanelClient } from '../panel/index.js';
import { readLive } from '../panel/index.js';
import { diff } from '../plan/diff.js';
import { planFingerprint, staleReasons } from '../plan/fingerprint.js';
import { DEFAULT_MAX_CREATES, DEFAULT_MAX_DELETES, type Limits, massChanges } from '../plan/guards.js';
import { readsForManifest, readsForSavedPlan } from '../plan/reads.js';
import type { SavedPlan } from '../plan/saved.js';
import type { Plan } from '../plan/types.js';
import { conflictLine, type PlanView } from '../render/common.js';
import type { ExistingClient, LookedUp } from '../secrets/recovery.js';
import type { Redactions } from '../redact.js';
import { plural, sha256Hex } from '../util.js';
import { count, type Credentials, type Range, rangeText } from './args.js';
import { connect, type ConnectionValues } from './connection.js';
import { EXIT } from './exit.js';
import { readBytes } from './files.js';
import type { Io } from './io.js';
import { loadManifest, sourceName } from './manifest-input.js';

/**
 * The stage plan and apply share: read the input once (a manifest or a saved plan, from a
 * path, a pipe or stdin), load it, connect, read the panel, and plan; plus the checks both
 * make on the result (conflicts, a mass create).
 *
 * What only some runs need is imported where they need it (test/cli/startup.test.ts): the
 * saved-plan reader (and its validator) for a saved plan, the secrets journal for a secrets file.
 */

/** The highest --max-creates and --max-deletes accepted. */
export const MAX_MASS_LIMIT = 1_000_000;
/** --max-creates: at least 1 (0 would refuse every create: that is what plan is for). */
const MAX_CREATES: Range = { min: 1, max: MAX_MASS_LIMIT };
/** --max-deletes: from 0 (no delete without --allow-mass-delete). */
const MAX_DELETES: Range = { min: 0, max: MAX_MASS_LIMIT };

export const MASS_OPTIONS = {
  'max-creates': { type: 'string' },
  'allow-mass-create': { type: 'boolean', default: false },
  'max-deletes': { type: 'string' },
  'allow-mass-delete': { type: 'boolean', default: false },
} as const;

export const MASS_HELP = `  --max-creates N        a plan creating more than N resources is a mass change (${rangeText(MAX_CREATES)}, default ${DEFAULT_MAX_CREATES}):
                         plan warns, apply refuses (exit ${EXIT.massChange}) unless --allow-mass-create
  --allow-mass-create    allow a plan over --max-creates
  --max-deletes N        the same for deletes (${rangeText(MAX_DELETES)}, default ${DEFAULT_MAX_DELETES}); a deleted client counts once
                         plus once per domain that goes with it (its mail, databases and files go too)
  --allow-mass-delete    allow a plan over --max-deletes`;

/** The limits of MASS_OPTIONS, checked: plain digits in MAX_CREATES and MAX_DELETES. */
export function massLimits(values: {
  'max-creates'?: string | undefined;
  'allow-mass-create': boolean;
  'max-deletes'?: string | undefined;
  'allow-mass-delete': boolean;
}): Limits {
  return {
    maxCreates: count(values['max-creates'], '--max-creates', MAX_CREATES, DEFAULT_MAX_CREATES),
    allowMassCreate: values['allow-mass-create'],
    maxDeletes: count(values['max-deletes'], '--max-deletes', MAX_DELETES, DEFAULT_MAX_DELETES),
    allowMassDelete: values['allow-mass-delete'],
  };
}

/** Refuses, before anything is sent, a plan past a mass-change limit (EXIT.massChange). */
export function refuseMassChanges(plan: Plan, limits: Limits): void {
  const found = massChanges(plan, limits);
  if (found.length === 0) return;
  throw new ProvisionError('mass_change', `${found.join('; ')}: nothing was sent`, {
    hint: 'check the plan; if it is meant, run apply again with the --allow flag it names (or a higher limit)',
  });
}

/**
 * What plan, apply or show was given, read once: a pipe or stdin cannot be read twice.
 */
export type Input =
  { readonly kind: 'saved'; readonly saved: SavedPlan } | { readonly kind: 'manifest'; readonly bytes: Uint8Array };

/**
 * Reads `path` (`-`: stdin) and tells a saved plan from a manifest: a saved plan is a JSON
 * object with `format_version` (then validated fully), or a `.json` file that mentions
 * `"format_version"` (so a damaged plan file is reported as one). Anything else is a manifest
 * (YAML reads JSON too, so a `.json` manifest works).
 */
export async function readInput(path: string, io: Io): Promise<Input> {
  const bytes = await readBytes(path, io, 'manifest or plan file');
  const text = new TextDecoder().decode(bytes);
  if (!text.trimStart().startsWith('{')) return { kind: 'manifest', bytes };
  let isPlan: boolean;
  try {
    const document = JSON.parse(text) as unknown;
    isPlan = typeof document === 'object' && document !== null && 'format_version' in document;
  } catch {
    isPlan = extname(path).toLowerCase() === '.json' && text.includes('"format_version"');
  }
  if (!isPlan) return { kind: 'manifest', bytes };
  const { parsePlanFile } = await import('../plan/saved.js');
  return { kind: 'saved', saved: parsePlanFile(text, path) };
}

/** A plan ready to show or apply, and the open connection it was made over (the caller closes it). */
export interface Prepared {
  readonly view: PlanView;
  readonly panel: PanelClient;
  /** Each conflict at the manifest entry it comes from (none for a saved plan): for refuseConflicts. */
  readonly conflictsAt: readonly LocatedProblem[];
  /** Usernames whose create an earlier run left unsettled in the secrets file (PanelAdapterOptions.unsettled). */
  readonly unsettled: ReadonlySet<string>;
}

/** What preparing needs beside the input. */
export interface PrepareOptions {
  readonly connection: ConnectionValues;
  /** Parallel connections to keep open (apply's --concurrency). */
  readonly connections?: number;
  readonly showUnmanaged: boolean;
  /** The secrets file, to name clients whose password an earlier killed run lost. */
  readonly secretsPath?: string | undefined;
}

/** Manifest, panel, diff. */
export async function planFromManifest(
  bytes: Uint8Array,
  path: string,
  io: Io,
  credentials: Credentials,
  options: PrepareOptions,
): Promise<Prepared> {
  const desired = loadManifest(bytes, path, io);
  let unsettled: ReadonlySet<string> = new Set();
  const prepared = await withPanel(io, credentials, options, async (panel) => {
    const notes: string[] = [];
    const live = await readLive(panel, {
      ...readsForManifest(desired),
      onNote: (note) => notes.push(note),
    });
    // Before any refusal (an unknown plan, a conflict): a client whose password was lost is named.
    unsettled = await reportLostPasswords(
      options.secretsPath,
      panel.baseUrl,
      live,
      io,
      credentials.redactions,
      'every',
    );
    if (!live.domainsComplete && desired.prune.domains) {
      notes.push(
        "prune.domains needs the panel's domain list, which it cannot give: no domain is pruned for being unlisted; state: absent entries still are deleted.",
      );
    }
    const plan = diff(desired, live);
    return {
      plan,
      panelUrl: panel.baseUrl,
      manifest: sourceName(path),
      showUnmanaged: options.showUnmanaged,
      notes,
      manifestSha256: sha256Hex(bytes),
      fingerprint: planFingerprint(plan, live),
    };
  });
  return { ...prepared, conflictsAt: locateConflicts(prepared.view.plan, desired), unsettled };
}

/**
 * Each conflict at the manifest entry that causes it: a domain owned by another client at its
 * name under its client; a domain to delete at its `state: absent` entry, or at `prune:` when
 * pruning deletes it. The message names no other customer: under GitHub Actions it becomes an
 * annotation on the pull request (the text plan on stdout names the owner for the log).
 */
export function locateConflicts(plan: Plan, desired: Desired): LocatedProblem[] {
  const located: LocatedProblem[] = [];
  for (const conflict of plan.conflicts) {
    const entry = desired.clients
      .find((c) => c.username === conflict.client)
      ?.domains.find((d) => d.name === conflict.domain);
    const loc = entry?.loc ?? (conflict.subdomains === undefined ? undefined : desired.prune.loc);
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

/**
 * The panel re-read for a saved plan: refused when made for another panel, or stale when
 * anything it depends on changed (then nothing is sent).
 */
export async function planFromSavedPlan(
  saved: SavedPlan,
  file: string,
  io: Io,
  credentials: Credentials,
  options: PrepareOptions,
): Promise<Prepared> {
  let unsettled: ReadonlySet<string> = new Set();
  const prepared = await withPanel(io, credentials, options, async (panel) => {
    if (panel.baseUrl !== saved.panelUrl) {
      throw new ProvisionError(
        'plan_file',
        `${file} was made for the panel ${saved.panelUrl}, not ${panel.baseUrl}: nothing was sent`,
        {
          hint: 'apply it with --url / PROVISION_URL set to the panel it was made for, or make a plan for this panel',
        },
      );
    }
    const notes: string[] = [];
    const live = await readLive(panel, {
      ...readsForSavedPlan(saved.plan),
      onNote: (note) => notes.push(note),
    });
    // Before any refusal: a stale plan must not hide a client whose password was lost.
    unsettled = await reportLostPasswords(
      options.secretsPath,
      panel.baseUrl,
      live,
      io,
      credentials.redactions,
      'every',
    );
    if (planFingerprint(saved.plan, live) !== saved.fingerprint) {
      const reasons = staleReasons(saved.plan, live);
      throw new ProvisionError(
        'stale_plan',
        `stale plan: the panel changed since ${file} was made (${plural(reasons.length, 'difference')}): nothing was sent`,
        {
          details:
            reasons.length > 0 ? reasons : ['the panel state does not match the fingerprint recorded in the plan'],
          hint: 'make a new plan (provision plan <manifest> --out FILE), review it, and apply that',
        },
      );
    }
    return {
      plan: saved.plan,
      panelUrl: panel.baseUrl,
      manifest: saved.manifest,
      showUnmanaged: false,
      notes,
      manifestSha256: saved.manifestSha256,
      fingerprint: saved.fingerprint,
    };
  });
  return { ...prepared, conflictsAt: [], unsettled };
}

/** Connects, then makes the view; the connection is closed when that fails and handed on when not. */
async function withPanel(
  io: Io,
  credentials: Credentials,
  options: PrepareOptions,
  view: (panel: PanelClient) => Promise<PlanView>,
): Promise<Omit<Prepared, 'conflictsAt' | 'unsettled'>> {
  const panel = await connect(options.connection, io, credentials, options.connections);
  try {
    return { view: await view(panel), panel };
  } catch (error) {
    await panel.close();
    throw error;
  }
}

/**
 * Conflicts make plan and apply fail: apply sends nothing until they are resolved. `located`:
 * the conflicts at their manifest lines (Prepared.conflictsAt), printed under the error and,
 * under GitHub Actions, annotated on those lines.
 */
export function refuseConflicts(plan: Plan, located: readonly LocatedProblem[] = []): void {
  if (plan.conflicts.length === 0) return;
  const owned = plan.conflicts.filter((c) => c.subdomains === undefined).length;
  const blocked = plan.conflicts.length - owned;
  const what = [
    owned > 0
      ? `${plural(owned, 'domain')} of the manifest belong${owned === 1 ? 's' : ''} to another client on the panel`
      : '',
    blocked > 0 ? `${plural(blocked, 'domain')} to delete ${blocked === 1 ? 'has' : 'have'} subdomains that stay` : '',
  ].filter(Boolean);
  throw new ProvisionError('plan_conflict', `${what.join('; ')}: apply sends nothing until this is resolved`, {
    located,
    hint:
      owned > 0
        ? 'move the domain under its owner in the manifest, remove it, or move it on the panel'
        : 'mark the subdomains absent too (or let prune.domains take them), or keep the domain',
  });
}

/**
 * What earlier runs left in the secrets journal for this panel, settled and said before the
 * run sends anything (apply/recover.ts): passwords lost or recovered, records completed, and
 * creates and resets whose outcome is still unknown. Returns the usernames whose create is
 * unsettled (for the panel adapter); none without a secrets file. `lookedUp`: 'every' when
 * `live.clients` is every client of the panel, else the usernames looked up. The caller holds
 * the secrets file's lock: this writes the journal.
 */
export async function reportLostPasswords(
  path: string | undefined,
  panelUrl: string,
  live: { readonly clients: readonly ExistingClient[] },
  io: Io,
  redactions: Redactions,
  lookedUp: LookedUp,
): Promise<ReadonlySet<string>> {
  if (path === undefined || path === '') return new Set();
  const { recoverJournal } = await import('../apply/recover.js');
  return recoverJournal(
    path,
    panelUrl,
    live.clients,
    redactions,
    (message) => {
      io.stderr.write(`${message.kind === 'warning' ? 'warning: ' : ''}${message.text}\n`);
    },
    lookedUp,
  );
}
