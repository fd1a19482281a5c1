import type { Desired } from '../manifest/types.js';
import { formatDiagnostic, loadManifest } from '../manifest/index.js';
import type { Io } from './io.js';

/**
 * Loads and validates a manifest, printing every diagnostic (all at once, each located) to
 * stderr. Returns undefined when the manifest has errors: the caller exits 1.
 */
export async function loadOrReport(path: string, io: Io): Promise<Desired | undefined> {
  const { desired, diagnostics } = await loadManifest(path);
  for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0) io.stderr.write(`${path}: ${errors} error${errors === 1 ? '' : 's'}: fix them and run again\n`);
  return desired;
}
