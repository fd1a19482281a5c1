/**
 * Passwords through the CLI against the simulator: apply --generate-passwords (answers lost on
 * the wire included), secrets reset, secrets decrypt (each client's current password, or the
 * history), and clear text only on purpose. The password the panel holds comes from the
 * simulator itself (state.passwordOf), never from the file under test.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import type { Simulator } from '../../src/simulator/index.js';
import { run, type RunResult, workspace } from '../helpers/cli.js';

const MANIFEST =
  'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n  - username: bob\n  - username: carol\n';
const USERS = ['alice', 'bob', 'carol'];

/** Each client's current password in the file (null: unknown; undefined: none), by the contract's one reader. */
async function currentPasswords(path: string): Promise<Record<string, unknown>> {
  const states = passwordStates(parseJournal(await readFile(path, 'utf8')));
  return Object.fromEntries(
    [...states.values()].map((s) => [s.username, s.current === undefined ? undefined : s.current.entry.password]),
  );
}

/** What the simulator holds for each of `users`. */
function held(sim: Simulator, users: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(users.map((u) => [u, sim.state.passwordOf(u)]));
}

/** No password the simulator holds appears in any output. */
function expectNoPasswords(sim: Simulator, users: readonly string[], ...runs: RunResult[]): void {
  for (const password of Object.values(held(sim, users))) {
    for (const r of runs) {
      expect(r.stdout).not.toContain(String(password));
      expect(r.stderr).not.toContain(String(password));
    }
  }
}

describe('apply --generate-passwords', () => {
  it('each client is created with a password made here, which the file holds as current and the panel holds too', async () => {
    const w = await workspace(MANIFEST);
    const r = await run(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    for (const user of USERS) expect(w.sim.state.passwordOf(user)).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(await currentPasswords(w.secrets)).toEqual(held(w.sim, USERS));
    expectNoPasswords(w.sim, USERS, r);
    const kinds = parseJournal(await readFile(w.secrets, 'utf8')).map((l) =>
      l.kind === 'unreadable' ? l.why : `${l.kind}:${String(l.entry.username)}`,
    );
    // Each client's pending line comes before its password line.
    for (const user of USERS) expect(kinds.indexOf(`intent:${user}`)).toBeLessThan(kinds.indexOf(`password:${user}`));
  });

  it('with answers lost on the wire (--ambiguous-post-rate), no password is lost: every current one is what the panel holds', async () => {
    const clients = Array.from({ length: 12 }, (_, i) => `user${i}`);
    const w = await workspace(`version: 1\nclients:\n${clients.map((c) => `  - username: ${c}\n`).join('')}`, {
      ambiguousPostRate: 0.5,
      faultSeed: 7,
    });
    const r = await run(
      ['apply', w.file, '--auto-approve', '--generate-passwords', '--concurrency', '3'],
      w.envWithSecrets,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(w.sim.requests.filter((q) => q.method === 'POST' && q.status === 0).length).toBeGreaterThan(0);
    expect(r.stderr).toContain('adopted; the password it was created with is recorded');
    const current = await currentPasswords(w.secrets);
    expect(current).toEqual(held(w.sim, clients));
    expect(Object.values(current).every((p) => typeof p === 'string')).toBe(true);
    expectNoPasswords(w.sim, clients, r);
  });

  it('without the flag, an answer lost on the wire: the run sets a new password at once (PUT), and records it', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      ambiguousPostRate: 1,
    });
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'the password the panel made for it was lost with the answer: a new password is set and recorded',
    );
    expect(w.sim.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
      'POST /clients 0',
      'PUT /clients/2 200',
    ]);
    expect(await currentPasswords(w.secrets)).toEqual({ alice: w.sim.state.passwordOf('alice') });
    expectNoPasswords(w.sim, ['alice'], r);
  });
});

