/**
 * Issue 32 acceptance, what is refused and what is scoped, through the CLI against the
 * simulator over HTTP: a mailbox on a domain of another client (a conflict naming the owner,
 * nothing sent, the exit code of other conflicts, located at the manifest's line); validation at
 * file:line:column (a quota that does not parse, a second catch-all, an alias on a domain the
 * client does not list, a duplicate address in any spelling, across the parts of a manifest
 * directory too, mailboxes under a domain marked absent), nothing sent; `--clients` scoping;
 * `secrets reset mailbox:ADDRESS` after an apply; the plan's Markdown of mailbox changes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJournal, passwordStates } from '../../src/secrets/journal.js';
import { createdRecords, expectNoSecrets, run, workspace } from '../helpers/cli.js';

const writes = (sim: { requests: readonly { method: string }[] }) => sim.requests.filter((r) => r.method !== 'GET');

const SEED = {
  clients: [
    { username: 'alice', domains: [{ name: 'alice.example', mailboxes: ['info', 'old'] }] },
    { username: 'bob', domains: [{ name: 'bob.example', mailboxes: ['info', 'old'] }] },
  ],
};

describe('mailboxes: conflicts', () => {
  it("a mailbox on another client's domain: a conflict naming the owner, at the manifest's line, nothing sent", async () => {
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: new
      - name: bob.example
        mailboxes:
          - name: sales
`;
    const w = await workspace(manifest, { seed: SEED });
    const planned = await run(['plan', w.file], w.envWithSecrets);
    expect(planned.stdout).toContain(
      '✗ mailbox "sales@bob.example" is listed under client "alice", but its domain belongs to client "bob" on the panel',
    );
    expect(planned.stderr).toContain(
      `${w.file}:10:19: error: mailbox "sales@bob.example" is listed under client "alice"`,
    );
    const json = JSON.parse((await run(['plan', w.file, '--format', 'json'], w.env)).stdout) as {
      conflicts: unknown[];
    };
    expect(json.conflicts).toContainEqual({ mailbox: 'sales@bob.example', client: 'alice', owner: 'bob' });

    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    // The exit code of any other conflict: a domain's alone gives the same.
    const domainOnly = await workspace(
      'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, bob.example]\n',
      { seed: SEED },
    );
    const other = await run(['apply', domainOnly.file, '--auto-approve'], domainOnly.env);
    expect(applied.code).toBe(other.code);
    expect(planned.code).toBe(other.code);
    expect(applied.code).not.toBe(0);
    expect(applied.stderr).toContain('apply sends nothing until this is resolved');
    expect(writes(w.sim)).toEqual([]);
    await expect(readFile(w.secrets, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('mailboxes: validation at file:line:column, nothing sent', () => {
  it('names each problem at its line, with what to write', async () => {
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: info
            quota: lots
          - name: INFO
          - name: a
            catch_all: true
          - name: b
            catch_all: true
            aliases: [x@bob.example]
          - name: c@d
`;
    const w = await workspace(manifest, { seed: SEED });
    for (const argv of [
      ['validate', w.file],
      ['plan', w.file],
      ['apply', w.file, '--auto-approve'],
    ]) {
      const r = await run(argv, w.env);
      expect(r.code, argv[0]).toBe(1);
      expect(r.stderr).toContain(`${w.file}:8:20: error: quota "lots" of mailbox "info@alice.example" is not a size`);
      expect(r.stderr).toContain(`${w.file}:9:19: error: mailbox "info@alice.example" (same as "info")`);
      expect(r.stderr).toContain(`${w.file}:13:24: error: mailbox "b@alice.example" is a second catch-all`);
      expect(r.stderr).toContain(
        `${w.file}:14:23: error: alias "x@bob.example" of mailbox "b@alice.example" is on "bob.example", which the manifest does not list under client "alice"`,
      );
      expect(r.stderr).toMatch(new RegExp(`${w.file}:15:\\d+: error: .*"c@d"`));
    }
    expect(w.sim.requests).toEqual([]);
  });

  it('mailboxes under a domain marked absent are an error at their key', async () => {
    const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        state: absent
        mailboxes:
          - name: info
`;
    const w = await workspace(manifest, { seed: SEED });
    const r = await run(['plan', w.file], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${w.file}:8:11: error: domain "alice.example" has state: absent and "mailboxes": a domain that is deleted has no mailboxes`,
    );
    expect(w.sim.requests).toEqual([]);
  });

  it('a duplicate address across the parts of a manifest directory names both places', async () => {
    const w = await workspace('', { seed: SEED });
    const dir = join(w.dir, 'panel');
    await mkdir(dir);
    const part = (local: string, user: string) =>
      `version: 1\nclients:\n  - username: ${user}\n    domains:\n      - name: alice.example\n        mailboxes:\n          - name: ${local}\n`;
    await writeFile(join(dir, 'a.yaml'), part('info', 'alice'));
    await writeFile(join(dir, 'b.yaml'), part('Info', 'carol'));
    const r = await run(['plan', dir], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${join(dir, 'b.yaml')}:7:19: error: mailbox "info@alice.example" (same as "info") is listed twice (first at ${join(dir, 'a.yaml')}:7)`,
    );
    expect(w.sim.requests).toEqual([]);
  });
});

describe('mailboxes: --clients, secrets reset, Markdown', () => {
  const manifest = `version: 1
clients:
  - username: alice
    domains:
      - name: alice.example
        mailboxes:
          - name: info
            quota: 1 GB
          - name: fresh
  - username: bob
    domains:
      - name: bob.example
        mailboxes:
          - name: info
          - name: fresh
prune:
  mailboxes: true
`;

  it('--clients plans and applies the mailboxes of matching clients only', async () => {
    const w = await workspace(manifest, { seed: SEED });
    const planned = await run(['plan', w.file, '--clients', 'bob', '--format', 'json'], w.env);
    const json = JSON.parse(planned.stdout) as { changes: Record<string, unknown>[] };
    expect(json.changes.map((c) => [c.type, c.action, c.name, c.client])).toEqual([
      ['mailbox', 'create', 'fresh@bob.example', 'bob'],
      ['mailbox', 'delete', 'old@bob.example', 'bob'],
    ]);
    const applied = await run(['apply', w.file, '--clients', 'bob', '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply: 2 succeeded, 0 failed, 0 skipped.');
    const addresses = [...w.sim.state.mailboxes.values()].map((m) => m.email).sort();
    expect(addresses).toEqual(['fresh@bob.example', 'info@alice.example', 'info@bob.example', 'old@alice.example']);
    expect((await createdRecords(w.secrets)).map((r) => r.name)).toEqual(['fresh@bob.example']);
    // Then alice's turn: bob's are done, nothing of them again.
    const rest = await run(['plan', w.file, '--clients', 'alice', '--format', 'json'], w.env);
    expect((JSON.parse(rest.stdout) as { changes: { client: string }[] }).changes.map((c) => c.client)).toEqual([
      'alice',
      'alice',
      'alice',
    ]);
  });

  it('the Markdown shows each change; secrets reset in any spelling sets a password the panel holds', async () => {
    const w = await workspace(manifest, { seed: SEED });
    const markdown = await run(['plan', w.file, '--format', 'markdown'], w.env);
    expect(markdown.stdout).toContain('~ mailbox "info@alice.example": quota: unlimited -> 1 GB\n');
    // A create with no field but its address says it in its request.
    expect(markdown.stdout).toContain('+ POST /emails {"id_user":2,"email":"fresh@alice.example"}\n');
    expect(markdown.stdout).toContain('- mailbox "old@alice.example" with the mail stored in it\n');
    expect(markdown.stdout).toContain(
      '**Deletes**: 2 resources are deleted for good (a mailbox with the mail stored in it).\n',
    );

    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    const reset = await run(['secrets', 'reset', 'mailbox:INFO@Alice.Example'], w.envWithSecrets);
    expect(reset.code, reset.stderr).toBe(0);
    const states = passwordStates(parseJournal(await readFile(w.secrets, 'utf8')));
    const passwords: string[] = [];
    for (const state of states.values()) {
      const password = state.current?.entry.password;
      expect(typeof password, state.name).toBe('string');
      expect(w.sim.state.mailboxPasswordIs(state.name, password as string), state.name).toBe(true);
      expect(state.open).toEqual([]);
      passwords.push(password as string);
    }
    expect([...states.values()].map((s) => s.name).sort()).toEqual([
      'fresh@alice.example',
      'fresh@bob.example',
      'info@alice.example',
    ]);
    await expectNoSecrets([markdown, applied, reset], passwords);
  });

  it('names an international address in both forms in the plan and the apply, as a domain', async () => {
    const idn =
      'version: 1\nclients:\n  - username: zed\n    domains:\n      - name: Bücher.example\n        mailboxes: [{name: neu}]\n';
    const w = await workspace(idn, { seed: { clients: [{ username: 'zed', domains: ['bücher.example'] }] } });
    const applied = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    const subject = 'mailbox "neu@xn--bcher-kva.example" (neu@bücher.example) of client "zed"';
    expect(applied.stdout).toContain(`# ${subject} will be created: not on the panel\n`);
    expect(applied.stdout).toMatch(new RegExp(`✓ created ${subject.replace(/[()]/g, '\\$&')} \\(id \\d+\\)`));
    expect((await createdRecords(w.secrets)).map((r) => r.name)).toEqual(['neu@xn--bcher-kva.example']);
  });
});
