/**
 * Where a zone's listed records stand in the manifest, for a conflict at its record's line (issue
 * 30, 7f: a zone of 300,000 records kept an object `{index, line, column}` a record, 48 bytes and
 * a slot, for a figure a conflict reads once). Kept packed in one list a zone (DesiredZone.origin),
 * by each record's place in DesiredZone.records: its line and column, two numbers a record; or,
 * when some record's index in the block's `records` is not its place there (a record before it
 * refused, or listed twice), its index, line and column, three a record: a list of numbers
 * (numbers.ts: an array when short, an Int32Array when long). Read back through recordOrigin and
 * originOfIndex only. Pure.
 */
import { numbers } from './numbers.js';

/** A listed record's place: its index in the block's `records` (from 0), its line and column. */
export interface RecordOrigin {
  readonly index: number;
  readonly line: number;
  readonly column: number;
}

/** The places of a zone's records, packed (recordPlaces makes it, recordOrigin reads it). */
export type RecordPlaces = readonly number[] | Int32Array;

/** A zone's records and their places, as DesiredZone has them. */
export interface PlacedRecords {
  readonly records: { readonly length: number };
  readonly origin?: RecordPlaces;
}

/**
 * The places of `n` records standing at the first `n` of `indexes` in the block's `records`
 * (increasing), each located by `at`: what DesiredZone.origin keeps.
 */
export function recordPlaces(
  indexes: ArrayLike<number>,
  n: number,
  at: (index: number) => { readonly line: number; readonly column: number },
): RecordPlaces {
  let own = true;
  for (let i = 0; i < n && own; i++) own = indexes[i] === i;
  const width = own ? 2 : 3;
  const places = numbers(width * n);
  for (let i = 0; i < n; i++) {
    const index = indexes[i] as number;
    const { line, column } = at(index);
    if (!own) places[3 * i] = index;
    places[width * i + width - 2] = line;
    places[width * i + width - 1] = column;
  }
  return places;
}

/** The place of the record at `listed` in DesiredZone.records; undefined past its end, or without places. */
export function recordOrigin(zone: PlacedRecords, listed: number): RecordOrigin | undefined {
  const { origin } = zone;
  const n = zone.records.length;
  if (origin === undefined || !Number.isInteger(listed) || listed < 0 || listed >= n) return undefined;
  if (origin.length === 3 * n)
    return {
      index: origin[3 * listed] as number,
      line: origin[3 * listed + 1] as number,
      column: origin[3 * listed + 2] as number,
    };
  if (origin.length !== 2 * n) return undefined;
  return { index: listed, line: origin[2 * listed] as number, column: origin[2 * listed + 1] as number };
}

/** The place of the record at `index` in the block's `records`; undefined when no record kept stands there. */
export function originOfIndex(zone: PlacedRecords, index: number): RecordOrigin | undefined {
  const { origin } = zone;
  const n = zone.records.length;
  if (origin === undefined || origin.length !== 3 * n || n === 0) return recordOrigin(zone, index);
  // The indexes increase: a binary search.
  let low = 0;
  let high = n - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = origin[3 * mid] as number;
    if (at === index) return recordOrigin(zone, mid);
    if (at < index) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}
