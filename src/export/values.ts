/**
 * A key's new value spliced into a manifest's text (ManifestEditor setValue: a domain's setting,
 * a hosting plan's key, through their rooms' rewrites). Only what differs is touched:
 * - a scalar replaces the scalar's characters, in the same quoting style where it can;
 * - an object over a mapping changes each key whose value differs, the same way (so
 *   `hsts: {max_age: 300, ...}` keeps its layout and comments), when the mapping has every key
 *   whose value differs from what the manifest's value (`before`, its defaults filled in) holds:
 *   a key left out for its default stays out while the panel's value is that default;
 * - a value of another shape (`false` over a mapping, a mapping over `false`) replaces the whole
 *   value: a flow mapping on one line, or the scalar. A block mapping replaced takes its lines.
 * Pure: splices on a Splicer.
 */
import { isCollection, isMap, isScalar, type Node, type Pair, type YAMLMap } from 'yaml';
import { canonical, isRecord } from '../util.js';
import { pairOf, type Splicer } from './splicer.js';
import { valueText } from './write.js';

/** Sets `key` of `map` from `before` (the manifest's value, defaults filled in) to `value` (see the module comment). */
export function setValue(splicer: Splicer, map: YAMLMap, key: string, before: unknown, value: unknown): void {
  const pair = pairOf(map, key);
  if (pair === undefined) throw new Error(`export --into: no "${key}" value to set`);
  const node = pair.value as Node | null;
  const context = map.flow === true ? 'flow' : 'block';
  if (isMap(node) && isRecord(value) && isRecord(before) && holds(node, before, value)) {
    for (const [k, v] of Object.entries(value)) {
      const sub = pairOf(node, k)?.value;
      if (sub !== undefined && !(isScalar(sub) && sub.value === v)) setValue(splicer, node, k, before[k], v);
    }
    return;
  }
  if (isScalar(node) && node.range != null) {
    const [start, end] = node.range;
    const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
    const text = valueText(value, context, isRecord(value) ? undefined : node.type);
    // `key:` with nothing after it (null): the value goes after a space.
    if (start === end) {
      splicer.add(start, end, splicer.text[start - 1] === ':' ? ` ${text}` : text);
      return;
    }
    splicer.add(start, end, block && splicer.text[end - 1] === '\n' ? text + splicer.eol : text);
    return;
  }
  replaceCollection(splicer, pair, node, valueText(value, context));
}

/** A collection value (or none) replaced by `text` on the key's line. */
function replaceCollection(splicer: Splicer, pair: Pair, node: Node | null, text: string): void {
  if (node !== null && isCollection(node) && node.flow !== true) {
    splicer.add(splicer.colonAfter(pair), splicer.blockEnd(node), ` ${text}${splicer.eol}`);
    return;
  }
  const range = node?.range;
  if (range == null) {
    const at = splicer.colonAfter(pair);
    splicer.add(at, at, ` ${text}`);
    return;
  }
  splicer.add(range[0], range[1], text);
}

/**
 * Whether editing `map` key by key gives `value`: each of its keys is one of `value`'s, and
 * each key of `value` it lacks keeps the value it had (`before`'s: a default).
 */
function holds(map: YAMLMap, before: Record<string, unknown>, value: Record<string, unknown>): boolean {
  const keys = map.items.map((p) => (isScalar(p.key) ? p.key.value : undefined));
  return (
    keys.every((k) => typeof k === 'string' && Object.hasOwn(value, k)) &&
    Object.keys(value).every((k) => keys.includes(k) || canonical(before[k]) === canonical(value[k]))
  );
}
