/**
 * A mailbox's quota: bytes, as the panel's `max_size` holds it (0: unlimited). The manifest
 * writes bytes, or a number with a unit (`2 GiB`, `500 MB`); export and the plan's text write
 * the largest whole unit. Pure.
 */

/** The units a quota may be written in, smallest first: B, KB, MB, GB in powers of 1000, KiB, MiB, GiB of 1024. */
const UNITS: readonly { readonly unit: string; readonly bytes: bigint }[] = [
  { unit: 'B', bytes: 1n },
  { unit: 'KB', bytes: 1000n },
  { unit: 'KiB', bytes: 1024n },
  { unit: 'MB', bytes: 1000n ** 2n },
  { unit: 'MiB', bytes: 1024n ** 2n },
  { unit: 'GB', bytes: 1000n ** 3n },
  { unit: 'GiB', bytes: 1024n ** 3n },
];

/** What a quota is, as messages say it. */
export const QUOTA_SAYS =
  'bytes (a whole number), or a number with B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB ' +
  '(powers of 1024), like 2 GiB or 500 MB; 0 for unlimited';

/** A number and a unit, spaces between them allowed: `2 GiB`, `1.5GB`, `1024`. */
const WRITTEN = /^(\d+)(?:\.(\d+))?\s*([A-Za-z]*)$/;

/**
 * A quota as the manifest writes it, in bytes (0: unlimited), or what is wrong with it as the end
 * of a sentence about it. A number is bytes (a whole number, 0 or more); text is a number and a
 * unit of UNITS (its case as written there, or all lower or upper case); a fraction only where it
 * makes whole bytes (`1.5 GiB`). Refused, with what to write: a negative number (0 is unlimited),
 * another unit (`2 G`, `1 TB`), more bytes than a number holds exactly.
 */
export function parseQuota(value: unknown): { readonly bytes: number } | { readonly problem: string } {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return { bytes: value };
    if (value < 0) return { problem: 'is negative: write 0 for unlimited, or a size like 2 GiB' };
    return { problem: `is not a whole number of bytes: write ${QUOTA_SAYS}` };
  }
  if (typeof value !== 'string') return { problem: `must be ${QUOTA_SAYS}` };
  const text = value.trim();
  if (text.startsWith('-')) return { problem: 'is negative: write 0 for unlimited, or a size like 2 GiB' };
  const match = WRITTEN.exec(text);
  if (match === null) return { problem: `is not a size: write ${QUOTA_SAYS}` };
  const [, whole = '', fraction = '', written = ''] = match;
  const unit = written === '' ? UNITS[0] : UNITS.find((u) => sameUnit(u.unit, written));
  if (unit === undefined)
    return {
      problem:
        `has the unit ${JSON.stringify(written)}, which is not one of ${UNITS.map((u) => u.unit).join(', ')}: ` +
        `write ${QUOTA_SAYS}`,
    };
  const scale = 10n ** BigInt(fraction.length);
  const scaled = (BigInt(whole) * scale + BigInt(fraction === '' ? '0' : fraction)) * unit.bytes;
  if (scaled % scale !== 0n)
    return { problem: `is not a whole number of bytes: write it in a smaller unit, or in bytes` };
  const bytes = scaled / scale;
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) return { problem: 'is more bytes than a quota can hold' };
  return { bytes: Number(bytes) };
}

/** A unit as written matches one of UNITS: exactly, or all lower or upper case (`gib`, `GIB`, `mb`). */
function sameUnit(unit: string, written: string): boolean {
  return written === unit || written === unit.toLowerCase() || written === unit.toUpperCase();
}

/**
 * A quota in bytes in the largest unit it is a whole number of: `2 GiB`, `500 MB`, `1000 KiB`,
 * `123 B`; `0` for 0 (unlimited). parseQuota reads it back to the same bytes.
 */
export function formatQuota(bytes: number): string {
  if (bytes === 0) return '0';
  const big = BigInt(bytes);
  for (let i = UNITS.length - 1; i >= 0; i--) {
    const unit = UNITS[i];
    if (unit !== undefined && big % unit.bytes === 0n) return `${big / unit.bytes} ${unit.unit}`;
  }
  return `${bytes} B`;
}

/** A quota for people: `2 GiB`, or `unlimited` for 0. */
export function quotaText(bytes: number): string {
  return bytes === 0 ? 'unlimited' : formatQuota(bytes);
}

/** A quota as export writes it: 0 (unlimited) as the number, any other in its largest whole unit (`2 GiB`). */
export function exportedQuota(bytes: number): string | 0 {
  return bytes === 0 ? 0 : formatQuota(bytes);
}
