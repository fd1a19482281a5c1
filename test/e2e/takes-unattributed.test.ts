/**
 * A client's delete where the panel lists databases without saying whose they are (a record
 * without `id_user`): any of them may go with it, so the count is a least. Text and Markdown say
 * "at least N" (or "up to N" when none is known to be its), the plan document carries them apart
 * (`takes_unattributed`, beside `takes`), --max-deletes counts them as if they went, and a saved
 * plan goes stale once they change.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { InterceptRequest, InterceptResult, SimulatorSeed } from '../../src/simulator/index.js';
import { run, workspace } from '../helpers/cli.js';

type Workspace = Awaited<ReturnType<typeof workspace>>;

// The published plan schema, compiled as the build compiles it (scripts/generate-validator.ts).
const planValid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object,
);

const ALICE = 'version: 1\nclients:\n  - username: alice\n';
const BOB_ABSENT = `${ALICE}  - username: bob\n    state: absent\n`;

/** Bob with `databases`; alice with two more databases, whose records the panel answers without an owner. */
function seed(databases: string[]): SimulatorSeed {
  return {
    clients: [
      { username: 'alice', databases: ['lost_one', 'lost_two'] },
      { username: 'bob', domains: [{ name: 'bob.example' }], databases },
    ],
  };
}

/** GET /databases as the simulator has them, those named in `lost` (default `lost_*`) without `id_user`. */
async function withOwnerless(
  databases: string[],
  lost: Set<string> = new Set(['lost_one', 'lost_two']),
): Promise<Workspace> {
  const started: { panel?: Workspace } = {};
  const intercept = (req: InterceptRequest): InterceptResult | undefined => {
    if (req.method !== 'GET' || req.path !== '/databases' || started.panel === undefined) return undefined;
    const json = [...started.panel.sim.state.databases.values()].map((d) =>
      lost.has(d.database_name) ? Object.fromEntries(Object.entries(d).filter(([key]) => key !== 'id_user')) : d,
    );
    return { status: 200, json };
  };
  started.panel = await workspace(BOB_ABSENT, { seed: seed(databases), intercept });
  return started.panel;
}

describe("a client's delete where the panel lists databases without an owner", () => {
  it('says "at least", carries them apart in the document, and counts them for --max-deletes', async () => {
    const w = await withOwnerless(['bob_db']);
    const text = await run(['plan', w.file, '--no-color'], w.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '  # client "bob" will be deleted with its 1 domain and at least 1 database (destroys data): ' +
        'state: absent in the manifest\n',
    );
    // 1 client, 1 domain, 1 database known to be its, and 2 that may be.
    expect(text.stdout).toContain('Plan: 5 to delete (1 client, and 4 resources that go with it).');
    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as {
      changes: Record<string, unknown>[];
    };
    expect(planValid(json), JSON.stringify(planValid.errors)).toBe(true);
    expect(json.changes).toEqual([
      expect.objectContaining({
        id: 'client:bob',
        takes: { mailbox: 0, database: 1 },
        takes_unattributed: { database: 2 },
        destroys_data: true,
      }),
    ]);
    const md = (await run(['plan', w.file, '--format', 'markdown'], w.env)).stdout;
    expect(md).toContain('- client "bob" with its 1 domain and at least 1 database (destroys data)\n');

    const refused = await run(['apply', w.file, '--auto-approve', '--max-deletes', '4'], w.env);
    expect(refused.code, refused.stderr).toBe(4);
    expect(w.sim.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    const done = await run(['apply', w.file, '--auto-approve', '--max-deletes', '5'], w.env);
    expect(done.code, done.stderr).toBe(0);
  });

  it('says "up to" when none is known to be its, and marks it as destroying data', async () => {
    const w = await withOwnerless([]);
    const text = await run(['plan', w.file, '--no-color'], w.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('will be deleted with its 1 domain and up to 2 databases (destroys data): ');
  });

  it('a saved plan is valid, reads back, and goes stale once one more has no owner', async () => {
    const lost = new Set(['lost_one', 'lost_two']);
    const w = await withOwnerless(['bob_db'], lost);
    const saved = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(saved.code, saved.stderr).toBe(0);
    const doc = JSON.parse(await readFile(w.planFile, 'utf8')) as { changes: Record<string, unknown>[] };
    expect(doc.changes[0]).toMatchObject({ takes: { mailbox: 0, database: 1 }, takes_unattributed: { database: 2 } });
    const shown = await run(['show', w.planFile, '--no-color'], w.env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('with its 1 domain and at least 1 database (destroys data)');
    lost.add('bob_db');
    const stale = await run(['apply', w.planFile, '--auto-approve'], w.env);
    expect(stale.code, stale.stderr).toBe(3);
    expect(stale.stderr).toContain('what the delete of client "bob" takes changed: mailbox:0 database:0+?3');
    expect(w.sim.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});
