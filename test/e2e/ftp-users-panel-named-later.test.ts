/**
 * A later apply of an FTP user whose earlier create was left open (its answer lost, or the run
 * killed before the POST), on a panel that names FTP users itself and on one that takes the
 * name sent: not found by the name sent proves nothing where the panel names them, so the create
 * is sent again only when the client has no FTP user the secrets file does not know; otherwise
 * the run exits 1 naming them (docs/passwords.md). Never a second user.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/secrets/journal.js';
import { expectNoSecrets, run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n    ftp_users: [{name: alice_deploy}]\n';
const PENDING = 'Pending4FtpPasswordAb12';

async function journal(path: string): Promise<Record<string, unknown>[]> {
  return parseJournal(await readFile(path, 'utf8')).map((l) =>
    l.kind === 'unreadable' ? {} : (l.entry as Record<string, unknown>),
  );
}

/** The FTP users on the panel, by name. */
function ftpUsers(w: Awaited<ReturnType<typeof workspace>>): string[] {
  return [...w.sim.state.ftpUsers.values()].map((u) => u.username).sort();
}

/** A create intent of `alice_deploy` as a run killed before its POST left it, its password written ahead. */
async function openIntent(w: Awaited<ReturnType<typeof workspace>>): Promise<void> {
  const intent = {
    intent: 'create_ftp_user',
    intent_id: '0123456789abcdef',
    panel_url: w.sim.url,
    kind: 'ftp_user',
    name: 'alice_deploy',
    at: new Date().toISOString(),
    pending_password: PENDING,
  };
  await writeFile(w.secrets, `${JSON.stringify(intent)}\n`, { mode: 0o600 });
}

describe('a later apply of an FTP user whose earlier create was left open', () => {
  it('on a panel that names FTP users itself, after a lost answer: no second user, the run names the first', async () => {
    let drop = true;
    const w = await workspace(MANIFEST, {
      customFtpUsernames: false,
      ambiguousPostRate: 1,
      faultFilter: () => drop,
      seed: { clients: [{ username: 'alice' }] },
    });
    const first = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(first.code).toBe(1);
    expect(ftpUsers(w)).toEqual(['alice_ftp1']);
    drop = false;
    const before = w.sim.requests.length;
    const second = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(second.code).toBe(1);
    // Nothing was sent again: the one user the first POST made is all there is.
    expect(w.sim.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(ftpUsers(w)).toEqual(['alice_ftp1']);
    const said = second.stdout + second.stderr;
    expect(said).toContain('its client has "alice_ftp1" on the panel, unknown to the secrets file: POST not sent');
    expect(said).toContain('secrets reset ftp_user:alice_ftp1');
    // Its password is the one the first run wrote ahead, still pending there.
    const [intent, ...rest] = await journal(w.secrets);
    expect(rest.filter((e) => e.intent === undefined && e.refused === undefined)).toEqual([]);
    expect(w.sim.state.ftpUserPasswordIs('alice_ftp1', String(intent?.pending_password))).toBe(true);
    await expectNoSecrets([first, second], [String(intent?.pending_password)]);
  });

  it('on a panel that names FTP users itself, after a kill before the POST: created once, recorded under its name', async () => {
    const w = await workspace(MANIFEST, { customFtpUsernames: false, seed: { clients: [{ username: 'alice' }] } });
    await openIntent(w);
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    // The panel named it: the create fails naming both, its password recorded under the panel's name.
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('was created by the panel as "alice_ftp1"');
    expect(ftpUsers(w)).toEqual(['alice_ftp1']);
    expect(w.sim.state.ftpUserPasswordIs('alice_ftp1', PENDING)).toBe(true);
    const records = (await journal(w.secrets)).filter((e) => 'password' in e);
    expect(records.map((e) => [e.name, e.password])).toEqual([['alice_ftp1', PENDING]]);
  });

  it('on a panel that takes the name sent, after a kill before the POST: created once with the pending password', async () => {
    const w = await workspace(MANIFEST, { seed: { clients: [{ username: 'alice' }] } });
    await openIntent(w);
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(w.posts()).toEqual(['/ftp-users 201']);
    expect(ftpUsers(w)).toEqual(['alice_deploy']);
    expect(w.sim.state.ftpUserPasswordIs('alice_deploy', PENDING)).toBe(true);
    await expectNoSecrets([r], [PENDING]);
  });

  it('a user of the client the secrets file knows does not hold the create back; one it does not know does', async () => {
    const w = await workspace(MANIFEST, {
      seed: { clients: [{ username: 'alice', ftp_users: [{ name: 'alice_known' }, { name: 'alice_hand' }] }] },
    });
    await openIntent(w);
    const known = {
      panel_url: w.sim.url,
      kind: 'ftp_user',
      name: 'alice_known',
      created_at: 't',
      id: 1,
      password: 'Known4FtpPasswordAb12',
    };
    await writeFile(w.secrets, `${await readFile(w.secrets, 'utf8')}${JSON.stringify(known)}\n`);
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('its client has "alice_hand" on the panel');
    expect(w.posts()).toEqual([]);
    expect(ftpUsers(w)).toEqual(['alice_hand', 'alice_known']);
  });
});
