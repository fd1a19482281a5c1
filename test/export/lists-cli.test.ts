/**
 * The kinds' lists under a client or a domain item through the CLI, over real HTTP against the
 * simulator seeded with mailboxes, databases and FTP users: export --with mailboxes,databases,
 * ftp-users writes each domain's mailboxes (quota in its largest whole unit) and each client's
 * databases and FTP users, never a password; validate takes it and plan of it shows no changes.
 * Without the words, none of those lists is read (no GET of them) or written.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';
import { LISTS_SEED, PASSWORD } from './lists-fixtures.js';

/** The paths the simulator answered a GET for, without query strings. */
function gets(requests: readonly { method: string; path: string }[]): string[] {
  return requests.filter((r) => r.method === 'GET').map((r) => r.path.split('?')[0] ?? r.path);
}

describe('provision export --with mailboxes,databases,ftp-users', () => {
  it('writes the lists, never a password; validate passes; plan shows no changes', async () => {
    const w = await workspace('', { seed: LISTS_SEED });
    const exported = await run(
      ['export', '--with', 'mailboxes,databases', '--with', 'ftp-users', '--out', w.file],
      w.env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).not.toContain('warning');
    // The summary counts what each list wrote, in the table's order.
    expect(exported.stderr).toContain('exported 2 clients, 3 domains, 3 mailboxes, 2 databases and 2 FTP users of ');
    const text = await readFile(w.file, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toMatch(/^[ -]*password:/m);
    // Each domain's mailboxes in its item, the quota in its largest whole unit.
    expect(text).toContain(
      [
        '      - name: alice.example',
        '        mailboxes:',
        '          - name: catch',
        '            quota: 0',
        '            catch_all: true',
        '          - name: info',
        '            quota: 2 GiB',
        '            aliases: [hello, office@alice.net]',
        '            forwardings: [owner@example.org]',
        '            keep_copies: true',
        `            description: 'Front desk: "#1"'`,
        '      - name: alice.net',
        '        mailboxes:',
        '          - name: team',
        '            quota: 500 MiB',
      ].join('\n'),
    );
    // Each client's databases and FTP users after its domains, sorted by name.
    expect(text).toContain(
      [
        '    databases:',
        '      - name: alice_shop',
        '        user: alice_shopuser',
        '        remote_hosts: []',
        '      - name: alice_wp',
        '        remote_hosts: [192.0.2.0/24]',
        '        description: WordPress',
        '    ftp_users:',
        '      - name: alice-backup',
        '        description: nightly',
        '      - name: alice-deploy',
        '        home: /www/alice.example',
      ].join('\n'),
    );
    // bob has none: no key.
    expect(text.slice(text.indexOf('username: bob'))).not.toMatch(/mailboxes|databases|ftp_users/);
    const header = text.split('\n').filter((line) => line.startsWith('# '));
    expect(header.some((line) => line.startsWith('# mailboxes:'))).toBe(true);
    const validate = await run(['validate', w.file], w.env);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).not.toContain('warning');
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('without the words: none of the lists is read or written', async () => {
    const w = await workspace('', { seed: LISTS_SEED });
    const plain = await run(['export'], w.env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toMatch(/mailboxes|databases|ftp_users/);
    expect(gets(w.sim.requests)).not.toContain('/emails');
    expect(gets(w.sim.requests)).not.toContain('/databases');
    expect(gets(w.sim.requests)).not.toContain('/ftp-users');
    // One word reads its list only, once.
    const before = w.sim.requests.length;
    const one = await run(['export', '--with', 'databases'], w.env);
    expect(one.code, one.stderr).toBe(0);
    const read = gets(w.sim.requests.slice(before));
    expect(read.filter((p) => p === '/databases')).toHaveLength(1);
    expect(read).not.toContain('/emails');
    expect(read).not.toContain('/ftp-users');
    expect(one.stdout).toContain('databases:');
    expect(one.stdout).not.toMatch(/mailboxes|ftp_users/);
    // Only the list asked for is counted; none without a word.
    expect(one.stderr).toMatch(/^exported 2 clients, \d+ domains and 2 databases of /m);
    expect(plain.stderr).toMatch(/^exported 2 clients and \d+ domains of /m);
  });

  it('an unknown word is refused, naming the words the kinds give', async () => {
    const w = await workspace('', { seed: LISTS_SEED });
    const bad = await run(['export', '--with', 'mailbox'], w.env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('"mailboxes"');
    expect(bad.stderr).toContain('"databases"');
    expect(bad.stderr).toContain('"ftp-users"');
  });
});
