/**
 * A domain's `dns` block spliced into a manifest's text (rewrite.ts, edits `set-records` and
 * `add-dns`). Only what changes is touched:
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
 * Pure: splices on a Splicer.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { DEFAULT_TTL, recordEntry } from '../kinds/zone.js';
import type { DnsEdit } from './adopt-dns.js';
import { appendPair, editList, type NewItems } from './lists.js';
import { pairOf, type Splicer } from './splicer.js';
import { dnsText, recordItemText } from './write.js';

type SetRecords = Extract<DnsEdit, { kind: 'set-records' }>;
type AddDns = Extract<DnsEdit, { kind: 'add-dns' }>;

/** The `set-records` edit on the domain item `item` (a node of its client's domains list). */
export function setRecords(splicer: Splicer, item: unknown, edit: SetRecords): void {
  const dns = isMap(item) ? pairOf(item, 'dns')?.value : undefined;
  if (!isMap(dns)) throw new Error('export --into: no "dns" mapping to set records in');
  const ttlNode = pairOf(dns, 'ttl')?.value;
  const blockTtl = isScalar(ttlNode) && typeof ttlNode.value === 'number' ? ttlNode.value : DEFAULT_TTL;
  const pair = pairOf(dns, 'records');
  const records = pair?.value;
  for (const { record, ttl } of edit.ttls) {
    const node = isSeq(records) ? records.items[record] : undefined;
    if (!isMap(node)) throw new Error('export --into: no record mapping to set a TTL in');
    setTtl(splicer, node, ttl);
  }
  const items: NewItems = (style) =>
    edit.add.map((r) => {
      const text = recordItemText(recordEntry(r, blockTtl));
      return style === 'block' ? `- ${text}` : text;
    });
  if (pair !== undefined && isSeq(records)) {
    editList(splicer, dns, pair, records, new Set(edit.drop), items, true);
    return;
  }
  if (pair !== undefined && records !== null) throw new Error('export --into: "records" is not a list');
  if (edit.add.length === 0) return;
  if (pair !== undefined) {
    // `records:` with no value: the items go under it.
    const column = splicer.column((pair.key as { range: [number, number] }).range[0]) + 2;
    splicer.insertLines(
      splicer.lineEnd(splicer.colonAfter(pair)),
      items('block').map((line) => ' '.repeat(column) + line),
    );
    return;
  }
  appendPair(splicer, dns, `records: [${items('flow').join(', ')}]`, [
    'records:',
    ...items('block').map((line) => `  ${line}`),
  ]);
}

/** A record's `ttl` set to `ttl`: its value replaced, or the key added after its last entry. */
function setTtl(splicer: Splicer, record: YAMLMap, ttl: number): void {
  const node = pairOf(record, 'ttl')?.value;
  if (isScalar(node) && node.range != null) {
    splicer.add(node.range[0], node.range[1], String(ttl));
    return;
  }
  appendPair(splicer, record, `ttl: ${ttl}`, [`ttl: ${ttl}`]);
}

/** The `add-dns` edit: the domain item `item` (in `domains`, the client's list) gets `dns`. */
export function addDns(splicer: Splicer, domains: unknown, item: unknown, edit: AddDns): void {
  const flowList = isSeq(domains) && domains.flow === true;
  if (isMap(item)) {
    const flow = item.flow === true || flowList;
    if (flow && item.flow !== true) throw new Error('export --into: a block mapping in a flow list');
    appendPair(splicer, item, `dns: ${dnsText(edit.dns, 'flow')}`, dnsText(edit.dns, 'block').split('\n'));
    return;
  }
  if (!isScalar(item) || item.range == null) throw new Error('export --into: no domain item to give "dns"');
  const [start, end] = item.range;
  if (flowList) {
    splicer.add(start, start, '{name: ');
    splicer.add(end, end, `, dns: ${dnsText(edit.dns, 'flow')}}`);
    return;
  }
  // `- alice.example  # comment` → `- name: alice.example  # comment`, then `dns:` below it.
  splicer.add(start, start, 'name: ');
  const column = splicer.column(start);
  splicer.insertLines(
    splicer.lineEnd(end),
    dnsText(edit.dns, 'block')
      .split('\n')
      .map((line) => ' '.repeat(column) + line),
  );
}
