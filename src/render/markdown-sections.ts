/**
 * The pull-request comment's sections: a plan's changes grouped by client, each group a
 * collapsible diff of its changes in the manifest's terms and their requests. What a change says
 * is its kind's room's (`kindOf`). Pure.
 */
import { markdownText } from '../escape.js';
import { assertNever, plural } from '../util.js';
import type { Change, ChangeId } from '../plan/types.js';
import { kindOf, KIND_NAMES } from '../kinds/index.js';
import type { PartMark } from '../kinds/kind.js';
import { clientOf, goesWith, lineSubject, NOUNS, requestLine, sign, subject, unicodeOf } from './common.js';
import { changeLine, changeParts } from './parts.js';
import { changeSummary } from './summary.js';

/**
 * One section per client, its worst first (deletes, updates, creates: a comment cut for length
 * leaves out creates first), each a `<details>` block with a diff of its changes. `count` is
 * known at once; each section's text is made only as `sections` is walked (a comment cut for
 * length makes the ones it shows only).
 */
export function markdownSections(changes: readonly Change[]): {
  readonly count: number;
  readonly sections: () => Generator<string>;
} {
  const groups = byRank(groupByClient(changes));
  return {
    count: groups.length,
    *sections() {
      for (const [client, own] of groups) yield section(client, own);
    },
  };
}

/** A client's section: its changes' diff in a `<details>` block. */
function section(client: string | undefined, own: readonly Change[]): string {
  // A client's section is headed by its username (data); the others' by their kinds.
  const title = client === undefined ? kindsOf(own) : `<code>${markdownText(client)}</code>`;
  // Inside the fence nothing is markup; requestLine leaves no line break or control character raw.
  const lines = shownUnder(own).flatMap((c) => [
    // An international name is read in Unicode; the request carries its ASCII form.
    ...(unicodeOf(c) !== '' ? [`# ${subject(c)}`] : []),
    // What a change does beyond its lines, as its kind says (a zone's write: it becomes custom,
    // a new domain's defaults; a plan's update: its clients keep their copied values).
    ...kindOf(c)
      .notes(c)
      .map((note) => `# ${lineSubject(c)}: ${note}`),
    // What it changes in the manifest's terms (the request below says it in the panel's).
    ...describe(c),
    `${sign(c)} ${requestLine(c)}`,
  ]);
  return [
    `<details><summary>${title}: ${changeSummary(own)}</summary>`,
    '',
    '```diff',
    ...lines,
    '```',
    '</details>',
    '',
  ].join('\n');
}

/** `hosting plans`: the kinds of a group that belongs to no client, in the table's order. */
function kindsOf(changes: readonly Change[]): string {
  return KIND_NAMES.filter((kind) => changes.some((c) => c.type === kind))
    .map((kind) => NOUNS[kind].many)
    .join(' and ');
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
    // Parts with signs of their own (a zone's records), each at the line's start (the diff
    // colours a removal red), removals first: what a reviewer must not miss comes before what is new.
    const order = described.parts
      .map((_, i) => i)
      .sort((a, b) => PART_ORDER[marks[a] ?? '~'] - PART_ORDER[marks[b] ?? '~']);
    const shown = order.slice(0, PART_LIMIT).map((i) => `${marks[i] ?? mark}     ${described.parts[i] ?? ''}`);
    const left = order.length - shown.length;
    return [
      `${mark} ${described.subject}:`,
      ...shown,
      ...(left > 0
        ? [
            `${mark}     … and ${plural(left, `more ${described.item ?? 'change'}`)} (run provision plan for all of them)`,
          ]
        : []),
    ];
  }
  if (!described.list || described.parts.length === 1) return [`${mark} ${changeLine(change) ?? ''}`];
  return [`${mark} ${described.subject}:`, ...described.parts.map((part) => `${mark}     ${part}`)];
}

/** Signed parts in Markdown (a zone's records): removals, then changes (TTLs), then adds; at most PART_LIMIT. */
const PART_ORDER: Readonly<Record<PartMark, number>> = { '-': 0, '~': 1, '+': 2 };
const PART_LIMIT = 100;

/**
 * A group's changes with each change shown right under the one its kind names (a zone's right
 * after its domain's own create or update, so its records read under their domain); the rest
 * in plan order.
 */
function shownUnder(changes: readonly Change[]): Change[] {
  const under = new Map<ChangeId, Change>();
  for (const c of changes) {
    const above = kindOf(c).shownUnder?.(c);
    if (above !== undefined) under.set(above, c);
  }
  const placed = new Set<Change>();
  const out: Change[] = [];
  for (const change of changes) {
    if (placed.has(change)) continue;
    out.push(change);
    placed.add(change);
    const below = under.get(change.id);
    if (below !== undefined && !placed.has(below)) {
      out.push(below);
      placed.add(below);
    }
  }
  return out;
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
 * changes of kinds that belong to no client (hosting plans) under undefined.
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
