/**
 * Issue 32 acceptance, the life of mailboxes through the CLI against the simulator over HTTP:
 * create (password written ahead, none printed), converge, update with only the fields that
 * differ (aliases and forwardings as whole lists, their order ignored), `state: absent` and
 * prune (only of listed clients, never a `keep` match), `--max-deletes`, no GET /emails for a
 * manifest without mailboxes, and the order within one apply: a catch-all moved between two
 * mailboxes, an alias freed by one and taken by another, an address freed by a delete and taken
 * by a create (also from a saved plan).
 */
import { writeFile } from 'node:fs/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { API_KEY, createdRecords, expectNoSecrets, run, workspace } from '../helpers/cli.js';

/** The mutating requests the simulator answered, as `METHOD path status`. */
function writes(sim: { requests: readonly { method: string; path: string; status: number }[] }): string[] {
  return sim.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);
}

/** Simulator options that keep each write's body, in arrival order, in `sent`. */
function keepBodies(sent: [string, string, unknown][]) {
  return {
    intercept: ({ method, path, body }: { method: string; path: string; body: unknown }) => {
      if (method !== 'GET') sent.push([method, path, body]);
      return Promise.resolve(undefined);
    },
  };
}

const CREATE = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: info
            quota: 2 GiB
            aliases: [hello, contact@alice-shop.example]
            forwardings: [owner@example.net, desk@example.net]
            keep_copies: true
            description: Front desk
          - name: Sales
            catch_all: true
      - alice-shop.example
