import { ProvisionError } from '../errors.js';

/**
 * The size cap on a manifest file, and on each part of a manifest directory (docs/reliability.md,
 * "Sizes"): a larger one is refused before it is parsed, and the CLI reads no more of it than the
 * cap and one byte. Reading a manifest costs a multiple of its bytes (bench/manifest-memory.ts
 * measures each path); without a cap, a file made large by mistake (a generated manifest, a log
 * pasted in) or on purpose in a pull request costs gigabytes before its first diagnostic.
 */

/**
 * The default cap, in MB (MiB, as --max-answer-mb): three times a manifest of 100,000 clients
 * (about 5 MB; bench/fixtures.ts writes 13 MB for 100,000 clients of two domains each). Read in
 * batches a manifest costs about 8 to 24 bytes a byte; read as one YAML document (an anchor, a
 * tag, a block scalar) about 90 to 160: this bounds the worst at about 2.5 GB.
 */
export const DEFAULT_MAX_MANIFEST_MB = 16;

/** The highest cap accepted: a string longer than about 512 MB cannot be held. */
export const MAX_MANIFEST_MB = 500;

/** MB (MiB) as bytes. */
export function megabytes(mb: number): number {
  return mb * 1024 * 1024;
}

/**
 * The refusal of a manifest over the cap. `named`: the file as the message names it (`the manifest
 * big.yaml`, `the manifest part panels/a.yaml`); `size`: its size in bytes, or undefined when only
 * "more than the cap" is known (a pipe, standard input); `raise`: what raises the cap, as the
 * caller takes it (`--max-manifest-mb N`, the library's `maxManifestMb` option).
 */
export function manifestTooLarge(
  named: string,
  size: number | undefined,
  maxMb: number,
  raise: string,
): ProvisionError {
  const maxBytes = megabytes(maxMb);
  const is =
    size === undefined
      ? `holds more than ${maxMb} MB (${maxBytes.toLocaleString('en-US')} bytes)`
      : `is ${sizeText(size)} (${size.toLocaleString('en-US')} bytes)`;
  return new ProvisionError(
    'manifest_invalid',
    `${named} ${is}, over the manifest size limit of ${maxMb} MB: not read`,
    {
      hint:
        `raise the limit with ${raise} (at most ${MAX_MANIFEST_MB}), or split the manifest into a directory of parts ` +
        '(docs/manifest.md, "Manifest directories"): the limit is per file',
      meta: { size_bytes: size ?? null, limit_bytes: maxBytes },
    },
  );
}

/** `40.1 MB`: one decimal, MiB as the cap counts them. */
function sizeText(bytes: number): string {
  return `${(bytes / megabytes(1)).toFixed(1)} MB`;
}
