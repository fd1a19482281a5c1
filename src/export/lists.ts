/**
 * Splices that grow or shrink a manifest's collections (rewrite.ts, and the kinds' rewrites
 * through editor.ts): a list's removed and added items, in its own style (block or flow), and a
 * new key at a mapping's end. Pure: splices on a Splicer.
 */
import { type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import type { NewItems } from '../kinds/export.js';
import { keyStart, type Splicer } from './splicer.js';

export type { NewItems };

/**
 * A list's removals (`dropped` item indexes) and additions (at its end). `parent` and `pair`
 * hold the list: a block list left empty becomes `key: []`; with `blockWhenEmpty`, an empty
 * flow list under a block mapping that gets items becomes a block list under its key.
 */
export function editList(
  splicer: Splicer,
  parent: YAMLMap,
  pair: Pair,
  list: YAMLSeq,
  dropped: ReadonlySet<number>,
  items: NewItems,
  blockWhenEmpty: boolean,
): void {
  const survivors = list.items.length - [...dropped].filter((i) => i < list.items.length).length;
  if (list.flow !== true) {
    const token = list.srcToken;
    if (token?.type !== 'block-seq') throw new Error('export --into: a block list without its source tokens');
    const dashes = token.items.map((item) => item.start.find((t) => t.type === 'seq-item-ind')?.offset ?? 0);
    for (const index of dropped) {
      const item = list.items[index] as Node | undefined;
      const dash = dashes[index];
      if (item === undefined || dash === undefined) continue;
      splicer.add(splicer.lineStart(dash), splicer.nodeEnd(item), '');
    }
    const added = items('block');
    const column = splicer.column(dashes[0] ?? 0);
    if (added.length > 0)
      splicer.insertLines(
        splicer.blockEnd(list),
        added.flatMap((item) => item.split('\n')).map((line) => ' '.repeat(column) + line),
      );
    else if (survivors === 0) splicer.add(splicer.colonAfter(pair), splicer.colonAfter(pair), ' []');
    return;
  }
  const range = list.range;
  if (range == null) throw new Error('export --into: a flow list without its place');
  if (survivors === 0 && blockWhenEmpty && parent.flow !== true) {
    const added = items('block');
    if (added.length > 0) {
      const column = splicer.column(keyStart(pair)) + 2;
      splicer.add(splicer.colonAfter(pair), range[1], '');
      splicer.insertLines(
        splicer.lineEnd(range[1]),
        added.flatMap((item) => item.split('\n')).map((line) => ' '.repeat(column) + line),
      );
      return;
    }
  }
  // Runs of dropped items go with the comma before them (or after them, at the start).
  const nodes = list.items as Node[];
  const place = (node: Node | undefined): [number, number] =>
    node?.range == null ? [range[1] - 1, range[1] - 1] : [node.range[0], node.range[1]];
  for (let i = 0; i < nodes.length; i++) {
    if (!dropped.has(i)) continue;
    let last = i;
    while (dropped.has(last + 1) && last + 1 < nodes.length) last++;
    if (i > 0) splicer.add(place(nodes[i - 1])[1], place(nodes[last])[1], '');
    else if (last + 1 < nodes.length) splicer.add(place(nodes[i])[0], place(nodes[last + 1])[0], '');
    else splicer.add(place(nodes[i])[0], place(nodes[last])[1], '');
    i = last;
  }
  const added = items('flow');
  if (added.length === 0) return;
  const end = nodes.length === 0 ? range[1] - 1 : place(nodes.at(-1))[1];
  splicer.add(end, end, `${survivors > 0 ? ', ' : ''}${added.join(', ')}`);
}

/**
 * A new key at the end of `map`: `flow` (`key: value` on one line) after a flow mapping's last
 * entry, or `block`'s lines (at column 0, the first `key:`) after a block mapping's last line (or
 * at `at`, a line start after it), at the mapping's indentation.
 */
export function appendPair(
  splicer: Splicer,
  map: YAMLMap,
  flow: string,
  block: readonly string[],
  at = splicer.blockEnd(map),
): void {
  if (map.flow === true) {
    const last = map.items.at(-1);
    const end = last === undefined ? undefined : ((last.value as Node | null) ?? (last.key as Node)).range?.[1];
    if (end === undefined) throw new Error('export --into: an empty flow mapping');
    splicer.add(end, end, `, ${flow}`);
    return;
  }
  const column = splicer.column(keyStart(map.items[0]));
  splicer.insertLines(
    at,
    block.map((line) => ' '.repeat(column) + line),
  );
}
