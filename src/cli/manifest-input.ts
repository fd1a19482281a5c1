import { ProvisionError } from '../errors.js';
import type { Desired, Diagnostic } from '../manifest/index.js';
import { type ManifestFiles, parseManifestFiles } from '../manifest/parts.js';
import { DEFAULT_MAX_MANIFEST_MB, MAX_MANIFEST_MB, manifestTooLarge, megabytes } from '../manifest/size.js';
import { formatDiagnostic, githubAnnotation } from '../render/diagnostics.js';
import { plural } from '../util.js';
import { count, type Range, rangeText } from './args.js';
import { type SizeLimit, STDIN } from './files.js';
import { onGitHubActions } from './github.js';
import type { Io } from './io.js';

/**
 * A manifest as every command reads it: validated, its diagnostics printed. Kept apart from
 * prepare.ts (the panel's side) so that `validate` loads no HTTP client.
 */

/** --max-manifest-mb, for every command that reads a manifest. */
export const MANIFEST_SIZE_OPTIONS = { 'max-manifest-mb': { type: 'string' } } as const;

const MAX_MANIFEST: Range = { min: 1, max: MAX_MANIFEST_MB };

export const MANIFEST_SIZE_HELP =
  `  --max-manifest-mb N    refuse, unread, a manifest file or a part of a directory over N MB\n` +
  `                         (${rangeText(MAX_MANIFEST)}, default ${DEFAULT_MAX_MANIFEST_MB}): reading one takes 20 to 160 times its size in memory`;

/** The cap of MANIFEST_SIZE_OPTIONS, checked: what readManifestFiles takes. */
export function manifestSizeLimit(values: { 'max-manifest-mb'?: string | undefined }): SizeLimit {
  const mb = count(values['max-manifest-mb'], '--max-manifest-mb', MAX_MANIFEST, DEFAULT_MAX_MANIFEST_MB);
  return {
    maxBytes: megabytes(mb),
    refuse: (named, size) => manifestTooLarge(named, size, mb, `--max-manifest-mb N`),
  };
}

/** The name a manifest's diagnostics carry: its path, or `stdin`. */
export function sourceName(path: string): string {
  return path === STDIN ? 'stdin' : path;
}

/**
 * Validates a manifest (a file's bytes, or a directory's parts) and prints every diagnostic (all
 * at once, each located, look-alike names as warnings) to stderr; under GitHub Actions each is
 * also a workflow annotation on the manifest's line. Throws 'manifest_invalid' after printing
 * when there is an error, with the errors as data (`located`, shown already).
 */
export function loadWithDiagnostics(files: ManifestFiles, io: Io): Desired {
  const { file, desired, diagnostics, errors } = checkManifest(files);
  for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  annotate(diagnostics, io);
  if (desired === undefined)
    throw new ProvisionError('manifest_invalid', `${file}: ${plural(errors, 'error')}: fix them and run again`, {
      located: diagnostics.filter((d) => d.severity === 'error'),
      locatedShown: true,
      meta: { file, error_count: errors },
    });
  return desired;
}

/** A manifest checked, nothing printed: its name, what it holds when valid, its diagnostics, how many errors in all. */
interface CheckedManifest {
  readonly file: string;
  readonly desired: Desired | undefined;
  readonly diagnostics: readonly Diagnostic[];
  /** Errors in all: more than `diagnostics` lists when they were too many to list. */
  readonly errors: number;
}

/** Validates a manifest as read and returns what was found (validate --format json prints it as data). */
export function checkManifest(files: ManifestFiles): CheckedManifest {
  const named = withSourceNames(files);
  const { desired, diagnostics, errorCount } = parseManifestFiles(named);
  return {
    file: named.name,
    desired,
    diagnostics,
    errors: errorCount ?? diagnostics.filter((d) => d.severity === 'error').length,
  };
}

/** Standard input as messages name it (`stdin`). */
function withSourceNames(files: ManifestFiles): ManifestFiles {
  if (files.directory) return files;
  return {
    ...files,
    name: sourceName(files.name),
    parts: files.parts.map((p) => ({ ...p, file: sourceName(p.file) })),
  };
}

/** Under GitHub Actions, each diagnostic as a workflow annotation on the manifest's line (stderr). */
export function annotate(diagnostics: readonly Diagnostic[], io: Io): void {
  if (onGitHubActions(io.env)) for (const d of diagnostics) io.stderr.write(`${githubAnnotation(d)}\n`);
}
