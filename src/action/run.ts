/**
 * `provision-pr-comment`: after the action ran `provision plan` (or apply), post or update ONE
 * comment on the pull request with the outcome, for every exit code. The entry
 * (pr-comment.ts) only hands over argv, env and the process's outputs; everything is here, so
 * tests call it directly as well as run the built entry.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ProvisionError, errnoCode } from '../errors.js';
import { guardOutput, quote, safeText } from '../escape.js';
import { Redactions } from '../redact.js';
import { isRecord, messageOf } from '../util.js';
import { formatError } from '../render/diagnostics.js';
import { commentBody, commentMarker } from './body.js';
import { type GitHubTarget, upsertComment } from './github.js';
import { applySummary } from './summary.js';

/** Where the script writes, and what it may reach (tests inject `fetch`). */
export interface PrCommentIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly fetch?: typeof fetch;
}

const OPTIONS = {
  manifest: { type: 'string' },
  'exit-code': { type: 'string' },
  'plan-file': { type: 'string' },
  'stderr-file': { type: 'string' },
  command: { type: 'string', default: 'plan' },
  pr: { type: 'string' },
  'plan-in-log': { type: 'boolean', default: false },
  'step-summary': { type: 'boolean', default: false },
  'result-file': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

export const USAGE =
  'Usage: provision-pr-comment --manifest PATH --exit-code N [--plan-file plan.md] [--stderr-file stderr.txt] ' +
  `[--command plan|apply] [--pr N] [--plan-in-log]
       provision-pr-comment --step-summary --manifest PATH --exit-code N --result-file apply.json [--plan-file plan.md] [--stderr-file stderr.txt]

Posts the outcome of 'provision plan' (or apply) as ONE comment on the pull request, found again
on the next run by a hidden marker made from --manifest and updated in place; every exit code
gets its comment, failures with the run's problems. Exits 0 once the comment is posted (or
when there is no pull request), 1 when it cannot be.

Options:
  --manifest PATH     the manifest's path as the workflow names it (one comment per path)
  --exit-code N       provision's exit code (plan: 0 no changes, 2 changes, 1 errors)
  --plan-file FILE    the Markdown plan (plan --format markdown); missing or empty: none
  --stderr-file FILE  provision's error output, quoted as the run's problems
  --command NAME      plan (default) or apply
  --pr N              the pull request (default: PROVISION_PR_NUMBER, else the event's)
  --plan-in-log       the run printed the whole plan to its log: a comment cut for length says so
  --step-summary      instead of a comment: append apply's outcome to $GITHUB_STEP_SUMMARY (what was
                      created, updated, deleted, what failed or was skipped, then the plan applied)
  --result-file FILE  with --step-summary: what 'provision apply --format json' printed

Environment: GITHUB_TOKEN (needs pull-requests: write; never printed), GITHUB_REPOSITORY,
GITHUB_API_URL (default https://api.github.com), GITHUB_EVENT_PATH, GITHUB_SERVER_URL and
GITHUB_RUN_ID (the run's link), PROVISION_COMMENT_AUTHOR (the login whose comment is updated;
default github-actions[bot], the workflow token's; set it when the token is an app's or a user's),
PROVISION_URL (the panel's URL: blanked as <panel> wherever the quoted problems name it),
GITHUB_SHA (the commit shown in the status line, unless the event names the pull request's head).
`;

/** Runs the script; returns its exit code. Errors are printed as `error: … / hint: …`, never a stack. */
export async function runPrComment(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: PrCommentIo,
): Promise<number> {
  const redactions = new Redactions();
  const token = env.GITHUB_TOKEN ?? '';
  redactions.add(token);
  try {
    return await postComment(argv, env, io, redactions, token);
  } catch (error) {
    io.stderr.write(redactions.redact(formatError(error)));
    return 1;
  }
}

async function postComment(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: PrCommentIo,
  redactions: Redactions,
  token: string,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new ProvisionError('usage', safeText(messageOf(error)), {
      hint: 'provision-pr-comment --help lists the options',
    });
  }
  const { values } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const command = values.command;
  if (command !== 'plan' && command !== 'apply')
    throw new ProvisionError('usage', `--command must be plan or apply, not ${quote(command)}`);
  const manifest = values.manifest;
  if (manifest === undefined || manifest === '')
    throw new ProvisionError('usage', "--manifest is required: the manifest's path, as the workflow names it");
  const exitCode = integer(values['exit-code'], '--exit-code', 255);
  const event = await readEvent(env);
  if (values['step-summary']) {
    if (command !== 'apply') throw new ProvisionError('usage', '--step-summary is for --command apply');
    return writeStepSummary(env, io, redactions, {
      manifest,
      exitCode,
      result: await readOptional(values['result-file'], '--result-file'),
      plan: await readOptional(values['plan-file'], '--plan-file'),
      stderr: redactions.redact(await readOptional(values['stderr-file'], '--stderr-file')),
      runUrl: runUrl(env),
      commit: headCommit(env, event),
      panelUrl: env.PROVISION_URL,
    });
  }
  const pullRequest = pullRequestNumber(values.pr, env, event);
  if (pullRequest === undefined) {
    io.stdout.write(
      'No pull request (not a pull_request event, and no --pr or PROVISION_PR_NUMBER): ' +
        `no comment for ${quote(manifest)}.\n`,
    );
    return 0;
  }
  const target = gitHubTarget(env, pullRequest, token, redactions, io.fetch);
  const body = commentBody({
    command,
    manifest,
    exitCode,
    plan: await readOptional(values['plan-file'], '--plan-file'),
    stderr: redactions.redact(await readOptional(values['stderr-file'], '--stderr-file')),
    runUrl: runUrl(env),
    commit: headCommit(env, event),
    panelUrl: env.PROVISION_URL,
    planInLog: values['plan-in-log'],
  });
  const author =
    env.PROVISION_COMMENT_AUTHOR === undefined || env.PROVISION_COMMENT_AUTHOR === ''
      ? 'github-actions[bot]'
      : env.PROVISION_COMMENT_AUTHOR;
  const done = await upsertComment(target, commentMarker(manifest), author, redactions.redact(body));
  io.stdout.write(
    `${done.action === 'created' ? 'Created' : 'Updated'} the plan comment for ${quote(manifest)} ` +
      `on pull request #${pullRequest}${done.url === '' ? '' : `: ${safeText(done.url)}`}\n`,
  );
  return 0;
}

