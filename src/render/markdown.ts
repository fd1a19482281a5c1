import { markdownText } from '../escape.js';
import { plural } from '../util.js';
import type { Change } from '../plan/types.js';
import type { PlanView } from './common.js';
import {
  changeParts,
  changeSummary,
  clientOf,
  conflictLine,
  goesWith,
  hasUnmanaged,
  KINDS,
  lineSubject,
  NOUNS,
  recordsRemoved,
  requestLine,
  scopeLine,
  sign,
  subject,
  unicodeOf,
  unknownLine,
  unmanagedCounts,
} from './common.js';
import { changeNotes, deleteTakes } from './notes.js';
import { weight } from '../plan/guards.js';
import { assertNever } from '../util.js';
import type { KindName } from '../kinds/index.js';
import { recordText, type UpdateZone } from '../kinds/zone.js';

/** GitHub refuses comments over 65,536 characters; stay well under with room for the tail. */
export const MARKDOWN_LIMIT = 65_000;

/** What the Markdown may say beyond what any reader of the repository may see. */
export interface MarkdownOptions {
  /**
   * Name the panel's URL (plan and show --show-url); left out by default: a comment is public to
   * the repository's readers.
   */
  readonly showUrl?: boolean;
}

/**
 * The plan as a pull-request comment: a summary table, then the changes grouped by client in
 * collapsible sections. Unmanaged accounts are counts only, and the panel's URL is left out
 * unless asked for (a PR comment is widely visible). An international domain name is shown in
 * Unicode beside its ASCII form. Past MARKDOWN_LIMIT, whole client sections are left out and
 * the comment says how many.
 */
