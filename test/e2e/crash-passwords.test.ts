/**
 * apply --generate-passwords as a real process, killed with SIGKILL at pseudo-random moments
 * against a slow simulator, round after round, then run to the end; in one variant the
 * simulator also drops the answers of committed POSTs (--ambiguous-post-rate) and the
 * passwords are encrypted. Zero lost passwords: at the end, for every client, the current
 * password in the secrets file is the one the panel holds (the simulator says which).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptPassword } from '../../src/secrets/encrypt.js';
import { readJournal } from '../../src/secrets/file.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { startWorkspace, type Workspace } from '../helpers/cli.js';
import { killRounds } from '../helpers/process.js';

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

/** Every client exists once, and the file's current password of each is the one the panel holds. */
async function expectNoneLost(w: Workspace, identity?: string): Promise<void> {
  const current = await currentPasswords(join(w.dir, 'secrets.jsonl'), identity);
  let lost = 0;
  for (let i = 0; i < CLIENTS; i++) {
    const username = `user${i}`;
    const held = w.sim.state.passwordOf(username);
    expect(held, username).toMatch(/^[A-Za-z0-9]{24}$/);
    if (current.get(username) !== held) lost++;
    expect(current.get(username), username).toBe(held);
  }
  expect(lost).toBe(0);
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
    for (const run of runs) expect(run.stderr).not.toContain('password is unknown');
    // Whether a kill lands between a client's creation and its answer is up to timing: the
    // recovery of such a client is asserted deterministically in test/cli/passwords.test.ts.
    await expectNoneLost(p);
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
    for (const run of runs) expect(run.stderr).not.toContain('password is unknown');
    await expectNoneLost(p, identity);
  }, 60_000);
});
