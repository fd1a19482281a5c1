import { compare } from '../util.js';

/**
 * Which entries of a manifest directory are parts, and their order (parts.ts has the rest): kept
 * apart so that reading a directory (cli/manifest-files.ts) loads none of the manifest's checks before
 * they are needed.
 */

/** Whether a directory entry is a part: `*.yaml` or `*.yml`, not hidden (editors' backups, `.#x.yaml`). */
export function isPartName(name: string): boolean {
  return !name.startsWith('.') && /\.ya?ml$/i.test(name);
}

/** Part names in the order they are read: code-unit order, the same on every machine. */
export function partOrder(names: readonly string[]): string[] {
  return names.filter(isPartName).sort(compare);
}
