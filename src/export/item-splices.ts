/**
 * A kind's list under a parent item (Kind.export.list) spliced into a manifest's text (export
 * --into, adopt.ts decides the edits), in the manifest's own style:
 * - a key of a listed item set to the panel's value (values.ts setValue: a scalar in its quoting
 *   style), or added after the item's last key when it gives none;
 * - removed items take their lines (block) or themselves and a comma (flow), a block list left
 *   empty becomes `key: []`; new items go at the list's end, as export writes them;
 * - a parent without the key gets it after its last key (`key:` and the items under it, or
 *   `key: [...]` in a flow mapping); a domain item written by its name alone becomes
 *   `name: alice.example` with the key under it (`{name: …, key: […]}` in a flow list).
 * Pure: splices on a Splicer.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { ListEdit } from '../kinds/export.js';
import { appendPair, editList, type NewItems } from './lists.js';
import { pairOf, type Splicer } from './splicer.js';
import { setValue } from './values.js';
import { render, valueText } from './write.js';

/** The items `edit` adds, as text: each `- …` (maybe several lines) in a block list, `{…}` in a flow one. */
function newItems(edit: ListEdit): NewItems {
  return (style) => edit.add.map((entry) => render(style === 'block' ? [entry] : entry, style === 'flow').trimEnd());
}

/**
 * `edit` of the list under `key` of the parent item `item` (a client's mapping, or a node of its
 * `domains` list `container`, which may be a name alone).
 */
export function editItemList(splicer: Splicer, container: unknown, item: unknown, key: string, edit: ListEdit): void {
  const pair = isMap(item) ? pairOf(item, key) : undefined;
  const list = pair?.value;
  if (isMap(item) && pair !== undefined && isSeq(list)) {
    for (const set of edit.set) {
      const node = list.items[set.item];
      if (!isMap(node)) throw new Error(`export --into: no "${key}" item mapping to set "${set.key}" in`);
      setKey(splicer, node, set.key, set.value);
    }
    editList(splicer, item, pair, list, new Set(edit.drop), newItems(edit), true);
    return;
  }
  if (pair !== undefined) throw new Error(`export --into: "${key}" is not a list`);
  if (edit.set.length > 0 || edit.drop.length > 0)
    throw new Error(`export --into: an edit of the "${key}" items of an item without them`);
  if (edit.add.length > 0) addKey(splicer, container, item, key, newItems(edit));
}

/** `key` of a listed item set to `value`: its value replaced, or the key added after its last one. */
function setKey(splicer: Splicer, map: YAMLMap, key: string, value: unknown): void {
  if (pairOf(map, key) !== undefined) {
    setValue(splicer, map, key, undefined, value);
    return;
  }
  const context = map.flow === true ? 'flow' : 'block';
  appendPair(splicer, map, `${key}: ${valueText(value, 'flow')}`, [`${key}: ${valueText(value, context)}`]);
}

/** The parent item `item` (in `container`, when a domain item) gets `key` with `items` (see the module comment). */
function addKey(splicer: Splicer, container: unknown, item: unknown, key: string, items: NewItems): void {
  addPairToItem(splicer, container, item, `${key}: [${items('flow').join(', ')}]`, [
    `${key}:`,
    ...items('block')
      .flatMap((text) => text.split('\n'))
      .map((line) => `  ${line}`),
  ]);
}

/**
 * A new key of the item `item` of the list `container` (a client's domains: an item may be a name
 * alone): `flow` (`key: value` on one line) in a flow mapping or list, `block`'s lines (at column
 * 0, the first `key:`) after a block mapping's last line. A name alone gets its object form first,
 * once however many keys it gets (`name: alice.example`, or `{name: alice.example, ...}` in a flow
 * list).
 */
export function addPairToItem(
  splicer: Splicer,
  container: unknown,
  item: unknown,
  flow: string,
  block: readonly string[],
): void {
  const flowList = isSeq(container) && container.flow === true;
  if (isMap(item)) {
    if (flowList && item.flow !== true) throw new Error('export --into: a block mapping in a flow list');
    appendPair(splicer, item, flow, block);
    return;
  }
  if (!isScalar(item) || item.range == null) throw new Error('export --into: no item to give a key');
  const [start, end] = item.range;
  if (flowList) {
    splicer.addOnce(start, start, '{name: ');
    splicer.add(end, end, `, ${flow}`);
    splicer.addOnce(end, end, '}', true);
    return;
  }
  // `- alice.example  # comment` → `- name: alice.example  # comment`, then the key below it.
  splicer.addOnce(start, start, 'name: ');
  const column = splicer.column(start);
  splicer.insertLines(
    splicer.lineEnd(end),
    block.map((line) => ' '.repeat(column) + line),
  );
}
