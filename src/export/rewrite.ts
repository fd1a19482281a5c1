/**
 * Applies adopt's edits to a manifest's text as minimal splices, never re-serialising the
 * document: comments, key order, quoting, flow style, blank lines and line endings stay
 * wherever nothing changes. The document is parsed (yaml, with its source tokens) only to
 * learn where each node stands:
 * - a changed value replaces its scalar's characters, written in the same quoting style
 *   (values.ts);
 * - a removed key takes its line(s) (a first key on a `- ` line takes itself up to the next
 *   key); in a flow mapping, itself and its comma;
 * - a new item goes after a block list's last line at that list's indentation (`- item`), or
 *   into a flow list as `, item` after its last item; a new key (a client's `domains:`, the
 *   `clients:` of a manifest that has none, a directory's part) after its mapping's last line,
 *   at the mapping's indentation, or `, domains: [...]` in a flow one;
 * - a removed item takes its lines (block) or itself and a comma (flow); a block list left
 *   empty becomes `key: []`; new clients under an empty flow `clients: []` are written as a
 *   block list under the key;
 * - a kind's edits of a domain item (a domain's settings, its `dns` block) and of its section
 *   (`hosting_plans`): its room's rewrite (Kind.export), through a ManifestEditor (editor.ts);
 * - a kind's list under a client item or a domain item (Kind.export.list): item-splices.ts.
 * Pure: text in, text out.
 */
import { isMap, isScalar, isSeq, type Node, type Pair, parseDocument, visit, type YAMLMap, type YAMLSeq } from 'yaml';
import { ProvisionError } from '../errors.js';
import { safeText } from '../escape.js';
import { assertNever } from '../util.js';
import type { ManifestEditor } from '../kinds/export.js';
import type { KindName } from '../kinds/index.js';
import type { Edit } from './adopt.js';
import { editorOf } from './editor.js';
import { type DomainEntry, EXPORTS, exportOf } from './model.js';
import { appendPair, editList, type NewItems } from './lists.js';
import { keyStart, pairOf, Splicer } from './splicer.js';
import { domainItemText, entryText, scalarText } from './write.js';
import type { ListEdit } from '../kinds/export.js';
import { listKey } from './item-lists.js';
import { editItemList } from './item-splices.js';

/**
 * Refuses, before anything is read from the panel, a manifest that says it is YAML of another
 * version than 1.2 (`%YAML 1.1`): it validates (the loader reads it by its own version's rules:
 * merge keys `<<`, `on`/`yes`/`no` as booleans), but the rewrite writes YAML 1.2 values and
 * cannot edit a key that came through a merge. `file` names the manifest in the refusal.
 */
