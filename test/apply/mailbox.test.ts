/**
 * A plan holding mailbox changes, carried out by the library's executePlan against the simulator
 * over HTTP: the create goes through the one write-ahead create (its password made here, in the
 * secrets journal as kind `mailbox`, named by the address, before the POST leaves; the panel holds
 * it); an answer dropped after the POST landed is settled by a look-up and the password is still
 * known; an update is one PUT of the fields that differ; a delete one DELETE. No password in any
 * event the run tells.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  connectPanel,
  diff,
  executePlan,
  loadManifest,
  readLive,
  renderApplyJson,
  renderApplyText,
} from '../../src/api/index.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { createMailbox, deleteMailbox, updateMailbox } from '../../src/kinds/mailbox/index.js';
import { parseJournal } from '../../src/secrets/journal.js';
import type { InterceptRequest, SimulatorOptions } from '../../src/simulator/index.js';
import { API_KEY } from '../helpers/key.js';
import { sim } from '../helpers/sim.js';
import { tempDir } from '../helpers/sim-http.js';

const GiB = 1024 ** 3;
const ADDRESS = 'info@alice.example';

const SEED = {
  clients: [
    {
      username: 'alice',
      domains: [
        {
          name: 'alice.example',
          mailboxes: [
            { name: 'old', password: 'an-old-mailbox-password' },
            { name: 'desk', max_size: GiB },
          ],
        },
      ],
    },
  ],
};

async function setUp(options: Partial<SimulatorOptions> = {}) {
  const simulator = await sim({ seed: SEED, ...options });
  const panel = connectPanel({ url: simulator.url, apiKey: API_KEY, allowHttp: true });
  const secretsFile = join(await tempDir(), 'secrets.jsonl');
  const { desired } = loadManifest(
    'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n',
    'm.yaml',
  );
  const plan = diff(desired, await readLive(panel, desired));
  expect(plan.changes).toEqual([]);
  const alice = [...simulator.state.clients.values()].find((c) => c.username === 'alice');
  const mailbox = (local: string): number =>
    [...simulator.state.mailboxes.values()].find((m) => m.email === `${local}@alice.example`)?.id ?? -1;
  const withChanges = (changes: readonly Change[]): Plan => ({ ...plan, changes: [...changes] });
  return { simulator, panel, secretsFile, aliceId: alice?.id ?? -1, mailbox, withChanges };
}

/** What the journal holds, line by line (unreadable lines as their reason). */
async function journal(path: string): Promise<Record<string, unknown>[]> {
  return parseJournal(await readFile(path, 'utf8')).map((l) =>
    l.kind === 'unreadable' ? { why: l.why } : (l.entry as Record<string, unknown>),
  );
}

