/**
 * The passwords of mailboxes, databases and FTP users never reach an output either: a careless
 * panel echoes the password it refuses in its error message, on a create (POST) and on a
 * `secrets reset` (PUT); every output of those runs, text and JSON, is searched for every
 * password the secrets file holds, pending ones included.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/redact.js';
import { parseJournal } from '../../src/secrets/journal.js';
import { API_KEY, run, type RunResult, startWorkspace, type Workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes: [{ name: info }]
    databases: [{ name: alice_wp }]
    ftp_users: [{ name: alice_deploy }]
`;

const PATHS = ['/emails', '/databases', '/ftp-users'];

describe('no password of a section kind in any output', () => {
  let p: Workspace;
  let echo = false;
  beforeAll(async () => {
    p = await startWorkspace(MANIFEST, {
      intercept: ({ method, path, body }) => {
        const password = (body as { password?: unknown } | undefined)?.password;
        if (echo && typeof password === 'string' && PATHS.some((at) => path.startsWith(at)) && method !== 'GET')
          return { status: 400, json: { code: '400 Bad Request', message: `password ${password} is too weak` } };
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await p.close();
  });

  it('holds when the panel echoes the password it refuses, on a create and on a reset', async () => {
    const results: RunResult[] = [];
    const go = async (argv: string[]): Promise<RunResult> => {
      const r = await run(argv, p.envWithSecrets);
      results.push(r);
      return r;
    };
    echo = true;
    expect((await go(['apply', p.file, '--auto-approve'])).code).toBe(1);
    await go(['apply', p.file, '--auto-approve', '--format', 'json']);
    echo = false;
    expect((await go(['apply', p.file, '--auto-approve', '--verbose'])).code).toBe(0);
    echo = true;
    for (const name of ['mailbox:info@alice.example', 'database:alice_wp', 'ftp_user:alice_deploy']) {
      await go(['secrets', 'reset', name]);
      await go(['secrets', 'reset', name, '--format', 'json']);
    }
    echo = false;

    const passwords = parseJournal(await readFile(p.secrets, 'utf8')).flatMap((line) =>
      line.kind === 'unreadable'
        ? []
        : [line.entry.password, line.entry.pending_password].filter((v): v is string => typeof v === 'string'),
    );
    expect(passwords.length).toBeGreaterThanOrEqual(6);
    expect(results.some((r) => r.stdout.includes(REDACTED) || r.stderr.includes(REDACTED))).toBe(true);
    for (const r of results)
      for (const secret of [API_KEY, ...passwords]) {
        expect(r.stdout).not.toContain(secret);
        expect(r.stderr).not.toContain(secret);
      }
  });
});
