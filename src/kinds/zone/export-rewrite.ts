/**
 * A domain's `dns` block spliced into a manifest's text (export --into, the zone's edits:
 * export-edits.ts decides them). Only what changes is touched:
 * - a record whose TTL changes gets its `ttl` value replaced, or a `ttl` key when it had none
 *   (`, ttl: 300` in a flow mapping, a line in a block one);
 * - a removed record takes its line(s), or itself and a comma in a flow list; new records go at
 *   the end of `records`, each a flow mapping (`- {host: "@", type: A, value: 192.0.2.10}`),
 *   with `ttl` only where it differs from the block's (its `ttl`, else DEFAULT_TTL); a block
 *   without `records` gets the key;
 * - the block's other keys (`ttl`, `prune`, `keep`) and every comment stay;
 * - a domain item without `dns` gets the block export writes: a name alone (`- alice.example`)
 *   becomes `- name: alice.example` with `dns:` under it (or `{name: …, dns: {…}}` in a flow
 *   list); a mapping gets the key after its last entry.
 * Pure: splices through a ManifestEditor.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { ManifestEditor, NewItems } from '../export.js';
import type { ZoneEntry } from './export.js';
import { recordEntry } from './export.js';
import type { DnsRecord } from './record.js';
import { DEFAULT_TTL } from './values.js';

/** The edit `set-records` (export-edits.ts ZoneEdit). */
export interface SetRecords {
  readonly drop: readonly number[];
  readonly ttls: readonly { readonly record: number; readonly ttl: number }[];
  readonly add: readonly DnsRecord[];
}

/** A `dns` block as text: `block` gives `dns:` and its lines under it (at column 0), `flow` one line. */
function dnsText(editor: ManifestEditor, entry: ZoneEntry, style: 'block' | 'flow'): string {
  return editor.render(style === 'block' ? { dns: entry } : entry, style === 'flow').trimEnd();
}

/** The `set-records` edit on the domain item `item` (a node of its client's domains list). */
export function setRecords(editor: ManifestEditor, item: unknown, edit: SetRecords): void {
  const dns = isMap(item) ? editor.pairOf(item, 'dns')?.value : undefined;
  if (!isMap(dns)) throw new Error('export --into: no "dns" mapping to set records in');
  const ttlNode = editor.pairOf(dns, 'ttl')?.value;
  const blockTtl = isScalar(ttlNode) && typeof ttlNode.value === 'number' ? ttlNode.value : DEFAULT_TTL;
  const pair = editor.pairOf(dns, 'records');
  const records = pair?.value;
  for (const { record, ttl } of edit.ttls) {
    const node = isSeq(records) ? records.items[record] : undefined;
    if (!isMap(node)) throw new Error('export --into: no record mapping to set a TTL in');
    setTtl(editor, node, ttl);
  }
  const items: NewItems = (style) =>
    edit.add.map((r) => {
      const text = editor.render(recordEntry(r, blockTtl), true).trimEnd();
      return style === 'block' ? `- ${text}` : text;
    });
  if (pair !== undefined && isSeq(records)) {
    editor.editList(dns, pair, records, new Set(edit.drop), items, true);
    return;
  }
  if (pair !== undefined && records !== null) throw new Error('export --into: "records" is not a list');
  if (edit.add.length === 0) return;
  if (pair !== undefined) {
    // `records:` with no value: the items go under it.
    const column = editor.column((pair.key as { range: [number, number] }).range[0]) + 2;
    editor.insertLines(
      editor.lineEnd(editor.colonAfter(pair)),
      items('block').map((line) => ' '.repeat(column) + line),
    );
    return;
  }
  editor.appendPair(dns, `records: [${items('flow').join(', ')}]`, [
    'records:',
    ...items('block').map((line) => `  ${line}`),
  ]);
}

/** A record's `ttl` set to `ttl`: its value replaced, or the key added after its last entry. */
function setTtl(editor: ManifestEditor, record: YAMLMap, ttl: number): void {
  const node = editor.pairOf(record, 'ttl')?.value;
  if (isScalar(node) && node.range != null) {
    editor.add(node.range[0], node.range[1], String(ttl));
    return;
  }
  editor.appendPair(record, `ttl: ${ttl}`, [`ttl: ${ttl}`]);
}

/** The `add-dns` edit: the domain item `item` (in `domains`, the client's list) gets `dns`. */
export function addDns(editor: ManifestEditor, domains: unknown, item: unknown, edit: { dns: ZoneEntry }): void {
  editor.addPairToItem(
    domains,
    item,
    `dns: ${dnsText(editor, edit.dns, 'flow')}`,
    dnsText(editor, edit.dns, 'block').split('\n'),
  );
}
