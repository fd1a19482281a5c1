import { stat } from 'node:fs/promises';
import { planManifest, type SavedPlan } from '../api/prepare.js';
import { ProvisionError } from '../errors.js';
import { manifestDigest, type ManifestFiles } from '../manifest/parts.js';
import type { PanelClient } from '../panel/index.js';
import type { Redactions } from '../redact.js';
import { type SizeLimit, STDIN_PATHS } from './files.js';
import type { Io } from './io.js';
import { checkManifest } from './manifest-input.js';
import { readManifestFiles } from './manifest-files.js';

/**
 * A saved plan refused as stale may be one already applied: its fingerprint no longer matches
 * because the panel now holds what it makes. Told precisely, not from the fingerprint: the
 * manifest the plan was made from (the very bytes: its sha256 as the plan records it) is
 * planned again against the panel, and the plan is already applied when not one of its changes
 * is still to do (no change of the new plan is of a thing the saved plan changes). Anything
 * less (the manifest gone or edited since, read from standard input, or some change still to
 * do) leaves the refusal as it was: the panel changed. Nothing is sent either way.
 *
 * The path is the saved plan's word, which anyone can edit (and make consistent again): it is
 * read only when it names a regular file or a directory (never standard input, a FIFO that
 * would wait for a writer for ever, nor a device that never ends), within the size limit of
 * every manifest read (`cap`, apply's --max-manifest-mb).
 */

/** The refusal of a saved plan the panel already holds (EXIT.stalePlan, as a stale plan's). */
export function alreadyAppliedError(file: string, stale: ProvisionError): ProvisionError {
  return new ProvisionError(
    'stale_plan',
    `already applied: the panel holds what this plan makes (${file}): nothing was sent`,
    {
      hint: 'nothing is left to do for this plan; to see what else differs, plan the manifest again (provision plan <manifest>)',
      // What differs from when it was made, as the stale plan's refusal lists it.
      details: stale.details,
      meta: { file },
    },
  );
}

/** Whether every change of `saved` is now a no-op on `panel`, by its manifest's plan (see above). */
export async function isAlreadyApplied(
  panel: PanelClient,
  saved: SavedPlan,
  io: Io,
  redactions: Redactions,
  cap: SizeLimit,
): Promise<boolean> {
  const path = saved.manifest;
  if (saved.plan.changes.length === 0 || path === 'stdin' || STDIN_PATHS.has(path)) return false;
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !(info.isFile() || info.isDirectory())) return false;
  let files: ManifestFiles;
  try {
    files = await readManifestFiles(path, io, 'manifest', cap);
  } catch {
    return false;
  }
  if (manifestDigest(files).sha256 !== saved.manifestSha256) return false;
  const { desired } = checkManifest(files);
  if (desired === undefined) return false;
  let again: Awaited<ReturnType<typeof planManifest>>;
  try {
    again = await planManifest(
      panel,
      { desired, name: path, files },
      { showUnmanaged: false, redactions, scope: saved.plan.scope?.clients },
    );
  } catch {
    // The panel could not be read again: the refusal stays the stale plan's.
    return false;
  }
  const pending = new Set<string>(again.view.plan.changes.map((change) => change.id));
  return again.view.plan.conflicts.length === 0 && saved.plan.changes.every((change) => !pending.has(change.id));
}
