/**
 * `secrets reset mailbox:ADDRESS` through the CLI against the simulator: the address in any
 * spelling names the mailbox; the new password is written ahead (kind `mailbox`, the address in
 * comparison form), set by a PUT and recorded; the panel holds it; nothing secret on stdout or
 * stderr. A mailbox the panel lacks, or a name that is no address, is refused before anything is sent.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/secrets/journal.js';
import { expectNoSecrets, run, workspace } from '../helpers/cli.js';

const MANIFEST = 'version: 1\nclients:\n  - username: alice\n';
const SEEDED = {
  seed: {
    clients: [
      {
        username: 'alice',
        domains: [{ name: 'alice.example', mailboxes: [{ name: 'info', password: 'the-old-mailbox-password' }] }],
      },
    ],
  },
};

describe('secrets reset mailbox:ADDRESS', () => {
  it('sets a new password, written ahead and recorded by the address; nothing secret printed', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    const r = await run(['secrets', 'reset', 'mailbox:Info@Alice.example'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✓ mailbox "info@alice\.example" \(id \d+\): new password set and recorded\n$/);
    const entries = parseJournal(await readFile(w.secrets, 'utf8')).map((l) =>
      l.kind === 'unreadable' ? {} : (l.entry as Record<string, unknown>),
    );
    expect(entries.map((e) => [e.intent ?? 'record', e.kind, e.name, e.username])).toEqual([
      ['reset_password', 'mailbox', 'info@alice.example', undefined],
      ['record', 'mailbox', 'info@alice.example', undefined],
    ]);
    const password = entries[1]?.password as string;
    expect(entries[0]?.pending_password).toBe(password);
    expect(w.sim.state.mailboxPasswordIs('info@alice.example', password)).toBe(true);
    expect(w.sim.state.mailboxPasswordIs('info@alice.example', 'the-old-mailbox-password')).toBe(false);
    await expectNoSecrets([r], [password]);
  });

  it('a mailbox the panel lacks, or a name that is no address, is refused before anything is written', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    const missing = await run(['secrets', 'reset', 'mailbox:nobody@alice.example'], w.envWithSecrets);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('the panel has no mailbox "nobody@alice.example": nothing was sent');
    const bad = await run(['secrets', 'reset', 'mailbox:not-an-address'], w.envWithSecrets);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('mailbox:not-an-address');
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    await expect(readFile(w.secrets, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
