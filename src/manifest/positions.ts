import { isAlias, isMap, isNode, isScalar, isSeq, Scalar } from 'yaml';
import type { Alias, Document, Node } from 'yaml';
import { type Found, isMergeKey, type Locator, MAX_MERGE_DEPTH, resolveOnlyTo } from './locate.js';
import type { Location } from './types.js';

/**
 * Positions of what the chunked reads (chunked.ts, simple-items.ts, chunked-json.ts) read, and
 * the anchors, aliases and merge keys of a chunked read, part by part in document order: an
 * alias stands for the last anchor of its name before it (in this part or an earlier one), as
 * in the whole read, and problems are located through aliases and merges as the whole read's
 * SourceMap (locate.ts) locates them.
 */

/** A node's position (where the whole-document parse's node starts), and its children. */
export interface PosNode {
  readonly line: number;
  readonly column: number;
  /** A mapping's entries, in document order (merge keys apart: `merges`). */
  readonly entries?: readonly PosEntry[];
  /** A sequence's items (undefined once PositionMap.release lets an item go: read by index only after that). */
  readonly items?: readonly PosNode[];
  /** An alias (`*name`, at this position): the node its anchor stands on. */
  readonly alias?: PosNode;
  /** A mapping's merge sources (`<<: *a`, `<<: [*a, *b]`), in document order. */
  readonly merges?: readonly PosNode[] | undefined;
  /**
   * Its nodes, itself included, for a node whose entries are read again when asked
   * (simple-items.ts): `nodesIn` counts it without keeping them.
   */
  readonly nodes?: number;
}

export interface PosEntry {
  readonly key: string;
  readonly line: number;
  readonly column: number;
  readonly value: PosNode | undefined;
}

/**
 * The guard against aliases of aliases (the "billion laughs"): the document with its aliases
 * expanded (merges included) may hold at most this many nodes, or one for each character of a
 * larger text: one `x-defaults` anchor may be merged into thousands of clients, and what the
 * checks walk stays linear in the bytes read.
 */
const MAX_ALIAS_NODES = 10_000;

/** The guard for a text (MAX_ALIAS_NODES). */
export function aliasLimit(text: string): number {
  return Math.max(MAX_ALIAS_NODES, text.length);
}

/** An anchored node: its position once read (undefined while its own children are read), and its size. */
interface Anchored {
  readonly node: Node;
  pos: PosNode | undefined;
  /** Its nodes, aliases expanded. */
  size: number;
  /** What a merge of it in a part read without yaml merges (null: none; undefined: not asked yet). */
  merge?: MergeSource | null;
}

/** A merge key's source, as a part read without yaml merges it (Reading.mergeSource). */
export interface MergeSource {
  /** The anchored mapping's positions. */
  readonly pos: PosNode;
  /** Its keys and values, in order: what yaml's merge adds for each key the mapping lacks. */
  readonly data: readonly (readonly [string, unknown])[];
}

/** A key a merge adds to a part read without yaml: a plain name (no `__proto__`). */
const MERGED_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The source of a merge of `anchored` that a part read without yaml can merge, or undefined. */
function mergeSourceOf(anchored: Anchored): MergeSource | undefined {
  const { node, pos } = anchored;
  if (pos?.entries === undefined || pos.merges !== undefined || pos.alias !== undefined || !isMap(node))
    return undefined;
  const data: (readonly [string, unknown])[] = [];
  for (const pair of node.items) {
    const { key, value } = pair;
    if (!isScalar(key) || typeof key.value !== 'string' || !MERGED_KEY.test(key.value)) return undefined;
    const js: unknown = value === null ? null : isScalar(value) ? value.toJSON() : undefined;
    if (js === undefined || (typeof js === 'object' && js !== null)) return undefined;
    data.push([key.value, js]);
  }
  return data.length === pos.entries.length ? { pos, data } : undefined;
}

/**
 * What a chunked read has seen so far: the anchors by name, and how many nodes the document
 * holds with every alias expanded (the whole read's guard, load.ts: past the limit, with an
 * alias anywhere, the whole read reports it).
 */
export class Reading {
  private readonly anchors = new Map<string, Anchored>();
  /** Nodes read so far, aliases expanded. */
  nodes = 0;
  /** Whether an alias was read. */
  aliased = false;
  /** The aliases of the part being read, and their anchored nodes. */
  private aliases = new Map<Alias, Node>();
  /** Anchors and aliases at or after this offset of a part (the skeleton's trailer) are given up on. */
  private before = Infinity;

  constructor(readonly limit: number) {}

  /** Whether an alias was read and the document has grown past the guard. */
  get tooLarge(): boolean {
    return this.aliased && this.nodes > this.limit;
  }

