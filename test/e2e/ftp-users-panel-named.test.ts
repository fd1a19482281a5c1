/**
 * An FTP user's create whose answer is lost, on a panel that names FTP users itself ("custom FTP
 * usernames" off): the look-up by the name sent finds nothing though the POST created one under
 * the panel's name. The POST is never sent again (each repeat made one more user): the create
 * fails saying so, its password stays pending in the secrets file, nothing secret is printed.
 * With custom names on, a lost answer is still settled by the look-up by name.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/secrets/journal.js';
import { expectNoSecrets, run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n    ftp_users: [{name: alice_deploy}]\n';

async function journal(path: string): Promise<Record<string, unknown>[]> {
  return parseJournal(await readFile(path, 'utf8')).map((l) =>
    l.kind === 'unreadable' ? {} : (l.entry as Record<string, unknown>),
  );
}

describe('an FTP user create whose answer is lost', () => {
  it('on a panel that names FTP users itself: sent once, the create fails, the password stays pending', async () => {
    const w = await workspace(MANIFEST, {
      customFtpUsernames: false,
      ambiguousPostRate: 1,
      seed: { clients: [{ username: 'alice' }] },
    });
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(w.sim.requests.filter((q) => q.method === 'POST').map((q) => `${q.path} ${q.status}`)).toEqual([
      '/ftp-users 0',
    ]);
    expect(r.stdout + r.stderr).toContain(
      'FTP user "alice_deploy" was not found by name, but the panel may have created it under a name of its own: POST',
    );
    expect(r.stdout + r.stderr).toContain('not sent again');
    const entries = await journal(w.secrets);
    expect(entries.map((e) => [e.intent ?? 'other', e.name])).toEqual([['create_ftp_user', 'alice_deploy']]);
    // The one user the panel made holds the password written ahead.
    expect(w.sim.state.ftpUserPasswordIs('alice_ftp1', String(entries[0]?.pending_password))).toBe(true);
    await expectNoSecrets([r], [String(entries[0]?.pending_password)]);
  });

  it('on a panel that takes the name sent: found by name and adopted, its password recorded', async () => {
    const w = await workspace(MANIFEST, { ambiguousPostRate: 1, seed: { clients: [{ username: 'alice' }] } });
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    const records = (await journal(w.secrets)).filter((e) => 'password' in e);
    expect(records.map((e) => e.name)).toEqual(['alice_deploy']);
    expect(w.sim.state.ftpUserPasswordIs('alice_deploy', String(records[0]?.password))).toBe(true);
  });
});
