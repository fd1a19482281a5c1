/**
 * The GitHub REST calls of the sticky comment, over `fetch` (injected, so tests point it at a
 * fake API on loopback): list a pull request's comments (every page, by the `Link` header),
 * then update the one that carries the marker or create it.
 *
 * The token goes in the Authorization header and nowhere else: errors name the method, the
 * path and the status (and GitHub's message, with the token blanked should it echo it), never
 * a header. A `next` page on another origin than the API's is refused, so the token is never
 * sent to another host.
 */
import { ProvisionError, errnoCode } from '../errors.js';
import { hasMarker } from './body.js';
import { quote } from '../escape.js';
import type { Redactions } from '../redact.js';
import { isRecord } from '../util.js';
import { VERSION } from '../version.js';

/** Where the comment goes, and with which credential. */
export interface GitHubTarget {
  /** The REST API's base, `https://api.github.com` (GITHUB_API_URL on GitHub Enterprise Server). */
  readonly apiUrl: string;
  /** `owner/repo`. */
  readonly repository: string;
  /** The pull request's number (comments of a pull request are its issue's comments). */
  readonly pullRequest: number;
  readonly token: string;
  /** Blanks the token in anything printed (the API's own messages included). */
  readonly redactions: Redactions;
  /** `globalThis.fetch` unless a test says otherwise. */
  readonly fetch?: typeof fetch;
  /** Per request; default 30 s. */
  readonly timeoutMs?: number;
}

/** A comment as far as the marker search needs it. */
export interface IssueComment {
  readonly id: number;
  readonly body: string;
  /** The author's login (`github-actions[bot]` for the workflow's token). */
  readonly author: string;
  readonly url: string;
}

/** Pages of 100 comments; this many pages at most (10,000 comments) before giving up. */
const PAGE_SIZE = 100;
const MAX_PAGES = 100;

/** What a status usually means for these calls, said as what to do. */
function hintFor(status: number): string | undefined {
  if (status === 401)
    return (
      'the token is missing, expired or not a GitHub token: ' +
      "give the action's github-token (default: the workflow's GITHUB_TOKEN)"
    );
  if (status === 403)
    return (
      'the token may not write comments: give the job "permissions: pull-requests: write" ' +
      '(a pull request from a fork gets a read-only token)'
    );
  if (status === 404)
    return (
      'no such repository or pull request, or the token cannot see it: ' +
      "check GITHUB_REPOSITORY, the pull request number and the token's repository access"
    );
  if (status === 422) return "GitHub refused the comment's body";
  return undefined;
}

/** One request to the API; the parsed JSON answer and its Link header. */
export async function call(
  target: GitHubTarget,
  method: 'GET' | 'POST' | 'PATCH',
  url: URL,
  body?: unknown,
): Promise<{ json: unknown; link: string | null }> {
  const where = `GitHub API: ${method} ${url.pathname}${url.search}`;
  let response: Response;
  try {
    response = await (target.fetch ?? globalThis.fetch)(url, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${target.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': `panel-provision/${VERSION}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(target.timeoutMs ?? 30_000),
      redirect: 'error',
    });
  } catch (error) {
    const cause = (error as { cause?: unknown } | undefined)?.cause;
    const reason =
      (error as Error | undefined)?.name === 'TimeoutError' ? 'no answer in time' : errnoCode(cause ?? error);
    throw new ProvisionError('github_api', `${where} failed: ${target.redactions.redact(reason)}`, {
      hint: "check GITHUB_API_URL and the runner's network",
    });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    let message = '';
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed) && typeof parsed.message === 'string')
        message = `: ${quote(target.redactions.redact(parsed.message.slice(0, 300)))}`;
    } catch {
      // Not JSON: the status says enough.
    }
    const hint = hintFor(response.status);
    throw new ProvisionError(
      'github_api',
      `${where} answered ${response.status}${message}`,
      hint === undefined ? {} : { hint },
    );
  }
  let json: unknown = null;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProvisionError('github_api', `${where} answered ${response.status} with a body that is not JSON`);
    }
  }
  return { json, link: response.headers.get('link') };
}

