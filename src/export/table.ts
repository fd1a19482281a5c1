/**
 * The kinds with a part in export (Kind.export), as the export stage loops over them: the table
 * of kinds (src/kinds/index.ts KINDS) filtered to those that have one, in its order. Pure.
 */
import type { KindExport } from '../kinds/export.js';
import { KIND_NAMES, type KindName, KINDS } from '../kinds/index.js';

/** A kind with a part in export, by name (Kind.export). */
export interface KindPart {
  readonly name: KindName;
  readonly export: KindExport;
}

/** The kinds with a part in export, in the table's order: the stage loops over them. */
export const EXPORTS: readonly KindPart[] = KIND_NAMES.flatMap((name) => {
  const part: KindExport | undefined = KINDS[name].export;
  return part === undefined ? [] : [{ name, export: part }];
});

/** A kind's part in export by its name (an edit's `type`); a name without one is a bug. */
export function exportOf(name: KindName): KindExport {
  const part = EXPORTS.find((k) => k.name === name);
  if (part === undefined) throw new Error(`export: the kind ${name} has no part in export`);
  return part.export;
}

/** The `--with` words of the kinds (Kind.export.with), in the table's order: what `export --with` knows. */
export const EXPORT_WORDS: readonly string[] = EXPORTS.flatMap(({ export: part }) =>
  part.with === undefined ? [] : [part.with],
);
