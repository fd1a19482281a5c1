/**
 * Deletes that take data, through the CLI against the simulator seeded with mailboxes and
 * databases: a client's or a domain's delete reads the lists it takes things of (only when such a
 * delete is planned), says "destroys data" with how many, counts each for --max-deletes, and a
 * saved plan goes stale when the counts change.
 */
import { describe, expect, it } from 'vitest';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

const SEED: SimulatorOptions['seed'] = {
  clients: [
    { username: 'alice', domains: [{ name: 'alice.example' }] },
    {
      username: 'bob',
      domains: [
        { name: 'bob.example', mailboxes: ['info', 'desk'] },
        { name: 'shop.example', mailboxes: ['orders'] },
      ],
      databases: ['bob_db'],
    },
  ],
};

const KEEP_ALICE = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
const BOB_ABSENT = `${KEEP_ALICE}  - username: bob\n    state: absent\n`;

/** The GETs the simulator answered, by path. */
const gets = (w: Awaited<ReturnType<typeof workspace>>): string[] =>
  w.sim.requests.filter((r) => r.method === 'GET').map((r) => r.path);

describe("a client's delete that takes mailboxes and databases", () => {
  it('reads them, says how many and that it destroys data, in text, JSON and Markdown', async () => {
    const w = await workspace(BOB_ABSENT, { seed: SEED });
    const text = await run(['plan', w.file, '--no-color'], w.env);
    console.log(text.stdout, text.stderr);
    const json = await run(['plan', w.file, '--format', 'json'], w.env);
    console.log(json.stdout);
    const md = await run(['plan', w.file, '--format', 'markdown'], w.env);
    console.log(md.stdout);
    console.log(gets(w));
  });
});
