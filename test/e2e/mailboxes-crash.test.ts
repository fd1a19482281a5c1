/**
 * Issue 32 acceptance, passwords: `provision apply` creating mailboxes as a real process, killed
 * with SIGKILL at pseudo-random moments against a slow simulator that also drops the answers of
 * 30% of the committed POSTs /emails, then run to the end. The last run exits 0, nothing is
 * created twice, and every mailbox's current password in the secrets file is the one the panel
 * holds (the simulator says which): none unknown, none left open. No output carries one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/secrets/file.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { expectNoSecrets, startWorkspace, type Workspace } from '../helpers/cli.js';
import { type Run, runBin } from '../helpers/process.js';

const CLIENTS = 4;
const PER_DOMAIN = 8;

let p: Workspace | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/** The addresses the manifest lists: PER_DOMAIN mailboxes on each client's domain. */
const addresses = (): string[] =>
  Array.from({ length: CLIENTS }, (_, c) =>
    Array.from({ length: PER_DOMAIN }, (__, m) => `box${m}@site${c}.example`),
  ).flat();

/**
 * Clients and domains on the panel already (and one more client created by the run), so the
 * run's POSTs are mostly mailboxes; every POST waits 10-25 ms before it is carried out, and the
 * answers of POST /emails trickle out, so kills land before and after a mailbox exists.
 */
async function slowPanel(seed: number): Promise<Workspace> {
  let tick = 0;
  return startWorkspace(undefined, {
    seed: {
      clients: Array.from({ length: CLIENTS }, (_, c) => ({ username: `user${c}`, domains: [`site${c}.example`] })),
    },
    ambiguousPostRate: 0.3,
    faultSeed: seed,
    slowBodyMs: 5,
    faultFilter: ({ method, path }) => method === 'POST' && path === '/emails',
    intercept: async ({ method }) => {
      if (method === 'POST') await sleep(10 + (tick++ % 4) * 5);
      return undefined;
    },
  });
}