`;

describe('mailboxes: create, converge, update, delete', () => {
  it('creates each with one POST and a password written ahead, then plans no changes', async () => {
    const sent: [string, string, unknown][] = [];
    const seed = { clients: [{ username: 'alice', domains: ['alice.example'] }] };
    const w = await workspace(CREATE, { seed, ...keepBodies(sent) });
    const planned = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain(
      '  + mailbox "info@alice.example" (quota 2 GiB, 2 aliases, 2 forwardings, keeps copies, description "Front desk")\n',
    );
    expect(planned.stdout).toContain('  + mailbox "sales@alice.example" (catch-all)\n');
    expect(planned.stdout).toContain('Plan: 3 to create (1 domain, 2 mailboxes).');

    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply: 3 succeeded, 0 failed, 0 skipped.');
    // The domain an alias stands on goes first; each mailbox is one POST.
    expect(writes(w.sim)).toEqual(['POST /domains 201', 'POST /emails 201', 'POST /emails 201']);
    const info = sent.find(([, , body]) => (body as { email?: string }).email === 'info@alice.example');
    expect(info?.[2]).toMatchObject({
      email: 'info@alice.example',
      max_size: 2 * 1024 ** 3,
      aliases: ['hello@alice.example', 'contact@alice-shop.example'],
      forwardings: ['desk@example.net', 'owner@example.net'],
      store_forwarded_emails: true,
      description: 'Front desk',
    });
    const records = await createdRecords(w.secrets);
    expect(records.map((r) => [r.kind, r.name]).sort()).toEqual([
      ['mailbox', 'info@alice.example'],
      ['mailbox', 'sales@alice.example'],
    ]);
    for (const r of records) expect(w.sim.state.mailboxPasswordIs(String(r.name), String(r.password))).toBe(true);

    const again = await run(['plan', w.file, '--detailed-exitcode'], w.envWithSecrets);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes: the panel matches the manifest.');
    await expectNoSecrets([planned, applied, again], w.secrets);
  });

  it('updates with one PUT of only the fields that differ; the order of aliases and forwardings is ignored', async () => {
    const sent: [string, string, unknown][] = [];
    const seed = { clients: [{ username: 'alice', domains: ['alice.example'] }] };
    const w = await workspace(CREATE, { seed, ...keepBodies(sent) });
    expect((await run(['apply', w.file, '--auto-approve'], w.envWithSecrets)).code).toBe(0);
    const id = [...w.sim.state.mailboxes.values()].find((m) => m.email === 'info@alice.example')?.id;
    // The same lists in another order and spelling: nothing to do.
    await writeFile(
      w.file,
      CREATE.replace('[hello, contact@alice-shop.example]', '[Contact@Alice-Shop.example, HELLO]').replace(
        '[owner@example.net, desk@example.net]',
        '[desk@example.net, owner@example.net]',
      ),
    );
    const same = await run(['plan', w.file, '--detailed-exitcode'], w.env);
    expect(same.code, same.stdout).toBe(0);

    await writeFile(
      w.file,
      CREATE.replace('2 GiB', '3 GiB').replace('[owner@example.net, desk@example.net]', '[desk@example.net]'),
    );
    const planned = await run(['plan', w.file], w.env);
    expect(planned.stdout).toContain(
      '  ~ mailbox "info@alice.example": quota: 2 GiB -> 3 GiB, forwardings: - "owner@example.net"\n',
    );
    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as {
      changes: Record<string, unknown>[];
    };
    expect(json.changes).toEqual([
      expect.objectContaining({
        type: 'mailbox',
        action: 'update',
        name: 'info@alice.example',
        client: 'alice',
        mailbox_id: id,
        fields: [
          { field: 'quota', before: 2 * 1024 ** 3, after: 3 * 1024 ** 3 },
          {
            field: 'forwardings',
            before: ['desk@example.net', 'owner@example.net'],
            after: ['desk@example.net'],
          },
        ],
      }),
    ]);
    const before = sent.length;
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent.slice(before)).toEqual([
      ['PUT', `/emails/${id}`, { max_size: 3 * 1024 ** 3, forwardings: ['desk@example.net'] }],
    ]);
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
  });

  it('deletes by state: absent and by prune, of listed clients only, never a keep match; --max-deletes counts each', async () => {
    const seed = {
      clients: [
        {
          username: 'alice',
          domains: [{ name: 'alice.example', mailboxes: ['info', 'old', 'stray', 'postmaster'] }],
        },
        { username: 'bob', domains: [{ name: 'bob.example', mailboxes: ['info'] }] },
      ],
    };
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: info
          - name: old
            state: absent
prune:
  mailboxes: true
  keep: ["postmaster@*"]
`;
    const w = await workspace(manifest, { seed });
    const planned = await run(['plan', w.file, '--max-deletes', '1'], w.env);
    expect(planned.stdout).toContain(
      '# mailbox "old@alice.example" of client "alice" will be deleted with the mail stored in it: state: absent in the manifest',
    );
    expect(planned.stdout).toContain(
      '# mailbox "stray@alice.example" of client "alice" will be deleted with the mail stored in it: not in the manifest (prune.mailboxes)',
    );
    expect(planned.stdout).not.toContain('postmaster');
    expect(planned.stdout).not.toContain('bob');
    expect(planned.stdout).toContain('Plan: 2 to delete (2 mailboxes)');
    expect(planned.stdout).toContain('this plan deletes 2 resources');
    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as {
      changes: Record<string, unknown>[];
    };
    expect(json.changes.map((c) => [c.type, c.action, c.name, c.client, c.destroys_data])).toEqual([
      ['mailbox', 'delete', 'old@alice.example', 'alice', true],
      ['mailbox', 'delete', 'stray@alice.example', 'alice', true],
    ]);
    const markdown = (await run(['plan', w.file, '--format', 'markdown'], w.env)).stdout;
    expect(markdown).toContain('mailbox "old@alice.example"');
    expect(markdown).toContain('mailbox "stray@alice.example"');

    const refused = await run(['apply', w.file, '--auto-approve', '--max-deletes', '1'], w.env);
    expect(refused.code).not.toBe(0);
    expect(writes(w.sim)).toEqual([]);

    const applied = await run(['apply', w.file, '--auto-approve', '--max-deletes', '2'], w.env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(w.sim).map((line) => line.replace(/\d+ 200$/, 'N 200'))).toEqual([
      'DELETE /emails/N 200',
      'DELETE /emails/N 200',
    ]);
    expect([...w.sim.state.mailboxes.values()].map((m) => m.email).sort()).toEqual([
      'info@alice.example',
      'info@bob.example',
      'postmaster@alice.example',
    ]);
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
  });

  it('reads GET /emails only when the manifest has mailboxes or prune names them', async () => {
    const seed = { clients: [{ username: 'alice', domains: [{ name: 'alice.example', mailboxes: ['info'] }] }] };
    const bare = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
    const w = await workspace(bare, { seed });
    const emails = () => w.sim.requests.filter((r) => r.path.startsWith('/emails')).length;
    for (const argv of [
      ['plan', w.file],
      ['plan', w.file, '--format', 'json'],
      ['apply', w.file, '--auto-approve'],
    ])
      expect((await run(argv, w.env)).code).toBe(0);
    expect(emails()).toBe(0);
    await writeFile(w.file, `${bare}prune:\n  mailboxes: true\n`);
    const pruned = await run(['plan', w.file], w.env);
    expect(pruned.stdout).toContain('- DELETE /emails/');
    expect(emails()).toBe(1);
  });
});

