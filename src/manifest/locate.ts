import { Alias, isAlias, isMap, isNode, isScalar, isSeq, Scalar, visit } from 'yaml';
import type { Document, LineCounter, Node, Pair, YAMLMap } from 'yaml';
import type { Location } from './types.js';

/** A path into the manifest's data: object keys and array indexes, as ajv reports them. */
export type DataPath = readonly (string | number)[];

/**
 * A node reached by following a data path. `node` may be an alias (`step` looks through it).
 * `via` is the first alias the path went through: messages point there rather than at the
 * anchor, which stands elsewhere (often under another client).
 */
export interface Found<N = Node> {
  readonly node: N;
  readonly via: N | undefined;
}

/**
 * What the schema and semantic checks need to locate data paths: implemented over a whole
 * yaml Document (SourceMap) and over the positions kept by the chunked loader (chunked.ts).
 */
export interface Locator<N> {
  readonly file: string;
  /** The location of a character offset in the source text. */
  offset(offset: number): Location;
  /** Where a message about a found node should point. */
  at(found: Found<N>): Location;
  /** The document's top node, when there is one. */
  root(): Found<N> | undefined;
  /** The child of `from` under a key or index. */
  step(from: Found<N>, key: string | number): Found<N> | undefined;
  /** Where the key `key` of the mapping at `found` is written; undefined when it is not. */
  keyAt(found: Found<N>, key: string): Location | undefined;
  /** Whether the node at `found` is a sequence (looking through an alias). */
  isSeq(found: Found<N>): boolean;
  /**
   * Lets the position of item `index` of the sequence at `from` go, once the checks are done with
   * it (they never step to it again); true when the data read with these positions is the
   * caller's to let go as well (each value stands in one place: read without anchors or aliases,
   * for this batch alone). Absent, or false: nothing goes (a whole Document, a batch that anchors).
   */
  release?(from: Found<N>, index: number): boolean;
}

/** The deepest node along `path` (a parent when the path ends early, as for a missing key). */
export function findPath<N>(locator: Locator<N>, path: DataPath): Found<N> | undefined {
  let found = locator.root();
  if (found === undefined) return undefined;
  for (const key of path) {
    const next = locator.step(found, key);
    if (next === undefined) return found;
    found = next;
  }
  return found;
}

/** Merges of merges followed at most this deep (an anchor merging another, and so on). */
export const MAX_MERGE_DEPTH = 8;

/** Maps with more keys than this get a key index, so a map full of typos stays linear. */
const INDEX_ABOVE = 8;

/**
 * Finds YAML nodes for data paths and turns them into file:line:column. Alias targets and key
 * indexes are built lazily: a manifest without aliases or big maps never pays for them.
 */
export class SourceMap implements Locator<Node> {
  private aliasTargets: Map<Alias, Node | undefined> | undefined;
  private readonly keyIndexes = new Map<YAMLMap, Map<string, Pair>>();