async function manifest(w: Workspace): Promise<string> {
  const lines = ['version: 1', 'clients:'];
  for (let c = 0; c < CLIENTS; c++) {
    lines.push(`  - username: user${c}`, '    domains:', `      - name: site${c}.example`, '        mailboxes:');
    for (let m = 0; m < PER_DOMAIN; m++) lines.push(`          - name: box${m}`, `            quota: ${m + 1} MiB`);
  }
  // A client created by the same run, with a mailbox on its new domain: the mailbox waits for both.
  lines.push('  - username: fresh', '    domains:', '      - name: fresh.example', '        mailboxes: [{name: info}]');
  const path = join(w.dir, 'manifest.yaml');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

/** `kills` runs killed once they reported 1 to 8 finished creates, then one to the end (exit 0). */
async function killedThenFinished(args: string[], env: Record<string, string>, seed: number, kills: number) {
  const runs: Run[] = [];
  let killed = 0;
  let state = seed;
  for (let round = 0; killed < kills && round < 2 * kills; round++) {
    state = (state * 48_271) % 2_147_483_647;
    const after = 1 + (state % 8);
    const run = await runBin(args, env, {
      signalWhen: { signal: 'SIGKILL', stdout: (text) => (text.match(/ created /g) ?? []).length >= after },
    });
    runs.push(run);
    if (run.signal === 'SIGKILL') killed++;
  }
  const last = await runBin(args, env);
  runs.push(last);
  expect(last.code, last.stderr + last.stdout).toBe(0);
  return { runs, kills: killed };
}

describe('issue 32 acceptance: mailboxes created with 30% of POST answers dropped and SIGKILLs', () => {
  for (const seed of [3, 17]) {
    it(`seed ${seed}: exit 0, each mailbox once, every password known and held by the panel`, async () => {
      p = await slowPanel(seed);
      const w = p;
      const secrets = join(w.dir, 'secrets.jsonl');
      const env = { ...w.env, PROVISION_SECRETS_FILE: secrets };
      const args = ['apply', await manifest(w), '--auto-approve', '--concurrency', '4', '--settle-timeout', '1'];
      const { runs, kills } = await killedThenFinished(args, env, seed, 4);
      expect(kills).toBeGreaterThan(0);
      expect(w.sim.requests.some((r) => r.method === 'POST' && r.path === '/emails' && r.status === 0)).toBe(true);
      expect(runs.at(-1)?.stderr).not.toMatch(/unknown: give it a new one|recorded as unknown/);

      // Converged: a plan finds nothing to do.
      const settled = await runBin(['plan', join(w.dir, 'manifest.yaml'), '--detailed-exitcode'], env);
      expect(settled.code, settled.stdout + settled.stderr).toBe(0);

      // Each mailbox once: every committed POST /emails (201, or 0: its answer dropped) made a new one.
      const all = [...addresses(), 'info@fresh.example'];
      const posts = w.sim.requests.filter((r) => r.method === 'POST' && r.path === '/emails').map((r) => r.status);
      expect(posts.filter((s) => s !== 201 && s !== 0)).toEqual([]);
      expect(posts).toHaveLength(all.length);
      expect(w.sim.state.mailboxes.size).toBe(all.length);

      // Every current password in the file is the one the panel holds; nothing left open.
      const states = [...passwordStates(parseJournal(await readJournal(secrets, { required: true }))).values()];
      const mailboxes = new Map(states.filter((s) => s.kind === 'mailbox').map((s) => [s.name, s]));
      const passwords: string[] = [];
      for (const address of all) {
        const password = mailboxes.get(address)?.current?.entry.password;
        expect(typeof password, address).toBe('string');
        expect(w.sim.state.mailboxPasswordIs(address, password as string), address).toBe(true);
        passwords.push(password as string);
      }
      expect(states.filter((s) => s.open.length > 0).map((s) => s.name)).toEqual([]);
      await expectNoSecrets(
        [...runs, settled].map((r) => ({ code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr })),
        passwords,
      );
    }, 90_000);
  }
});

describe('mailboxes freed and taken in one apply, killed with SIGKILL', () => {
  it('converges: each freed address taken once, by the new mailbox, with its password known', async () => {
    let tick = 0;
    const MOVES = 8;
    p = await startWorkspace(undefined, {
      seed: {
        clients: [
          {
            username: 'alice',
            domains: [
              {
                name: 'alice.example',
                mailboxes: Array.from({ length: MOVES }, (_, i) => ({
                  name: `old${i}`,
                  aliases: [`a${i}@alice.example`],
                })),
              },
            ],
          },
        ],
      },
      ambiguousPostRate: 0.3,
      faultSeed: 5,
      faultFilter: ({ method, path }) => method === 'POST' && path === '/emails',
      intercept: async ({ method }) => {
        if (method !== 'GET') await sleep(10 + (tick++ % 4) * 5);
        return undefined;
      },
    });
    const w = p;
    const lines = [
      'version: 1',
      'clients:',
      '  - username: alice',
      '    domains:',
      '      - name: alice.example',
      '        mailboxes:',
    ];
    for (let i = 0; i < MOVES; i++)
      lines.push(
        `          - name: old${i}`,
        '            state: absent',
        `          - name: new${i}`,
        `            aliases: [a${i}, old${i}]`,
      );
    const file = join(w.dir, 'manifest.yaml');
    await writeFile(file, `${lines.join('\n')}\n`);
    const secrets = join(w.dir, 'secrets.jsonl');
    const env = { ...w.env, PROVISION_SECRETS_FILE: secrets };
    const args = ['apply', file, '--auto-approve', '--concurrency', '4', '--settle-timeout', '1'];
    const { runs, kills } = await killedThenFinished(args, env, 7, 3);
    expect(kills).toBeGreaterThan(0);
    for (const run of runs) expect(run.stdout).not.toContain('internal error');
    const settled = await runBin(['plan', file, '--detailed-exitcode'], env);
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);

    const states = passwordStates(parseJournal(await readJournal(secrets, { required: true })));
    const byName = new Map([...states.values()].map((s) => [s.name, s]));
    for (let i = 0; i < MOVES; i++) {
      const address = `new${i}@alice.example`;
      const box = [...w.sim.state.mailboxes.values()].find((m) => m.email === address);
      expect(box?.aliases, address).toEqual([`a${i}@alice.example`, `old${i}@alice.example`]);
      const password = byName.get(address)?.current?.entry.password;
      expect(w.sim.state.mailboxPasswordIs(address, String(password)), address).toBe(true);
    }
    expect(w.sim.state.mailboxes.size).toBe(MOVES);
    expect([...states.values()].filter((s) => s.open.length > 0).map((s) => s.name)).toEqual([]);
  }, 90_000);
});
