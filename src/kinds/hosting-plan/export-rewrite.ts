/**
 * The manifest's `hosting_plans` spliced (export --into, the plans' edits: export-edits.ts
 * decides them). Only what changes is touched:
 * - a plan's key gets the panel's value in place of its scalar, in the same quoting style where
 *   it can (ManifestEditor setValue);
 * - new plans go at the end of the list in its own style (block items, or flow items on the
 *   list's line); a manifest without `hosting_plans` gets the section before `clients:` (above
 *   the comment lines right over it), its dashes as far right of the key as the clients' are;
 *   one without `clients` either (a directory's part) gets it after its last entry.
 * Pure: splices through a ManifestEditor.
 */
import { isMap, isSeq, type Pair, type YAMLMap } from 'yaml';
import type { ManifestEditor, NewItems } from '../export.js';
import type { PlanEntry } from './export.js';
import type { PlanObject, PlanValue } from './fields.js';
import { HOSTING_PLANS_KEY } from './manifest.js';

/** The edits of `hosting_plans`; `plan` indexes the manifest's list. */
export type PlanEdit =
  | {
      readonly kind: 'set-plan-value';
      readonly plan: number;
      readonly object: PlanObject;
      readonly key: string;
      readonly value: PlanValue;
    }
  | { readonly kind: 'add-plans'; readonly plans: readonly PlanEntry[] };

/**
 * A hosting plan item as text: `block` gives `- name: …` and its objects' lines under it (at
 * column 0; the caller indents them), `flow` gives `{name: …, resources: {…}, …}` on one line.
 * No trailing newline.
 */
export function planItemText(editor: ManifestEditor, entry: PlanEntry, style: 'block' | 'flow'): string {
  return editor.render(style === 'block' ? [entry] : entry, style === 'flow').trimEnd();
}

/**
 * `edits` on the manifest's top-level mapping `root`, whose `clients` pair is `clientsPair`
 * (undefined in a manifest without one: a new `hosting_plans` then goes after its last entry,
 * or at `end`, a line start after it).
 */
export function editPlans(
  editor: ManifestEditor,
  root: YAMLMap,
  clientsPair: Pair | undefined,
  edits: readonly PlanEdit[],
  end?: number,
): void {
  if (edits.length === 0) return;
  const pair = editor.pairOf(root, HOSTING_PLANS_KEY);
  const list = pair?.value;
  const added: NewItems = (style) =>
    edits.flatMap((e) => (e.kind === 'add-plans' ? e.plans.map((p) => planItemText(editor, p, style)) : []));
  for (const edit of edits) {
    if (edit.kind !== 'set-plan-value') continue;
    const item = isSeq(list) ? list.items[edit.plan] : undefined;
    const object = isMap(item) ? editor.pairOf(item, edit.object)?.value : undefined;
    if (!isMap(object)) throw new Error(`export --into: no "${edit.object}" mapping to set "${edit.key}" in`);
    editor.setValue(object, edit.key, undefined, edit.value);
  }
  if (added('flow').length === 0) return;
  if (pair !== undefined && isSeq(list)) {
    editor.editList(root, pair, list, new Set(), added, true);
    return;
  }
  if (pair !== undefined) throw new Error(`export --into: "${HOSTING_PLANS_KEY}" is not a list`);
  if (clientsPair === undefined) {
    editor.appendPair(
      root,
      `${HOSTING_PLANS_KEY}: [${added('flow').join(', ')}]`,
      [`${HOSTING_PLANS_KEY}:`, ...added('block').flatMap((item) => item.split('\n').map((line) => `  ${line}`))],
      end,
    );
    return;
  }
  const at = editor.keyStart(clientsPair);
  if (root.flow === true) {
    editor.add(at, at, `${HOSTING_PLANS_KEY}: [${added('flow').join(', ')}], `);
    return;
  }
  const column = editor.column(at);
  const indent = ' '.repeat(column + dashIndent(editor, clientsPair.value, column));
  const lines = [
    `${' '.repeat(column)}${HOSTING_PLANS_KEY}:`,
    ...added('block').flatMap((item) => item.split('\n').map((line) => indent + line)),
  ];
  editor.insertLines(commentsAbove(editor, at), lines);
}

/** How far a block list's dashes stand right of its key at `column` (2 when it has none, or is a flow list). */
function dashIndent(editor: ManifestEditor, list: unknown, column: number): number {
  const token = isSeq(list) ? list.srcToken : undefined;
  const dash =
    token?.type === 'block-seq' ? token.items[0]?.start.find((t) => t.type === 'seq-item-ind')?.offset : undefined;
  return dash === undefined ? 2 : Math.max(0, editor.column(dash) - column);
}

/** The start of the comment lines right above the line at `offset` (that line's start when none). */
function commentsAbove(editor: ManifestEditor, offset: number): number {
  let start = editor.lineStart(offset);
  while (start > 0) {
    const previous = editor.lineStart(start - 1);
    if (!editor.text.slice(previous, start).trimStart().startsWith('#')) break;
    start = previous;
  }
  return start;
}
