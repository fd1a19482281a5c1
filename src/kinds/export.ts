/**
 * What a kind's room gives export (Kind.export) and what the export stage hands it in: a kind
 * whose entries stand in a domain item (a domain's settings, its `dns` block) or in a section
 * of the manifest's own (`hosting_plans`) says what export writes of it, which edits make the
 * manifest describe the panel (`export --into`), and how those edits are spliced into the text.
 * The stage (src/export) loops over the table of kinds and names none. Pure: the stage hands in
 * the panel as read and a ManifestEditor over the manifest's text; the rooms use the `yaml`
 * package's node types only to find where their keys stand.
 */
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';

/** Hears of a name or value left out or left as written: one sentence each. */
export type Warn = (message: string) => void;

/** Items a list gets: their text for a block list (each `- ...`, maybe several lines) or a flow one. */
export type NewItems = (style: 'block' | 'flow') => string[];

/**
 * Minimal splices on a manifest's text (src/export/splicer.ts, lists.ts, values.ts implement
 * it): replacements collected on the original text, where a node stands, and the list and
 * value edits that keep the manifest's own style. Each method's comment is its implementation's.
 */
export interface ManifestEditor {
  readonly text: string;
  /** The file's line ending. */
  readonly eol: string;
  add(start: number, end: number, text: string): void;
  insertLines(at: number, lines: readonly string[]): void;
  lineStart(offset: number): number;
  lineEnd(offset: number): number;
  column(offset: number): number;
  blockEnd(node: Node): number;
  colonAfter(pair: Pair): number;
  pairOf(map: YAMLMap, key: string): Pair | undefined;
  keyStart(pair: Pair | undefined): number;
  /** A list's removals (`dropped` item indexes) and additions (at its end), in its own style. */
  editList(
    parent: YAMLMap,
    pair: Pair,
    list: YAMLSeq,
    dropped: ReadonlySet<number>,
    items: NewItems,
    blockWhenEmpty: boolean,
  ): void;
  /** A new key at the end of `map`: `flow` in a flow mapping, `block`'s lines in a block one. */
  appendPair(map: YAMLMap, flow: string, block: readonly string[], at?: number): void;
  /**
   * A new key of the item `item` of the list `list` (a client's domains), which may be a name
   * alone: made its object form once, however many kinds add a key to it.
   */
  addPairToItem(list: unknown, item: unknown, flow: string, block: readonly string[]): void;
  /** `key` of `map` set from `before` to `value`, in the same quoting style where it can. */
  setValue(map: YAMLMap, key: string, before: unknown, value: unknown): void;
  /** `value` as manifest text (export writes it so), the top collection in flow style when `flow`. */
  render(value: unknown, flow: boolean): string;
  /** A scalar as it stands in a mapping value (`block`) or in a flow collection (`flow`), in `type` where it can. */
  scalarText(value: string | boolean | number, context: 'block' | 'flow', type?: Scalar.Type): string;
}

/** How export writes a kind's values, beyond what the `yaml` package chooses. */
export interface ExportStyle {
  /** Keys whose mapping or list value is written in flow style on one line (`hsts: {max_age: …}`, `aliases: [hello]`). */
  readonly flowValues?: readonly string[];
  /** Keys whose list's mapping items are written in flow style, one a line (`- {host: "@", …}`). */
  readonly flowItems?: readonly string[];
  /** Keys whose string value is written double-quoted (`memory_limit: "512M"`). */
  readonly quoted?: ReadonlySet<string>;
}

/** A listed domain item as adopt sees it (manifest/types.ts DesiredDomain is one; a kind reads its own keys). */
export interface ListedItem {
  /** Its ASCII name. */
  readonly name: string;
  /** Its name as the manifest writes it. */
  readonly input: string;
}

/** A domain as export writes it: the domain the panel has, its names, and its client's username. */
export interface ExportedDomain<D> {
  readonly name: string;
  /** Its name as written (Unicode for an IDN). */
  readonly text: string;
  readonly live: D;
  readonly owner: string;
}

/**
 * A kind whose entries stand in a domain item: the key it writes there (after the domain's own),
 * the edits of a listed item, and how one is spliced. `P` is the panel as it looks it up, `W` a
 * listed item as it reads it, `D` the panel's domain, `E` its edit.
 */
export interface ItemExport<P, W extends ListedItem, D, E> {
  /** The key it writes in a domain item (`dns`, after the domain's own); undefined: none of its own. */
  readonly key?: string;
  /** The key's value for a domain export writes, or undefined (`warn` hears of what is left out). */
  entry?(domain: ExportedDomain<D>, panel: P, warn: Warn): unknown;
  /**
   * The edits that make the listed item `wanted` describe the panel's `domain` (of the same
   * client); `add`: whether the kind's `--with` word was given.
   */
  edits(wanted: W, domain: ExportedDomain<D>, panel: P, add: boolean, warn: Warn): E[];
  /** `edit` spliced into the domain item `item` of the client's `domains` list. */
  rewrite(editor: ManifestEditor, domains: YAMLSeq, item: unknown, edit: E): void;
}

/** A listed entry of a section, as the manifest loaded it: where it stands (manifest/types.ts Location). */
export interface ListedEntry {
  readonly loc?: { readonly file: string };
}

