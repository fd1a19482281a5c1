import { ProvisionError, type LocatedProblem } from '../errors.js';
import { parseManifestBytes } from '../manifest/load.js';
import type { Desired, Diagnostic } from '../manifest/types.js';
import { formatDiagnostic } from '../render/diagnostics.js';
import { plural, sha256Hex } from '../util.js';

/** A valid manifest, loaded: what `diff`, `readLive` and `planView` take. */
export interface LoadedManifest {
  /** The manifest's name as its diagnostics carry it (the `file` given to loadManifest). */
  readonly file: string;
  /** The clients and domains it wants, names normalised (domains lowercase ASCII). */
  readonly desired: Desired;
  /** What does not stop it (look-alike names), each located; the caller decides whether to show them. */
  readonly warnings: readonly Diagnostic[];
  /** sha256 (hex) of the bytes loaded: a plan records it. */
  readonly sha256: string;
}

/**
 * Loads and validates a manifest (YAML or JSON) from its text or bytes, exactly as
 * `provision validate` does: syntax, the JSON Schema, the rules. Prints nothing. Invalid:
 * throws ProvisionError `manifest_invalid` whose `located` holds every error (file, line,
 * column, message) and whose `details` holds them as `file:line:column: error: ...` lines.
 * `file` names the source in those messages (default `manifest.yaml`); nothing is read from it.
 */
export function loadManifest(source: string | Uint8Array, file = 'manifest.yaml'): LoadedManifest {
  const bytes = typeof source === 'string' ? new TextEncoder().encode(source) : source;
  const { desired, diagnostics, errorCount } = parseManifestBytes(bytes, file);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (desired === undefined) {
    const located: LocatedProblem[] = errors.map(({ file: f, line, column, message }) => ({
      file: f,
      line,
      column,
      message,
    }));
    throw new ProvisionError(
      'manifest_invalid',
      `${file}: ${plural(errorCount ?? errors.length, 'error')}: fix them and load it again`,
      {
        located,
        details: errors.map(formatDiagnostic),
      },
    );
  }
  return {
    file,
    desired,
    warnings: diagnostics.filter((d) => d.severity === 'warning'),
    sha256: sha256Hex(bytes),
  };
}
