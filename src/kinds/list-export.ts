/**
 * The edits of a kind's list under a parent item (Kind.export.list, export --into), from what the
 * kind's room says of its items and the panel's things: the loop the rooms share. A listed present
 * item the panel has under the parent gets the keys that differ (the room's `keys`); one the panel
 * has under another parent stays as written, warned (plan reports the conflict); one the panel
 * lacks stays, or goes with --drop-missing; a `state: absent` item stays. With `add`, the parent's
 * things on the panel the manifest lists nowhere are added, as export writes them, never one a
 * `prune.keep` pattern matches. Pure.
 */
import type { ListEdit, ListEditContext, Warn } from './export.js';

/** What a room says of its list for the shared loop: `W` an item as the manifest gives it, `R` the panel's record. */
export interface ListRoom<W, R> {
  /** The panel's record an item names (by its identity), or undefined. */
  find(item: W): R | undefined;
  present(item: W): boolean;
  /** Where the panel has `live` when under another parent than the one edited (`another client`); else undefined. */
  elsewhere(live: R): string | undefined;
  /** The item's keys whose value differs from the panel's, each with the panel's value as export writes it. */
  keys(item: W, live: R, warn: Warn): { readonly key: string; readonly value: unknown }[];
  /** The parent's records on the panel, in the order export writes them. */
  readonly records: readonly R[];
  /** A record's identity (ListExport.identity of an item naming it). */
  identity(live: R): string;
  /** Whether a `prune.keep` pattern (ListEditContext.keep) matches the record: never added. */
  kept?(live: R): boolean;
  /** A record as export writes it; undefined when the manifest cannot hold it (warned). */
  entry(live: R, warn: Warn): unknown;
  /** How warnings name a listed item: `database "shop" of client "alice"`. */
  describe(item: W): string;
}

/** The edits of one parent's list (see the module comment); `listed` undefined: the parent gives no list. */
export function listEditOf<W, R>(
  listed: readonly W[] | undefined,
  room: ListRoom<W, R>,
  ctx: ListEditContext,
  warn: Warn,
): ListEdit {
  const set: { item: number; key: string; value: unknown }[] = [];
  const drop: number[] = [];
  (listed ?? []).forEach((item, index) => {
    if (!room.present(item)) return;
    const live = room.find(item);
    if (live === undefined) {
      if (ctx.dropMissing) drop.push(index);
      return;
    }
    const where = room.elsewhere(live);
    if (where !== undefined) {
      warn(`${room.describe(item)}: the panel has it under ${where}: left as written (plan reports the conflict)`);
      return;
    }
    for (const { key, value } of room.keys(item, live, warn)) set.push({ item: index, key, value });
  });
  const add = ctx.add
    ? room.records.flatMap((live) => {
        if (ctx.listed.has(room.identity(live)) || room.kept?.(live) === true) return [];
        const entry = room.entry(live, warn);
        return entry === undefined ? [] : [entry];
      })
    : [];
  return { set, drop, add };
}