  /**
   * The positions of `node` (a part's top node) and its children, anchors and aliases kept
   * across parts; undefined (give up) for what the whole read could read differently or the
   * checks would locate otherwise (chunked.ts: `position`). `before`: no anchor or alias at or
   * after this offset of `text`.
   */
  position(node: Node, place: Place, text: string, before = Infinity): PosNode | undefined {
    this.aliases = new Map();
    this.before = before;
    return this.node(node, place, text);
  }

  /** The part's data: yaml's toJS, each alias resolved to its anchor's node, in this part or an earlier one. */
  toJS(doc: Document): unknown {
    if (this.aliases.size === 0) return doc.toJS();
    // The aliases keep their resolution: an anchored node read again in a later part (an alias
    // to it) holds aliases of its own part. Each part's Document dies with the read.
    for (const [alias, target] of this.aliases) resolveOnlyTo(alias, target);
    return doc.toJS({ maxAliasCount: -1 });
  }

  /**
   * What a merge key `<<: *name` in a part read without yaml (simple-items.ts) merges: the
   * positions and the data of the last anchor of that name read so far, when it is a mapping of
   * plain names to scalars with no alias or merge of its own (`x-defaults: &d` with `plan: Basic`);
   * undefined for any other (the part goes through yaml). Marks the read as aliased (the guard).
   */
  mergeSource(name: string): MergeSource | undefined {
    const anchored = this.anchors.get(name);
    if (anchored === undefined) return undefined;
    if (anchored.merge === undefined) anchored.merge = mergeSourceOf(anchored) ?? null;
    if (anchored.merge !== null) this.aliased = true;
    return anchored.merge ?? undefined;
  }

  /** Nodes of a part read without yaml (simple-items.ts): counted only when the text may hold an alias. */
  count(pos: PosNode): void {
    this.nodes += nodesIn(pos);
  }

  private node(node: Node, place: Place, text: string): PosNode | undefined {
    if (node.range === undefined || node.range === null) return undefined;
    if (isAlias(node)) {
      const target = this.anchors.get(node.source);
      // No anchor before it, one in the trailer, or an alias inside its own anchor: the whole read's.
      if (target?.pos === undefined || node.range[0] >= this.before) return undefined;
      this.aliases.set(node, target.node);
      this.aliased = true;
      this.nodes += target.size;
      return { ...place(node.range[0]), alias: target.pos };
    }
    let anchored: Anchored | undefined;
    if (node.anchor !== undefined) {
      if (node.range[0] >= this.before) return undefined;
      anchored = { node, pos: undefined, size: 0 };
      this.anchors.set(node.anchor, anchored);
    }
    const before = this.nodes;
    const pos = this.contents(node, place, text);
    if (anchored !== undefined) {
      anchored.pos = pos;
      anchored.size = this.nodes - before;
    }
    return pos;
  }

  private contents(node: Node, place: Place, text: string): PosNode | undefined {
    if (node.range === undefined || node.range === null) return undefined;
    const at = place(node.range[0]);
    this.nodes++;
    if (isScalar(node)) {
      // A plain scalar that goes on with a line like a list item: an indentation mistake the
      // whole read reports (indentation.ts).
      return node.type === Scalar.PLAIN && ITEM_LIKE_LINE.test(text.slice(node.range[0], node.range[1]))
        ? undefined
        : at;
    }
    if (isSeq(node)) {
      const items: PosNode[] = [];
      for (const item of node.items) {
        const child = isNode(item) ? this.node(item, place, text) : undefined;
        if (child === undefined) return undefined;
        items.push(child);
      }
      return { ...at, items };
    }
    if (!isMap(node)) return undefined;
    const entries: PosEntry[] = [];
    const merges: PosNode[] = [];
    for (const pair of node.items) {
      const key = pair.key;
      if (!isScalar(key)) return undefined;
      if (isMergeKey(key)) {
        if (!this.merge(pair.value, merges, place, text) || key.anchor !== undefined || key.tag !== undefined)
          return undefined;
        this.nodes++;
        continue;
      }
      const keyAt = this.node(key, place, text);
      if (keyAt === undefined) return undefined;
      let value: PosNode | undefined;
      if (isNode(pair.value)) {
        value = this.node(pair.value, place, text);
        if (value === undefined) return undefined;
      }
      entries.push({ key: String(key.value), line: keyAt.line, column: keyAt.column, value });
    }
    return merges.length === 0 ? { ...at, entries } : { ...at, entries, merges };
  }

  /**
   * A merge key's value: an alias or a mapping, or a sequence of them, each standing for a
   * mapping (anything else is the whole read's error); its sources are added to `merges`.
   */
  private merge(value: unknown, merges: PosNode[], place: Place, text: string): boolean {
    if (!isNode(value)) return false;
    let sources: unknown[] = [value];
    if (isSeq(value)) {
      if (value.anchor !== undefined || value.tag !== undefined) return false;
      this.nodes++;
      sources = value.items;
    }
    for (const source of sources) {
      const pos = isNode(source) && !isSeq(source) ? this.node(source, place, text) : undefined;
      if (pos === undefined || (pos.alias ?? pos).entries === undefined) return false;
      merges.push(pos);
    }
    return true;
  }
}

