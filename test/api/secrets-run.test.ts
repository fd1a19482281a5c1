/**
 * The library's executePlan and the secrets file (issue 20, items 2 and 15a): like the CLI's
 * apply, it settles what a killed run left in the journal before it sends anything (a client
 * created by an unanswered POST gets the password written ahead for it), and it holds the
 * secrets file's lock for the whole run: a second run on the same file, in this process or
 * another, is refused before anything is sent.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectPanel, diff, executePlan, loadManifest, readLive } from '../../src/api/index.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { SecretsLock } from '../../src/secrets/lock.js';
import { API_KEY } from '../helpers/key.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';

async function setUp() {
  const simulator = await sim();
  const panel = connectPanel({ url: simulator.url, apiKey: API_KEY, allowHttp: true });
  const dir = await tempDir();
  const secretsFile = join(dir, 'secrets.jsonl');
  const { desired } = loadManifest('version: 1\nclients:\n  - username: alice\n  - username: bob\n', 'm.yaml');
  return { simulator, panel, secretsFile, desired };
}

describe('executePlan and the secrets file', () => {
  it("records the password a killed run wrote ahead for a client its POST created, and says so, before the plan's own work", async () => {
    const { simulator, panel, secretsFile, desired } = await setUp();
    try {
      // A killed run: its intent with the password written ahead is on disk, its POST landed.
      await writeFile(
        secretsFile,
        `${JSON.stringify({ intent: 'create_client', intent_id: 'k1', at: 't', panel_url: panel.baseUrl, username: 'alice', pending_password: 'Written-Ahead-By-Killed1' })}\n`,
        { mode: 0o600 },
      );
      await panel.post('/clients', { username: 'alice', password: 'Written-Ahead-By-Killed1' });
      const plan = diff(desired, await readLive(panel, desired));
      const warnings: string[] = [];
      const outcomes = await executePlan(plan, panel, {
        secretsFile,
        generatePasswords: true,
        onWarning: (m) => warnings.push(m),
      });
      expect(outcomes.map((o) => `${o.change.id} ${o.status}`)).toEqual(['client:bob succeeded']);
      expect(warnings).toEqual([
        expect.stringMatching(
          /secrets\.jsonl:1: client "alice" \(id \d+\) was created by an earlier apply .*: recorded$/,
        ),
      ]);
      const states = passwordStates(parseJournal(await readFile(secretsFile, 'utf8')));
      expect(Object.fromEntries([...states.values()].map((s) => [s.username, s.current?.entry.password]))).toEqual({
        alice: simulator.state.passwordOf('alice'),
        bob: simulator.state.passwordOf('bob'),
      });
      await expect(readFile(`${secretsFile}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await panel.close();
      await simulator.close();
    }
  });

  it('refuses, before anything is sent, while another run holds the secrets file', async () => {
    const { simulator, panel, secretsFile, desired } = await setUp();
    try {
      const plan = diff(desired, await readLive(panel, desired));
      const before = simulator.requests.length;
      const lock = await SecretsLock.acquire(secretsFile, 'apply');
      try {
        await expect(executePlan(plan, panel, { secretsFile, generatePasswords: true })).rejects.toMatchObject({
          code: 'secrets',
          message: expect.stringContaining(`is in use by apply (pid ${process.pid}`) as unknown,
        });
      } finally {
        await lock.release();
      }
      expect(simulator.requests.length).toBe(before);
    } finally {
      await panel.close();
      await simulator.close();
    }
  });

  it('two runs started at once on the same secrets file: one runs, the other is refused before it sends anything', async () => {
    const { simulator, panel, secretsFile, desired } = await setUp();
    try {
      const plan = diff(desired, await readLive(panel, desired));
      const results = await Promise.allSettled([
        executePlan(plan, panel, { secretsFile, generatePasswords: true }),
        executePlan(plan, panel, { secretsFile, generatePasswords: true }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected');
      expect(refused?.reason).toMatchObject({ code: 'secrets' });
      // Each client created once, by the run that held the lock.
      expect(simulator.requests.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([201, 201]);
    } finally {
      await panel.close();
      await simulator.close();
    }
  });
});
