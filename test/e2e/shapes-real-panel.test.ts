/**
 * The three lists of the last two issues as a real panel may answer them, end to end through the
 * CLI over real HTTP: the simulator creates and updates as usual, but every GET of /emails,
 * /databases and /ftp-users (list and by id) is answered in another plausible dialect
 * (docs/panel-api.md, "Mailboxes, databases, FTP users: what public code shows"): ids as strings,
 * flags as 0/1, quotas as strings, null for an empty description, aliases as local parts and
 * forwardings as objects, `localhost` and a PHP object map in `remote_hosts`, a home written from
 * the server's root, names in capitals. What the engine created plans no changes; an update sends
 * only the fields that differ, and converges again; export writes it back as the manifest said it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest } from '../../src/simulator/index.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: info
            quota: 2 GiB
            aliases: [hello]
            forwardings: [owner@example.net]
            keep_copies: true
            description: Front desk
          - name: sales
            catch_all: true
    databases:
      - name: alice_wp
        remote_hosts: ["192.0.2.0/24", db.example.net]
        description: WordPress
      - name: alice_shop
        user: shop_user
        remote_hosts: []
    ftp_users:
      - name: alice_deploy
        home: /www/alice.example
        description: Deploys
      - name: alice_files
`;

/** The header on the test's own read of the simulator's answer (never reshaped). */
const RAW = 'x-shapes-raw';

type Item = Record<string, unknown>;

/** A PHP array with holes, as json_encode writes it: an object keyed by digits. */
const phpArray = (items: readonly unknown[]): Item => Object.fromEntries(items.map((item, i) => [String(i * 2), item]));

/** Each list's items in the other dialect (`owner`: what id_user becomes). */
const DIALECT: Record<string, (r: Item, owner: (id: unknown) => unknown) => Item> = {
  emails: (r, owner) => {
    const domain = String(r.email).split('@')[1] ?? '';
    return {
      id: String(r.id),
      id_user: owner(r.id_user),
      email: String(r.email).toUpperCase(),
      email_utf8: r.email_utf8,
      description: r.description === '' ? null : r.description,
      size: String(r.size),
      max_size: String(r.max_size),
      catch_all: r.catch_all === true ? 1 : 0,
      store_forwarded_emails: r.store_forwarded_emails === true ? '1' : '0',
      aliases: (r.aliases as string[]).map((a) => (a.endsWith(`@${domain}`) ? a.split('@')[0] : a)),
      aliases_utf8: r.aliases_utf8,
      forwardings: (r.forwardings as string[]).map((email, i) => ({ id: i + 1, email })),
      forwardings_utf8: r.forwardings_utf8,
    };
  },
  databases: (r, owner) => ({
    id: String(r.id),
    id_user: owner(r.id_user),
    database_name: r.database_name,
    database_username: r.database_username,
    description: r.description === '' ? null : r.description,
    size: String(r.size),
    remote_hosts: phpArray(['localhost', ...(r.remote_hosts as string[])]),
  }),
  'ftp-users': (r, owner) => ({
    id: String(r.id),
    id_user: owner(r.id_user),
    username: String(r.username).toUpperCase(),
    description: r.description === '' ? null : r.description,
    home_directory: `/home/users/alice/${String(r.home_directory).replace(/^\//, '')}`,
  }),
};

/**
 * A workspace whose simulator answers the three lists in the other dialect (`owners` says what
 * becomes of each list's id_user: kept as a string when it says nothing), and keeps the body of
 * every write.
 */
async function realPanel(manifest: string, owners: Record<string, (id: unknown) => unknown> = {}) {
  const sent: [string, string, unknown][] = [];
  let url = '';
  const intercept = async (req: InterceptRequest) => {
    if (req.method !== 'GET') {
      sent.push([req.method, req.path, req.body]);
      return undefined;
    }
    const [, list] = /^\/(emails|databases|ftp-users)(\/\d+)?\/?$/.exec(req.path) ?? [];
    if (list === undefined || req.headers[RAW] !== undefined) return undefined;
    const answer = await request(`${url}${req.path}`, { headers: { 'x-api-key': API_KEY, [RAW]: '1' } });
    const json = (await answer.body.json()) as Item | Item[];
    const reshape = (r: Item) => DIALECT[list]!(r, owners[list] ?? String);
    return { status: answer.statusCode, json: Array.isArray(json) ? json.map(reshape) : reshape(json) };
  };
  const w = await workspace(manifest, { intercept });
  url = w.sim.url;
  const writes = () => sent.splice(0).map(([method, path, body]) => [method, path.replace(/\d+/, 'N'), body]);
  return { ...w, writes };
}

