/**
 * export --into and the kinds' lists under a client or a domain item, through the CLI against the
 * simulator: a listed mailbox's, database's and FTP user's keys that differ get the panel's values
 * in place (comments and layout kept), keys left out stay out; without the words nothing is added;
 * with them the panel's others are added (a domain written by its name alone gets its object form,
 * in a flow list too); listed ones the panel lacks go only with --drop-missing; plan then shows no
 * changes, and no password is ever written.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SimulatorSeed } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';
import { LISTS_SEED, PASSWORD } from './lists-fixtures.js';

const SEED: SimulatorSeed = {
  clients: [
    ...(LISTS_SEED.clients ?? []).filter((c) => c.username !== 'bob'),
    { username: 'bob', domains: [{ name: 'bob.example', mailboxes: [{ name: 'bob', password: PASSWORD }] }] },
  ],
};

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          # the front desk
          - name: info
            quota: 1 GiB # raised in the panel later
            aliases: [hello]
          - {name: gone, quota: 1 GiB}
      - alice.net
    databases:
      - name: alice_wp
        description: old
    ftp_users: [{name: alice-deploy, home: /www}]
  - username: bob
    domains: [bob.example]
`;

describe('provision export --into: the lists under client and domain items', () => {
  it('sets the keys the listed items give, in place; adds nothing without the words', async () => {
    const w = await workspace(MANIFEST, { seed: SEED });
    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(w.file, 'utf8');
    expect(text).toBe(
      MANIFEST.replace('quota: 1 GiB # raised', 'quota: 2 GiB # raised')
        .replace('aliases: [hello]', 'aliases: [hello, office@alice.net]')
        .replace('description: old', 'description: WordPress')
        .replace('home: /www}', 'home: /www/alice.example}'),
    );
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    // Idempotent: a second run changes nothing.
    const again = await run(['export', '--into', w.file, '--check'], w.env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("with the words and --drop-missing: adds the panel's others, drops what it lacks; plan shows no changes", async () => {
    const w = await workspace(MANIFEST, { seed: SEED });
    const r = await run(
      ['export', '--into', w.file, '--with', 'mailboxes,databases,ftp-users', '--drop-missing'],
      w.env,
    );
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(w.file, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('gone');
    // A domain by its name alone gets its object form with the list under it.
    expect(text).toContain(
      '      - name: alice.net\n        mailboxes:\n          - name: team\n            quota: 500 MiB\n',
    );
    // In a flow list: the item becomes a flow mapping.
    expect(text).toContain('domains: [{name: bob.example, mailboxes: [{name: bob, quota: 0}]}]');
    expect(text).toContain('# the front desk');
    expect(text).toMatch(/ {10}- name: catch\n {12}quota: 0\n {12}catch_all: true\n/);
    expect(text).toContain('      - name: alice_shop\n        user: alice_shopuser\n');
    expect(text).toContain(
      'ftp_users: [{name: alice-deploy, home: /www/alice.example}, {name: alice-backup, description: nightly}]',
    );
    const validate = await run(['validate', w.file], w.env);
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('--drop-missing drops a listed present item the panel lacks, never one marked absent', async () => {
    const manifest = MANIFEST.replace('    databases:\n', '    databases:\n      - {name: alice_old, state: absent}\n');
    const w = await workspace(manifest, { seed: SEED });
    const r = await run(['export', '--into', w.file, '--drop-missing'], w.env);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(w.file, 'utf8');
    expect(text).toContain('{name: alice_old, state: absent}');
    expect(text).not.toContain('gone');
  });
});

describe("provision export --into: a prune key claims the panel's things", () => {
  it('prune.mailboxes: true adds the unlisted mailboxes of listed domains without the word, not a keep match; plan shows no changes', async () => {
    const manifest = `version: 1
prune:
  mailboxes: true
  keep: ['catch@*']
clients:
  - username: alice
    domains: [alice.net, {name: alice.example, mailboxes: [{name: info}]}]
  - username: bob
    domains: [bob.example]
`;
    const w = await workspace(manifest, { seed: SEED });
    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(w.file, 'utf8');
    // A keep pattern's match is never added (prune never touches it).
    expect(text).toContain('{name: alice.example, mailboxes: [{name: info}]}');
    expect(text).not.toContain('name: catch');
    expect(text).toContain('{name: alice.net, mailboxes: [{name: team, quota: 500 MiB}]}');
    expect(text).not.toMatch(/databases|ftp_users/);
    const plan = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
