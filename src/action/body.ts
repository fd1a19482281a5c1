/**
 * The sticky pull-request comment of the GitHub Action, as text: pure functions of what the run
 * left behind (the manifest's path, the exit code, the Markdown plan, the error output). No I/O.
 *
 * What reaches the comment: the Markdown plan as the renderer wrote it (names in it are escaped
 * there already), the run's problems inside a code fence that nothing in them can close, and
 * names made here with `markdownText`. Nothing else from the run is pasted in unescaped.
 */
import { guardOutput, markdownText, safeText } from '../escape.js';
import { EXIT } from '../exit-codes.js';

/** GitHub refuses an issue comment over 65,536 characters. */
export const COMMENT_LIMIT = 65_536;
/** At most this much of the run's error output is quoted (the rest is in the job's log). */
export const PROBLEMS_LIMIT = 12_000;

/** The command whose outcome the comment reports. */
export type ActionCommand = 'plan' | 'apply';

/**
 * The hidden first line that finds the comment again: one per manifest path, so two manifests
 * of one repository (one panel each) get a comment each. The path is percent-encoded: no `-->`
 * or line break in it can end the HTML comment early.
 */
export function commentMarker(manifest: string): string {
  return `<!-- panel-provision: ${encodeURIComponent(manifest).replaceAll('%2F', '/')} -->`;
}

/** True when `body` is a comment this marker made: its first line is the marker. */
export function hasMarker(body: string, marker: string): boolean {
  return body === marker || body.startsWith(`${marker}\n`) || body.startsWith(`${marker}\r\n`);
}

/**
 * What each exit code of `provision` says (README "Exit codes"; the codes are src/exit-codes.ts's
 * EXIT). Unknown codes are reported by number.
 */
const OUTCOMES: Readonly<Record<ActionCommand, Readonly<Record<number, { icon: string; text: string }>>>> = {
  plan: {
    [EXIT.ok]: { icon: ':white_check_mark:', text: 'no changes' },
    [EXIT.changes]: { icon: ':memo:', text: 'changes to review' },
    [EXIT.failure]: {
      icon: ':x:',
      text: 'failed: nothing can be applied until the problems below are fixed',
    },
  },
  apply: {
    [EXIT.ok]: { icon: ':white_check_mark:', text: 'applied' },
    [EXIT.failure]: { icon: ':x:', text: 'failed' },
    [EXIT.stalePlan]: {
      icon: ':x:',
      text: 'stale plan: the panel changed since the plan was made; nothing was sent',
    },
    [EXIT.massChange]: { icon: ':x:', text: 'mass create or delete refused; nothing was sent' },
    [EXIT.interrupted]: { icon: ':warning:', text: 'interrupted: apply again to finish' },
  },
};

/** True when `code` is a failure of `command` (the action's step fails on it, after the comment). */
export function isFailure(command: ActionCommand, code: number): boolean {
  return command === 'plan' ? code !== EXIT.ok && code !== EXIT.changes : code !== EXIT.ok;
}

/** A commit's short form (7 hex digits) when `sha` is a commit id; undefined otherwise (nothing else is shown). */
export function shortCommit(sha: string | undefined): string | undefined {
  return sha !== undefined && /^[0-9a-f]{7,64}$/i.test(sha) ? sha.slice(0, 7).toLowerCase() : undefined;
}

/**
 * One line: `**Plan of <code>m.yaml</code>** at `1a2b3c4`: :x: failed … (exit 1)`. The commit
 * (the pull request's head) tells a current comment from one a later push has not replaced yet.
 */
