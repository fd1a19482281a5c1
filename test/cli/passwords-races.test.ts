/**
 * Passwords under races, through the CLI (issue 20, items 1 and 2): an answer lost and a
 * repeat refused (create and reset) leaves the password the panel holds in the secrets file,
 * current or pending, and the next run says so; two runs on one secrets file at once: the
 * second refuses at once (exit 1) and sends nothing. The password the panel holds comes from
 * the simulator (state.passwordOf), never from the file under test.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';
import { runBin } from '../helpers/process.js';

/** Each client's current and pending password in the file, by the contract's one reader. */
async function standing(path: string): Promise<Record<string, { current: unknown; pending: unknown }>> {
  const states = passwordStates(parseJournal(await readFile(path, 'utf8')));
  return Object.fromEntries(
    [...states.values()].map((s) => [
      s.username,
      { current: s.current?.entry.password, pending: s.pending?.entry.pending_password },
    ]),
  );
}

const NOT_FOUND = { status: 404, json: { code: '404 Not Found', message: 'The requested client was not found.' } };

/**
 * The first POST /clients is carried out and its answer dropped; while `lagging()`, the
 * panel's look-ups by name and its client list do not show the new client yet.
 */
function lostThenLagging(lagging: () => boolean): Partial<SimulatorOptions> {
  let posts = 0;
  return {
    ambiguousPostRate: 1,
    faultFilter: (r) => r.method === 'POST' && posts === 1,
    intercept: (req: InterceptRequest) => {
      if (req.method === 'POST') posts++;
      if (req.method === 'GET' && req.path.startsWith('/clients/name/') && lagging()) return NOT_FOUND;
      return undefined;
    },
  };
}

describe('an earlier run left a create unsettled', () => {
  it("this run's POST refused (400) while the client is not listed yet: the refusal says the earlier POST may have created it", async () => {
    // alice exists, but the panel's list and look-ups lag behind: the earlier run's POST may
    // be what created her.
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      seed: { clients: [{ username: 'alice' }] },
      systemDomains: false,
      intercept: (req: InterceptRequest) => {
        if (req.method === 'GET' && req.path.startsWith('/clients/name/')) return NOT_FOUND;
        if (req.method === 'GET' && req.path === '/clients') return { status: 200, json: [] };
        return undefined;
      },
    });
    await writeFile(
      w.secrets,
      `${JSON.stringify({ intent: 'create_client', intent_id: '0123456789abcdef', at: 't', panel_url: w.sim.url, username: 'alice', pending_password: 'Written-Ahead-By-Run-1' })}\n`,
      { mode: 0o600 },
    );
    const r = await run(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      "an earlier apply's POST for this client got no answer: it may have created it",
    );
    // The earlier run's password stays pending: it may be the one the panel holds.
    expect((await standing(w.secrets)).alice?.pending).toBe('Written-Ahead-By-Run-1');
  });
});

