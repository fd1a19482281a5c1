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

/**
 * Pairs of part names that differ only by case or Unicode normalisation (`clients.yaml` and
 * `Clients.YAML`, `é.yaml` composed and decomposed), each the first name in `names`' order and
 * another: a checkout on a file system that ignores case (macOS, Windows) or normalises names
 * (macOS) holds only one of them, so the same commit would be another manifest there.
 */
export function partNameTwins(names: readonly string[]): [string, string][] {
  const first = new Map<string, string>();
  const twins: [string, string][] = [];
  for (const name of names) {
    const folded = name.normalize('NFC').toLowerCase();
    const seen = first.get(folded);
    if (seen === undefined) first.set(folded, name);
    else twins.push([seen, name]);
  }
  return twins;
}
