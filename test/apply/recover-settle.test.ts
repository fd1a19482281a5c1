/**
 * The library's executePlan settles a password the secrets file cannot tell (issue 30, item 1)
 * as the CLI's apply does: a client two killed runs each left a create of, with passwords of
 * their own, gets a new one before the plan's work (written ahead, then PUT, then recorded),
 * even when the plan creates no client; one it cannot set is named in a warning.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diff, executePlan, loadManifest, readLive } from '../../src/api/index.js';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { client, fakeClock } from '../helpers/panel.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';

async function twoOpenCreates(options: Partial<SimulatorOptions> = {}) {
  const simulator = await sim({ seed: { clients: [{ username: 'alice' }] }, ...options });
  // A fake clock: the PUT's retries after a 502 wait for nothing.
  const panel = client(simulator, { clock: fakeClock() });
  const secretsFile = join(await tempDir(), 'secrets.jsonl');
  const lines = ['Run1-Written-Ahead-Pass01', 'Run2-Written-Ahead-Pass02'].map((pending, i) =>
    JSON.stringify({
      intent: 'create_client',
      intent_id: `k${i}`,
      at: '2030-01-01T00:00:00.000Z',
      panel_url: panel.baseUrl,
      username: 'alice',
      pending_password: pending,
    }),
  );
  await writeFile(secretsFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  const { desired } = loadManifest('version: 1\nclients:\n  - username: alice\n', 'm.yaml');
  const plan = diff(desired, await readLive(panel, desired));
  return { simulator, panel, secretsFile, plan };
}

async function current(path: string): Promise<unknown> {
  const states = passwordStates(parseJournal(await readFile(path, 'utf8')));
  return [...states.values()].find((s) => s.username === 'alice')?.current?.entry.password;
}

describe('executePlan and a password the secrets file cannot tell', () => {
  it('sets a new one before the plan, with no change planned, and records it', async () => {
    const { simulator, panel, secretsFile, plan } = await twoOpenCreates();
    try {
      expect(plan.changes).toEqual([]);
      const warnings: string[] = [];
      const notes: string[] = [];
      const outcomes = await executePlan(plan, panel, {
        secretsFile,
        onWarning: (m) => warnings.push(m),
        onEvent: (e) => {
          if (e.type === 'note') notes.push(e.message);
        },
      });
      expect(outcomes).toEqual([]);
      expect(simulator.requests.filter((r) => r.method === 'PUT').map((r) => `${r.path} ${r.status}`)).toEqual([
        '/clients/2 200',
      ]);
      expect(notes).toContain('client "alice" (id 2): its password was unknown: a new one is set and recorded');
      expect(await current(secretsFile)).toBe(simulator.state.passwordOf('alice'));
      expect(warnings.join('\n')).not.toContain('could not be set');
    } finally {
      await simulator.close();
    }
  });

  it('a plan scoped to other clients leaves it alone, as apply --clients does', async () => {
    const { simulator, panel, secretsFile, plan } = await twoOpenCreates();
    try {
      const notes: string[] = [];
      await executePlan({ ...plan, scope: { clients: ['bob'] } }, panel, {
        secretsFile,
        onEvent: (e) => {
          if (e.type === 'note') notes.push(e.message);
        },
      });
      expect(simulator.requests.filter((r) => r.method === 'PUT')).toEqual([]);
      expect(notes.join('\n')).toContain('it is outside --clients: an apply that covers it gives it a new one');
    } finally {
      await simulator.close();
    }
  });

  it('a PUT that never gets an answer: named in a warning, the intents left open for the next run', async () => {
    const { simulator, panel, secretsFile, plan } = await twoOpenCreates({
      intercept: (req) => (req.method === 'PUT' ? { status: 502, json: { message: 'Bad gateway.' } } : undefined),
    });
    try {
      const warnings: string[] = [];
      await executePlan(plan, panel, { secretsFile, onWarning: (m) => warnings.push(m) });
      expect(warnings).toContainEqual(
        expect.stringMatching(/^client "alice" \(id 2\): its password is unknown and a new one could not be set/),
      );
      expect(await current(secretsFile)).toBeUndefined();
      const open = [...passwordStates(parseJournal(await readFile(secretsFile, 'utf8'))).values()][0]?.open;
      expect(open?.map((i) => i.entry.intent)).toEqual(['create_client', 'create_client', 'reset_password']);
    } finally {
      await simulator.close();
    }
  });
});