/** The nodes of `pos` and under it, as `yaml`'s are counted for the alias guard (Reading). */
export function nodesIn(pos: PosNode): number {
  if (pos.nodes !== undefined) return pos.nodes;
  // An alias counts what it stands for; a merge key, itself and its source.
  if (pos.alias !== undefined) return nodesIn(pos.alias);
  let n = 1;
  for (const source of pos.merges ?? []) n += 1 + nodesIn(source);
  for (const entry of pos.entries ?? []) {
    n++;
    if (entry.value !== undefined) n += nodesIn(entry.value);
  }
  for (const item of pos.items ?? []) n += nodesIn(item);
  return n;
}

/** A line break, then what reads as a list item (`- `) after the indentation. */
const ITEM_LIKE_LINE = /\n *-(?:[ \r\n]|$)/;

/** The line and column (from 1) in the file of an offset in a parsed part of it. */
export type Place = (offset: number) => { line: number; column: number };

/** Locates data paths in the positions the chunked reader kept, as SourceMap does in a whole Document. */
export class PositionMap implements Locator<PosNode> {
  /**
   * `owned`: the positions and the data read with them are this batch's alone (no anchor or
   * alias shares a node or a value; a merge brings in scalars only, its source's positions left
   * in place), so each sequence item may go once checked (`release`).
   */
  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly top: PosNode,
    private readonly owned = false,
  ) {}

  offset(offset: number): Location {
    let line = 1;
    let start = 0;
    for (let i = this.text.indexOf('\n'); i !== -1 && i < offset; i = this.text.indexOf('\n', i + 1)) {
      line++;
      start = i + 1;
    }
    return { file: this.file, line, column: offset - start + 1 };
  }

  at(found: Found<PosNode>): Location {
    const node = found.via ?? found.node;
    return { file: this.file, line: node.line, column: node.column };
  }

  root(): Found<PosNode> {
    return { node: this.top, via: undefined };
  }

  /** The child under a key or index, looking through an alias at `from` and the mapping's merges. */
  step(from: Found<PosNode>, key: string | number): Found<PosNode> | undefined {
    const container = from.node.alias ?? from.node;
    let child: PosNode | undefined;
    let merged: PosNode | undefined;
    if (container.entries !== undefined) {
      const name = String(key);
      // A mapping without merges (nearly every one): its own entry, without lookup's answer object.
      const found = container.merges === undefined ? undefined : lookup(container, name, 0);
      child = found === undefined ? ownEntry(container.entries, name)?.value : found.entry.value;
      merged = found?.via;
    } else if (container.items !== undefined && typeof key === 'number') child = container.items[key];
    if (child === undefined) return undefined;
    return { node: child, via: from.via ?? (from.node.alias !== undefined ? from.node : merged) };
  }

  keyAt(found: Found<PosNode>, key: string): Location | undefined {
    const container = found.node.alias ?? found.node;
    if (container.entries === undefined) return undefined;
    const found2 = lookup(container, key, 0);
    if (found2 === undefined) return undefined;
    const at = found2.via ?? found2.entry;
    return { file: this.file, line: at.line, column: at.column };
  }

  isSeq(found: Found<PosNode>): boolean {
    return (found.node.alias ?? found.node).items !== undefined;
  }

  /**
   * One client's list of 100,000 domains is one batch: its items' positions and data go as the
   * checks take them, so they do not stand beside all that is made of them (issue 30, 7f).
   */
  release(from: Found<PosNode>, index: number): boolean {
    // Never through an alias or a merge (an owned batch has no alias, and its merges bring in
    // only scalars: said here all the same).
    const items = this.owned && from.node.alias === undefined && from.via === undefined ? from.node.items : undefined;
    if (items === undefined || index >= items.length) return false;
    (items as unknown[])[index] = undefined;
    return true;
  }
}

/** The entry of `key` among a mapping's own entries. */
function ownEntry(entries: readonly PosEntry[], key: string): PosEntry | undefined {
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as PosEntry;
    if (entry.key === key) return entry;
  }
  return undefined;
}

/**
 * The entry of `key` in `map`, or in the mappings it merges (the map's own keys first, then
 * each source's, as SourceMap's lookup); `via` the merge's alias.
 */
function lookup(map: PosNode, key: string, depth: number): { entry: PosEntry; via: PosNode | undefined } | undefined {
  const own = map.entries === undefined ? undefined : ownEntry(map.entries, key);
  if (own !== undefined || depth > MAX_MERGE_DEPTH)
    return own === undefined ? undefined : { entry: own, via: undefined };
  for (const source of map.merges ?? []) {
    const target = source.alias ?? source;
    if (target.entries === undefined) continue;
    const found = lookup(target, key, depth + 1);
    if (found !== undefined) return { entry: found.entry, via: source.alias !== undefined ? source : found.via };
  }
  return undefined;
}