describe('mailboxes: what frees goes before what takes, in one apply', () => {
  const seed = {
    clients: [
      {
        username: 'alice',
        domains: [
          {
            name: 'alice.example',
            mailboxes: [
              { name: 'a', catch_all: true, aliases: ['hello@alice.example'] },
              { name: 'b' },
              { name: 'old', aliases: ['sales@alice.example'] },
            ],
          },
        ],
      },
    ],
  };
  const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: a
            catch_all: false
            aliases: []
          - name: b
            catch_all: true
            aliases: [hello]
          - name: old
            state: absent
          - name: new
            aliases: [sales]
`;

  it('the panel refuses a second catch-all and an address in use', async () => {
    const w = await workspace(manifest, { seed });
    const b = [...w.sim.state.mailboxes.values()].find((m) => m.email === 'b@alice.example');
    const put = async (body: object) => {
      const answer = await request(`${w.sim.url}/emails/${b?.id}`, {
        method: 'PUT',
        headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await answer.body.dump();
      return answer.statusCode;
    };
    expect(await put({ catch_all: true })).toBe(400);
    expect(await put({ aliases: ['hello@alice.example'] })).toBe(400);
  });

  for (const saved of [false, true]) {
    it(`moves the catch-all and an alias, and reuses a deleted address${saved ? ', from a saved plan' : ''}`, async () => {
      const w = await workspace(manifest, { seed });
      const id = (local: string) =>
        [...w.sim.state.mailboxes.values()].find((m) => m.email === `${local}@alice.example`)?.id;
      const [a, b, old] = [id('a'), id('b'), id('old')];
      const args = ['--auto-approve', '--concurrency', '8'];
      if (saved) expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
      const applied = await run(['apply', saved ? w.planFile : w.file, ...args], w.envWithSecrets);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect(applied.stdout).toContain('Apply: 4 succeeded, 0 failed, 0 skipped.');
      const sent = writes(w.sim);
      expect(sent.filter((line) => !line.endsWith(' 200') && !line.endsWith(' 201'))).toEqual([]);
      const at = (line: string) => sent.indexOf(line);
      expect(at(`PUT /emails/${a} 200`)).toBeLessThan(at(`PUT /emails/${b} 200`));
      expect(at(`DELETE /emails/${old} 200`)).toBeLessThan(at('POST /emails 201'));
      expect(w.sim.state.mailboxes.get(b ?? 0)).toMatchObject({ catch_all: true, aliases: ['hello@alice.example'] });
      expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
      const records = await createdRecords(w.secrets);
      expect(records.map((r) => r.name)).toEqual(['new@alice.example']);
      expect(w.sim.state.mailboxPasswordIs('new@alice.example', String(records[0]?.password))).toBe(true);
    });
  }

  it('refuses at plan, nothing sent, what the panel holds elsewhere and no change frees', async () => {
    const held = manifest.replace('            aliases: []\n', '').replace('            state: absent\n', '');
    const w = await workspace(held, { seed });
    for (const argv of [
      ['plan', w.file],
      ['apply', w.file, '--auto-approve'],
    ]) {
      const r = await run(argv, w.envWithSecrets);
      expect(r.code, argv[0]).toBe(1);
      expect(r.stderr).toContain(
        'mailbox "b@alice.example" takes the address "hello@alice.example", but mailbox "a@alice.example" has it as an alias on the panel and no change of this plan frees it',
      );
      expect(r.stderr).toContain(
        'mailbox "new@alice.example" takes the address "sales@alice.example", but mailbox "old@alice.example" has it as an alias on the panel',
      );
    }
    expect(writes(w.sim)).toEqual([]);
  });
});
