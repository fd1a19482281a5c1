/**
 * Deletes that take data, through the CLI against the simulator seeded with mailboxes and
 * databases: a client's or a domain's delete reads the lists of what it takes (only when such a
 * delete is planned), says "destroys data" with how many (text, JSON, Markdown), counts each for
 * --max-deletes, and a saved plan goes stale when the counts change; a panel that cannot list
 * them leaves the count unknown and the words as before.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';
import { call } from '../helpers/sim-http.js';

const SEED: SimulatorOptions['seed'] = {
  clients: [
    { username: 'alice', domains: [{ name: 'alice.example', mailboxes: ['info'] }] },
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

const ALICE = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
const BOB_ABSENT = `${ALICE}  - username: bob\n    state: absent\n`;
const SHOP_ABSENT = `${ALICE}  - username: bob\n    domains:\n      - bob.example\n      - name: shop.example\n        state: absent\n`;
const BOB_KEPT = `${ALICE}  - username: bob\n    domains: [bob.example, shop.example]\n`;

type Workspace = Awaited<ReturnType<typeof workspace>>;

/** How many times the simulator answered GET `path`. */
const gets = (w: Workspace, path: string): number =>
  w.sim.requests.filter((r) => r.method === 'GET' && r.path === path).length;

const apply = (w: Workspace, ...more: string[]) => run(['apply', w.file, '--auto-approve', ...more], w.env);

describe("a client's delete that takes mailboxes and databases", () => {
  it('reads them once, and says how many and that it destroys data in text, JSON and Markdown', async () => {
    const w = await workspace(BOB_ABSENT, { seed: SEED });
    const text = await run(['plan', w.file, '--no-color'], w.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '  # client "bob" will be deleted with its 2 domains, 3 mailboxes and 1 database (destroys data): ' +
        'state: absent in the manifest\n',
    );
    expect(text.stdout).toContain('Plan: 7 to delete (1 client, and 6 resources that go with it).');
    expect([gets(w, '/emails'), gets(w, '/databases')]).toEqual([1, 1]);

    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as {
      changes: Record<string, unknown>[];
    };
    expect(json.changes).toEqual([
      expect.objectContaining({
        id: 'client:bob',
        domains: 2,
        takes: { mailbox: 3, database: 1 },
        destroys_data: true,
      }),
    ]);

    const md = (await run(['plan', w.file, '--format', 'markdown'], w.env)).stdout;
    expect(md).toContain(
      '- :x: client "bob" with its 2 domains, 3 mailboxes and 1 database (destroys data): state: absent in the manifest',
    );
    expect(md).toContain('- client "bob" with its 2 domains, 3 mailboxes and 1 database (destroys data)\n');
  });

  it('counts each for --max-deletes: 7 with its 2 domains, 3 mailboxes and 1 database', async () => {
    const w = await workspace(BOB_ABSENT, { seed: SEED });
    const refused = await apply(w, '--max-deletes', '6');
    expect(refused.code, refused.stderr).toBe(4);
    expect(w.sim.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    const done = await apply(w, '--max-deletes', '7');
    expect(done.code, done.stderr).toBe(0);
    expect(w.sim.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toHaveLength(1);
  });

  it('prune.clients reads them too, and a saved plan is stale once a mailbox was added', async () => {
    const w = await workspace(`${ALICE}prune:\n  clients: true\n`, { seed: SEED });
    const saved = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(saved.code, saved.stderr).toBe(0);
    const doc = JSON.parse(await readFile(w.planFile, 'utf8')) as { changes: Record<string, unknown>[] };
    expect(doc.changes.find((c) => c.id === 'client:bob')).toMatchObject({ takes: { mailbox: 3, database: 1 } });
    const bob = [...w.sim.state.clients.values()].find((c) => c.username === 'bob')?.id;
    const added = await call(w.sim, 'POST', '/emails', {
      body: { id_user: bob, email: 'new@bob.example', password: 'a-long-password-1' },
    });
    expect(added.status, added.text).toBe(201);
    const stale = await run(['apply', w.planFile, '--auto-approve'], w.env);
    expect(stale.code, stale.stderr).toBe(3);
    expect(stale.stderr).toContain('what the delete of client "bob" takes changed: mailbox:4 database:1');
    expect(w.sim.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('a panel without the mailbox list: their count is unknown, the databases still counted', async () => {
    const w = await workspace(BOB_ABSENT, {
      seed: SEED,
      intercept: (req) => (req.path === '/emails' ? { status: 404, json: { message: 'no such route' } } : undefined),
    });
    const text = await run(['plan', w.file, '--no-color'], w.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'deleted with its 2 domains, an unknown number of mailboxes and 1 database (destroys data): ',
    );
    expect(text.stdout).toContain('Plan: 4 to delete (1 client, and 3 resources that go with it).');
  });

  it('a panel without either list: the words and the document as before', async () => {
    const w = await workspace(BOB_ABSENT, {
      seed: SEED,
      intercept: (req) =>
        req.path === '/emails' || req.path === '/databases'
          ? { status: 404, json: { message: 'no such route' } }
          : undefined,
    });
    const text = await run(['plan', w.file, '--no-color'], w.env);
    expect(text.stdout).toContain(
      '# client "bob" will be deleted with its 2 domains, mail, databases and files: state: absent in the manifest\n',
    );
    const json = (await run(['plan', w.file, '--format', 'json'], w.env)).stdout;
    expect(json).not.toContain('takes');
    expect(json).not.toContain('destroys_data');
  });
});

describe("a domain's delete that takes mailboxes", () => {
  it('reads the mailboxes only (a domain takes no database), and says how many', async () => {
    const w = await workspace(SHOP_ABSENT, { seed: SEED });
    const text = await run(['plan', w.file, '--no-color'], w.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('with its 1 mailbox (destroys data): state: absent in the manifest');
    expect([gets(w, '/emails'), gets(w, '/databases')]).toEqual([1, 0]);
    const refused = await apply(w, '--max-deletes', '1');
    expect(refused.code, refused.stderr).toBe(4);
  });
});

describe('a plan without such a delete', () => {
  it('sends no request more', async () => {
    const w = await workspace(BOB_KEPT, { seed: SEED });
    const text = await run(['plan', w.file, '--no-color'], w.env);
    expect(text.code, text.stderr).toBe(0);
    expect(w.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /ping',
      'GET /hosting-plans',
      'GET /clients',
      'GET /domains',
    ]);
  });
});

describe('a snapshot taken for a manifest that deletes', () => {
  it('holds the lists the delete takes things of: the plan from it counts them as the live plan does', async () => {
    const w = await workspace(BOB_ABSENT, { seed: SEED });
    const snapshot = `${w.dir}/snapshot.json`;
    const taken = await run(['snapshot', w.file, '--out', snapshot], w.env);
    expect(taken.code, taken.stderr).toBe(0);
    const livePlan = await run(['plan', w.file, '--format', 'json'], w.env);
    const fromSnapshot = await run(['plan', w.file, '--from-snapshot', snapshot, '--format', 'json'], {});
    expect(fromSnapshot.code, fromSnapshot.stderr).toBe(0);
    const [a, b] = [livePlan.stdout, fromSnapshot.stdout].map(
      (text) => JSON.parse(text) as { changes: unknown[]; fingerprint: string },
    );
    expect(b!.changes).toEqual(a!.changes);
    expect(b!.changes).toEqual([expect.objectContaining({ takes: { mailbox: 3, database: 1 } })]);
    expect(b!.fingerprint).toBe(a!.fingerprint);
  });
});
