/**
 * A later apply of an FTP user whose earlier create was left open, beside new FTP users of the
 * same client that this very run creates first: they are this run's own (their intents and
 * passwords are in the secrets file), so they must not hold the open create back as strays.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

/** Eight new users before the one whose create was left open: the walk starts them first. */
const NEW = Array.from({ length: 8 }, (_, i) => `alice_new${i}`);
const MANIFEST = `version: 1\nclients:\n  - username: alice\n    ftp_users: [${[...NEW, 'alice_deploy'].map((n) => `{name: ${n}}`).join(', ')}]\n`;

describe('a later apply of an open FTP user create beside new ones of the same client', () => {
  it('the users this run created are no strays: all are created, the run exits 0', async () => {
    const w = await workspace(MANIFEST, { seed: { clients: [{ username: 'alice' }] } });
    const intent = {
      intent: 'create_ftp_user',
      intent_id: '0123456789abcdef',
      panel_url: w.sim.url,
      kind: 'ftp_user',
      name: 'alice_deploy',
      at: new Date().toISOString(),
      pending_password: 'Pending4FtpPasswordAb12',
    };
    await writeFile(w.secrets, `${JSON.stringify(intent)}\n`, { mode: 0o600 });
    const r = await run(['apply', w.file, '--auto-approve', '--concurrency', '1'], w.envWithSecrets);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect([...w.sim.state.ftpUsers.values()].map((u) => u.username).sort()).toEqual(['alice_deploy', ...NEW]);
  });
});
