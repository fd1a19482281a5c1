import { readManifestFiles } from '../../src/cli/manifest-files.js';
import type { Io } from '../../src/cli/io.js';
import { parseManifestFiles } from '../../src/manifest/parts.js';

/**
 * A manifest read and validated as the CLI does it (src/cli/manifest-files.ts reads it): a file, or a
 * directory of parts.
 */
export async function loadManifestFile(path: string) {
  // Standard input is never read here: the io is not needed.
  return parseManifestFiles(await readManifestFiles(path, {} as Io));
}