describe('the three lists in a real panel dialect', () => {
  it('what the engine created plans no changes', async () => {
    const w = await realPanel(MANIFEST);
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply: 8 succeeded, 0 failed, 0 skipped.');
    w.writes();
    const planned = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(planned.stderr).toBe('');
    expect(planned.stdout).toBe('No changes: the panel matches the manifest.\n');
    expect(planned.code).toBe(0);
  });

  it('an update sends only the fields that differ, then converges', async () => {
    const w = await realPanel(MANIFEST);
    expect((await run(['apply', w.file, '--auto-approve'], w.envWithSecrets)).code).toBe(0);
    w.writes();
    await writeFile(
      w.file,
      MANIFEST.replace('quota: 2 GiB', 'quota: 3 GiB')
        .replace('remote_hosts: []', 'remote_hosts: [192.0.2.7]')
        .replace('home: /www/alice.example', 'home: /files/deploy'),
    );
    const planned = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain('  ~ PUT /emails/1 {"max_size":3221225472}\n');
    expect(planned.stdout).toContain('  ~ PUT /databases/2 {"remote_hosts":["192.0.2.7"]}\n');
    expect(planned.stdout).toContain('  ~ PUT /ftp-users/2 {"home_directory":"/files/deploy"}\n');
    expect(planned.stdout).toContain('Plan: 3 to update (1 mailbox, 1 database, 1 FTP user).');
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(w.writes()).toEqual([
      ['PUT', '/emails/N', { max_size: 3 * 1024 ** 3 }],
      ['PUT', '/databases/N', { remote_hosts: ['192.0.2.7'] }],
      ['PUT', '/ftp-users/N', { home_directory: '/files/deploy' }],
    ]);
    const again = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(again.stdout).toBe('No changes: the panel matches the manifest.\n');
    expect(again.code, again.stderr).toBe(0);
  });

  it('export writes what the dialect says as the manifest did, and plans no changes from it', async () => {
    const w = await realPanel(MANIFEST);
    expect((await run(['apply', w.file, '--auto-approve'], w.envWithSecrets)).code).toBe(0);
    const file = `${w.dir}/exported.yaml`;
    const exported = await run(['export', '--with', 'mailboxes,databases,ftp-users', '--out', file], w.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).not.toContain('warning');
    const text = await readFile(file, 'utf8');
    for (const line of [
      '            aliases: [hello]',
      '            forwardings: [owner@example.net]',
      '            catch_all: true',
      '        remote_hosts: [192.0.2.0/24, db.example.net]',
      '        remote_hosts: []',
      '        home: /www/alice.example',
    ])
      expect(text).toContain(`${line}\n`);
    expect(text).not.toContain('localhost');
    const planned = await run(['plan', file, '--detailed-exitcode'], w.env);
    expect(planned.stdout).toBe('No changes: the panel matches the manifest.\n');
    expect(planned.code, planned.stderr).toBe(0);
  });

  // Whose a database or an FTP user is, only its record says (a mailbox's domain says it too):
  // without id_user the engine plans nothing of them and says so, at the manifest's line.
  it.each([
    ['left out', () => undefined],
    ['null', () => null],
    ['0', () => 0],
  ])('with id_user %s, mailboxes converge; databases and FTP users are conflicts, nothing sent', async (_, owner) => {
    const owners: Record<string, (id: unknown) => unknown> = {};
    const w = await realPanel(MANIFEST, owners);
    expect((await run(['apply', w.file, '--auto-approve'], w.envWithSecrets)).code).toBe(0);
    w.writes();
    Object.assign(owners, { emails: () => undefined, databases: owner, 'ftp-users': owner });
    const planned = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      '  ✗ database "alice_wp" of client "alice": the panel\'s record does not say which client has it: ' +
        "nothing is planned of it; check the panel's answer to GET /databases\n",
    );
    expect(planned.stdout).toContain(
      '  ✗ FTP user "alice_files" is listed under client "alice", but the panel has it and its record does not ' +
        'say which client owns it: nothing is planned of it (check it in the panel)\n',
    );
    expect(planned.stdout).toContain('No changes: the panel matches the manifest; 4 conflicts.');
    expect(planned.stdout).not.toContain('mailbox');
    expect(planned.stderr).toContain('manifest.yaml:16:15: error: database "alice_wp" of client "alice"');
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code).toBe(1);
    expect(w.writes()).toEqual([]);
  });
});