/** Where a section's edit goes: one of its listed entries (by index), or the new entries (undefined). */
export type SectionPlace = number | undefined;

/**
 * A kind with a section of the manifest's own (`hosting_plans`): its key, what export writes
 * there, the edits of the listed entries and the new ones, and how they are spliced. `P` is the
 * panel as it looks it up, `M` the manifest as it reads it, `T` an entry, `E` an edit.
 */
export interface SectionExport<P, M, T, E> {
  readonly key: string;
  /** What export writes in the section (`note` hears of keys written that panel-provision does not know). */
  entries(panel: P, warn: Warn, note: Warn): T[];
  /** The section's listed entries, in manifest order (each edit's place indexes them), each with the file it stands in. */
  listed(manifest: M): readonly ListedEntry[];
  /** The edits that make the section describe the panel; `add`: whether the kind's `--with` word was given. */
  edits(manifest: M, panel: P, add: boolean, warn: Warn): E[];
  /** The listed entry an edit changes, or undefined for one that adds entries. */
  placeOf(edit: E): SectionPlace;
  /** `edit` with its listed entry's index made `index` (a part of a manifest directory's own). */
  moved(edit: E, index: number): E;
  /**
   * `edits` spliced into the manifest's top-level mapping `root`, whose `clients` pair is
   * `clients` (undefined in a manifest without one: a new section then goes after its last
   * entry, or at `end`, a line start after it).
   */
  rewrite(editor: ManifestEditor, root: YAMLMap, clients: Pair | undefined, edits: readonly E[], end?: number): void;
}

/**
 * A kind's part in export, as the table holds it (the stage hands each member the panel as read,
 * export/model.ts LiveModel, and the manifest as loaded; a room's members take what they read of
 * them). `with` is the word of `export --with` that asks for it: plain export writes it only
 * then; `export --into` edits what the manifest lists anyway, and adds what it does not only
 * then (`add`). A kind without one is always asked for.
 */
export interface KindExport {
  readonly with?: string;
  /** What the header of a manifest export writes says of it, when asked for (one comment line). */
  readonly header?: string;
  readonly style?: ExportStyle;
  readonly item?: ItemExport<unknown, ListedItem, unknown, unknown>;
  readonly section?: SectionExport<unknown, unknown, unknown, unknown>;
  /** A list under a parent item (`mailboxes` under a domain, `databases` under a client): ListExport. */
  readonly list?: ListExport<unknown, { readonly loc: unknown }, unknown>;
}

// --- A kind's list under a parent item (issues 32, 33: `mailboxes` under a domain item, `databases` and `ftp_users` under a client item) ---

/**
 * A parent item as export writes it: a domain (its ASCII name, its name as written, the panel's
 * domain, its client's username) or a client (`name`, `text` and `owner` its username, `live`
 * the panel's client).
 */
export interface ExportedParent<L> extends ExportedDomain<L> {
  /** The client's id on the panel. */
  readonly ownerId: number;
  /** The domains the client's item lists once written (ASCII): what may be named beside the parent's own. */
  readonly clientDomains: ReadonlySet<string>;
}

/** What a list's edits are made with, beside the panel (export --into). */
export interface ListEditContext {
  /** Whether the panel's things the list lacks are added: the kind's `--with` word was given, or its prune key claims them. */
  readonly add: boolean;
  /** --drop-missing: listed present items the panel lacks are removed. */
  readonly dropMissing: boolean;
  /** The identities (ListExport.identity) of every item the manifest lists of the kind, under any parent: never added again. */
  readonly listed: ReadonlySet<string>;
  /** The manifest's `prune.keep` patterns: a thing one matches (the kind's own matcher) is never added, as prune never touches it. */
  readonly keep: readonly string[];
}

/**
 * The edits of one parent's list, by item index in the list (the manifest's order): keys of
 * listed items set to the panel's value as export writes it (`value`), items removed, items
 * added at the end (as export writes them; the key is added to the parent item when it has none).
 * The stage splices them in the manifest's own style.
 */
export interface ListEdit {
  readonly set: readonly { readonly item: number; readonly key: string; readonly value: unknown }[];
  readonly drop: readonly number[];
  readonly add: readonly unknown[];
}

/**
 * A kind whose entries are a list under a parent item (Kind.section: its key and parent): what
 * export writes there, and the edits that make a listed parent's list describe the panel. `P` is
 * the panel as it looks it up, `W` an item as the manifest gives it (the section's), `L` the
 * panel's parent (a client or a domain record).
 */
export interface ListExport<P, W, L> {
  readonly parent: 'client' | 'domain';
  /** Its key in the parent item (after the parent's own keys). */
  readonly key: string;
  /** What export writes under the key for `parent` ([]: no key); `warn` hears of what is left out. */
  entries(parent: ExportedParent<L>, panel: P, warn: Warn): readonly unknown[];
  /** The identity of a listed item, as `ListEditContext.listed` holds it (a mailbox's address, a database's name). */
  identity(item: W): string;
  /**
   * The edits of the parent's list (`listed`: its items, undefined when the parent item has no
   * key), or undefined for none.
   */
  edits(
    listed: readonly W[] | undefined,
    parent: ExportedParent<L>,
    panel: P,
    ctx: ListEditContext,
    warn: Warn,
  ): ListEdit | undefined;
}
