/**
 * The manifest stage's side of the kinds' sections (src/kinds/section.ts, Kind.section): a list
 * under a client item or a domain item, read and checked by its kind's section, each problem at
 * file:line:column; what each section remembers of the items listed so far (to refuse one listed
 * twice), shared by the parts of a manifest directory; and its key under `prune`. Names no kind:
 * it loops over the kinds that have a section (SECTION_KINDS), or a table a test hands in.
 */
import type { KindNoun } from '../kinds/common.js';
import { KINDS, SECTION_KINDS, type SectionKind } from '../kinds/index.js';
import type { SectionItemContext } from '../kinds/section.js';
import { type Found, type Locator, locateIn } from './locate.js';
import { type PosEntry, type PosNode, PositionMap } from './positions.js';
import type { Desired, Diagnostic, Location } from './types.js';

/** A parent item's lists, by kind name, as Desired holds them (DesiredClient/DesiredDomain `sections`). */
export type ReadSections = { readonly [kind: string]: readonly { readonly loc: Diagnostic }[] | undefined };

/**
 * The sections a manifest is read with, and what each remembers of the items listed so far: one
 * per manifest, shared by the parts of a directory. A read that may be given up (the chunked read
 * of a part, read whole again after it) works on a copy (`attempt`) and keeps it when done (`keep`).
 */
export class SectionSeens {
  private seens: Map<string, unknown>;

  constructor(
    readonly kinds: readonly SectionKind[] = SECTION_KINDS,
    seens?: Map<string, unknown>,
  ) {
    this.seens = seens ?? new Map(kinds.map(({ name, section }) => [name, section.seen()] as const));
  }

  /** A copy to read one part with: the memory so far, which the part's read adds to. */
  attempt(): SectionSeens {
    const copies = this.kinds.map(({ name, section }) => [name, section.seen(this.seens.get(name))] as const);
    return new SectionSeens(this.kinds, new Map(copies));
  }

  /** Takes what the read of `attempt` remembered, once it is done. */
  keep(attempt: SectionSeens): void {
    this.seens = attempt.seens;
  }

  /** The memory of kind `name`'s section. */
  of(name: string): unknown {
    return this.seens.get(name);
  }
}

/** What the stage knows of the parent item its lists are read under (the rest of SectionItemContext). */
export type ParentContext = Omit<SectionItemContext, 'locate' | 'parent' | 'parentAbsent'>;

/**
 * The lists a parent item (`item`, standing at `node`) gives of the sections under `parent`,
 * each read and checked by its section (problems to `diagnostics`); undefined when it gives none
 * (then the parent holds no `sections`).
 */
export function readSections<N>(
  seens: SectionSeens,
  parent: 'client' | 'domain',
  item: Readonly<Record<string, unknown>>,
  source: Locator<N>,
  node: Found<N>,
  context: ParentContext & { readonly parent: string; readonly parentAbsent: boolean },
  diagnostics: Diagnostic[],
): ReadSections | undefined {
  let lists: Record<string, readonly { readonly loc: Diagnostic }[]> | undefined;
  // Indexed, the context spelled out: read for each domain item of the manifest.
  const { kinds } = seens;
  for (let k = 0; k < kinds.length; k++) {
    const { name, section } = kinds[k] as SectionKind;
    if (section.parent !== parent) continue;
    const list = item[section.key];
    if (list === undefined) continue;
    const listNode = source.step(node, section.key) ?? node;
    // The positions of a chunked read: an item's value found without the steps (itemValueAt).
    const positions = source instanceof PositionMap ? (listNode as Found<PosNode>) : undefined;
    const itemContext: SectionItemContext = {
      client: context.client,
      parent: context.parent,
      parentAbsent: context.parentAbsent,
      clientDomains: context.clientDomains,
      ownerOf: context.ownerOf,
      usernames: context.usernames,
      locate: (path, atKey) => locateIn(source, listNode, path, atKey),
      itemAt: (index, key) =>
        (positions === undefined ? undefined : itemValueAt(source.file, positions, index, key)) ??
        locateIn(source, listNode, [index, key], false),
    };
    const read = section.items(list, itemContext, seens.of(name));
    for (const problem of read.problems) diagnostics.push(problem);
    lists ??= {};
    lists[name] = read.items as readonly { readonly loc: Diagnostic }[];
  }
  return lists;
}

