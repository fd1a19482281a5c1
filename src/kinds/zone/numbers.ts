/**
 * A list of small integers a zone's read keeps or works with (places.ts, first-listed.ts): an
 * array when short, an Int32Array when long. A typed array and its buffer cost about 200 bytes
 * however small (one-record zones are common: 60,000 of them kept 11 MB more so), where an array
 * costs 48 bytes and 8 a number; a long one takes 4 bytes a number, not 8. Pure.
 */

/** Lists of at least this many numbers are Int32Arrays. */
const TYPED_FROM = 64;

/** `n` zeros. */
export function numbers(n: number): number[] | Int32Array {
  return n >= TYPED_FROM ? new Int32Array(n) : new Array<number>(n).fill(0);
}
