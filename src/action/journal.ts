/**
 * `journal.js fetch|save`: the Action's secrets journal outlives the runner (docs/ci.md, "The
 * secrets journal"). Run by action.yml before and after `provision apply`; the entry
 * (journal-main.ts) only hands over argv, env and the process's outputs, so tests call this
 * directly as well as through action.yml.
 *
 * - `--store branch` (the default): the file `<name>.jsonl` on a branch of the same repository,
 *   fetched before apply and pushed after it (journal-branch.ts). The journal's readable parts
 *   (usernames, the kind of each record, when) name the panel's accounts: refused in a public
 *   repository.
 * - `--store artifact`: `fetch` finds the newest artifact `<name>` of the repository (the previous
 *   run's; `run-id` to $GITHUB_OUTPUT for actions/download-artifact) and `save` states the
 *   retention on the run's page; action.yml's steps download and upload it.
 */
import { execFile } from 'node:child_process';
import { appendFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ProvisionError } from '../errors.js';
import { Redactions } from '../redact.js';
import { isRecord, messageOf } from '../util.js';
import { formatError } from '../render/diagnostics.js';
import { call } from './github.js';
import { fetchJournal, type JournalBranch, saveJournal } from './journal-branch.js';

export interface JournalIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly fetch?: typeof fetch;
  /** Between two pushes that lost the race (tests make it short). */
  readonly pause?: (attempt: number) => Promise<void>;
}

const OPTIONS = {
  store: { type: 'string', default: 'branch' },
  name: { type: 'string', default: 'panel-secrets' },
  branch: { type: 'string', default: 'provision-secrets' },
  file: { type: 'string' },
  'retention-days': { type: 'string', default: '90' },
  'exit-code': { type: 'string', default: '' },
} as const;

export const USAGE = `Usage: journal.js fetch|save --file FILE [--store branch|artifact] [--name NAME] [--branch BRANCH] [--retention-days N] [--exit-code N]

fetch: before apply, the journal the last run left: the branch's NAME.jsonl copied to FILE (mode
       0600), or the newest artifact NAME's run (run-id to $GITHUB_OUTPUT, for
       actions/download-artifact).
save:  after apply, whatever its outcome: FILE committed to the branch as NAME.jsonl and pushed
       (a push that lost the race is fetched, merged and pushed again; never forced), or, for
       an artifact, its retention stated on the run's page.

Environment: GITHUB_REPOSITORY and GITHUB_SERVER_URL (the remote; GITHUB_WORKSPACE's origin when a local path),
GITHUB_TOKEN (pushes; never printed), GITHUB_API_URL, PROVISION_REPOSITORY_PRIVATE (the event's
repository.private: branch mode refuses a public repository), GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
RUNNER_TEMP.
`;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const BRANCH = /^(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9][A-Za-z0-9._/-]{0,199}(?<![./])$/;

type Env = Readonly<Record<string, string | undefined>>;

/** Runs the script; returns its exit code. Errors as `error: … / hint: …` and an `::error` line. */
export async function runJournal(argv: readonly string[], env: Env, io: JournalIo): Promise<number> {
  const redactions = new Redactions();
  redactions.add(env.GITHUB_TOKEN ?? '');
  try {
    return await journal(argv, env, io, redactions);
  } catch (error) {
    const text = redactions.redact(formatError(error));
    io.stderr.write(text);
    io.stdout.write(`::error title=panel-provision::${redactions.redact(messageOf(error)).replace(/\r?\n/g, ' ')}\n`);
    return 1;
  }
}

