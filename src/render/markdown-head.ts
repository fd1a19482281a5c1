/**
 * The pull-request comment's head: the summary table, then what a reviewer must not miss, each
 * list bounded (conflicts, deletes, what updates remove, warnings), and the unmanaged counts.
 * Each kind's words are its room's. Pure.
 */
import { markdownText } from '../escape.js';
import { assertNever, plural } from '../util.js';
import type { Change } from '../plan/types.js';
import { KIND_NAMES, KINDS, type KindName } from '../kinds/index.js';
import { weight } from '../plan/guards.js';
import { conflictLine, goesWith, NOUNS, type PlanView, subject, unknownLine } from './common.js';
import { changeSummary, hasUnmanaged, removalsByKind, scopeLine, unmanagedCounts } from './summary.js';

/** The head's lines, up to the client sections; `showUrl` names the panel's URL. */
export function markdownHead(view: PlanView, showUrl: boolean): string[] {
  const { plan } = view;
  const counts = countRows(plan.changes);
  const scope = scopeLine(plan);
  const removals = removalsByKind(plan.changes);
  const head = [
    `### panel-provision plan${plan.scope === undefined ? '' : ' (scoped)'}: ${changeSummary(plan.changes)}`,
    '',
    `Manifest <code>${markdownText(view.manifest)}</code>` +
      `${showUrl ? ` against <code>${markdownText(view.panelUrl)}</code>` : ''}.`,
    '',
    ...(scope === undefined ? [] : [`> :dart: **Plan ${markdownText(scope)}.**`, '']),
    '| | count |',
    '|---|---:|',
    // Deletes first, then updates: what a reviewer must not miss comes before what is new.
    ...(counts.deletes > 0 ? [`| :warning: **resources to delete** | **${counts.deletes}** |`] : []),
    // What an update removes (a prune of a zone's records) is as grave as a delete: counted beside it.
    ...removals.flatMap((r) =>
      r.removed === 0 && r.uncounted.length === 0
        ? []
        : [`| :warning: **${r.noun.many} to remove** | **${r.removed}**${r.uncountedBeside} |`],
    ),
    ...KIND_NAMES.flatMap((kind) => {
      const n = counts.updates.get(kind) ?? 0;
      return n > 0 ? [`| ${NOUNS[kind].many} to update | ${n} |`] : [];
    }),
    // As each kind says: always (a reviewer looks for clients and domains), when there are some,
    // or never (a kind never created on its own).
    ...KIND_NAMES.filter((kind) => {
      const row = KINDS[kind].createsRow;
      return row === 'always' || (row === 'some' && counts.creates.has(kind));
    }).map((kind) => `| ${NOUNS[kind].many} to create | ${counts.creates.get(kind) ?? 0} |`),
    `| conflicts | ${plan.conflicts.length} |`,
    `| warnings | ${plan.unknowns.length + (view.warnings?.length ?? 0)} |`,
    '',
  ];
  for (const note of view.notes) head.push(`> ${markdownText(note)}`, '');
  if (plan.conflicts.length > 0) {
    head.push('**Conflicts**: apply will send nothing until they are resolved.', '');
    // The owner is another customer: named only when unmanaged names are asked for.
    head.push(
      ...bounded(
        plan.conflicts.map((c) => `- :x: ${markdownText(conflictLine(c, view.showUnmanaged))}`),
        'conflict',
      ),
    );
    head.push('');
  }
  const deletes = plan.changes.flatMap((c) => (c.action === 'delete' ? [c] : []));
  if (deletes.length > 0) {
    // What each kind's delete takes with it, for the kinds deleted only, in the kinds' order.
    const takes = KIND_NAMES.filter((kind) => deletes.some((c) => c.type === kind)).flatMap(
      (kind) => KINDS[kind].deleteTakes ?? [],
    );
    head.push(
      `**Deletes**: ${plural(counts.deletes, 'resource')} ${counts.deletes === 1 ? 'is' : 'are'} deleted for good ` +
        `(${takes.join('; ')}).`,
      '',
    );
    head.push(
      ...bounded(
        deletes.map((c) => `- :x: ${markdownText(`${subject(c)}${goesWith(c)}: ${c.reason}`)}`),
        'delete',
      ),
    );
    head.push('');
  }
  // What updates remove, one item each (bounded): a prune is reviewed like a delete.
  for (const r of removals) {
    if (r.removed === 0 && r.uncounted.length === 0) continue;
    head.push(
      `**${r.noun.many} to remove**: ${r.sentence}.`,
      '',
      ...bounded(
        [...r.lines, ...r.uncounted].map((line) => `- :x: ${markdownText(line)}`),
        r.item,
      ),
      '',
    );
  }
  const warnings = [...(view.warnings ?? []), ...plan.unknowns.map(unknownLine)];
  if (warnings.length > 0) {
    head.push('**Warnings**', '');
    head.push(
      ...bounded(
        warnings.map((w) => `- :warning: ${markdownText(w)}`),
        'warning',
      ),
    );
    head.push('');
  }
  if (hasUnmanaged(plan.unmanaged))
    head.push(`Not in the manifest, left alone: ${unmanagedCounts(plan.unmanaged)}.`, '');
  return head;
}

/** The summary table's counts: creates and updates by kind, and resources deleted (a client with its domains). */
function countRows(changes: readonly Change[]): {
  creates: Map<KindName, number>;
  updates: Map<KindName, number>;
  deletes: number;
} {
  const counts = { creates: new Map<KindName, number>(), updates: new Map<KindName, number>(), deletes: 0 };
  for (const change of changes) {
    switch (change.action) {
      case 'create':
        counts.creates.set(change.type, (counts.creates.get(change.type) ?? 0) + 1);
        break;
      case 'update':
        counts.updates.set(change.type, (counts.updates.get(change.type) ?? 0) + 1);
        break;
      case 'delete':
        counts.deletes += weight(change).deletes;
        break;
      default:
        assertNever(change);
    }
  }
  return counts;
}

/** At most LIST_LIMIT lines of a list, then how many were left out: the head must stay small too. */
const LIST_LIMIT = 50;
function bounded(lines: readonly string[], word: string): string[] {
  if (lines.length <= LIST_LIMIT) return [...lines];
  return [
    ...lines.slice(0, LIST_LIMIT),
    `- _… and ${plural(lines.length - LIST_LIMIT, `more ${word}`)} (run \`provision plan\` for all of them)_`,
  ];
}