export function renderPlanMarkdown(view: PlanView, options: MarkdownOptions = {}): string {
  const { plan } = view;
  const counts = countRows(plan.changes);
  const scope = scopeLine(plan);
  const head = [
    `### panel-provision plan${plan.scope === undefined ? '' : ' (scoped)'}: ${changeSummary(plan.changes)}`,
    '',
    `Manifest <code>${markdownText(view.manifest)}</code>` +
      `${options.showUrl === true ? ` against <code>${markdownText(view.panelUrl)}</code>` : ''}.`,
    '',
    ...(scope === undefined ? [] : [`> :dart: **Plan ${markdownText(scope)}.**`, '']),
    '| | count |',
    '|---|---:|',
    // Deletes first, then updates: what a reviewer must not miss comes before what is new.
    ...(counts.deletes > 0 ? [`| :warning: **resources to delete** | **${counts.deletes}** |`] : []),
    // A prune that removes records is as grave as a delete: counted beside it.
    ...recordsRow(plan.changes),
    ...KINDS.flatMap((kind) => {
      const n = counts.updates.get(kind) ?? 0;
      return n > 0 ? [`| ${NOUNS[kind].many} to update | ${n} |`] : [];
    }),
    // Clients and domains always (a reviewer looks for them); hosting plans when there are some;
    // zones are never created on their own (a domain's comes with it).
    ...KINDS.filter(
      (kind) => kind === 'client' || kind === 'domain' || (kind === 'hosting_plan' && counts.creates.has(kind)),
    ).map((kind) => `| ${NOUNS[kind].many} to create | ${counts.creates.get(kind) ?? 0} |`),
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
    const takes = [...new Set(KINDS.flatMap((kind) => deletes.filter((c) => c.type === kind).map(deleteTakes)))];
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
  head.push(...removedRecords(plan.changes));
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

  const sections = byRank(groupByClient(plan.changes)).map(([client, changes]) => {
    // A client's section is headed by its username (data); the plans' by their kind.
    const title = client === undefined ? NOUNS.hosting_plan.many : `<code>${markdownText(client)}</code>`;
    // Inside the fence nothing is markup; requestLine leaves no line break or control character raw.
    const lines = byDomain(changes).flatMap((c) => [
      // An international name is read in Unicode; the request carries its ASCII form.
      ...(unicodeOf(c) !== '' ? [`# ${subject(c)}`] : []),
      // What a zone's write does beyond its records (it becomes custom; a new domain's defaults),
      // what a plan's update does not do to the clients on it.
      ...changeNotes(c).map((note) => `# ${lineSubject(c)}: ${note}`),
      // What it changes in the manifest's terms (the request below says it in the panel's).
      ...describe(c),
      `${sign(c)} ${requestLine(c)}`,
    ]);
    return [
      `<details><summary>${title}: ${changeSummary(changes)}</summary>`,
      '',
      '```diff',
      ...lines,
      '```',
      '</details>',
      '',
    ].join('\n');
  });

  let text = `${head.join('\n')}\n`;
  let shown = 0;
  const reserve = 200;
  for (const section of sections) {
    if (text.length + section.length + reserve > MARKDOWN_LIMIT) break;
    text += `${section}\n`;
    shown++;
  }
  if (shown < sections.length) {
    const left = sections.length - shown;
    text +=
      `_${plural(left, 'more client section')} left out to keep this comment under ` +
      `${MARKDOWN_LIMIT.toLocaleString('en-US')} characters: run \`provision plan\` for the whole plan._\n`;
  }
  return text;
}

/**
 * A change's line in the manifest's terms: on the subject's line (`~ client "carol": plan:
 * "Standard" -> "Basic", email: ...`), or, for a domain's several settings, each on its own line
 * under the domain, so they read as a list under their domain.
 */
function describe(change: Change): string[] {
  const mark = sign(change);
  // A delete's request names only an id: its subject says what goes, and what goes with it.
  if (change.action === 'delete') return [`${mark} ${lineSubject(change)}${goesWith(change)}`];
  const described = changeParts(change);
  if (described === undefined) return [];
  const marks = described.marks;
  if (marks !== undefined) {
    // A zone's records, each in its own sign at the line's start (the diff colours a removal
    // red), removals first: what a reviewer must not miss comes before what is new.
    const order = described.parts
      .map((_, i) => i)
      .sort((a, b) => RECORD_ORDER[marks[a] ?? '~'] - RECORD_ORDER[marks[b] ?? '~']);
    const shown = order.slice(0, RECORD_LIMIT).map((i) => `${marks[i] ?? mark}     ${described.parts[i] ?? ''}`);
    const left = order.length - shown.length;
    return [
      `${mark} ${described.subject}:`,
      ...shown,
      ...(left > 0
        ? [`${mark}     … and ${plural(left, 'more record change')} (run provision plan for all of them)`]
        : []),
    ];
  }
  if (!described.list || described.parts.length === 1)
    return [`${mark} ${described.subject}: ${described.parts.join(', ')}`];
  return [`${mark} ${described.subject}:`, ...described.parts.map((part) => `${mark}     ${part}`)];
}

/** A zone's record lines in Markdown: removals, then TTL changes, then adds; at most RECORD_LIMIT. */
const RECORD_ORDER: Readonly<Record<'+' | '~' | '-', number>> = { '-': 0, '~': 1, '+': 2 };
const RECORD_LIMIT = 100;

/**
 * The table's row for the records zones lose: `| :warning: **DNS records to remove** | **3** |`,
 * with the new domains whose default records a prune removes (how many is known after apply).
 */
function recordsRow(changes: readonly Change[]): string[] {
  const n = recordsRemoved(changes);
  const fresh = newZonesPruned(changes).length;
  if (n === 0 && fresh === 0) return [];
  const more = fresh > 0 ? ` and the defaults of ${plural(fresh, 'new zone')}` : '';
  return [`| :warning: **DNS records to remove** | **${n}**${more} |`];
}

/** New domains' zones whose prune removes the default records the panel fills in. */
function newZonesPruned(changes: readonly Change[]): UpdateZone[] {
  return changes.flatMap((c) => (c.type === 'dns_zone' && c.domainId === null && c.prune ? [c] : []));
}

/** The records zones lose, one item each (bounded): a prune is reviewed like a delete. */
function removedRecords(changes: readonly Change[]): string[] {
  const n = recordsRemoved(changes);
  const fresh = newZonesPruned(changes);
  if (n === 0 && fresh.length === 0) return [];
  const items = [
    ...changes.flatMap((c) =>
      c.type === 'dns_zone'
        ? c.records
            .filter((op) => op.op === 'remove')
            .map((op) => `- :x: ${markdownText(`${lineSubject(c)}: ${recordText(op)}`)}`)
        : [],
    ),
    ...fresh.map(
      (c) =>
        `- :x: ${markdownText(`${lineSubject(c)}: the default records the panel fills in, except keep matches (known after apply)`)}`,
    ),
  ];
  return [
    `**DNS records to remove**: ${plural(n, 'record')} ${n === 1 ? 'leaves its zone' : 'leave their zones'}` +
      `${fresh.length > 0 ? `, and the default records of ${plural(fresh.length, 'new domain')}` : ''}.`,
    '',
    ...bounded(items, 'record'),
    '',
  ];
}

/**
 * A client's changes with each zone's right after its domain's own change (a create, an
 * update), so its records read under their domain; the rest in plan order.
 */
function byDomain(changes: readonly Change[]): Change[] {
  const zones = new Map(changes.flatMap((c) => (c.type === 'dns_zone' ? [[c.name, c] as const] : [])));
  const placed = new Set<Change>();
  const out: Change[] = [];
  for (const change of changes) {
    if (placed.has(change)) continue;
    out.push(change);
    placed.add(change);
    const zone = change.type === 'domain' ? zones.get(change.name) : undefined;
    if (zone !== undefined && !placed.has(zone)) {
      out.push(zone);
      placed.add(zone);
    }
  }
  return out;
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

/**
 * What a section holds at worst: 0 a delete, 1 an update, 2 creates only. Sections are shown in
 * that order, so a comment cut for length (here, or by the comment's own limit) leaves out
 * creates first, and a delete or an update (an email changed) is never the part that is cut.
 */
function rank(changes: readonly Change[]): number {
  let worst = 2;
  for (const change of changes) {
    switch (change.action) {
      case 'delete':
        worst = 0;
        break;
      case 'update':
        worst = Math.min(worst, 1);
        break;
      case 'create':
        break;
      default:
        assertNever(change);
    }
  }
  return worst;
}

/** Client sections by rank (deletes, updates, creates), plan order within a rank (the sort is stable). */
function byRank<K>(groups: [K, Change[]][]): [K, Change[]][] {
  return groups
    .map((group) => ({ group, rank: rank(group[1]) }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ group }) => group);
}

/**
 * Clients in plan order, each with its own changes (a client's create and its domains); the
 * hosting plans' changes under undefined (they belong to no client).
 */
function groupByClient(changes: readonly Change[]): [string | undefined, Change[]][] {
  const groups = new Map<string | undefined, Change[]>();
  for (const change of changes) {
    const client = clientOf(change);
    const group = groups.get(client);
    if (group === undefined) groups.set(client, [change]);
    else group.push(change);
  }
  return [...groups];
}
