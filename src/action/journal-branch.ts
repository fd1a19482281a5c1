/**
 * The secrets journal kept on a branch of the repository (the Action's `secrets-store: branch`):
 * one file per panel, fetched before apply and committed and pushed after it, so that an apply
 * killed mid-run leaves its written-ahead intents where the next run reads them
 * (docs/passwords.md, docs/ci.md "The secrets journal").
 *
 * Git runs in a repository of its own under the runner's temporary directory, never in the
 * checkout: the branch being planned is not touched. A push that lost a race (another run pushed
 * first) fetches the branch again, merges the one file (the journal is append-only: the branch's
 * lines, then this run's lines the branch lacks) and pushes again; never a force-push.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProvisionError } from '../errors.js';
import type { Redactions } from '../redact.js';

/** Where the journal lives and how to reach it. */
export interface JournalBranch {
  /** The remote's URL: `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY.git`, or the checkout's `origin` when a local path. */
  readonly remote: string;
  /** The branch (`provision-secrets`). */
  readonly branch: string;
  /** The file's path on the branch (`<secrets-name>.jsonl`). */
  readonly path: string;
  /** Sent as an HTTP header to an https remote only (git's config of a temporary repository). */
  readonly token?: string | undefined;
  /** Where the temporary repositories go (the runner's temporary directory). */
  readonly scratch: string;
  readonly redactions: Redactions;
}

/**
 * The author of the journal's commits: the Actions bot, as GitHub's own actions sign theirs. A
 * made-up `NAME@users.noreply.github.com` is GitHub's address of the account NAME: whoever holds
 * that login would be shown as the author of every journal commit.
 */
const AUTHOR = [
  '-c',
  'user.name=github-actions[bot]',
  '-c',
  'user.email=41898282+github-actions[bot]@users.noreply.github.com',
];
/** Pushes tried before giving up when each one loses the race. */
export const PUSH_ATTEMPTS = 6;

interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function git(cwd: string, args: readonly string[]): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function mustGit(cwd: string, args: readonly string[], doing: string, at: JournalBranch): Promise<string> {
  const r = await git(cwd, args);
  if (r.code !== 0)
    throw new ProvisionError('secrets', `git could not ${doing}: ${at.redactions.redact(r.stderr.trim())}`, {
      hint: 'the job needs permissions: contents: write, and the checkout its remote (docs/ci.md)',
    });
  return r.stdout;
}

/** A fresh repository pointing at the remote, with the token as a header for an https remote. */
async function scratchRepository(at: JournalBranch): Promise<string> {
  await mkdir(at.scratch, { recursive: true });
  const dir = await mkdtemp(join(at.scratch, 'panel-provision-journal-'));
  await mustGit(dir, ['init', '--quiet'], 'make a repository', at);
  await mustGit(dir, ['remote', 'add', 'origin', at.remote], 'add the remote', at);
  if (at.token !== undefined && at.token !== '' && /^https:\/\//i.test(at.remote)) {
    const basic = Buffer.from(`x-access-token:${at.token}`).toString('base64');
    at.redactions.add(basic);
    await mustGit(
      dir,
      ['config', '--local', 'http.extraheader', `AUTHORIZATION: basic ${basic}`],
      'set its header',
      at,
    );
  }
  return dir;
}

/** The branch's tip fetched as FETCH_HEAD: its file's text ('' when absent), or undefined when the branch does not exist. */
async function fetchTip(dir: string, at: JournalBranch): Promise<{ text: string } | undefined> {
  const fetched = await git(dir, ['fetch', '--quiet', '--no-tags', 'origin', `refs/heads/${at.branch}`]);
  if (fetched.code !== 0) {
    if (/couldn't find remote ref|could not find remote ref/i.test(fetched.stderr)) return undefined;
    throw new ProvisionError(
      'secrets',
      `git could not fetch the branch ${at.branch}: ${at.redactions.redact(fetched.stderr.trim())}`,
      { hint: 'the job needs permissions: contents: write (or read, to fetch), and the checkout its remote' },
    );
  }
  await refuseForeign(dir, at);
  const shown = await git(dir, ['show', `FETCH_HEAD:${at.path}`]);
  return { text: shown.code === 0 ? shown.stdout : '' };
}

/**
 * A secrets branch holds journals (`*.jsonl` files) and perhaps a README, nothing else: a
 * secrets-branch input naming a branch of the project's code (`main`, a release branch) would
 * have every apply commit the journal into that code's history. Refused, naming what it holds.
 */
async function refuseForeign(dir: string, at: JournalBranch): Promise<void> {
  const listed = await mustGit(dir, ['ls-tree', '-z', 'FETCH_HEAD'], 'list the branch', at);
  const foreign = listed
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [meta = '', name = ''] = entry.split('\t');
      return { mode: meta.split(' ')[0] ?? '', name };
    })
    .filter(
      ({ mode, name }) => !(/^100(644|755)$/.test(mode) && (/\.jsonl$/.test(name) || /^README(\.md)?$/i.test(name))),
    )
    .map(({ name }) => name);
  if (foreign.length > 0)
    throw new ProvisionError(
      'secrets',
      `the branch ${at.branch} holds more than secrets journals (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}): it is no secrets branch, and the journal is not committed into it`,
      { hint: 'give secrets-branch a branch of its own (default provision-secrets): the first apply starts it' },
    );
}

