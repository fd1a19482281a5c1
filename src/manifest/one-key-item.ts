/**
 * The fast read's (simple-items.ts) one match for the commonest sequence item of a manifest's
 * lists, one key and a plain string on the item's line (`- name: info`): what its
 * general read of a block mapping gives for it, without its steps per key and per character.
 * test/manifest/one-key-items.test.ts and simple-items.test.ts hold it to `yaml`'s answer.
 */
import type { Line, Lines } from './item-lines.js';
import { ownString } from './desired-items.js';
import type { PosNode } from './positions.js';

/**
 * The rest of the item's line after `- `: a lowercase key of letters, digits and `_`, one space,
 * and a value of lowercase letters, digits, `.`, `_`, `@` and `-` that starts with a letter, then
 * the line's end. Each such value is plainly a string to YAML's core schema but `null`, `true`
 * and `false`.
 */
const ONE_KEY_ITEM = /[a-z][a-z0-9_]*: [a-z][a-z0-9._@-]*/y;

/** The key of the last item read (oneKeyItem gives it again for an item of the same key). */
let lastKey = '';

/**
 * The sequence item whose key starts at `content` of the current line `line` (right after its
 * `- `), when it is one key and its plain string (ONE_KEY_ITEM) with no line of the mapping below
 * it: its data and positions, the lines moved past it, as the general read leaves them. Undefined
 * for any other item, the lines as they were (the general read reads it); and for a key longer
 * than `maxKey` or one YAML reads as a null or a boolean, or a null value, which the general read
 * leaves to yaml.
 */
export function oneKeyItem(
  text: string,
  lines: Lines,
  content: number,
  line: Line,
  maxKey: number,
): { readonly value: unknown; readonly pos: PosNode } | undefined {
  const column = content - line.start;
  // A line below that starts with spaces up to the key's column most likely holds the mapping's
  // next key: the general read takes it, without a look at that line first.
  const below = line.end + (text.charCodeAt(line.end) === 13 ? 2 : 1);
  if (text.charCodeAt(below + column - 1) === 32 && text.charCodeAt(below + column - 2) === 32) return undefined;
  ONE_KEY_ITEM.lastIndex = content;
  if (!ONE_KEY_ITEM.test(text) || ONE_KEY_ITEM.lastIndex !== line.end) return undefined;
  const colon = text.indexOf(':', content);
  // The key as the item before gave it when it is the same (most lists repeat one key): no new
  // string. Kept as a string of its own: a slice would keep the manifest's text alive.
  const key =
    colon - content === lastKey.length && text.startsWith(lastKey, content)
      ? lastKey
      : (lastKey = ownString(text.slice(content, colon)));
  const scalar = text.slice(colon + 2, line.end);
  if (key === 'null' || key === 'true' || key === 'false' || key.length > maxKey || scalar === 'null') return undefined;
  // The mapping ends with this line: the next is less indented than its key (or there is none).
  const at = lines.after;
  lines.next();
  const next = lines.line;
  if (next !== undefined && next.indent >= column) {
    lines.back(line, at);
    return undefined;
  }
  const value: Record<string, unknown> = {};
  value[key] = scalar === 'true' ? true : scalar === 'false' ? false : scalar;
  const number = line.number;
  const valuePos = { line: number, column: colon + 3 - line.start };
  const entries = [{ key, line: number, column: column + 1, value: valuePos }];
  const pos = { line: number, column: column + 1, entries };
  return { value, pos };
}