describe('an answer lost, then a refusal', () => {
  it('create: the look-up lags, the repeat is refused (400): the client found later is adopted with the password written ahead', async () => {
    let lookups = 0;
    const options = lostThenLagging(() => ++lookups <= 2);
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', options);
    const r = await run(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    expect(w.posts()).toEqual(['/clients 0', '/clients 400']);
    expect(r.stderr).toContain(
      'and a later attempt was refused: the first may have created it; looking it up by name again',
    );
    expect(await standing(w.secrets)).toEqual({
      alice: { current: w.sim.state.passwordOf('alice'), pending: undefined },
    });
  });

  it('create: still not found within --settle-timeout: exit 1, the password stays pending; decrypt and the next apply name it, and the next apply records it', async () => {
    let lag = true;
    const w = await workspace(
      'version: 1\nclients:\n  - username: alice\n',
      lostThenLagging(() => lag),
    );
    const r = await run(
      ['apply', w.file, '--auto-approve', '--generate-passwords', '--settle-timeout', '1'],
      w.envWithSecrets,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/the first attempt may have created it, but it is still not found by name: not settled/);
    const held = w.sim.state.passwordOf('alice');
    expect(await standing(w.secrets)).toEqual({ alice: { current: undefined, pending: held } });
    const decrypt = await run(['secrets', 'decrypt', w.secrets], w.env);
    expect(decrypt.stderr).toMatch(/client "alice" has no current password, only a pending one/);
    lag = false;
    const next = await run(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/client "alice" \(id \d+\) was created by an earlier apply .*: recorded/);
    expect(next.stdout).toContain('No changes');
    expect(await standing(w.secrets)).toEqual({ alice: { current: held, pending: undefined } });
  });

  it('reset: the PUT landed, its answer was lost, the repeat was refused (409): exit 1, the new password stays pending; decrypt names it, the next apply sets a new one', async () => {
    let puts = 0;
    let faulty = true;
    const w = await workspace('version: 1\nclients:\n  - username: alice\n', {
      seed: { clients: [{ username: 'alice' }] },
      ambiguousPutRate: 1,
      faultFilter: (r) => faulty && r.method === 'PUT' && puts === 1,
      intercept: (req) => {
        if (!faulty || req.method !== 'PUT') return undefined;
        puts++;
        return puts === 1 ? undefined : { status: 409, json: { code: '409 Conflict', message: 'Nothing to change.' } };
      },
    });
    await writeFile(
      w.secrets,
      `${JSON.stringify({ created_at: 't', panel_url: w.sim.url, username: 'alice', id: 2, password: 'Old-Password-Of-Alice-01' })}\n`,
      { mode: 0o600 },
    );
    const r = await run(['secrets', 'reset', 'alice'], w.envWithSecrets);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('the new password stays pending');
    const held = w.sim.state.passwordOf('alice');
    expect(held).not.toBe('Old-Password-Of-Alice-01');
    expect(await standing(w.secrets)).toEqual({ alice: { current: 'Old-Password-Of-Alice-01', pending: held } });
    const decrypt = await run(['secrets', 'decrypt', w.secrets], w.env);
    expect(decrypt.stderr).toMatch(/client "alice" has a newer password pending/);
    faulty = false;
    const next = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(
      /secrets\.jsonl:2: client "alice" has a newer password pending from a reset whose outcome is unknown: the panel holds it or the current one: this run gives it a new one/,
    );
    expect(next.stderr).toContain('client "alice" (id 2): its password was unknown: a new one is set and recorded');
    const now = w.sim.state.passwordOf('alice');
    expect(await standing(w.secrets)).toEqual({ alice: { current: now, pending: undefined } });
  });
});

describe('one run at a time per secrets file', () => {
  /** A workspace whose POSTs wait at the panel until `release()`; `arrived` resolves at the first. */
  async function heldAtPost() {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrive = (): void => undefined;
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const w = await workspace('version: 1\nclients:\n  - username: alice\n  - username: bob\n', {
      seed: { clients: [{ username: 'bob' }] },
      intercept: async (req) => {
        if (req.method === 'POST') {
          arrive();
          await gate;
        }
        return undefined;
      },
    });
    return { w, release, arrived };
  }

  it('a second apply while one runs: exit 1 at once, naming the holder, and nothing sent; the first finishes', async () => {
    const { w, release, arrived } = await heldAtPost();
    const first = runBin(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    await arrived;
    const before = w.sim.requests.length;
    const second = await runBin(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `error: the secrets file ${w.secrets.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by apply \\(pid \\d+ on .+, since .+\\): nothing was sent`,
      ),
    );
    expect(w.sim.requests.length).toBe(before);
    release();
    const done = await first;
    expect(done.code, done.stderr).toBe(0);
    await expect(readFile(`${w.secrets}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await standing(w.secrets)).toEqual({
      alice: { current: w.sim.state.passwordOf('alice'), pending: undefined },
    });
  });

  it('secrets reset while an apply holds the secrets file: exit 1, nothing sent, the file and the panel unchanged', async () => {
    const { w, release, arrived } = await heldAtPost();
    const first = runBin(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    await arrived;
    const before = {
      requests: w.sim.requests.length,
      file: await readFile(w.secrets, 'utf8'),
      bob: w.sim.state.passwordOf('bob'),
    };
    const reset = await runBin(['secrets', 'reset', 'bob'], w.envWithSecrets);
    expect(reset.code).toBe(1);
    expect(reset.stderr).toMatch(/is in use by apply \(pid \d+/);
    expect(w.sim.requests.length).toBe(before.requests);
    expect(await readFile(w.secrets, 'utf8')).toBe(before.file);
    expect(w.sim.state.passwordOf('bob')).toBe(before.bob);
    release();
    expect((await first).code).toBe(0);
  });

  it('a lock left by a killed run is taken over', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n');
    const { spawnSync } = await import('node:child_process');
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
    );
    const { hostname } = await import('node:os');
    await writeFile(
      `${w.secrets}.lock`,
      JSON.stringify({ pid: dead, host: hostname(), command: 'apply', since: 'then', token: 'killed' }),
      { mode: 0o600 },
    );
    const r = await run(['apply', w.file, '--auto-approve', '--generate-passwords'], w.envWithSecrets);
    expect(r.code, r.stderr).toBe(0);
    await expect(readFile(`${w.secrets}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