export function checkRewritableVersion(text: string, file: string): void {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  for (const [index, line] of lines.entries()) {
    const version = /^%YAML[ \t]+(\S+)/.exec(line)?.[1];
    if (version !== undefined && version !== '1.2') {
      throw new ProvisionError(
        'usage',
        `${safeText(file)}:${index + 1}: export --into rewrites YAML 1.2 manifests only, ` +
          `and this one says %YAML ${version} ` +
          '(merge keys "<<" and values such as on, yes and no read differently there): ' +
          'nothing was read or written',
        {
          hint:
            `remove the "%YAML ${version}" line, write merged keys ("<<") out in full and quote values such as "on"; ` +
            'check with provision validate, then run export --into again',
        },
      );
    }
    // Directives stand before the document's first line of content: stop there.
    if (!/^(?:%|#|---|[ \t]*$|[ \t]*#)/.test(line)) return;
    if (line.startsWith('---')) return;
  }
}

/**
 * `text` with `edits` applied (see the module comment). `file` names the manifest in a
 * refusal: a manifest that uses YAML aliases is refused (an edit through an alias would change
 * every place that refers to it).
 */
export function rewrite(text: string, edits: readonly Edit[], file: string): string {
  if (edits.length === 0) return text;
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const splicer = new Splicer(text.slice(bom.length));
  const doc = parseDocument(splicer.text, { keepSourceTokens: true, logLevel: 'error' });
  visit(doc, {
    Alias(_key, node) {
      throw new ProvisionError(
        'usage',
        `${file}:${splicer.lineOf(node.range?.[0] ?? 0)}: ` +
          'export --into cannot rewrite a manifest that uses YAML aliases (*name): nothing was written',
        {
          hint: 'write the aliased values out in full, or edit this manifest by hand',
        },
      );
    },
  });
  const root = doc.contents;
  if (!isMap(root)) throw new Error('export --into: the manifest is not a mapping');
  // A part of a directory (or a file that defines hosting_plans only) may leave out `clients`.
  const clientsPair = pairOf(root, 'clients');
  const clients = clientsPair?.value;
  if (clientsPair !== undefined && !isSeq(clients)) throw new Error('export --into: "clients" is not a list');

  const editor = editorOf(splicer);
  const byClient = new Map<number, Edit[]>();
  const droppedClients = new Set<number>();
  const newClients: NewItems[] = [];
  const bySection = new Map<KindName, unknown[]>();
  for (const edit of edits) {
    switch (edit.kind) {
      case 'section':
        bySection.set(edit.type, [...(bySection.get(edit.type) ?? []), edit.edit]);
        break;
      case 'drop-client':
        droppedClients.add(edit.client);
        break;
      case 'add-clients':
        newClients.push((style) => edit.clients.map((c) => entryText(c, style)));
        break;
      case 'set':
      case 'unset':
      case 'item':
      case 'list':
      case 'add-domains':
      case 'drop-domain':
        byClient.set(edit.client, [...(byClient.get(edit.client) ?? []), edit]);
        break;
      default:
        assertNever(edit);
    }
  }
  const added: NewItems = (style) => newClients.flatMap((items) => items(style));
  if (clientsPair === undefined || !isSeq(clients)) {
    if (byClient.size > 0 || droppedClients.size > 0) throw new Error('export --into: client edits without clients');
    // The sections first: a new one (`hosting_plans`) goes at the end too, and stands before `clients`.
    const end = documentEnd(splicer, doc.range[2]);
    editSections(editor, root, undefined, bySection, end);
    if (newClients.length > 0) addClientsKey(splicer, root, added, end);
    return bom + splicer.apply();
  }
  for (const [index, clientEdits] of [...byClient].sort(([a], [b]) => a - b)) {
    const map = clients.items[index];
    if (!isMap(map)) throw new Error(`export --into: client ${index} is not a mapping`);
    editClient(splicer, editor, map, clientEdits, sequenceIndent(splicer, clients));
  }
  editList(splicer, root, clientsPair, clients, droppedClients, added, true);
  editSections(editor, root, clientsPair, bySection);
  return bom + splicer.apply();
}

/** Each kind's edits of its section (Kind.export.section), in the table's order. */
function editSections(
  editor: ManifestEditor,
  root: YAMLMap,
  clientsPair: Pair | undefined,
  bySection: ReadonlyMap<KindName, readonly unknown[]>,
  end?: number,
): void {
  for (const { name, export: part } of EXPORTS) {
    const edits = bySection.get(name);
    if (edits !== undefined) part.section?.rewrite(editor, root, clientsPair, edits, end);
  }
  const lost = [...bySection.keys()].filter((name) => exportOf(name).section === undefined);
  if (lost.length > 0) throw new Error(`export --into: section edits of ${lost.join(', ')}, which have none`);
}

/** A manifest without `clients` (a directory's part) gets the key, its items under it, at `end` (documentEnd). */
function addClientsKey(splicer: Splicer, root: YAMLMap, items: NewItems, end: number): void {
  appendPair(
    splicer,
    root,
    `clients: [${items('flow').join(', ')}]`,
    ['clients:', ...items('block').flatMap((item) => item.split('\n').map((line) => `  ${line}`))],
    end,
  );
}

/**
 * Where a new top-level key goes in a block manifest: after its last line, the comments at its
 * end included (`# new clients go here`), before a `...` that ends the document. `nodeEnd`: the
 * document's end as parsed (its comments and end marker included).
 */
function documentEnd(splicer: Splicer, nodeEnd: number): number {
  const body = splicer.text.slice(0, nodeEnd);
  const marker = /(?:^|\n)\.\.\.[ \t]*(?:#[^\n]*)?\r?\n?$/.exec(body);
  return marker === null ? body.length : marker.index + (marker[0].startsWith('\n') ? 1 : 0);
}

/** The changes to one client's mapping: its fields, its domain items (each kind's edits), then its domain list. */
function editClient(
  splicer: Splicer,
  editor: ManifestEditor,
  map: YAMLMap,
  edits: readonly Edit[],
  indent: number,
): void {
  const dropped = new Set<number>();
  const added: DomainEntry[] = [];
  // A client item's own lists go after its domains' edits: new keys stand after a `domains` list's new items.
  const clientLists: { readonly key: string; readonly edit: ListEdit }[] = [];
  for (const edit of edits) {
    switch (edit.kind) {
      case 'set': {
        const value = pairOf(map, edit.field)?.value;
        if (!isScalar(value) || value.range == null) throw new Error(`export --into: no "${edit.field}" value to set`);
        const [start, end] = value.range;
        const block = value.type === 'BLOCK_LITERAL' || value.type === 'BLOCK_FOLDED';
        const replaced = scalarText(edit.value, map.flow === true ? 'flow' : 'block', value.type);
        splicer.add(start, end, block && splicer.text[end - 1] === '\n' ? replaced + splicer.eol : replaced);
        break;
      }
      case 'unset':
        removePair(splicer, map, edit.field);
        break;
      case 'item': {
        const domains = pairOf(map, 'domains')?.value;
        if (!isSeq(domains)) throw new Error('export --into: no domains list to edit a domain item in');
        const part = exportOf(edit.type).item;
        if (part === undefined) throw new Error(`export --into: an item edit of ${edit.type}, which has none`);
        part.rewrite(editor, domains, domains.items[edit.domain], edit.edit);
        break;
      }
      case 'list': {
        const key = listKey(edit.type);
        if (edit.domain === undefined) {
          clientLists.push({ key, edit: edit.edit });
          break;
        }
        const domains = pairOf(map, 'domains')?.value;
        if (!isSeq(domains)) throw new Error('export --into: no domains list to edit a domain item in');
        editItemList(splicer, domains, domains.items[edit.domain], key, edit.edit);
        break;
      }
      case 'add-domains':
        added.push(...edit.domains);
        break;
      case 'drop-domain':
        dropped.add(edit.domain);
        break;
      case 'drop-client':
      case 'add-clients':
      case 'section':
        throw new Error("export --into: a list or section edit among a client's edits");
      default:
        assertNever(edit);
    }
  }
  editDomainList(splicer, map, dropped, added, indent);
  for (const { key, edit } of clientLists) editItemList(splicer, undefined, map, key, edit);
}

/** A client's domains list: `dropped` items removed, `added` ones at its end (the key made when it has none). */
function editDomainList(
  splicer: Splicer,
  map: YAMLMap,
  dropped: ReadonlySet<number>,
  added: readonly DomainEntry[],
  indent: number,
): void {
  if (dropped.size === 0 && added.length === 0) return;
  const items: NewItems = (style) => added.map((entry) => domainItemText(entry, style));
  const pair = pairOf(map, 'domains');
  if (pair !== undefined && isSeq(pair.value)) {
    editList(splicer, map, pair, pair.value, dropped, items, false);
    return;
  }
  if (pair !== undefined) throw new Error('export --into: "domains" is not a list');
  // No domains key yet: one, with its items, after the mapping's last entry.
  appendPair(splicer, map, `domains: [${items('flow').join(', ')}]`, [
    'domains:',
    ...items('block').flatMap((item) => item.split('\n').map((line) => ' '.repeat(indent) + line)),
  ]);
}

/** Removes `key` and its value from `map` (see the module comment). */
function removePair(splicer: Splicer, map: YAMLMap, key: string): void {
  const index = map.items.findIndex((p) => isScalar(p.key) && p.key.value === key);
  const pair = map.items[index];
  if (pair === undefined) throw new Error(`export --into: no "${key}" to remove`);
  const start = keyStart(pair);
  const value = pair.value as Node | null;
  const next = map.items[index + 1];
  if (map.flow === true) {
    const previous = map.items[index - 1];
    const end = (value ?? (pair.key as Node)).range?.[1] ?? start;
    if (previous !== undefined)
      splicer.add(((previous.value as Node | null) ?? (previous.key as Node)).range?.[1] ?? start, end, '');
    else if (next !== undefined) splicer.add(start, keyStart(next), '');
    return;
  }
  const lineStart = splicer.lineStart(start);
  if (splicer.text.slice(lineStart, start).trim() === '')
    splicer.add(lineStart, value === null ? splicer.lineEnd(start) : splicer.nodeEnd(value), '');
  else if (next !== undefined) splicer.add(start, keyStart(next), '');
}

/** How far a block list's dashes stand right of their key in this file (2 by default, 0 for `key:\n- item`). */
function sequenceIndent(splicer: Splicer, clients: YAMLSeq): number {
  for (const client of clients.items) {
    if (!isMap(client)) continue;
    const pair = pairOf(client, 'domains');
    const token = isSeq(pair?.value) ? pair.value.srcToken : undefined;
    const dash =
      token?.type === 'block-seq' ? token.items[0]?.start.find((t) => t.type === 'seq-item-ind')?.offset : undefined;
    if (pair !== undefined && dash !== undefined)
      return Math.max(0, splicer.column(dash) - splicer.column(keyStart(pair)));
  }
  return 2;
}