/**
 * Where the value under `key` of item `index` of the sequence at `list` stands (`[3, 'name']`),
 * in the positions of a chunked read, when neither the list nor the item is an alias and the key
 * is the item's own: what locateIn gives for that path, without its steps and their objects
 * (asked for each item of a section's list); undefined for anything else (the caller asks
 * locateIn).
 */
export function itemValueAt(file: string, list: Found<PosNode>, index: number, key: string): Location | undefined {
  const { node } = list;
  if (list.via !== undefined || node.alias !== undefined || node.entries !== undefined) return undefined;
  const item = node.items?.[index];
  const entries = item?.entries;
  // A mapping's own key comes before what its merges bring in (a key found only there: locateIn's).
  if (entries === undefined) return undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as PosEntry;
    if (entry.key !== key) continue;
    const value = entry.value;
    return value === undefined ? undefined : { file, line: value.line, column: value.column };
  }
  return undefined;
}

/** The keys under `prune` of the sections that have one, and what the manifest says of each. */
export function sectionPrunes<N>(
  prune: Readonly<Record<string, unknown>>,
  source: Locator<N>,
  pruneNode: Found<N> | undefined,
  diagnostics: Diagnostic[],
  kinds: readonly SectionKind[] = SECTION_KINDS,
): { readonly [kind: string]: boolean } | undefined {
  let flags: Record<string, boolean> | undefined;
  for (const { name, section } of kinds) {
    const key = section.prune?.key;
    if (key === undefined || !Object.hasOwn(prune, key)) continue;
    const refused = section.prune?.refused;
    if (refused !== undefined) {
      const at = (pruneNode && source.keyAt(pruneNode, key)) ?? (pruneNode && source.at(pruneNode));
      if (at !== undefined) diagnostics.push(refused(at));
      continue;
    }
    const value = prune[key];
    if (typeof value !== 'boolean') continue; // the schema check reported it
    flags ??= {};
    flags[name] = value;
  }
  return flags;
}

/**
 * A `prune.keep` pattern as the sections claim it (an address, for a kind whose things are
 * named by one): the first section's answer; undefined when none claims it.
 */
export function sectionKeepPattern(
  pattern: string,
  kinds: readonly SectionKind[] = SECTION_KINDS,
): { readonly problem: string } | { readonly keep: string } | undefined {
  for (const { section } of kinds) {
    const answer = section.keepPattern?.(pattern);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/**
 * How many items a manifest lists of each section kind (validate's summary): the kinds whose list
 * some client or domain item gives (in the table's order), each with its noun; a kind the table
 * does not name (a test's) is left out.
 */
export function sectionCounts(
  desired: Desired,
  kinds: readonly SectionKind[] = SECTION_KINDS,
): { readonly noun: KindNoun; readonly count: number }[] {
  const nouns: Readonly<Record<string, { readonly noun: KindNoun } | undefined>> = KINDS;
  return kinds.flatMap(({ name, section }) => {
    const noun = nouns[name]?.noun;
    // Counted as walked: no list of every client's or domain's (a manifest of 100,000 of them).
    let lists = 0;
    let count = 0;
    for (const client of desired.clients) {
      for (const holder of section.parent === 'client' ? [client] : client.domains) {
        const list = holder.sections?.[name];
        if (list === undefined) continue;
        lists++;
        count += list.length;
      }
    }
    return noun === undefined || lists === 0 ? [] : [{ noun, count }];
  });
}

/** The keys of a map as a set, live (the usernames listed so far, without a copy of them). */
export class KeysOf<V> implements ReadonlySet<string> {
  constructor(private readonly map: ReadonlyMap<string, V>) {}
  get size(): number {
    return this.map.size;
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  forEach(each: (value: string, key: string, set: ReadonlySet<string>) => void): void {
    for (const key of this.map.keys()) each(key, key, this);
  }
  keys(): SetIterator<string> {
    return this.map.keys();
  }
  values(): SetIterator<string> {
    return this.map.keys();
  }
  *entries(): SetIterator<[string, string]> {
    for (const key of this.map.keys()) yield [key, key];
  }
  [Symbol.iterator](): SetIterator<string> {
    return this.map.keys();
  }
}
