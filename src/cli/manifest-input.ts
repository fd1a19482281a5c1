import { ProvisionError } from '../errors.js';
import type { Desired } from '../manifest/index.js';
import { parseManifestBytes } from '../manifest/index.js';
import { formatDiagnostic, githubAnnotation } from '../render/diagnostics.js';
import { plural } from '../util.js';
import { STDIN } from './files.js';
import { onGitHubActions } from './github.js';
import type { Io } from './io.js';

/**
 * A manifest as every command reads it: validated, its diagnostics printed. Kept apart from
 * prepare.ts (the panel's side) so that `validate` loads no HTTP client.
 */

/** The name a manifest's diagnostics carry: its path, or `stdin`. */
export function sourceName(path: string): string {
  return path === STDIN ? 'stdin' : path;
}

/**
 * Validates a manifest's bytes and prints every diagnostic (all at once, each located, look-alike
 * names as warnings) to stderr; under GitHub Actions each is also a workflow annotation on
 * the manifest's line. Throws 'manifest_invalid' after printing when there is an error.
 */
export function loadManifest(bytes: Uint8Array, path: string, io: Io): { readonly desired: Desired; readonly sha256: string } {
  const file = sourceName(path);
  const { desired, diagnostics, sha256, errorCount } = parseManifestBytes(bytes, file);
  for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  if (onGitHubActions(io.env)) for (const d of diagnostics) io.stderr.write(`${githubAnnotation(d)}\n`);
  if (desired === undefined) {
    const errors = errorCount ?? diagnostics.filter((d) => d.severity === 'error').length;
    throw new ProvisionError('manifest_invalid', `${file}: ${plural(errors, 'error')}: fix them and run again`);
  }
  return { desired, sha256 };
}

