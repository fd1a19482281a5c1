/**
 * A fake GitHub REST API on loopback, enough for the sticky comment: a pull request's comments
 * listed in pages (Link: rel="next", on GitHub's `/repositories/{id}/…` form as the real one
 * answers), created, and updated; and the repository's artifacts listed by name. It records every request with its Authorization header, and
 * can be told to answer an error to a method.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
}

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
}

export interface FakeGitHub {
  /** The API's base URL (what GITHUB_API_URL holds). */
  readonly url: string;
  readonly comments: FakeComment[];
  readonly requests: FakeRequest[];
  /** Comments per page (GitHub's default is 30; small here so a few comments span pages). */
  pageSize: number;
  /** Answers `status` (with `message` as GitHub's JSON error) to every request of `method`. */
  fail: { method: string; status: number; message: string } | undefined;
  /** A `next` page link to this origin instead of the fake's own (to test that it is refused). */
  nextOrigin: string | undefined;
  /** Adds a comment as `login` (default the workflow token's bot). */
  add(body: string, login?: string): FakeComment;
  /** The repository's artifacts (`GET …/actions/artifacts`, filtered by `name`): the secrets journal's artifact mode. */
  artifacts: {
    name: string;
    expired: boolean;
    created_at: string;
    /** The run that uploaded it; a fork's pull request's run has another head_repository_id. */
    workflow_run: { id: number; repository_id: number; head_repository_id: number };
  }[];
}

const REPO = 'acme/panel';
const REPO_ID = 4242;

/** Starts the fake on loopback for `acme/panel`; closed when the current test finishes. */
export async function fakeGitHub(): Promise<FakeGitHub> {
  let nextId = 1000;
  const fake: FakeGitHub = {
    url: '',
    comments: [],
    requests: [],
    pageSize: 2,
    fail: undefined,
    nextOrigin: undefined,
    artifacts: [],
    add(body, login = 'github-actions[bot]') {
      const id = nextId++;
      const comment = {
        id,
        body,
        user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
        html_url: `https://github.example/${REPO}/pull/7#issuecomment-${id}`,
      };
      fake.comments.push(comment);
      return comment;
    },
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://fake');
      fake.requests.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        authorization: req.headers.authorization,
      });
      const send = (status: number, json: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (fake.fail !== undefined && fake.fail.method === req.method) {
        send(fake.fail.status, {
          message: fake.fail.message,
          documentation_url: 'https://docs.github.example/rest',
        });
        return;
      }
      const list = /^\/api\/(?:repos\/acme\/panel|repositories\/4242)\/issues\/7\/comments$/.exec(url.pathname);
      const one = /^\/api\/repos\/acme\/panel\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/api/repos/acme/panel/actions/artifacts' && req.method === 'GET') {
        const name = url.searchParams.get('name');
        const artifacts = fake.artifacts.filter((a) => name === null || a.name === name);
        send(200, { total_count: artifacts.length, artifacts });
      } else if (list !== null && req.method === 'GET') {
        const page = Number(url.searchParams.get('page') ?? '1');
        const items = fake.comments.slice((page - 1) * fake.pageSize, page * fake.pageSize);
        const more = page * fake.pageSize < fake.comments.length;
        const origin = fake.nextOrigin ?? fake.url.replace(/\/api$/, '');
        const link = `<${origin}/api/repositories/${REPO_ID}/issues/7/comments?per_page=100&page=${page + 1}>; rel="next", <${origin}/api/repositories/${REPO_ID}/issues/7/comments?per_page=100&page=1>; rel="first"`;
        send(200, items, more ? { link } : {});
      } else if (list !== null && req.method === 'POST') {
        send(201, fake.add((JSON.parse(body) as { body: string }).body));
      } else if (one !== null && req.method === 'PATCH') {
        const comment = fake.comments.find((c) => c.id === Number(one[1]));
        if (comment === undefined) {
          send(404, { message: 'Not Found' });
          return;
        }
        comment.body = (JSON.parse(body) as { body: string }).body;
        send(200, comment);
      } else {
        send(404, { message: 'Not Found' });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Served under /api, as GitHub Enterprise Server serves /api/v3: the base keeps its path.
  (fake as { url: string }).url = `http://127.0.0.1:${port}/api`;
  onTestFinished(
    () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  );
  return fake;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}
