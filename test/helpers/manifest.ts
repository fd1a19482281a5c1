import { readFile } from 'node:fs/promises';
import { parseManifestBytes } from '../../src/manifest/index.js';

/** A manifest file read and validated as the CLI does it (the CLI reads through src/cli/files.ts). */
export async function loadManifestFile(path: string) {
  return parseManifestBytes(await readFile(path), path);
}
