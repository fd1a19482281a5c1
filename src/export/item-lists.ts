/**
 * The kinds' lists under a parent item (Kind.export.list: a domain item's, a client item's), as
 * the export stage writes and edits them, looping over the kinds and naming none: what a plain
 * export writes under each parent, what the read must ask for them (each kind's section asks,
 * Kind.section), and the edits of export --into (adopt.ts) for a listed parent the panel has.
 * Pure.
 */
import type { ExportedParent, ListEdit, ListEditContext, ListExport, Warn } from '../kinds/export.js';
import type { RunAsk } from '../kinds/ask.js';
import { type KindName, SECTION_KINDS } from '../kinds/index.js';
import type { Desired } from '../manifest/types.js';
import { mergeAsk } from '../plan/reads.js';
import { EXPORTS } from './table.js';

/** A kind with a list under a parent item, by name, with its `--with` word. */
interface ListPart {
  readonly name: KindName;
  readonly with: string | undefined;
  readonly list: ListExport<unknown, { readonly loc: unknown }, unknown>;
}

/** The kinds with a list under a parent item, in the table's order. */
const LISTS: readonly ListPart[] = EXPORTS.flatMap(({ name, export: part }) =>
  part.list === undefined ? [] : [{ name, with: part.with, list: part.list }],
);

/** Whether a kind's list is asked for by `words` (a kind without a word always is). */
function asked(part: ListPart, words: ReadonlySet<string>): boolean {
  return part.with === undefined || words.has(part.with);
}

/** Whether `words` asks for a kind's list under a `kind` of item. */
export function listsAsked(words: ReadonlySet<string>, kind: 'client' | 'domain'): boolean {
  return LISTS.some((part) => part.list.parent === kind && asked(part, words));
}

/**
 * The lists export writes in `parent` (a `kind` of item), by key, in the table's order: each
 * kind's whose word `panel.words` holds, when it has entries for it.
 */
export function listEntries(
  panel: { readonly words: ReadonlySet<string> },
  kind: 'client' | 'domain',
  parent: ExportedParent<unknown>,
  warn: Warn,
): Record<string, readonly unknown[]> {
  const out: Record<string, readonly unknown[]> = {};
  for (const part of LISTS) {
    if (part.list.parent !== kind || !asked(part, panel.words)) continue;
    const entries = part.list.entries(parent, panel, warn);
    if (entries.length > 0) out[part.list.key] = entries;
  }
  return out;
}

/** The manifest's items of kind `name` under a parent item (a client's, a domain's); undefined when it gives no list. */
type ListedOf = (name: KindName) => readonly { readonly loc: unknown }[] | undefined;

/** Whether `desired` gives kind `name`'s list under any parent, or prunes its things. */
function listedIn(desired: Desired, name: KindName): boolean {
  return (
    desired.prune.sections?.[name] === true ||
    desired.clients.some(
      (c) => c.sections?.[name] !== undefined || c.domains.some((d) => d.sections?.[name] !== undefined),
    )
  );
}

/**
 * What the read asks for the lists (each kind's section asks, Kind.section.asks): a kind's when
 * its word is among `words`, or (export --into) `desired` gives its list or prunes its things.
 */
export function listAsks(words: ReadonlySet<string>, desired?: Desired): RunAsk {
  const ask: Record<string, unknown> = {};
  for (const part of LISTS) {
    const section = SECTION_KINDS.find((k) => k.name === part.name)?.section;
    if (section === undefined) continue;
    if (asked(part, words) || (desired !== undefined && listedIn(desired, part.name))) mergeAsk(ask, section.asks);
  }
  return ask;
}

/** A kind's edit of one listed parent's list (export --into). */
export interface KindListEdit {
  readonly type: KindName;
  readonly edit: ListEdit;
}

/**
 * What export --into's lists are edited with: for each kind with a list, its context (whether it
 * adds the panel's things: its word among `words`, or its prune key true; --drop-missing; every
 * item the manifest lists of it, by identity), built once per manifest.
 */
export function listContexts(
  desired: Desired,
  words: ReadonlySet<string>,
  dropMissing: boolean,
): ReadonlyMap<KindName, ListEditContext> {
  const out = new Map<KindName, ListEditContext>();
  for (const part of LISTS) {
    const listed = new Set<string>();
    const items = desired.clients.flatMap((c) =>
      part.list.parent === 'client'
        ? (c.sections?.[part.name] ?? [])
        : c.domains.flatMap((d) => d.sections?.[part.name] ?? []),
    );
    for (const item of items) listed.add(part.list.identity(item));
    const add = (part.with !== undefined && words.has(part.with)) || desired.prune.sections?.[part.name] === true;
    out.set(part.name, { add, dropMissing, listed, keep: desired.prune.keep });
  }
  return out;
}

/** The edits of the lists of a listed parent item (a `kind` of item) the panel has, in the table's order. */
export function listEdits(
  kind: 'client' | 'domain',
  listed: ListedOf,
  parent: ExportedParent<unknown>,
  panel: unknown,
  contexts: ReadonlyMap<KindName, ListEditContext>,
  warn: Warn,
): KindListEdit[] {
  const out: KindListEdit[] = [];
  for (const part of LISTS) {
    const ctx = contexts.get(part.name);
    if (part.list.parent !== kind || ctx === undefined) continue;
    const edit = part.list.edits(listed(part.name), parent, panel, ctx, warn);
    if (edit !== undefined && (edit.set.length > 0 || edit.drop.length > 0 || edit.add.length > 0))
      out.push({ type: part.name, edit });
  }
  return out;
}

/** Kind `name`'s list key (its ListExport); a kind without one is a bug. */
export function listKey(name: KindName): string {
  const part = LISTS.find((p) => p.name === name);
  if (part === undefined) throw new Error(`export --into: a list edit of ${name}, which has none`);
  return part.list.key;
}
