import { readFileSync } from 'node:fs';

/**
 * This package's version, from package.json two folders up (src/ and dist/ alike), read once
 * for `--version` and the User-Agent. 'unknown' when it cannot be read: neither use is worth
 * failing for.
 */
export const VERSION: string = readVersion();

function readVersion(): string {
  try {
    const json: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    if (typeof json === 'object' && json !== null && 'version' in json && typeof json.version === 'string')
      return json.version;
  } catch {
    // Fall through.
  }
  return 'unknown';
}