/**
 * Appends apply's outcome to $GITHUB_STEP_SUMMARY (the run's page, read by everyone who can see
 * the run): through the redaction filter and the control-character guard, as the CLI's own
 * summary. Without the variable (not on a runner) nothing is written, and it says so.
 */
async function writeStepSummary(
  env: Readonly<Record<string, string | undefined>>,
  io: PrCommentIo,
  redactions: Redactions,
  input: Parameters<typeof applySummary>[0],
): Promise<number> {
  const path = env.GITHUB_STEP_SUMMARY;
  if (path === undefined || path === '') {
    io.stdout.write('No step summary: GITHUB_STEP_SUMMARY is not set (not on a GitHub Actions runner).\n');
    return 0;
  }
  try {
    await appendFile(path, guardOutput(redactions.redact(applySummary(input))));
  } catch (error) {
    throw new ProvisionError('io', `GITHUB_STEP_SUMMARY ${quote(path)} cannot be written (${errnoCode(error)})`);
  }
  io.stdout.write(`Wrote the apply's outcome for ${quote(input.manifest)} to the step summary.\n`);
  return 0;
}

function integer(value: string | undefined, flag: string, max: number): number {
  if (value === undefined || !/^\d{1,6}$/.test(value) || Number(value) > max) {
    throw new ProvisionError(
      'usage',
      `${flag} must be a whole number from 0 to ${max}${value === undefined ? '' : `, not ${quote(value)}`}`,
    );
  }
  return Number(value);
}

