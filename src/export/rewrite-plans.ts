/**
 * The manifest's `hosting_plans` spliced (rewrite.ts, edits `set-plan-value` and `add-plans`;
 * plans.ts decides them). Only what changes is touched:
 * - a plan's key gets the panel's value in place of its scalar, in the same quoting style where
 *   it can (rewrite-settings.ts setValue);
 * - new plans go at the end of the list in its own style (block items, or flow items on the
 *   list's line); a manifest without `hosting_plans` gets the section before `clients:` (above
 *   the comment lines right over it), its dashes as far right of the key as the clients' are;
 *   one without `clients` either (a directory's part) gets it after its last entry.
 * Pure: splices on a Splicer.
 */
import { isMap, isSeq, type Pair, type YAMLMap } from 'yaml';
import { HOSTING_PLANS_KEY } from '../kinds/hosting-plan/manifest.js';
import { appendPair, editList, type NewItems } from './lists.js';
import type { PlanEdit } from './plans.js';
import { setValue } from './rewrite-settings.js';
import { keyStart, pairOf, type Splicer } from './splicer.js';
import { planItemText } from './write.js';

/**
 * `edits` on the manifest's top-level mapping `root`, whose `clients` pair is `clientsPair`
 * (undefined in a manifest without one: a new `hosting_plans` then goes after its last entry,
 * or at `end`, a line start after it).
 */
export function editPlans(
  splicer: Splicer,
  root: YAMLMap,
  clientsPair: Pair | undefined,
  edits: readonly PlanEdit[],
  end?: number,
): void {
  if (edits.length === 0) return;
  const pair = pairOf(root, HOSTING_PLANS_KEY);
  const list = pair?.value;
  const added: NewItems = (style) =>
    edits.flatMap((e) => (e.kind === 'add-plans' ? e.plans.map((p) => planItemText(p, style)) : []));
  for (const edit of edits) {
    if (edit.kind !== 'set-plan-value') continue;
    const item = isSeq(list) ? list.items[edit.plan] : undefined;
    const object = isMap(item) ? pairOf(item, edit.object)?.value : undefined;
    if (!isMap(object)) throw new Error(`export --into: no "${edit.object}" mapping to set "${edit.key}" in`);
    setValue(splicer, object, edit.key, undefined, edit.value);
  }
  if (added('flow').length === 0) return;
  if (pair !== undefined && isSeq(list)) {
    editList(splicer, root, pair, list, new Set(), added, true);
    return;
  }
  if (pair !== undefined) throw new Error(`export --into: "${HOSTING_PLANS_KEY}" is not a list`);
  if (clientsPair === undefined) {
    appendPair(
      splicer,
      root,
      `${HOSTING_PLANS_KEY}: [${added('flow').join(', ')}]`,
      [`${HOSTING_PLANS_KEY}:`, ...added('block').flatMap((item) => item.split('\n').map((line) => `  ${line}`))],
      end,
    );
    return;
  }
  const at = keyStart(clientsPair);
  if (root.flow === true) {
    splicer.add(at, at, `${HOSTING_PLANS_KEY}: [${added('flow').join(', ')}], `);
    return;
  }
  const column = splicer.column(at);
  const indent = ' '.repeat(column + dashIndent(splicer, clientsPair.value, column));
  const lines = [
    `${' '.repeat(column)}${HOSTING_PLANS_KEY}:`,
    ...added('block').flatMap((item) => item.split('\n').map((line) => indent + line)),
  ];
  splicer.insertLines(commentsAbove(splicer, at), lines);
}

/** How far a block list's dashes stand right of its key at `column` (2 when it has none, or is a flow list). */
function dashIndent(splicer: Splicer, list: unknown, column: number): number {
  const token = isSeq(list) ? list.srcToken : undefined;
  const dash =
    token?.type === 'block-seq' ? token.items[0]?.start.find((t) => t.type === 'seq-item-ind')?.offset : undefined;
  return dash === undefined ? 2 : Math.max(0, splicer.column(dash) - column);
}

/** The start of the comment lines right above the line at `offset` (that line's start when none). */
function commentsAbove(splicer: Splicer, offset: number): number {
  let start = splicer.lineStart(offset);
  while (start > 0) {
    const previous = splicer.lineStart(start - 1);
    if (!splicer.text.slice(previous, start).trimStart().startsWith('#')) break;
    start = previous;
  }
  return start;
}
