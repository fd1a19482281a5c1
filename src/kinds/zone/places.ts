/**
 * Where a zone's listed records stand in the manifest, for a conflict at its record's line (issue
 * 30, 7f: a zone of 300,000 records kept an object `{index, line, column}` a record, 48 bytes and
 * a slot, for a figure a conflict reads once). Kept packed, one typed array a zone: each record's
 * line and column, by its place in DesiredZone.records; its index in the block's `records` only
 * when some record differs from its place there (a record before it refused, or listed twice).
 * Read back through recordOrigin and originOfIndex only. Pure.
 */

/** A listed record's place: its index in the block's `records` (from 0), its line and column. */
export interface RecordOrigin {
  readonly index: number;
  readonly line: number;
  readonly column: number;
}

/** The places of a zone's records, packed (recordPlaces makes it). */
export interface RecordPlaces {
  /** Line and column of each record, two numbers a record, in the order of DesiredZone.records. */
  readonly lineColumns: Int32Array;
  /** Each record's index in the block's `records`, increasing; absent when it is its place in DesiredZone.records. */
  readonly indexes?: Int32Array;
}

/**
 * The places of records standing at `indexes` of the block's `records` (increasing), each located
 * by `at`: what DesiredZone.origin keeps.
 */
export function recordPlaces(
  indexes: ArrayLike<number>,
  at: (index: number) => { readonly line: number; readonly column: number },
): RecordPlaces {
  const n = indexes.length;
  const lineColumns = new Int32Array(2 * n);
  let own = true;
  for (let i = 0; i < n; i++) {
    const index = indexes[i] as number;
    if (index !== i) own = false;
    const { line, column } = at(index);
    lineColumns[2 * i] = line;
    lineColumns[2 * i + 1] = column;
  }
  return own ? { lineColumns } : { lineColumns, indexes: Int32Array.from(indexes) };
}

/** The place of the record at `listed` in DesiredZone.records; undefined past its end. */
export function recordOrigin(places: RecordPlaces, listed: number): RecordOrigin | undefined {
  if (!Number.isInteger(listed) || listed < 0 || 2 * listed >= places.lineColumns.length) return undefined;
  const index = places.indexes === undefined ? listed : (places.indexes[listed] as number);
  return {
    index,
    line: places.lineColumns[2 * listed] as number,
    column: places.lineColumns[2 * listed + 1] as number,
  };
}

/** The place of the record at `index` in the block's `records`; undefined when no record kept stands there. */
export function originOfIndex(places: RecordPlaces, index: number): RecordOrigin | undefined {
  const { indexes } = places;
  if (indexes === undefined) return recordOrigin(places, index);
  // The indexes increase: a binary search.
  let low = 0;
  let high = indexes.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = indexes[mid] as number;
    if (at === index) return recordOrigin(places, mid);
    if (at < index) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}
