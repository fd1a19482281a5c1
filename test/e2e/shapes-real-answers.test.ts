/**
 * The answers a real panel may give to the writes of /emails, /databases and /ftp-users, end to
 * end through the CLI over real HTTP: the simulator does the work, but its answers to POST, PUT
 * and DELETE are rewritten into other plausible shapes (docs/panel-api.md, "Not known, and
 * tolerated"): a create answered 200, its id as a string, wrapped in `data` or missing; a PUT or
 * DELETE answered 204 or 200 empty. Every create's password is recorded under its id, the apply
 * exits 0, and the next plan has no changes. A create answered with no body at all fails naming
 * it, and the next apply settles it by a look-up, never POSTing it again.
 */
import { writeFile } from 'node:fs/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, InterceptResult } from '../../src/simulator/index.js';
import { API_KEY, createdRecords, run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: info
            quota: 1 GiB
    databases:
      - name: alice_wp
    ftp_users:
      - name: alice_deploy
        home: /www/alice.example
`;

/** The header on the test's own request to the simulator (never rewritten). */
const RAW = 'x-shapes-raw';

/** How a write's answer is rewritten: from the simulator's status and JSON body. */
type Rewrite = (status: number, json: unknown) => InterceptResult;

/**
 * A workspace whose simulator's answers to writes of the three lists go through `rewrite` (a
 * rewrite left out, or taken out of it meanwhile, leaves the answer as it is); `writes` lists
 * each write of them as `METHOD path`.
 */
async function answering(rewrite: { post?: Rewrite; put?: Rewrite; delete?: Rewrite }) {
  let url = '';
  const writes: string[] = [];
  const intercept = async (req: InterceptRequest): Promise<InterceptResult | undefined> => {
    if (req.headers[RAW] !== undefined || !/^\/(emails|databases|ftp-users)(\/\d+)?\/?$/.test(req.path))
      return undefined;
    if (req.method !== 'GET') writes.push(`${req.method} ${req.path}`);
    const how = rewrite[req.method.toLowerCase() as 'post' | 'put' | 'delete'];
    if (how === undefined) return undefined;
    const answer = await request(`${url}${req.path}`, {
      method: req.method as 'POST' | 'PUT' | 'DELETE',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json', [RAW]: '1' },
      ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
    });
    const text = await answer.body.text();
    const json: unknown = text === '' ? undefined : JSON.parse(text);
    return answer.statusCode >= 300 ? { status: answer.statusCode, json } : how(answer.statusCode, json);
  };
  const w = await workspace(MANIFEST, { intercept });
  url = w.sim.url;
  return { ...w, writes };
}

const idOf = (json: unknown): number => (json as { id: number }).id;

describe('write answers of a real panel', () => {
  it.each<[string, Rewrite]>([
    ['200 instead of 201', (_, json) => ({ status: 200, json })],
    ['the id as a string', (status, json) => ({ status, json: { id: String(idOf(json)) } })],
    ['the id wrapped in data', (status, json) => ({ status, json: { data: { id: idOf(json) } } })],
    ['an object without the id', (status) => ({ status, json: { message: 'created' } })],
  ])('a create answered with %s: every password recorded under its id, then no changes', async (_, post) => {
    const w = await answering({ post });
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    // The last record of each name holds what is known: its id.
    const last = new Map((await createdRecords(w.secrets)).map((r) => [`${String(r.kind)} ${String(r.name)}`, r]));
    const records = [...last.values()].filter((r) => r.kind !== 'client');
    expect(records.map((r) => [r.kind, r.name, typeof r.id]).sort()).toEqual([
      ['database', 'alice_wp', 'number'],
      ['ftp_user', 'alice_deploy', 'number'],
      ['mailbox', 'info@alice.example', 'number'],
    ]);
    const planned = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(planned.stdout).toBe('No changes: the panel matches the manifest.\n');
    expect(planned.code, planned.stderr).toBe(0);
  });

  it('a create answered with no body fails naming it; the next apply records each password, POSTing none again', async () => {
    const rewrite: { post?: Rewrite } = { post: (status) => ({ status, text: '' }) };
    const w = await answering(rewrite);
    const failed = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(
      '✗ failed to create database "alice_wp" of client "alice": POST /api/v2/databases: 201 answered an empty body, not JSON\n',
    );
    expect(failed.stdout).toContain('Apply: 2 succeeded, 3 failed, 0 skipped');
    delete rewrite.post;
    const settled = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stdout).toContain('No changes: the panel matches the manifest.');
    expect(settled.stderr).toContain(
      'database "alice_wp" (id 1) was created by an earlier apply that was stopped before the panel\'s answer arrived',
    );
    expect(w.writes.sort()).toEqual(['POST /databases', 'POST /emails', 'POST /ftp-users']);
    const last = new Map((await createdRecords(w.secrets)).map((r) => [`${String(r.kind)} ${String(r.name)}`, r]));
    expect([...last.values()].map((r) => [r.kind, typeof r.id]).sort()).toEqual([
      ['client', 'number'],
      ['database', 'number'],
      ['ftp_user', 'number'],
      ['mailbox', 'number'],
    ]);
  });

  it.each<[string, Rewrite]>([
    ['204', () => ({ status: 204, text: '' })],
    ['200 empty', () => ({ status: 200, text: '' })],
    ['200 with the id', (status, json) => ({ status: 200, json: json ?? {} })],
  ])('updates and deletes answered %s succeed and converge', async (_, answer) => {
    const w = await answering({ put: answer, delete: answer });
    expect((await run(['apply', w.file, '--auto-approve'], w.envWithSecrets)).code).toBe(0);
    await writeFile(
      w.file,
      MANIFEST.replace('quota: 1 GiB', 'quota: 2 GiB')
        .replace('- name: alice_wp', '- name: alice_wp\n        description: WordPress')
        .replace('home: /www/alice.example', 'state: absent'),
    );
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply: 3 succeeded, 0 failed, 0 skipped.');
    const planned = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(planned.stdout).toBe('No changes: the panel matches the manifest.\n');
    expect(planned.code, planned.stderr).toBe(0);
  });
});