/** The event that started the run (GITHUB_EVENT_PATH), parsed; undefined when there is none. */
async function readEvent(env: Readonly<Record<string, string | undefined>>): Promise<unknown> {
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath === undefined || eventPath === '') return undefined;
  try {
    return JSON.parse(await readFile(eventPath, 'utf8'));
  } catch (error) {
    throw new ProvisionError(
      'io',
      `GITHUB_EVENT_PATH ${quote(eventPath)} cannot be read as JSON (${errnoCode(error)})`,
    );
  }
}

/**
 * The commit the plan is of: the pull request's head (the event's pull_request.head.sha), else
 * GITHUB_SHA (on a pull_request event that is the test merge commit, hence the head first).
 */
function headCommit(env: Readonly<Record<string, string | undefined>>, event: unknown): string | undefined {
  const head =
    isRecord(event) && isRecord(event.pull_request) && isRecord(event.pull_request.head)
      ? event.pull_request.head.sha
      : undefined;
  if (typeof head === 'string' && head !== '') return head;
  return env.GITHUB_SHA === '' ? undefined : env.GITHUB_SHA;
}

/** --pr, else PROVISION_PR_NUMBER, else the event's pull request (or issue); undefined when none. */
function pullRequestNumber(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  event: unknown,
): number | undefined {
  if (flag !== undefined && flag !== '') return integer(flag, '--pr', Number.MAX_SAFE_INTEGER);
  const fromEnv = env.PROVISION_PR_NUMBER;
  if (fromEnv !== undefined && fromEnv !== '') return integer(fromEnv, 'PROVISION_PR_NUMBER', Number.MAX_SAFE_INTEGER);
  const holder = isRecord(event)
    ? isRecord(event.pull_request)
      ? event.pull_request
      : isRecord(event.issue) && isRecord(event.issue.pull_request)
        ? event.issue
        : undefined
    : undefined;
  return typeof holder?.number === 'number' ? holder.number : undefined;
}

function gitHubTarget(
  env: Readonly<Record<string, string | undefined>>,
  pullRequest: number,
  token: string,
  redactions: Redactions,
  fetchImpl: typeof fetch | undefined,
): GitHubTarget {
  if (token === '') {
    throw new ProvisionError('usage', 'GITHUB_TOKEN is not set: the comment cannot be posted', {
      hint:
        "the action passes its github-token input (default: the workflow's token); " +
        'the job needs "permissions: pull-requests: write"',
    });
  }
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository))
    throw new ProvisionError('usage', `GITHUB_REPOSITORY must be owner/repo, not ${quote(repository)}`);
  const apiUrl =
    env.GITHUB_API_URL === undefined || env.GITHUB_API_URL === '' ? 'https://api.github.com' : env.GITHUB_API_URL;
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new ProvisionError('usage', `GITHUB_API_URL is not a URL: ${quote(apiUrl)}`);
  }
  const loopback =
    url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ProvisionError(
      'usage',
      `GITHUB_API_URL must be https (plain http only on loopback), not ${quote(apiUrl)}: ` +
        'the token would travel in clear',
    );
  }
  return {
    apiUrl,
    repository,
    pullRequest,
    token,
    redactions,
    ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
  };
}

/** The run's page, when the runner says where it is; only well-formed parts are used. */
function runUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = env;
  if (server === undefined || repository === undefined || run === undefined) return undefined;
  if (!/^https?:\/\/[\w.:-]+$/.test(server) || !/^[\w.-]+\/[\w.-]+$/.test(repository) || !/^\d+$/.test(run))
    return undefined;
  return `${server}/${repository}/actions/runs/${run}`;
}

/** A file's text; '' when the flag is not given or the file does not exist (the run printed nothing there). */
async function readOptional(path: string | undefined, flag: string): Promise<string> {
  if (path === undefined || path === '') return '';
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return '';
    throw new ProvisionError('io', `${flag} ${quote(path)} cannot be read (${errnoCode(error)})`);
  }
}