describe('apply of mailbox changes, against the simulator', () => {
  it('writes the password ahead (kind mailbox, the address) before the POST, and the panel holds it', async () => {
    let atPost: Record<string, unknown>[] | undefined;
    let sent: unknown;
    let path = '';
    const intercept = async (req: InterceptRequest): Promise<undefined> => {
      if (req.method === 'POST' && req.path === '/emails') {
        atPost = await journal(path);
        sent = req.body;
      }
      return undefined;
    };
    const s = await setUp({ intercept });
    path = s.secretsFile;
    try {
      const create = createMailbox(
        ADDRESS,
        'alice.example',
        { quota: 2 * GiB, aliases: ['hello@alice.example'] },
        { client: 'alice', clientId: s.aliceId, dependsOn: [] },
      );
      const told: string[] = [];
      const outcomes = await executePlan(s.withChanges([create]), s.panel, {
        secretsFile: path,
        onEvent: (e) => told.push(JSON.stringify(e)),
      });
      expect(outcomes.map((o) => `${o.change.id} ${o.status}`)).toEqual([`mailbox:${ADDRESS} succeeded`]);
      expect(atPost).toEqual([
        expect.objectContaining({
          intent: 'create_mailbox',
          kind: 'mailbox',
          name: ADDRESS,
          pending_password: expect.any(String) as unknown,
        }),
      ]);
      const written = atPost?.[0]?.pending_password as string;
      expect(written.length).toBeGreaterThanOrEqual(8);
      expect(sent).toMatchObject({ email: ADDRESS, id_user: s.aliceId, max_size: 2 * GiB, password: written });
      expect((await journal(path)).at(-1)).toMatchObject({ kind: 'mailbox', name: ADDRESS, password: written });
      expect((await journal(path)).at(-1)).not.toHaveProperty('username');
      expect(s.simulator.state.mailboxPasswordIs(ADDRESS, written)).toBe(true);
      for (const line of told) expect(line).not.toContain(written);
      // The apply result, as text and as JSON its schema accepts, without the password.
      const text = renderApplyText(outcomes);
      expect(text).toMatch(/^✓ created mailbox "info@alice\.example" of client "alice" \(id \d+\)/);
      const json = renderApplyJson(outcomes, {
        plan: s.withChanges([create]),
        panelUrl: s.panel.baseUrl,
        manifest: 'm.yaml',
        showUnmanaged: false,
        notes: [],
        manifestSha256: 'a'.repeat(64),
        fingerprint: 'sha256:' + '0'.repeat(64),
      });
      const schema = JSON.parse(
        await readFile(new URL('../../schemas/apply-result.schema.json', import.meta.url), 'utf8'),
      ) as object;
      const valid = new Ajv2020({ strict: false }).compile(schema);
      expect(valid(JSON.parse(json)), JSON.stringify(valid.errors)).toBe(true);
      for (const out of [text, json]) expect(out).not.toContain(written);
    } finally {
      await s.panel.close();
    }
  });

  it('an answer dropped after the POST landed: found by its address, and its password still known', async () => {
    const s = await setUp({
      ambiguousPostRate: 1,
      faultFilter: ({ method, path }) => method === 'POST' && path === '/emails',
    });
    try {
      const create = createMailbox(
        ADDRESS,
        'alice.example',
        {},
        { client: 'alice', clientId: s.aliceId, dependsOn: [] },
      );
      const outcomes = await executePlan(s.withChanges([create]), s.panel, {
        secretsFile: s.secretsFile,
        settleTimeoutMs: 0,
      });
      expect(outcomes.map((o) => `${o.change.id} ${o.status}`)).toEqual([`mailbox:${ADDRESS} succeeded`]);
      const lines = await journal(s.secretsFile);
      const intent = lines.find((l) => l.intent === 'create_mailbox');
      const record = lines.at(-1);
      expect(record).toMatchObject({ kind: 'mailbox', name: ADDRESS, id: s.mailbox('info') });
      expect(record?.password).toBe(intent?.pending_password);
      expect(s.simulator.state.mailboxPasswordIs(ADDRESS, record?.password as string)).toBe(true);
      // One POST only: the look-up found it, nothing was sent twice.
      expect(s.simulator.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await s.panel.close();
    }
  });

  it("a killed run's create: its POST landed, recorded before the plan's work; it did not, the same password sent again", async () => {
    const s = await setUp();
    try {
      const intent = (name: string, id: string, password: string): string =>
        `${JSON.stringify({ intent: 'create_mailbox', intent_id: id, at: '2026-01-01T00:00:00.000Z', panel_url: s.panel.baseUrl, kind: 'mailbox', name, pending_password: password })}\n`;
      await writeFile(
        s.secretsFile,
        intent('landed@alice.example', 'k1', 'Written-Ahead-By-Killed1') +
          intent(ADDRESS, 'k2', 'Written-Ahead-By-Killed2'),
        { mode: 0o600 },
      );
      await s.panel.post('/emails', {
        id_user: s.aliceId,
        email: 'landed@alice.example',
        password: 'Written-Ahead-By-Killed1',
      });
      const create = createMailbox(
        ADDRESS,
        'alice.example',
        {},
        { client: 'alice', clientId: s.aliceId, dependsOn: [] },
      );
      const warnings: string[] = [];
      const outcomes = await executePlan(s.withChanges([create]), s.panel, {
        secretsFile: s.secretsFile,
        settleTimeoutMs: 0,
        onWarning: (m) => warnings.push(m),
      });
      expect(outcomes.map((o) => `${o.change.id} ${o.status}`)).toEqual([`mailbox:${ADDRESS} succeeded`]);
      expect(warnings).toEqual([
        expect.stringMatching(
          /secrets\.jsonl:1: mailbox "landed@alice\.example" \(id \d+\) was created by an earlier apply .*: recorded$/,
        ),
        expect.stringMatching(
          /secrets\.jsonl:2: mailbox "info@alice\.example": an earlier apply's POST carried the password written ahead/,
        ),
      ]);
      const records = (await journal(s.secretsFile)).filter((l) => 'password' in l);
      expect(records.map((r) => [r.kind, r.name, r.password])).toEqual([
        ['mailbox', 'landed@alice.example', 'Written-Ahead-By-Killed1'],
        ['mailbox', ADDRESS, 'Written-Ahead-By-Killed2'],
      ]);
      expect(s.simulator.state.mailboxPasswordIs('landed@alice.example', 'Written-Ahead-By-Killed1')).toBe(true);
      expect(s.simulator.state.mailboxPasswordIs(ADDRESS, 'Written-Ahead-By-Killed2')).toBe(true);
      for (const w of warnings) expect(w).not.toMatch(/Written-Ahead/);
    } finally {
      await s.panel.close();
    }
  });

  it('an update is one PUT of the fields that differ; a delete one DELETE; no secrets file needed', async () => {
    const bodies: unknown[] = [];
    const s = await setUp({
      intercept: (req) => {
        if (req.method !== 'GET') bodies.push(req.body);
        return Promise.resolve(undefined);
      },
    });
    try {
      const desk = s.mailbox('desk');
      const old = s.mailbox('old');
      const update = updateMailbox('desk@alice.example', 'alice', desk, [
        { field: 'quota', before: GiB, after: 2 * GiB },
      ]);
      const remove = deleteMailbox('old@alice.example', 'alice', old, 'state: absent in the manifest');
      const outcomes = await executePlan(s.withChanges([update, remove]), s.panel);
      expect(outcomes.map((o) => `${o.change.id} ${o.status}`)).toEqual([
        'mailbox:desk@alice.example succeeded',
        'mailbox:old@alice.example succeeded',
      ]);
      const writes = s.simulator.requests.filter((r) => r.method !== 'GET');
      expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /emails/${desk}`, `DELETE /emails/${old}`]);
      expect(bodies[0]).toEqual({ max_size: 2 * GiB });
      expect(s.simulator.state.mailboxes.get(desk)?.max_size).toBe(2 * GiB);
      expect(s.simulator.state.mailboxes.has(old)).toBe(false);
    } finally {
      await s.panel.close();
    }
  });
});
