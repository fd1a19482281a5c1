/**
 * The fast read's (simple-items.ts) one match for the commonest sequence item of a manifest's
 * lists, one key and a plain string on the item's line (`- name: info`): what its
 * general read of a block mapping gives for it, without its steps per key and per character; a
 * run of such items of one key (a section's list of names) read line after line from the text.
 * test/manifest/one-key-items.test.ts and simple-items.test.ts hold it to `yaml`'s answer.
 */
import type { Line, Lines } from './item-lines.js';
import { ownString } from '../util.js';
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
function oneKeyItem(
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

/** Runs of items are matched at these indentations (deeper: one item at a time). */
const RUN_INDENTS = 64;

/**
 * The lines one match of a run takes at most (the next match takes the lines after them): the
 * pattern's engine keeps a step back for each line it repeats, and a list of some 100,000 items
 * in one match overflows its stack.
 */
const RUN_LINES = 256;

/** The last pattern made for a run of items at each indentation, and its key (runPattern). */
const RUNS: ({ readonly key: string; readonly pattern: RegExp } | undefined)[] = [];

/**
 * The pattern of a run of one-key items of `key` at `indent` (ONE_KEY_ITEM's lines, each with its
 * line break): one match finds where the run ends, or its first RUN_LINES lines. Undefined past
 * RUN_INDENTS.
 */
function runPattern(indent: number, key: string): RegExp | undefined {
  if (indent >= RUN_INDENTS) return undefined;
  let run = RUNS[indent];
  if (run?.key !== key) {
    const line = `(?: {${indent}}- ${key}: [a-z][a-z0-9._@-]*\\r?\\n)`;
    run = { key, pattern: new RegExp(`${line}{1,${RUN_LINES}}`, 'y') };
    RUNS[indent] = run;
  }
  return run.pattern;
}

/**
 * The items of a sequence whose dashes stand at `line`'s indentation, from `line` (the current
 * line, its content right after its `- `) on, for as long as each is a one-key item (what
 * oneKeyItem takes) of one key on the line right below the one before: the run found in one match
 * (runPattern), each line then cut at its break, with no Line made for it nor a look below taken
 * back. Their data and positions are pushed to `values` and `items` as oneKeyItem gives them, and
 * the lines moved to the first line not taken. The run's last item when the line below it is
 * blank, a comment or the batch's end, a run past the batch's end, an item YAML reads otherwise
 * (a null) and any item not in a run go to oneKeyItem, which looks past such lines. A run stops
 * once `items` holds `limit` items (simple-items.ts reads the rest of a long list one by one). False when
 * the current line is no one-key item (nothing pushed, the lines as they were): the general read's.
 */
export function oneKeyItems(
  text: string,
  lines: Lines,
  line: Line,
  maxKey: number,
  values: unknown[],
  items: PosNode[],
  limit = Infinity,
): boolean {
  const { indent } = line;
  const column = indent + 2;
  const content = line.start + column;
  // oneKeyItem's guess first: a line below at the key's column goes on with this item's mapping.
  const down = line.end + (text.charCodeAt(line.end) === 13 ? 2 : 1);
  if (text.charCodeAt(down + column - 1) === 32 && text.charCodeAt(down + column - 2) === 32) return false;
  // The first item's line as oneKeyItem takes it (one match); its key is the run's.
  ONE_KEY_ITEM.lastIndex = content;
  if (!ONE_KEY_ITEM.test(text) || ONE_KEY_ITEM.lastIndex !== line.end) return false;
  const colon = text.indexOf(':', content);
  const width = colon - content;
  if (width > maxKey) return false;
  const key =
    width === lastKey.length && text.startsWith(lastKey, content)
      ? lastKey
      : (lastKey = ownString(text.slice(content, colon)));
  if (key === 'null' || key === 'true' || key === 'false') return false;
  const { end } = lines;
  const valueColumn = column + width + 3;
  let start = line.start;
  let number = line.number;
  let read = 0;
  // The run's lines in one match: each `- `, the key, `: `, a value and the line's break.
  const run = runPattern(indent, key);
  if (run !== undefined) {
    run.lastIndex = start;
    const after = run.test(text) ? run.lastIndex : -1;
    // The line right below the run: content less indented than the key (the parent's), or the
    // run's last item is oneKeyItem's to read. A run past the batch's end is left to it whole.
    let spaces = 0;
    while (text.charCodeAt(after + spaces) === 32) spaces++;
    const below = text.charCodeAt(after + spaces);
    const lastTaken = after + spaces < end && spaces < column && below !== 10 && below !== 13 && below !== 35;
    while (start < after && after <= end && items.length < limit) {
      const at = start + column + width + 2;
      const next = text.indexOf('\n', at) + 1;
      if (next === after && !lastTaken) break;
      const scalar = text.slice(at, text.charCodeAt(next - 2) === 13 ? next - 2 : next - 1);
      if (scalar === 'null') break;
      const value: Record<string, unknown> = {};
      value[key] = scalar === 'true' ? true : scalar === 'false' ? false : scalar;
      const valuePos = { line: number, column: valueColumn };
      const entries = [{ key, line: number, column: column + 1, value: valuePos }];
      values.push(value);
      items.push({ line: number, column: column + 1, entries });
      read++;
      start = next;
      number++;
    }
  }
  if (read > 0) {
    lines.moveTo(start, number);
    return true;
  }
  const item = oneKeyItem(text, lines, content, line, maxKey);
  if (item === undefined) return false;
  values.push(item.value);
  items.push(item.pos);
  return true;
}