async function journal(argv: readonly string[], env: Env, io: JournalIo, redactions: Redactions): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
  const [command] = positionals;
  if (positionals.length !== 1 || (command !== 'fetch' && command !== 'save'))
    throw new ProvisionError('usage', 'give one command: fetch or save', { hint: USAGE });
  const { store, name, branch, file } = values;
  if (store !== 'branch' && store !== 'artifact')
    throw new ProvisionError(
      'usage',
      `the secrets-store input must be branch or artifact, not ${JSON.stringify(store)}`,
    );
  if (!NAME.test(name))
    throw new ProvisionError(
      'usage',
      `the secrets-name input ${JSON.stringify(name)} is no file name: letters, digits, . - _ (one per panel, e.g. panel-secrets-eu)`,
    );
  if (file === undefined || file === '') throw new ProvisionError('usage', 'give --file FILE');
  const days = Number(values['retention-days']);
  if (!Number.isInteger(days) || days < 1 || days > 400)
    throw new ProvisionError('usage', 'the artifact-retention-days input must be a whole number of days, 1 to 400');
  if (store === 'artifact')
    return command === 'fetch'
      ? fetchArtifact(name, file, env, io, redactions)
      : artifactNote(name, file, days, env, io);

  if (!BRANCH.test(branch))
    throw new ProvisionError('usage', `the secrets-branch input ${JSON.stringify(branch)} is no branch name`);
  const at: JournalBranch = {
    remote: await remoteOf(env),
    branch,
    path: `${name}.jsonl`,
    token: env.GITHUB_TOKEN,
    scratch: env.RUNNER_TEMP ?? '/tmp',
    redactions,
  };
  if (command === 'fetch') {
    await refusePublic(env, io, redactions);
    const found = await fetchJournal(at, file);
    io.stdout.write(
      found
        ? `The secrets journal ${at.path} from the branch ${branch}: apply settles what an earlier run left open.\n`
        : `No secrets journal ${at.path} on the branch ${branch} yet: this apply starts it.\n`,
    );
    await output(env, { file, fetched: String(found) });
    return 0;
  }
  if (!(await exists(file))) {
    io.stdout.write('apply wrote no secrets journal: nothing to keep.\n');
    await output(env, { kept: 'true' });
    return 0;
  }
  const saved = await saveJournal(
    at,
    file,
    `${name}: the secrets journal after apply (exit ${values['exit-code'] || '?'})`,
    io.pause,
  );
  const line =
    saved.commit === undefined
      ? `The secrets journal: the branch \`${branch}\` holds \`${at.path}\` as this run left it (nothing new).`
      : `The secrets journal: \`${at.path}\` committed to the branch \`${branch}\` (${saved.commit.slice(0, 7)})${saved.retries > 0 ? `, after ${saved.retries} push(es) lost to another run and merged` : ''}; the passwords in it are encrypted to the recipient.`;
  io.stdout.write(`${line.replace(/`/g, '')}\n`);
  await summary(env, line);
  await output(env, { kept: 'true' });
  return 0;
}

/**
 * The remote of the same repository: `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY.git`, whose
 * visibility refusePublic checked and to whose server alone the token is sent. The checkout's
 * `origin` only when it is a path on this machine (a runner's local mirror, the tests' bare
 * repository): a URL there may name another repository (actions/checkout with `repository:`,
 * a public one, say) or another host, which would receive the journal and the token.
 */
async function remoteOf(env: Env): Promise<string> {
  const origin = await new Promise<string>((resolve) => {
    execFile('git', ['-C', env.GITHUB_WORKSPACE ?? '.', 'remote', 'get-url', 'origin'], (error, stdout) => {
      resolve(error === null ? stdout.trim() : '');
    });
  });
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (origin !== '' && isPath(origin)) return origin;
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository))
    throw new ProvisionError('secrets', 'no remote for the secrets branch: GITHUB_REPOSITORY is not owner/repo', {
      hint: 'run the action in a GitHub Actions job',
    });
  return `${(env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '')}/${repository}.git`;
}

/** A remote that is a path on this machine: no URL (`scheme://`) and no scp-like `host:path`. */
function isPath(remote: string): boolean {
  return !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(remote) && !/^[^/]*:/.test(remote);
}

/** Branch mode in a public repository: refused, pointing to artifact mode. Unknown visibility is asked of the API. */
async function refusePublic(env: Env, io: JournalIo, redactions: Redactions): Promise<void> {
  let isPrivate = env.PROVISION_REPOSITORY_PRIVATE;
  if (isPrivate !== 'true' && isPrivate !== 'false') {
    const { json } = await call(
      { ...target(env, redactions, io), pullRequest: 0 },
      'GET',
      new URL(`repos/${env.GITHUB_REPOSITORY ?? ''}`, `${apiUrl(env)}/`),
    );
    isPrivate = isRecord(json) && json.private === true ? 'true' : 'false';
  }
  if (isPrivate !== 'true')
    throw new ProvisionError(
      'secrets',
      'the secrets branch is refused in a public repository: the journal names the panel and its accounts in clear, and every reader of the repository could read the branch',
      {
        hint: 'give the action secrets-store: artifact (the journal kept as an artifact, with its retention; docs/ci.md), or make the repository private',
      },
    );
}