/** The `rel="next"` URL of a Link header, if any. */
export function nextLink(link: string | null): string | undefined {
  if (link === null) return undefined;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    const rel = /;\s*rel\s*=\s*"?([^";]*)"?/.exec(match?.[2] ?? '');
    if (match !== null && rel?.[1]?.trim().split(/\s+/).includes('next') === true) return match[1];
  }
  return undefined;
}

/**
 * A listed comment, or undefined when it has no id or no author: GitHub answers `user: null` for
 * a deleted account ("ghost"), and such a comment is nobody's to update. It is skipped, not an error.
 */
function listedComment(value: unknown): IssueComment | undefined {
  if (isRecord(value) && typeof value.id === 'number' && isRecord(value.user) && typeof value.user.login === 'string') {
    return {
      id: value.id,
      body: typeof value.body === 'string' ? value.body : '',
      author: value.user.login,
      url: typeof value.html_url === 'string' ? value.html_url : '',
    };
  }
  return undefined;
}

/** The comment our own POST or PATCH answered: its id is all that is required. */
function writtenComment(value: unknown, where: string): { id: number; url: string } {
  if (isRecord(value) && typeof value.id === 'number')
    return { id: value.id, url: typeof value.html_url === 'string' ? value.html_url : '' };
  throw new ProvisionError('github_api', `${where} answered a comment without an id`);
}

function base(target: GitHubTarget): string {
  const api = target.apiUrl.replace(/\/+$/, '');
  return `${api}/repos/${target.repository}/issues/${target.pullRequest}/comments`;
}

/** Every comment of the pull request, oldest first, following `Link: rel="next"` on the API's own origin. */
export async function listComments(target: GitHubTarget): Promise<IssueComment[]> {
  const first = new URL(base(target));
  first.searchParams.set('per_page', String(PAGE_SIZE));
  const comments: IssueComment[] = [];
  let url = first;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES)
      throw new ProvisionError(
        'github_api',
        `GitHub API: the pull request has more than ${MAX_PAGES * PAGE_SIZE} comments; the marker search stops there`,
      );
    const where = `GitHub API: GET ${url.pathname}${url.search}`;
    const { json, link } = await call(target, 'GET', url);
    if (!Array.isArray(json))
      throw new ProvisionError('github_api', `${where} answered something other than a list of comments`);
    comments.push(...json.flatMap((item) => listedComment(item) ?? []));
    const next = nextLink(link);
    if (next === undefined) break;
    let nextUrl: URL;
    try {
      nextUrl = new URL(next, url);
    } catch {
      throw new ProvisionError('github_api', `${where} answered a next page link that is not a URL`);
    }
    if (nextUrl.origin !== first.origin) {
      throw new ProvisionError(
        'github_api',
        `${where} answered a next page on another host (${quote(nextUrl.origin)}): the token is not sent there`,
      );
    }
    url = nextUrl;
  }
  return comments;
}

/** What `upsertComment` did. */
export interface Upserted {
  readonly action: 'created' | 'updated';
  readonly id: number;
  readonly url: string;
}

/**
 * Updates the oldest comment by `author` whose first line is `marker` to `body`, or creates it.
 * Only `author`'s comments count: anyone may post a comment that starts with the marker, and the
 * plan must not appear under their name, editable by them.
 */
export async function upsertComment(
  target: GitHubTarget,
  marker: string,
  author: string,
  body: string,
): Promise<Upserted> {
  const existing = (await listComments(target)).find((c) => c.author === author && hasMarker(c.body, marker));
  if (existing !== undefined) {
    const url = new URL(
      `${target.apiUrl.replace(/\/+$/, '')}/repos/${target.repository}/issues/comments/${existing.id}`,
    );
    const { json } = await call(target, 'PATCH', url, { body });
    const updated = writtenComment(json, `GitHub API: PATCH ${url.pathname}`);
    return { action: 'updated', id: updated.id, url: updated.url };
  }
  const url = new URL(base(target));
  const { json } = await call(target, 'POST', url, { body });
  const created = writtenComment(json, `GitHub API: POST ${url.pathname}`);
  return { action: 'created', id: created.id, url: created.url };
}