describe('a password the secrets file cannot tell (two creates of one client left open)', () => {
  const twoOpen = (url: string) =>
    ['P1-Written-Ahead-By-Run1', 'P2-Written-Ahead-By-Run2']
      .map((pending, i) =>
        JSON.stringify({
          intent: 'create_client',
          intent_id: `000000000000000${i}`,
          at: '2030-01-01T00:00:00.000Z',
          panel_url: url,
          username: 'alice',
          pending_password: pending,
        }),
      )
      .join('\n');

  it('plan sends nothing; apply refused sends nothing; the next apply sets a new password at once, with no change planned', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      seed: { clients: [{ username: 'alice' }] },
    });
    await writeFile(w.secrets, `${twoOpen(w.sim.url)}\n`, { mode: 0o600 });
    const writes = () =>
      w.sim.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path} ${q.status}`);
    const plan = await run(['plan', w.file], w.envWithSecrets);
    expect(plan.code, plan.stderr).toBe(0);
    expect(writes()).toEqual([]);
    // No terminal and no --auto-approve, with a change to make: refused, nothing sent, nothing recorded.
    const more = join(w.dir, 'more.yaml');
    await writeFile(more, 'version: 1\nclients:\n  - username: alice\n  - username: bob\n');
    const refused = await run(['apply', more], w.envWithSecrets);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('apply needs --auto-approve');
    expect(writes()).toEqual([]);
    expect(await currentPasswords(w.secrets)).toEqual({ alice: undefined });
    const before = await readFile(w.secrets, 'utf8');
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'which one the panel holds is unknown: this run gives it a new one before anything else',
    );
    expect(r.stderr).toContain('client "alice" (id 2): its password was unknown: a new one is set and recorded');
    expect(writes()).toEqual(['PUT /clients/2 200']);
    expect(r.stderr).toContain(`The new passwords are in ${w.secrets}.`);
    expect(await currentPasswords(w.secrets)).toEqual({ alice: w.sim.state.passwordOf('alice') });
    expect(w.sim.state.passwordOf('alice')).not.toMatch(/Written-Ahead/);
    // Written ahead first: the journal grew by the reset's intent and its record.
    const added = parseJournal((await readFile(w.secrets, 'utf8')).slice(before.length));
    expect(added.map((l) => (l.kind === 'unreadable' ? l.why : l.kind))).toEqual(['intent', 'password']);
    expectNoPasswords(w.sim, ['alice'], r);
    // Settled: the next apply has nothing to do.
    const again = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(again.code, again.stderr).toBe(0);
    expect(writes()).toEqual(['PUT /clients/2 200']);
  });

  it('a run scoped by --clients leaves a client outside its scope alone', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n  - username: bob\n', {
      seed: { clients: [{ username: 'alice' }, { username: 'bob' }] },
    });
    await writeFile(w.secrets, `${twoOpen(w.sim.url)}\n`, { mode: 0o600 });
    const r = await run(['apply', w.file, '--auto-approve', '--clients', 'bob'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    // Said as it is: not set by this run.
    expect(r.stderr).toContain(
      'which one the panel holds is unknown: it is outside --clients: an apply that covers it gives it a new one',
    );
    expect(r.stderr).not.toContain('this run gives it a new one');
    const all = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(all.code, all.stderr).toBe(0);
    expect(await currentPasswords(w.secrets)).toEqual({ alice: w.sim.state.passwordOf('alice') });
  });

  it('the PUT refused: apply exits 1 naming the client, and records the password as unknown', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      seed: { clients: [{ username: 'alice' }] },
      intercept: (req) =>
        req.method === 'PUT'
          ? { status: 400, json: { code: '400 Bad Request', message: 'The password is too weak.' } }
          : undefined,
    });
    await writeFile(w.secrets, `${twoOpen(w.sim.url)}\n`, { mode: 0o600 });
    const r = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: client "alice" (id 2): its password is unknown and the panel refused a new one');
    expect(await currentPasswords(w.secrets)).toEqual({ alice: null });
  });
});

describe('secrets reset', () => {
  const SEEDED = { seed: { clients: [{ username: 'alice' }, { username: 'bob' }] } };

  it('gives each named client a new password, in order, naming each (never the password); the file and the panel agree', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    const before = held(w.sim, ['alice', 'bob']);
    const r = await run(['secrets', 'reset', 'bob', 'alice'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '✓ client "bob" (id 3): new password set and recorded\n✓ client "alice" (id 2): new password set and recorded\n',
    );
    expect(r.stderr).toContain(`2 passwords of 2 reset; the new ones are in ${w.secrets}.`);
    expect(w.sim.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
      'PUT /clients/3 200',
      'PUT /clients/2 200',
    ]);
    const after = held(w.sim, ['alice', 'bob']);
    expect(after.alice).not.toBe(before.alice);
    expect(await currentPasswords(w.secrets)).toEqual(after);
    expectNoPasswords(w.sim, ['alice', 'bob'], r);
  });

  it('a username the panel does not have is refused, named, before anything is sent or written', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    const r = await run(['secrets', 'reset', 'alice', 'nobody', 'admin'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: the panel has no client "nobody", "admin": nothing was sent');
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    await expect(readFile(w.secrets, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    const bad = await run(['secrets', 'reset', 'Alice'], w.envWithSecrets);
    expect(bad.stderr).toContain('error: not a username: "Alice": nothing was sent');
    const none = await run(['secrets', 'reset'], w.envWithSecrets);
    expect(none.stderr).toContain('error: secrets reset needs at least one username');
    const noFile = await run(['secrets', 'reset', 'alice'], w.env);
    expect(noFile.stderr).toContain(
      'error: secrets reset writes the new passwords to a secrets file: nothing was sent',
    );
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('refused by the panel (a 4xx to a PUT sent once): exit 1, recorded as refused, the old password stays current', async () => {
    const w = await workspace(MANIFEST, {
      ...SEEDED,
      intercept: (req) =>
        req.method === 'PUT'
          ? {
              status: 400,
              json: {
                code: '400 Bad Request',
                message: 'The password does not meet the password policy.',
              },
            }
          : undefined,
    });
    await writeFile(
      w.secrets,
      `${JSON.stringify({ created_at: 't', panel_url: w.sim.url, username: 'alice', id: 2, password: 'Old-Password-Of-Alice-01' })}\n`,
      { mode: 0o600 },
    );
    const r = await run(['secrets', 'reset', 'alice'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^✗ client "alice" \(id 2\): refused \(PUT \/api\/v2\/clients\/2: 400 Bad Request: The password does not meet the password policy\.\): its password stays as it was\n$/,
    );
    expect(parseJournal(await readFile(w.secrets, 'utf8')).map((l) => l.kind)).toEqual([
      'password',
      'intent',
      'refused',
    ]);
    expect(await currentPasswords(w.secrets)).toEqual({ alice: 'Old-Password-Of-Alice-01' });
  });

  it('first records a password an interrupted apply wrote ahead for the client, then replaces it', async () => {
    const w = await workspace(MANIFEST, SEEDED);
    await writeFile(
      w.secrets,
      `${JSON.stringify({ intent: 'create_client', at: 't', panel_url: w.sim.url, username: 'alice', pending_password: 'Written-Ahead-Password-01' })}\n`,
      { mode: 0o600 },
    );
    const r = await run(['secrets', 'reset', 'alice'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'client "alice" (id 2) was created by an earlier apply that was stopped before the panel\'s answer arrived; the password written ahead for it is its password: recorded',
    );
    const entries = parseJournal(await readFile(w.secrets, 'utf8')).map((l) =>
      l.kind === 'unreadable' ? {} : l.entry,
    );
    expect(entries.map((e) => [e.intent, e.password ?? e.pending_password])).toEqual([
      ['create_client', 'Written-Ahead-Password-01'],
      [undefined, 'Written-Ahead-Password-01'],
      ['reset_password', w.sim.state.passwordOf('alice')],
      [undefined, w.sim.state.passwordOf('alice')],
    ]);
  });
});

describe('secrets decrypt: the current password per client, or the history', () => {
  it('clear and encrypted: one line per client by default, every record with --all', async () => {
    const identity = await generateIdentity();
    const recipient = await identityToRecipient(identity);
    for (const encrypted of [false, true]) {
      // bob's reset fails with a 500: the panel may or may not have taken it, so his new password stays pending.
      let failing = '';
      const w = await workspace(MANIFEST, {
        seed: { clients: [{ username: 'alice' }] },
        intercept: (req) =>
          req.method === 'PUT' && req.path === failing
            ? { status: 500, json: { code: '500 Internal Server Error', message: 'x' } }
            : undefined,
      });
      const identityFile = join(w.dir, 'key.txt');
      await writeFile(identityFile, `${identity}\n`);
      const env = encrypted ? { ...w.envWithSecrets, PROVISION_SECRETS_RECIPIENT: recipient } : w.envWithSecrets;
      expect((await run(['apply', w.file, '--auto-approve', '--generate-passwords'], env)).code).toBe(0);
      const firstOfCarol = w.sim.state.passwordOf('carol');
      expect((await run(['secrets', 'reset', 'alice', 'carol'], env)).code).toBe(0);
      expect(w.sim.state.passwordOf('carol')).not.toBe(firstOfCarol);
      failing = `/clients/${String(w.sim.state.clientNamed('bob')?.id)}`;
      expect((await run(['secrets', 'reset', 'bob'], env)).code).toBe(1);
      const text = await readFile(w.secrets, 'utf8');
      expect(text.includes('"password":"') || text.includes('"pending_password":"')).toBe(!encrypted);

      const identityArgs = encrypted ? ['--identity', identityFile] : [];
      const current = await run(['secrets', 'decrypt', w.secrets, ...identityArgs]);
      expect(current.code, current.stderr).toBe(0);
      const lines = current.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      // bob and carol were created by apply, alice (seeded) got hers from reset, carol a second one; bob's reset is pending.
      expect(Object.fromEntries(lines.map((l) => [l.username, l.password]))).toEqual(
        held(w.sim, ['alice', 'bob', 'carol']),
      );
      expect(lines).toHaveLength(3);
      expect(lines.find((l) => l.username === 'alice')).toHaveProperty('reset_at');
      expect(lines.every((l) => !('password_age' in l))).toBe(true);
      expect(current.stderr).toMatch(
        /secrets\.jsonl:\d+: client "bob" has a newer password pending \(its request's outcome is unknown\)/,
      );
      expect(current.stderr).toContain('3 records');

      const all = await run(['secrets', 'decrypt', w.secrets, '--all', ...identityArgs]);
      expect(all.code, all.stderr).toBe(0);
      const history = all.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const kind = (h: Record<string, unknown>): string =>
        `${String(h.username)} ${typeof h.intent === 'string' ? h.intent : 'password'} ${typeof (h.password ?? h.pending_password)}`;
      expect(history.map(kind).sort()).toEqual(
        [
          'alice password string',
          'alice reset_password string',
          'bob create_client string',
          'bob password string',
          'bob reset_password string',
          'carol create_client string',
          'carol password string',
          'carol reset_password string',
          'carol password string',
        ].sort(),
      );
      // The history shows the pending password the panel may hold (bob's reset), decrypted too.
      const pending = history.filter((h) => h.username === 'bob' && h.intent === 'reset_password');
      expect(pending[0]?.pending_password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(history.every((h) => !('password_age' in h) && !('pending_password_age' in h))).toBe(true);
    }
  });
});

describe('clear text only on purpose', () => {
  it('an empty recipient is an error; under CI=true clear text needs --allow-plaintext-secrets; nothing is sent before', async () => {
    const w = await workspace(MANIFEST, { seed: { clients: [{ username: 'alice' }] } });
    const empty = await run(['apply', w.file, '--auto-approve', '--secrets-recipient', ''], w.envWithSecrets);
    expect(empty.stderr).toContain('error: the secrets recipient is empty: nothing was sent');
    const emptyEnv = await run(['secrets', 'reset', 'alice'], {
      ...w.envWithSecrets,
      PROVISION_SECRETS_RECIPIENT: '',
    });
    expect(emptyEnv.stderr).toContain('error: the secrets recipient is empty: nothing was sent');
    const ci = { ...w.envWithSecrets, CI: 'true' };
    const apply = await run(['apply', w.file, '--auto-approve'], ci);
    expect(apply.stderr).toContain(
      'error: this apply would write passwords in clear under CI (CI=true): nothing was sent',
    );
    const reset = await run(['secrets', 'reset', 'alice'], ci);
    expect(reset.stderr).toContain(
      'error: secrets reset would write passwords in clear under CI (CI=true): nothing was sent',
    );
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await run(['secrets', 'reset', 'alice', '--allow-plaintext-secrets'], ci)).code).toBe(0);
    expect(
      (await run(['apply', w.file, '--auto-approve', '--allow-plaintext-secrets', '--generate-passwords'], ci)).code,
    ).toBe(0);
    expect(await currentPasswords(w.secrets)).toEqual(held(w.sim, USERS));
  });

  it('CI=1 (or any value but false and 0) is CI too: clear text needs --allow-plaintext-secrets; CI=0 and CI=false are not', async () => {
    const w = await workspace(MANIFEST, { seed: { clients: [{ username: 'alice' }] } });
    for (const value of ['1', 'yes']) {
      const ci = { ...w.envWithSecrets, CI: value };
      const apply = await run(['apply', w.file, '--auto-approve'], ci);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain(
        `error: this apply would write passwords in clear under CI (CI=${value}): nothing was sent`,
      );
      const reset = await run(['secrets', 'reset', 'alice'], ci);
      expect(reset.code).toBe(1);
      expect(reset.stderr).toContain(`error: secrets reset would write passwords in clear under CI (CI=${value})`);
    }
    expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await run(['secrets', 'reset', 'alice'], { ...w.envWithSecrets, CI: '0' })).code).toBe(0);
    expect((await run(['apply', w.file, '--auto-approve'], { ...w.envWithSecrets, CI: 'false' })).code).toBe(0);
  });
});
