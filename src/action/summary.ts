/**
 * The apply's step summary of the GitHub Action ($GITHUB_STEP_SUMMARY, the run's page), as text:
 * a pure function of what the run left behind (the exit code, `apply --format json`'s result,
 * the Markdown plan, the error output). No I/O.
 *
 * What reaches the page: names, types and the panel's messages of the result, each made inline
 * data with `markdownText` (the result is a file: whatever a name holds, it is no markup there);
 * the Markdown plan as the renderer wrote it; the run's problems inside a code fence nothing in
 * them can close; the panel's address blanked. The result holds no password and the step no
 * key: neither can appear.
 */
import { markdownText } from '../escape.js';
import { isRecord } from '../util.js';
import { blankPanelUrl, fenced, problemsOf, statusLine } from './body.js';

/** GitHub takes at most 1 MiB of summary per step; the page stays under this many bytes. */
export const SUMMARY_LIMIT = 1_000_000;
/** At most this many names are listed per outcome (the rest are counted; the log has them all). */
export const LISTED_LIMIT = 200;
/** A message (the panel's, for a failure) is cut after this many characters; the log has it whole. */
const MESSAGE_LIMIT = 500;

/** One outcome of the apply result, as far as the summary reads it. */
interface ResultOutcome {
  readonly action: string;
  readonly type: string;
  readonly name: string;
  readonly status: string;
  readonly error?: string;
  readonly because?: string;
  readonly note?: string;
}

/** What the summary is made of. */
export interface SummaryInput {
  /** The manifest's path as the workflow names it. */
  readonly manifest: string;
  readonly exitCode: number;
  /** What `provision apply --format json` printed: the result, an error document, or nothing. */
  readonly result: string;
  /** The Markdown plan that was applied (empty when none was made). */
  readonly plan: string;
  /** The run's error output. */
  readonly stderr: string;
  readonly commit?: string | undefined;
  readonly runUrl?: string | undefined;
  /** Blanked wherever it appears in a message (`<panel>`). */
  readonly panelUrl?: string | undefined;
}

/**
 * The outcomes of an apply result (schemas/apply-result.schema.json, format 1.x); undefined when
 * the text is no such result (apply did not run: an error document, or nothing). A newer major
 * is not read: its fields may mean something else.
 */
export function resultOutcomes(text: string): ResultOutcome[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.format_version !== 'string' || !Array.isArray(parsed.outcomes))
    return undefined;
  if (!parsed.format_version.startsWith('1.')) return undefined;
  return parsed.outcomes.flatMap((item): ResultOutcome[] => {
    if (!isRecord(item)) return [];
    const text = (key: string): string | undefined => (typeof item[key] === 'string' ? item[key] : undefined);
    const [action, type, name, status] = [text('action'), text('type'), text('name'), text('status')];
    if (action === undefined || type === undefined || name === undefined || status === undefined) return [];
    const error = text('error');
    const because = text('because');
    const note = text('note');
    return [
      {
        action,
        type,
        name,
        status,
        ...(error === undefined ? {} : { error }),
        ...(because === undefined ? {} : { because }),
        ...(note === undefined ? {} : { note }),
      },
    ];
  });
}

/** The groups of the page, in the order a reader needs them: what went wrong first. */
const GROUPS: readonly { title: string; holds: (o: ResultOutcome) => boolean }[] = [
  { title: 'Failed', holds: (o) => o.status === 'failed' },
  { title: 'Skipped', holds: (o) => o.status === 'skipped' },
  { title: 'Deleted', holds: (o) => o.status === 'succeeded' && o.action === 'delete' },
  { title: 'Updated', holds: (o) => o.status === 'succeeded' && o.action === 'update' },
  { title: 'Created', holds: (o) => o.status === 'succeeded' && o.action === 'create' },
];

/** One list item: `client <code>alice</code>`, and why for a failure or a skip. All of it data. */
function item(o: ResultOutcome, panelUrl: string | undefined): string {
  const what = `${markdownText(o.type)} <code>${markdownText(o.name)}</code>`;
  const data = (text: string): string => {
    const blanked = blankPanelUrl(text, panelUrl);
    return markdownText(blanked.length > MESSAGE_LIMIT ? `${blanked.slice(0, MESSAGE_LIMIT)}…` : blanked);
  };
  if (o.status === 'failed') return `- ${what} (${markdownText(o.action)}): ${data(o.error ?? 'failed')}`;
  if (o.status === 'skipped')
    return `- ${what} (${markdownText(o.action)}): ${
      o.because === 'interrupted' ? 'interrupted before it was sent' : `<code>${data(o.because ?? '?')}</code> failed`
    }`;
  return `- ${what}${o.note === undefined ? '' : `: ${data(o.note)}`}`;
}

/**
 * The whole page: the status line (as the pull request's comment words it), a table of counts,
 * each group's names (at most LISTED_LIMIT each), the run's problems when apply did not run, and
 * the plan that was applied in a collapsed section when it fits. Never over SUMMARY_LIMIT bytes.
 */
export function applySummary(input: SummaryInput): string {
  const outcomes = resultOutcomes(input.result);
  const lines = [`### ${statusLine('apply', input.manifest, input.exitCode, input.commit)}`, ''];
  if (outcomes === undefined) {
    lines.push('Nothing was applied: the run stopped before apply sent a request.', '');
  } else if (outcomes.length === 0) {
    lines.push('No changes: nothing was sent.', '');
  } else {
    const counts = GROUPS.map((group) => outcomes.filter(group.holds).length);
    lines.push(
      `| ${GROUPS.map((g) => g.title.toLowerCase()).join(' | ')} |`,
      `|${GROUPS.map(() => '---:').join('|')}|`,
      `| ${counts.join(' | ')} |`,
      '',
    );
    for (const group of GROUPS) {
      const members = outcomes.filter(group.holds);
      if (members.length === 0) continue;
      lines.push(`**${group.title}** (${members.length})`, '');
      lines.push(...members.slice(0, LISTED_LIMIT).map((o) => item(o, input.panelUrl)));
      if (members.length > LISTED_LIMIT)
        lines.push(`- … and ${members.length - LISTED_LIMIT} more: the job's log lists every one`);
      lines.push('');
    }
  }
  const problems = problemsOf(blankPanelUrl(input.stderr, input.panelUrl));
  if (outcomes === undefined && problems !== '') lines.push('Problems:', '', fenced(problems), '');
  const footer = `<sub>panel-provision${input.runUrl === undefined ? '' : ` · [the run](${input.runUrl})`}</sub>`;
  const page = lines.join('\n');
  const plan = input.plan.trimEnd();
  const withPlan =
    plan === '' ? '' : `<details><summary>The plan that was applied</summary>\n\n${plan}\n\n</details>\n\n`;
  if (Buffer.byteLength(page + withPlan + footer) <= SUMMARY_LIMIT) return `${page}\n${withPlan}${footer}\n`;
  const note = "The plan is too long for this page: the job's log holds it.\n\n";
  return `${page}\n${plan === '' ? '' : note}${footer}\n`;
}
