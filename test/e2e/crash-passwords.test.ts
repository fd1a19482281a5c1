/**
 * apply --generate-passwords as a real process, killed with SIGKILL at pseudo-random moments
 * against a slow simulator, round after round, then run to the end; in one variant the
 * simulator also drops the answers of committed POSTs (--ambiguous-post-rate) and the
 * passwords are encrypted. No password wrong, none lost without a trace: at the end, for every
 * client, the current password in the secrets file is the one the panel holds (the simulator
 * says which), or, where two killed runs each left a create of it open (which one landed
 * cannot be known from the journal), or a run's POST went unanswered after a killed run left a
 * create of the same client open, it is recorded as unknown, a run said so, and the panel's
 * password is one of those written ahead for it (`secrets decrypt --all` shows them).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptPassword } from '../../src/secrets/encrypt.js';
import { readJournal } from '../../src/secrets/file.js';
import { type JournalLine, parseJournal, passwordStates } from '../../src/secrets/journal.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { startWorkspace, type Workspace } from '../helpers/cli.js';
import { killRounds, type Run } from '../helpers/process.js';

const CLIENTS = 30;

let p: Workspace | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/**
 * A simulator whose POSTs take 10-25 ms before they are carried out and whose POST /clients
 * answers trickle out over about 40 ms after (slowBodyMs), so kills land both before the
 * client exists and after it exists but before its answer is read.
 */
async function slowPanel(options: Partial<SimulatorOptions> = {}): Promise<Workspace> {
  let tick = 0;
  return startWorkspace(undefined, {
    ...options,
    slowBodyMs: 5,
    faultFilter: ({ method, path }) => method === 'POST' && path === '/clients',
    intercept: async ({ method }) => {
      if (method === 'POST') await sleep(10 + (tick++ % 4) * 5);
      return undefined;
    },
  });
}

/** Each client's current password, decrypted with `identity` when encrypted; null when the file says it is unknown. */
async function currentPasswords(path: string, identity?: string): Promise<Map<string, string | null | undefined>> {
  const passwords = new Map<string, string | null | undefined>();
  for (const state of passwordStates(parseJournal(await readJournal(path, { required: true }))).values()) {
    const entry = state.current?.entry;
    let password: string | null | undefined;
    if (entry === undefined) password = undefined;
    else if (typeof entry.password_age === 'string' && identity !== undefined)
      password = await decryptPassword(entry.password_age, [identity]);
    else password = typeof entry.password === 'string' ? entry.password : null;
    passwords.set(state.username, password);
  }
  return passwords;
}

async function manifest(w: Workspace): Promise<string> {
  const path = join(w.dir, 'manifest.yaml');
  const lines = ['version: 1', 'clients:'];
  for (let i = 0; i < CLIENTS; i++) lines.push(`  - username: user${i}`, `    domains: [site${i}.example]`);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

/** The passwords written ahead for `username` (pending ones), decrypted with `identity` when encrypted. */
async function writtenAhead(lines: readonly JournalLine[], username: string, identity?: string): Promise<string[]> {
  const passwords: string[] = [];
  for (const line of lines) {
    if (line.kind !== 'intent' || line.entry.username !== username) continue;
    const { pending_password: clear, pending_password_age: armored } = line.entry;
    if (typeof clear === 'string') passwords.push(clear);
    else if (typeof armored === 'string' && identity !== undefined)
      passwords.push(await decryptPassword(armored, [identity]));
  }
  return passwords;
}

/**
 * Every client exists once, and the file's current password of each is the one the panel
 * holds, or unknown (see the module's comment): said by a run, the panel's password among those
 * written ahead, at most one such client per kill.
 */
async function expectNoneLost(w: Workspace, runs: readonly Run[], kills: number, identity?: string): Promise<void> {
  const path = join(w.dir, 'secrets.jsonl');
  const current = await currentPasswords(path, identity);
  const lines = parseJournal(await readJournal(path, { required: true }));
  const said = runs.map((run) => run.stderr).join('');
  let unknown = 0;
  for (let i = 0; i < CLIENTS; i++) {
    const username = `user${i}`;
    const held = w.sim.state.passwordOf(username);
    expect(held, username).toMatch(/^[A-Za-z0-9]{24}$/);
    if (current.get(username) === null) {
      unknown++;
      const id = String(w.sim.state.clientNamed(username)?.id);
      // Said by the next run's repair, or by the run whose own POST went unanswered as well.
      expect(
        said.includes(`client "${username}" (id ${id}) was created by one of several earlier applies`) ||
          said.includes(
            `client "${username}" exists (id ${id}): adopted; it was created by this run's POST or an earlier apply's: ` +
              'its password is unknown',
          ),
        username,
      ).toBe(true);
      expect(await writtenAhead(lines, username, identity), username).toContain(held);
    } else expect(current.get(username), username).toBe(held);
  }
  expect(unknown).toBeLessThanOrEqual(kills);
  // One POST per client, committed (201, or 0: committed, its answer dropped): nothing created twice, nothing refused.
  const posts = w.sim.requests.filter((r) => r.method === 'POST' && r.path === '/clients').map((r) => r.status);
  expect(posts.filter((s) => s !== 201 && s !== 0)).toEqual([]);
  expect(posts).toHaveLength(CLIENTS);
  expect(w.sim.state.clients.size).toBe(CLIENTS);
}

describe('apply --generate-passwords killed with SIGKILL, then run again', () => {
  it('loses no password: every current password in the file is the one the panel holds', async () => {
    p = await slowPanel();
    const args = ['apply', await manifest(p), '--auto-approve', '--generate-passwords', '--concurrency', '4'];
    const env = { ...p.env, PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl') };
    const { runs, kills } = await killRounds(args, env, 5);
    expect(kills).toBeGreaterThan(0);
    // Whether a kill lands between a client's creation and its answer is up to timing: the
    // recovery of such a client is asserted deterministically in test/cli/passwords.test.ts.
    await expectNoneLost(p, runs, kills);
  }, 60_000);

  it('with answers lost on the wire too, and encrypted: still none lost', async () => {
    p = await slowPanel({ ambiguousPostRate: 0.3, faultSeed: 3 });
    const identity = await generateIdentity();
    const args = ['apply', await manifest(p), '--auto-approve', '--generate-passwords', '--concurrency', '4'];
    const env = {
      ...p.env,
      PROVISION_SECRETS_FILE: join(p.dir, 'secrets.jsonl'),
      PROVISION_SECRETS_RECIPIENT: await identityToRecipient(identity),
    };
    const { runs, kills } = await killRounds(args, env, 13);
    expect(kills).toBeGreaterThan(0);
    expect(p.sim.requests.some((r) => r.method === 'POST' && r.status === 0)).toBe(true);
    // A password may be unknown here: a POST unanswered after a killed run's open create for the
    // same client (which one landed cannot be known); expectNoneLost holds each such case.
    await expectNoneLost(p, runs, kills, identity);
  }, 60_000);
});