/**
 * The branch's journal file written to `dest` (mode 0600): true when the branch held one, false
 * when there was none yet (the first apply starts it).
 */
export async function fetchJournal(at: JournalBranch, dest: string): Promise<boolean> {
  const dir = await scratchRepository(at);
  try {
    const tip = await fetchTip(dir, at);
    if (tip === undefined || tip.text === '') return false;
    await writeFile(dest, tip.text, { mode: 0o600 });
    await chmod(dest, 0o600);
    return true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The journal as the branch and this run both wrote it: the branch's lines in their order, then
 * this run's lines the branch lacks, in theirs. Records are append-only and each line is whole,
 * so nothing of either side is lost and nothing is repeated.
 */
export function mergeJournal(branch: string, local: string): string {
  const lines = (text: string): string[] => text.split('\n').filter((line) => line.trim() !== '');
  const seen = new Set(lines(branch));
  const added = lines(local).filter((line) => {
    if (seen.has(line)) return false;
    seen.add(line);
    return true;
  });
  if (added.length === 0) return branch;
  const head = branch === '' || branch.endsWith('\n') ? branch : `${branch}\n`;
  return `${head}${added.join('\n')}\n`;
}

/** What saveJournal did. */
export interface Saved {
  /** The commit pushed, or undefined when the branch held every line already. */
  readonly commit: string | undefined;
  /** Pushes that lost the race and were tried again. */
  readonly retries: number;
}

/**
 * Commits the journal at `file` to the branch and pushes it (never forced): on a rejected push,
 * fetches again, merges the one file and pushes again, up to PUSH_ATTEMPTS times. `message` is
 * the commit's subject. `pause` waits between attempts (tests make it short).
 */
export async function saveJournal(
  at: JournalBranch,
  file: string,
  message: string,
  pause: (attempt: number) => Promise<void> = (attempt) => sleep(500 * attempt + Math.floor(Math.random() * 500)),
): Promise<Saved> {
  const local = await readFile(file, 'utf8');
  const dir = await scratchRepository(at);
  try {
    for (let attempt = 0; attempt < PUSH_ATTEMPTS; attempt++) {
      if (attempt > 0) await pause(attempt);
      const tip = await fetchTip(dir, at);
      const merged = mergeJournal(tip?.text ?? '', local);
      if (tip !== undefined && merged === tip.text) return { commit: undefined, retries: attempt };
      // The one file written into the branch's tree (or a first, parentless commit), in an index of its own.
      const index = join(dir, '.git', 'journal-index');
      await rm(index, { force: true });
      const blobFile = join(dir, '.git', 'journal-blob');
      await writeFile(blobFile, merged);
      const blob = (await mustGit(dir, ['hash-object', '-w', blobFile], 'store the journal', at)).trim();
      const tree = await treeWith(dir, at, tip === undefined ? undefined : 'FETCH_HEAD', blob, index);
      const parent = tip === undefined ? [] : ['-p', 'FETCH_HEAD'];
      const commit = (
        await mustGit(dir, [...AUTHOR, 'commit-tree', tree, ...parent, '-m', message], 'commit', at)
      ).trim();
      const pushed = await git(dir, ['push', '--quiet', '--porcelain', 'origin', `${commit}:refs/heads/${at.branch}`]);
      if (pushed.code === 0) return { commit, retries: attempt };
      const said = `${pushed.stdout}\n${pushed.stderr}`;
      // Someone pushed first: fetch, merge and try again. Anything else is an error.
      if (!/\[rejected\]|non-fast-forward|fetch first|stale info|failed to update ref|cannot lock ref/i.test(said))
        throw new ProvisionError(
          'secrets',
          `git could not push the journal to ${at.branch}: ${at.redactions.redact(pushed.stderr.trim())}`,
          {
            hint: 'the job needs permissions: contents: write (docs/ci.md); the journal is kept as the artifact <secrets-name>-unpushed instead: push it to the branch by hand',
          },
        );
    }
    throw new ProvisionError(
      'secrets',
      `the journal could not be pushed to ${at.branch}: ${PUSH_ATTEMPTS} pushes each lost to another one`,
      { hint: 'run the job again: the journal is merged, never overwritten' },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The tree of `base` (none: empty) with `at.path` set to `blob`, through a private index file. */
async function treeWith(
  dir: string,
  at: JournalBranch,
  base: string | undefined,
  blob: string,
  index: string,
): Promise<string> {
  const withIndex = (args: readonly string[]): Promise<GitRun> =>
    new Promise((resolve) => {
      execFile(
        'git',
        [...args],
        { cwd: dir, env: { ...process.env, GIT_INDEX_FILE: index, LC_ALL: 'C' } },
        (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : 1, stdout, stderr });
        },
      );
    });
  const steps: (readonly string[])[] = [
    base === undefined ? ['read-tree', '--empty'] : ['read-tree', base],
    ['update-index', '--add', '--cacheinfo', `100644,${blob},${at.path}`],
  ];
  for (const args of steps) {
    const r = await withIndex(args);
    if (r.code !== 0) throw new ProvisionError('secrets', `git could not ${args[0] ?? ''}: ${r.stderr.trim()}`);
  }
  const tree = await withIndex(['write-tree']);
  if (tree.code !== 0) throw new ProvisionError('secrets', `git could not write the tree: ${tree.stderr.trim()}`);
  return tree.stdout.trim();
}
