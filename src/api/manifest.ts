import { ProvisionError, type LocatedProblem } from '../errors.js';
import { type LoadResult, parseManifestBytes } from '../manifest/load.js';
import { type ManifestFiles, manifestDigest, parseManifestFiles, type PartDigest } from '../manifest/parts.js';
import type { Desired, Diagnostic } from '../manifest/types.js';
import { DEFAULT_MAX_MANIFEST_MB, MAX_MANIFEST_MB, manifestTooLarge, megabytes } from '../manifest/size.js';
import { formatDiagnostic } from '../render/diagnostics.js';
import { compare, plural, sha256Hex } from '../util.js';
import { basename } from 'node:path';

/** A valid manifest, loaded: what `diff`, `readLive` and `planView` take. */
export interface LoadedManifest {
  /** The manifest's name as its diagnostics carry it (the `file` given to loadManifest). */
  readonly file: string;
  /** The clients and domains it wants, names normalised (domains lowercase ASCII). */
  readonly desired: Desired;
  /** What does not stop it (look-alike names), each located; the caller decides whether to show them. */
  readonly warnings: readonly Diagnostic[];
  /** sha256 (hex) of the bytes loaded (of a directory: of its parts' digests, manifest/parts.ts): a plan records it. */
  readonly sha256: string;
  /** A directory's parts with their digests (loadManifestParts): a plan records them. */
  readonly parts?: readonly PartDigest[];
}

/** How a manifest is loaded. */
export interface LoadOptions {
  /**
   * The size limit of a manifest, and of each part of a directory, in MB (MiB): a larger one is
   * refused with ProvisionError `manifest_invalid` before it is parsed (parsing costs a multiple of
   * the bytes). Default 16, as the CLI's --max-manifest-mb.
   */
  readonly maxManifestMb?: number;
}

/**
 * Loads and validates a manifest (YAML or JSON) from its text or bytes, exactly as
 * `provision validate` does: syntax, the JSON Schema, the rules. Prints nothing. Invalid:
 * throws ProvisionError `manifest_invalid` whose `located` holds every error (file, line,
 * column, message) and whose `details` holds them as `file:line:column: error: ...` lines.
 * `file` names the source in those messages (default `manifest.yaml`); nothing is read from it.
 * Over `options.maxManifestMb`: refused unparsed, `manifest_invalid` with no `located`.
 */
export function loadManifest(
  source: string | Uint8Array,
  file = 'manifest.yaml',
  options: LoadOptions = {},
): LoadedManifest {
  const bytes = typeof source === 'string' ? new TextEncoder().encode(source) : source;
  refuseTooLarge(bytes, `the manifest ${file}`, options);
  return loaded(parseManifestBytes(bytes, file), file, sha256Hex(bytes));
}

/** Refuses `bytes` over the limit of `options`, before anything parses them. */
function refuseTooLarge(bytes: Uint8Array, named: string, options: LoadOptions): void {
  const mb = options.maxManifestMb ?? DEFAULT_MAX_MANIFEST_MB;
  // NaN or a string compares false with every size: the limit would silently be off.
  if (typeof mb !== 'number' || !(mb > 0 && mb <= MAX_MANIFEST_MB))
    throw new ProvisionError('usage', `maxManifestMb ${String(mb)} is out of range`, {
      hint: `give a number of MB above 0 and at most ${MAX_MANIFEST_MB}`,
    });
  if (bytes.length > megabytes(mb)) throw manifestTooLarge(named, bytes.length, mb, 'the maxManifestMb option');
}

/**
 * Loads a manifest directory's parts as one manifest, exactly as `provision validate DIR` does
 * (docs/manifest.md, "Manifest directories": each part validated, then across parts; `prune` in one part).
 * `parts`: each part's name as messages should give it (`panels/fra1/clients.yaml`) and its text
 * or bytes, in any order: they are read in the CLI's order (the code-unit order of their names in
 * the directory, as `partOrder` gives it); `name` names the directory. Reads no file; errors as
 * loadManifest's, each part held to `options.maxManifestMb`. The result's `sha256` and `parts` are
 * what a plan of it records.
 */
export function loadManifestParts(
  parts: readonly { readonly file: string; readonly source: string | Uint8Array }[],
  name: string,
  options: LoadOptions = {},
): LoadedManifest {
  const files: ManifestFiles = {
    name,
    directory: true,
    parts: [...parts]
      .sort((a, b) => compare(basename(a.file), basename(b.file)))
      .map((p) => ({
        file: p.file,
        bytes: typeof p.source === 'string' ? new TextEncoder().encode(p.source) : p.source,
      })),
  };
  for (const part of files.parts) refuseTooLarge(part.bytes, `the manifest part ${part.file}`, options);
  const digest = manifestDigest(files);
  const result = loaded(parseManifestFiles(files), name, digest.sha256);
  return digest.parts === undefined ? result : { ...result, parts: digest.parts };
}

/** A load's result as a LoadedManifest, or its errors thrown as one ProvisionError. */
function loaded(result: LoadResult, file: string, sha256: string): LoadedManifest {
  const { desired, diagnostics, errorCount } = result;
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
  return { file, desired, warnings: diagnostics.filter((d) => d.severity === 'warning'), sha256 };
}