export function statusLine(command: ActionCommand, manifest: string, code: number, commit?: string): string {
  const outcome = OUTCOMES[command][code] ?? { icon: ':x:', text: 'ended unexpectedly' };
  const verb = command === 'plan' ? 'Plan' : 'Apply';
  const at = shortCommit(commit);
  return (
    `**${verb} of <code>${markdownText(manifest)}</code>**` +
    `${at === undefined ? '' : ` at \`${at}\``}: ${outcome.icon} ${outcome.text} (exit ${code})`
  );
}

/** What stands for the panel's address in the comment. */
export const PANEL_PLACEHOLDER = '<panel>';

/**
 * `text` with the panel's address blanked: its origin (`https://panel.example:8443`), its host
 * with the port, and its host name, in any case, each replaced by PANEL_PLACEHOLDER. The
 * Markdown plan leaves the URL out, but error text names it (`GET https://…/ping: cannot
 * connect`), and a comment is read by everyone who can read the repository. A URL that does
 * not parse is blanked as given. Forms shorter than 4 characters are left alone.
 */
export function blankPanelUrl(text: string, panelUrl: string | undefined): string {
  const given = panelUrl?.trim() ?? '';
  if (given === '') return text;
  let forms: string[];
  try {
    const url = new URL(given);
    forms = [url.origin, url.host, url.hostname];
  } catch {
    forms = [given];
  }
  let out = text;
  for (const form of [...new Set(forms)]
    .filter((f) => f.length >= 4 && f !== 'null')
    .sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi'), PANEL_PLACEHOLDER);
  }
  return out;
}

/**
 * The run's problems from its error output: every line but the workflow commands
 * (`::error file=…::`, which the runner turned into annotations on the manifest's lines already),
 * each with unsafe characters as escapes, at most PROBLEMS_LIMIT characters (then a line saying
 * how many more). Empty when there are none.
 */
export function problemsOf(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !line.startsWith('::'))
    .map(safeText);
  const kept: string[] = [];
  let size = 0;
  for (const [index, line] of lines.entries()) {
    if (size + line.length + 1 > PROBLEMS_LIMIT) {
      kept.push(`… ${lines.length - index} more lines in the job's log`);
      break;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join('\n');
}

/** `text` as a fenced code block whose fence is longer than any run of backticks in it: nothing inside can close it. */
export function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

/** What the comment is made of. */
export interface CommentInput {
  readonly command: ActionCommand;
  /** The manifest's path as the workflow names it (the marker's key). */
  readonly manifest: string;
  readonly exitCode: number;
  /** The Markdown plan `provision plan --format markdown` printed (empty when it printed none). */
  readonly plan: string;
  /** The run's error output (problems, hints, warnings; workflow commands are left out). */
  readonly stderr: string;
  /** The run's page (`<server>/<owner>/<repo>/actions/runs/<id>`), for the footer; none: no link. */
  readonly runUrl?: string | undefined;
  /** The commit planned (the pull request's head), shown short in the status line; none: not shown. */
  readonly commit?: string | undefined;
  /** The panel's URL, blanked in the quoted problems (PANEL_PLACEHOLDER). */
  readonly panelUrl?: string | undefined;
  /** True when the run printed the whole plan to its log (the action: `provision show plan.json`). */
  readonly planInLog?: boolean | undefined;
}

/** Where the whole plan is, for the note of a cut comment: only what is true of this run. */
function wholePlanAt(input: CommentInput): string {
  if (input.planInLog !== true) return 'run `provision plan` on the branch for the whole plan.';
  const run = input.runUrl === undefined ? 'the run' : `[the run](${input.runUrl})`;
  return (
    `the whole plan is in the log of ${run}, step "provision plan" ` +
    `(printed by \`provision show\` from the saved plan.json).`
  );
}

/**
 * The whole comment: the marker, the status line, the problems (when the run printed any), the
 * plan, and a footer. Never over COMMENT_LIMIT: past it the plan is cut at a line, any open
 * code fence and `<details>` are closed, and a note says how much was left out and where the
 * rest is.
 */
export function commentBody(input: CommentInput): string {
  const head = [
    commentMarker(input.manifest),
    statusLine(input.command, input.manifest, input.exitCode, input.commit),
    '',
  ];
  const problems = problemsOf(blankPanelUrl(input.stderr, input.panelUrl));
  if (problems !== '') {
    head.push(
      input.exitCode === 0 || input.exitCode === 2
        ? 'Warnings from the run:'
        : "Problems (also annotated on the manifest's lines where they have one):",
      '',
      fenced(problems),
      '',
    );
  }
  const footer = [
    '',
    '---',
    '<sub>panel-provision' +
      (input.runUrl === undefined ? '' : ` · [the run](${input.runUrl})`) +
      ': this comment is updated in place on every run.</sub>',
  ];
  const plan = guardOutput(input.plan.trimEnd());
  const fixed = head.join('\n').length + footer.join('\n').length + 2;
  const body = (text: string): string => [...head, text, ...footer].join('\n');
  if (fixed + plan.length <= COMMENT_LIMIT) return body(plan);
  const room = COMMENT_LIMIT - fixed - 400;
  const cut = plan.lastIndexOf('\n', room);
  const kept = plan.slice(0, cut < 0 ? Math.max(0, room) : cut);
  const closers: string[] = [];
  if ((kept.match(/^```/gm)?.length ?? 0) % 2 === 1) closers.push('```');
  const open = (kept.match(/<details>/g)?.length ?? 0) - (kept.match(/<\/details>/g)?.length ?? 0);
  for (let i = 0; i < open; i++) closers.push('</details>');
  const note =
    `\n**The plan is cut here**: ${plan.length - kept.length} more characters than a comment can hold ` +
    `(creates are listed last, so they are what is left out); ${wholePlanAt(input)}`;
  return body([kept, ...closers, note].join('\n'));
}