/** Artifact mode, before apply: the newest unexpired artifact `name` of the repository's own runs (no fork's), its run to $GITHUB_OUTPUT. */
async function fetchArtifact(
  name: string,
  file: string,
  env: Env,
  io: JournalIo,
  redactions: Redactions,
): Promise<number> {
  const url = new URL(`repos/${env.GITHUB_REPOSITORY ?? ''}/actions/artifacts`, `${apiUrl(env)}/`);
  url.searchParams.set('name', name);
  url.searchParams.set('per_page', '20');
  const { json } = await call({ ...target(env, redactions, io), pullRequest: 0 }, 'GET', url);
  const text = (value: unknown): string =>
    typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const artifacts = (isRecord(json) && Array.isArray(json.artifacts) ? json.artifacts : [])
    .filter(isRecord)
    .filter((a) => a.name === name && a.expired !== true && ownRun(a.workflow_run))
    .map((a) => ({
      created: text(a.created_at),
      expires: text(a.expires_at),
      runId: isRecord(a.workflow_run) ? text(a.workflow_run.id) : '',
    }))
    .filter((a) => /^[0-9]+$/.test(a.runId))
    .sort((a, b) => b.created.localeCompare(a.created));
  const newest = artifacts[0];
  io.stdout.write(
    newest === undefined
      ? `No artifact ${name} to start from: this apply starts the secrets journal.\n`
      : `The secrets journal from the artifact ${name} of run ${newest.runId} (made ${newest.created}, expires ${newest.expires || '?'}).\n`,
  );
  await output(env, { 'run-id': newest?.runId ?? '', file });
  return 0;
}

/**
 * Whether an artifact's run is the repository's own: a pull request from a fork runs in this
 * repository too, and its artifacts are listed beside the apply's. A fork's workflow can upload
 * an artifact of any name; its journal, read as this panel's, would have apply settle intents it
 * made up (reset a client's password) and drop the real journal's records. Its run's head
 * repository is the fork: never read. A run that does not say which is none of ours either.
 */
function ownRun(run: unknown): boolean {
  if (!isRecord(run)) return false;
  const { repository_id: repository, head_repository_id: head } = run;
  return typeof repository === 'number' && repository === head;
}

/** Artifact mode, after apply: the retention on the run's page (the upload is action.yml's step). */
async function artifactNote(name: string, file: string, days: number, env: Env, io: JournalIo): Promise<number> {
  if (!(await exists(file))) {
    io.stdout.write('apply wrote no secrets journal: nothing to keep (an earlier artifact keeps its own expiry).\n');
    return 0;
  }
  const line = `The secrets journal is kept as the artifact \`${name}\` for ${days} days from this run: the next apply downloads it and keeps it again. If no apply runs within ${days} days, download it before then, or the passwords written ahead in it are lost.`;
  io.stdout.write(`${line.replace(/`/g, '')}\n`);
  await summary(env, line);
  return 0;
}

function apiUrl(env: Env): string {
  return (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
}

function target(env: Env, redactions: Redactions, io: JournalIo) {
  return {
    apiUrl: apiUrl(env),
    repository: env.GITHUB_REPOSITORY ?? '',
    token: env.GITHUB_TOKEN ?? '',
    redactions,
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
  };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

async function output(env: Env, values: Record<string, string>): Promise<void> {
  if (env.GITHUB_OUTPUT === undefined || env.GITHUB_OUTPUT === '') return;
  await appendFile(
    env.GITHUB_OUTPUT,
    Object.entries(values)
      .map(([k, v]) => `${k}=${v.replace(/[\r\n]/g, '')}\n`)
      .join(''),
  );
}

async function summary(env: Env, line: string): Promise<void> {
  if (env.GITHUB_STEP_SUMMARY === undefined || env.GITHUB_STEP_SUMMARY === '') return;
  await appendFile(env.GITHUB_STEP_SUMMARY, `\n${line}\n`);
}
