/**
 * The ManifestEditor a kind's rewrite splices through (kinds/export.ts): a Splicer over the
 * manifest's text, with the list, key and value edits of lists.ts, values.ts and item-splices.ts
 * and the writer of write.ts. Pure.
 */
import type { ManifestEditor } from '../kinds/export.js';
import { appendPair, editList } from './lists.js';
import { addPairToItem } from './item-splices.js';
import { keyStart, pairOf, type Splicer } from './splicer.js';
import { setValue } from './values.js';
import { render, scalarText } from './write.js';

/** `splicer` as the editor the kinds' rewrites use. */
export function editorOf(splicer: Splicer): ManifestEditor {
  return {
    text: splicer.text,
    eol: splicer.eol,
    add: (start, end, text) => {
      splicer.add(start, end, text);
    },
    insertLines: (at, lines) => {
      splicer.insertLines(at, lines);
    },
    lineStart: (offset) => splicer.lineStart(offset),
    lineEnd: (offset) => splicer.lineEnd(offset),
    column: (offset) => splicer.column(offset),
    blockEnd: (node) => splicer.blockEnd(node),
    colonAfter: (pair) => splicer.colonAfter(pair),
    pairOf,
    keyStart,
    editList: (parent, pair, list, dropped, items, blockWhenEmpty) => {
      editList(splicer, parent, pair, list, dropped, items, blockWhenEmpty);
    },
    appendPair: (map, flow, block, at) => {
      appendPair(splicer, map, flow, block, at);
    },
    addPairToItem: (list, item, flow, block) => {
      addPairToItem(splicer, list, item, flow, block);
    },
    setValue: (map, key, before, value) => {
      setValue(splicer, map, key, before, value);
    },
    render,
    scalarText,
  };
}
