import { readFile } from 'node:fs/promises';
import type { Desired, Diagnostic } from '../manifest/types.js';
import { formatDiagnostic, loadManifest } from '../manifest/index.js';
import { lookalikeDiagnostics } from '../plan/lookalike.js';
import { sha256Hex } from '../plan/saved.js';
import { githubAnnotation } from '../render/annotations.js';
import type { Io } from './io.js';
import { onGitHubActions } from './io.js';

/**
 * Loads and validates a manifest, printing every diagnostic (all at once, each located) to
 * stderr, with look-alike names as warnings; under GitHub Actions each one is also printed as
 * a workflow annotation on the manifest's line. Returns undefined when the manifest has
 * errors: the caller exits 1.
 */
export async function loadOrReport(path: string, io: Io): Promise<Desired | undefined> {
  const { desired, diagnostics } = await loadManifest(path);
  const all: Diagnostic[] = [...diagnostics, ...(desired === undefined ? [] : lookalikeDiagnostics(desired))];
  for (const d of all) io.stderr.write(`${formatDiagnostic(d)}\n`);
  if (onGitHubActions(io.env)) for (const d of all) io.stderr.write(`${githubAnnotation(d)}\n`);
  const errors = all.filter((d) => d.severity === 'error').length;
  if (errors > 0) io.stderr.write(`${path}: ${errors} error${errors === 1 ? '' : 's'}: fix them and run again\n`);
  return desired;
}

/** sha256 (hex) of the manifest file's bytes, recorded in a saved plan. */
export async function manifestHash(path: string): Promise<string> {
  return sha256Hex(await readFile(path));
}
