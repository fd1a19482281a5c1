import type { Desired, Diagnostic } from '../manifest/types.js';
import { formatDiagnostic, loadManifest } from '../manifest/index.js';
import { lookalikeDiagnostics } from '../plan/lookalike.js';
import { githubAnnotation } from '../render/annotations.js';
import type { Io } from './io.js';
import { onGitHubActions } from './io.js';

/**
 * Loads and validates a manifest, printing every diagnostic (all at once, each located) to
 * stderr, with look-alike names as warnings; under GitHub Actions each one is also printed as
 * a workflow annotation on the manifest's line. `desired` is undefined when the manifest has
 * errors: the caller exits 1. `sha256` is the hash of the bytes validated (for saved plans).
 */
export async function loadOrReport(path: string, io: Io): Promise<{ desired: Desired | undefined; sha256: string }> {
  const { desired, diagnostics, sha256 } = await loadManifest(path);
  const all: Diagnostic[] = [...diagnostics, ...(desired === undefined ? [] : lookalikeDiagnostics(desired))];
  for (const d of all) io.stderr.write(`${formatDiagnostic(d)}\n`);
  if (onGitHubActions(io.env)) for (const d of all) io.stderr.write(`${githubAnnotation(d)}\n`);
  const errors = all.filter((d) => d.severity === 'error').length;
  if (errors > 0) io.stderr.write(`${path}: ${errors} error${errors === 1 ? '' : 's'}: fix them and run again\n`);
  return { desired, sha256 };
}