  constructor(
    readonly file: string,
    private readonly doc: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  /** The location of a character offset in the source text. */
  offset(offset: number): Location {
    const { line, col } = this.lineCounter.linePos(offset);
    return { file: this.file, line, column: col };
  }

  /** Where a node starts; the top of the file for a node without a range. */
  of(node: Node | null | undefined): Location {
    return this.offset(node?.range?.[0] ?? 0);
  }

  /** Where a message about a found node should point. */
  at(found: Found): Location {
    return this.of(found.via ?? found.node);
  }

  /** The document's top node, when there is one. */
  root(): Found | undefined {
    const contents = this.doc.contents;
    return isNode(contents) ? { node: contents, via: undefined } : undefined;
  }

  /** The child of `from` under a key or index, looking through an alias at `from`. */
  step(from: Found, key: string | number): Found | undefined {
    const container = this.deref(from.node);
    let child: unknown;
    let merged: Alias | undefined;
    if (isMap(container)) {
      const found = this.lookup(container, String(key), 0);
      child = found?.pair.value;
      merged = found?.via;
    } else if (isSeq(container) && typeof key === 'number') child = container.items[key];
    if (!isNode(child)) return undefined;
    return { node: child, via: from.via ?? (isAlias(from.node) ? from.node : merged) };
  }

  /**
   * The pair of `key` in `map`, or in the mappings it merges (`<<: *defaults`, `<<: [*a, *b]`,
   * in yaml's order: the map's own keys first, then each source's); `via` the merge's alias.
   */
  private lookup(map: YAMLMap, key: string, depth: number): { pair: Pair; via: Alias | undefined } | undefined {
    const own = this.pair(map, key);
    if (own !== undefined || depth > MAX_MERGE_DEPTH)
      return own === undefined ? undefined : { pair: own, via: undefined };
    for (const item of map.items) {
      if (!isMergeKey(item.key) || !isNode(item.value)) continue;
      const sources = isSeq(item.value) ? item.value.items : [item.value];
      for (const source of sources) {
        if (!isNode(source)) continue;
        const target = this.deref(source);
        if (!isMap(target)) continue;
        const found = this.lookup(target, key, depth + 1);
        if (found !== undefined) return { pair: found.pair, via: isAlias(source) ? source : found.via };
      }
    }
    return undefined;
  }

  /** The key node of `key` in the mapping at `found`, for pointing at an unknown key. */
  keyNode(found: Found, key: string): Node | undefined {
    const container = this.deref(found.node);
    if (!isMap(container)) return undefined;
    const keyNode = this.pair(container, key)?.key;
    return isNode(keyNode) ? keyNode : undefined;
  }

  keyAt(found: Found, key: string): Location | undefined {
    const keyNode = this.keyNode(found, key);
    if (keyNode !== undefined) return this.of(keyNode);
    // A key a merge brought in: at the merge's alias.
    const container = this.deref(found.node);
    const merged = isMap(container) ? this.lookup(container, key, 0) : undefined;
    return merged === undefined ? undefined : this.of(merged.via ?? (merged.pair.key as Node));
  }

  isSeq(found: Found): boolean {
    return isSeq(this.deref(found.node));
  }

  /** The first alias in document order whose anchor is not defined before it. */
  firstUnresolvedAlias(): Alias | undefined {
    for (const [alias, target] of this.targets()) if (target === undefined) return alias;
    return undefined;
  }

  /** The first merge key (`<<`) in document order whose value is not a mapping or a list of mappings: its value. */
  firstBadMerge(): Node | undefined {
    let bad: Node | undefined;
    visit(this.doc, {
      Pair: (_key, pair) => {
        if (!isMergeKey(pair.key) || !isNode(pair.value)) return undefined;
        const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
        if (sources.every((source) => isNode(source) && isMap(this.deref(source)))) return undefined;
        bad = pair.value;
        return visit.BREAK;
      },
    });
    return bad;
  }

  /**
   * How many nodes the document holds with every alias expanded (a merge counts what it
   * merges), counted up to `limit`: past it, `limit + 1`. Linear in the document: each anchored
   * node is counted once; an alias inside its own anchor counts as past the limit.
   */
  expandedSize(limit: number): number {
    const targets = this.targets();
    const anchored = new Map<Node, number>();
    const size = (node: unknown): number => {
      if (isAlias(node)) {
        const target = targets.get(node);
        return target === undefined ? 0 : size(target);
      }
      if (!isNode(node)) return 0;
      const known = anchored.get(node);
      if (known !== undefined) return known < 0 ? limit + 1 : known;
      if (node.anchor !== undefined) anchored.set(node, -1);
      let n = 1;
      if (isMap(node)) {
        for (const pair of node.items) if ((n += size(pair.key) + size(pair.value)) > limit) break;
      } else if (isSeq(node)) {
        for (const item of node.items) if ((n += size(item)) > limit) break;
      }
      n = Math.min(n, limit + 1);
      if (node.anchor !== undefined) anchored.set(node, n);
      return n;
    };
    return size(this.doc.contents);
  }

  /**
   * The document as data (yaml's toJS), each alias resolved through the one-pass table of
   * targets. yaml's own resolution scans every alias and anchor before the alias, for each
   * alias: a manifest of 40,000 clients each merging `<<: *defaults` (1 MB) took minutes.
   * yaml's own alias guard is off: it multiplies an anchor's uses by the uses of the anchors
   * inside it, so layered defaults (`x-eu: {<<: *base}`, each used by a hundred clients) passed
   * its limit in a 7 KB manifest; the caller bounds the expanded size first (expandedSize).
   */
  toJS(): unknown {
    const targets = this.targets();
    try {
      for (const [alias, target] of targets) resolveOnlyTo(alias, target);
      return this.doc.toJS({ maxAliasCount: -1 });
    } finally {
      for (const alias of targets.keys()) delete (alias as { resolve?: unknown }).resolve;
    }
  }

  /** Whether the document holds an alias. */
  hasAliases(): boolean {
    return this.targets().size > 0;
  }

  /** The first alias in document order. */
  firstAlias(): Alias | undefined {
    for (const alias of this.targets().keys()) return alias;
    return undefined;
  }

  /** What an alias stands for (the node itself when it is not an alias). */
  deref(node: Node): Node | undefined {
    return isAlias(node) ? this.targets().get(node) : node;
  }

  private pair(map: YAMLMap, key: string): Pair | undefined {
    if (map.items.length <= INDEX_ABOVE) return map.items.find((pair) => keyText(pair.key) === key);
    let index = this.keyIndexes.get(map);
    if (index === undefined) {
      index = new Map();
      // First occurrence wins, as for duplicate keys yaml has already reported.
      for (const pair of map.items) {
        const text = keyText(pair.key);
        if (text !== undefined && !index.has(text)) index.set(text, pair);
      }
      this.keyIndexes.set(map, index);
    }
    return index.get(key);
  }

  // Same rule as yaml's Alias.resolve (the last anchor of that name before the alias), in one
  // pass for the whole document: resolve() without a context walks the document every call.
  private targets(): Map<Alias, Node | undefined> {
    if (this.aliasTargets !== undefined) return this.aliasTargets;
    const targets = new Map<Alias, Node | undefined>();
    const anchors = new Map<string, Node>();
    visit(this.doc, {
      Node: (_key, node) => {
        if (isAlias(node)) targets.set(node, anchors.get(node.source));
        else if (node.anchor !== undefined) anchors.set(node.anchor, node);
      },
    });
    this.aliasTargets = targets;
    return targets;
  }
}

/**
 * Makes `alias` resolve to `target` (none: unresolved) without yaml's scan: its own resolution
 * looks at every alias and anchor before the alias, for each alias (SourceMap.toJS), and
 * finds nothing in another Document (the chunked read's parts: positions.ts). yaml's own
 * `resolve` still runs, over the one node it would find.
 */
export function resolveOnlyTo(alias: Alias, target: Node | undefined): void {
  const only = target === undefined ? [] : [target];
  type Ctx = Parameters<Alias['resolve']>[1];
  const fast = (doc: Document, ctx?: Ctx): Node | undefined => {
    // Without a context yaml only asks for the target (it counts nested aliases).
    if (ctx === undefined) return target;
    const cache = ctx as { aliasResolveCache?: unknown };
    const saved = cache.aliasResolveCache;
    cache.aliasResolveCache = only;
    try {
      return Alias.prototype.resolve.call(alias, doc, ctx);
    } finally {
      cache.aliasResolveCache = saved;
    }
  };
  Object.defineProperty(alias, 'resolve', { value: fast, configurable: true, writable: true });
}

/** A merge key (`<<`, plain): yaml with `merge: true` reads its value as a symbol. */
export function isMergeKey(key: unknown): boolean {
  if (!isScalar(key) || (key.type !== undefined && key.type !== Scalar.PLAIN)) return false;
  const { value } = key;
  return value === '<<' || (typeof value === 'symbol' && value.description === '<<');
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' ? key : undefined;
}

/**
 * Where `path` leads from `node` (the deepest node along it when it ends early), or the key its
 * last segment names with `atKey`.
 */
export function locateIn<N>(
  source: Locator<N>,
  node: Found<N>,
  path: readonly (string | number)[],
  atKey: boolean,
): Location {
  let found = node;
  // An indexed loop: a section item's place is located for each item read.
  const last = path.length - 1;
  for (let i = 0; i <= last; i++) {
    const segment = path[i] as string | number;
    if (atKey && i === last && typeof segment === 'string') return source.keyAt(found, segment) ?? source.at(found);
    const next = source.step(found, segment);
    if (next === undefined) break;
    found = next;
  }
  return source.at(found);
}
