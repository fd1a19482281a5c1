/**
 * Plans without a key, through the CLI against the simulator: `provision snapshot MANIFEST`
 * taken live, the simulator then closed, and `plan --from-snapshot` with no URL and no key in
 * the environment shows the same changes as the live plan (the text equal but for the note
 * naming the snapshot, the JSON plan's changes and fingerprint equal). The snapshot file:
 * schemas/snapshot.schema.json, mode 0600, never the key, emails as digests unless
 * --with-emails. A manifest needing reads the snapshot lacks (a zone, a client field) is
 * refused; a saved plan from a snapshot is applied only while the live panel still matches.
 */
import { readFileSync } from 'node:fs';
import { chmod, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { API_KEY, run, startWorkspace, type Workspace, workspace } from '../helpers/cli.js';

const schema = JSON.parse(
  readFileSync(new URL('../../schemas/snapshot.schema.json', import.meta.url), 'utf8'),
) as object;
const valid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

/** Every kind of change: client creates, updates, a delete (prune), domain creates and settings, a zone. */
const MANIFEST = `version: 1
prune:
  clients: true
clients:
  - username: alice
    plan: Basic
    email: alice@example.com
    domains:
      - name: alice.example
        dns:
          records:
            - {host: "@", type: A, value: 192.0.2.10}
            - {host: www, type: CNAME, value: alice.example.}
          prune: true
      - name: shop.alice.example
        https: {force: true}
      - name: blog.alice.example
        php_version: "8.3"
  - username: bob
    plan: Standard
    email: bob@example.com
    suspended: true
    domains: [bob.example]
  - username: dave
    email: dave@example.com
    domains: [dave.example]
`;

const SEED = {
  seed: {
    clients: [
      {
        username: 'alice',
        plan: 'Basic',
        email: 'alice@example.com',
        domains: [
          {
            name: 'alice.example',
            dns: { records: [{ host: '@', type: 'A', value: '192.0.2.99', ttl: 3600 }] },
          },
          { name: 'shop.alice.example', security: { id_certificate: 5, lets_encrypt: true } },
        ],
      },
      { username: 'bob', plan: 'Basic', email: 'bob@example.com', domains: ['bob.example'] },
      { username: 'carol', email: 'carol@example.com', domains: ['carol.example'] },
    ],
  },
};

/** The text plan without the note that names the snapshot. */
const withoutSnapshotNote = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !line.startsWith('note: Planned against the snapshot'))
    .join('\n');

/** A workspace whose simulator the test closes itself (its directory removed after the test). */
async function live(manifest = MANIFEST, options: Parameters<typeof startWorkspace>[1] = SEED): Promise<Workspace> {
  const w = await startWorkspace(manifest, options);
  onTestFinished(() => rm(w.dir, { recursive: true, force: true }));
  return w;
}

describe('plan --from-snapshot', () => {
  it('with no URL and no key, the simulator closed, shows the same changes as the live plan', async () => {
    const w = await live();
    const snapshot = join(w.dir, 'snapshot.json');
    const livePlan = await run(['plan', w.file, '--no-color'], w.env);
    const liveJson = await run(['plan', w.file, '--format', 'json'], w.env);
    const taken = await run(['snapshot', w.file, '--out', snapshot], w.env);
    expect(taken.code, taken.stderr).toBe(0);
    // A line on success names the file (the document itself is in it, not on stdout).
    expect(taken.stderr).toMatch(/^wrote the snapshot of http:\/\/127\.0\.0\.1:\d+\/api\/v2 to /m);
    expect(taken.stderr).toContain(` to ${snapshot} (mode 0600): 3 clients, emails as digests\n`);
    expect(taken.stdout).toBe('');
    expect(w.sim.requests.every((r) => r.method === 'GET')).toBe(true);
    await w.sim.close();

    const fromSnapshot = await run(['plan', w.file, '--from-snapshot', snapshot, '--no-color'], {});
    expect(fromSnapshot.code, fromSnapshot.stderr).toBe(0);
    expect(livePlan.stdout).toMatch(/create.*dave/);
    expect(livePlan.stdout).toMatch(/delete.*carol/);
    expect(livePlan.stdout).toContain('dns "alice.example" of client "alice" will be updated');
    expect(livePlan.stdout).toMatch(/domain "shop.alice.example".*https.force/);
    expect(fromSnapshot.stdout).toMatch(/note: Planned against the snapshot .*snapshot\.json taken at .* ago\)/);
    expect(withoutSnapshotNote(fromSnapshot.stdout)).toBe(livePlan.stdout);

    const json = await run(['plan', w.file, '--from-snapshot', snapshot, '--format', 'json'], {});
    const [a, b] = [JSON.parse(liveJson.stdout), JSON.parse(json.stdout)] as {
      changes: unknown;
      fingerprint: string;
    }[];
    expect(b!.changes).toEqual(a!.changes);
    expect(b!.fingerprint).toBe(a!.fingerprint);
  });

  it('emails are digests by default (the file holds no address); --with-emails keeps them', async () => {
    const w = await live();
    const digests = join(w.dir, 'digests.json');
    const addresses = join(w.dir, 'addresses.json');
    expect((await run(['snapshot', w.file, '--out', digests], w.env)).code).toBe(0);
    expect((await run(['snapshot', '--out', addresses, '--with-emails'], w.env)).code).toBe(0);
    const hashed = await readFile(digests, 'utf8');
    expect(hashed).not.toMatch(/@example\.com/);
    const doc = JSON.parse(hashed) as { emails: string; clients: { username: string; email?: string }[] };
    expect(valid(doc), JSON.stringify(valid.errors)).toBe(true);
    expect(doc.emails).toBe('digest');
    // sha256 of "alice@example.com"
    expect(doc.clients.find((c) => c.username === 'alice')?.email).toBe(
      'sha256:ff8d9819fc0e12bf0d24892e45987e249a28dce836a85cad60e28eaaa8c6d976',
    );
    const kept = JSON.parse(await readFile(addresses, 'utf8')) as typeof doc & { reads: { manifest_sha256: unknown } };
    expect(valid(kept), JSON.stringify(valid.errors)).toBe(true);
    expect(kept.emails).toBe('address');
    expect(kept.reads.manifest_sha256).toBeNull();
    expect(kept.clients.find((c) => c.username === 'carol')?.email).toBe('carol@example.com');
    await w.sim.close();
  });

  it("an email change shows the panel's as (digest); --out of such a plan warns that apply will call it stale", async () => {
    const w = await live(MANIFEST.replace('bob@example.com', 'robert@example.com'));
    const snapshot = join(w.dir, 'snapshot.json');
    expect((await run(['snapshot', w.file, '--out', snapshot], w.env)).code).toBe(0);
    await w.sim.close();
    const r = await run(['plan', w.file, '--from-snapshot', snapshot, '--no-color'], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('email: "(digest)" -> "robert@example.com"');
    const saved = await run(['plan', w.file, '--from-snapshot', snapshot, '--out', join(w.dir, 'plan.json')], {});
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toMatch(/warning: --out: the plan updates the email of 1 client \("bob"\).*stale/);
  });

  it('refuses a manifest that needs a zone or a client field the snapshot did not read, saying what to do', async () => {
    const w = await live(MANIFEST, { ...SEED, clientListFields: false });
    const lists = join(w.dir, 'lists.json');
    expect((await run(['snapshot', '--out', lists], w.env)).code).toBe(0);
    await w.sim.close();
    const r = await run(['plan', w.file, '--from-snapshot', lists], {});
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`the snapshot ${lists} lacks`);
    expect(r.stderr).toContain('the DNS zone of "alice.example": not read');
    expect(r.stderr).toMatch(/client "bob": plan, email, suspended/);
    expect(r.stderr).toContain(`provision snapshot ${w.file} --out ${lists}`);
    // The JSON error document names the code.
    const json = await run(['plan', w.file, '--from-snapshot', lists, '--format', 'json'], {});
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('usage');
  });

  it('a snapshot taken with the manifest on a panel whose list lacks fields holds them (read one by one)', async () => {
    const w = await live(MANIFEST, { ...SEED, clientListFields: false });
    const snapshot = join(w.dir, 'snapshot.json');
    const livePlan = await run(['plan', w.file, '--no-color'], w.env);
    expect((await run(['snapshot', w.file, '--out', snapshot], w.env)).code).toBe(0);
    await w.sim.close();
    const r = await run(['plan', w.file, '--from-snapshot', snapshot, '--no-color'], {});
    expect(r.code, r.stderr).toBe(0);
    expect(withoutSnapshotNote(r.stdout)).toBe(livePlan.stdout);
  });

  it('the file is 0600 (a new one, and one that was 0644), never holds the key; the key is not needed', async () => {
    const w = await workspace(MANIFEST, SEED);
    const out = join(w.dir, 'snapshot.json');
    expect((await run(['snapshot', w.file, '--out', out], w.env)).code).toBe(0);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    await chmod(out, 0o644);
    expect((await run(['snapshot', w.file, '--out', out, '--with-emails'], w.env)).code).toBe(0);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain(API_KEY);
    const printed = await run(['snapshot', w.file], w.env);
    expect(printed.code).toBe(0);
    expect(valid(JSON.parse(printed.stdout)), JSON.stringify(valid.errors)).toBe(true);
    expect(printed.stdout + printed.stderr).not.toContain(API_KEY);
    // Planning needs no key, and takes no connection flags.
    const flagged = await run(['plan', w.file, '--from-snapshot', out, '--url', w.sim.url], w.env);
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toContain('--from-snapshot reads no panel');
  });

  it('a saved plan from a snapshot applies while the panel matches, and is stale once it moved', async () => {
    const w = await workspace(MANIFEST, SEED);
    const snapshot = join(w.dir, 'snapshot.json');
    expect((await run(['snapshot', w.file, '--out', snapshot], w.env)).code).toBe(0);
    const saved = await run(['plan', w.file, '--from-snapshot', snapshot, '--out', w.planFile], {});
    expect(saved.code, saved.stderr).toBe(0);
    // The panel moves under the plan: carol, whom it deletes, gets a domain more.
    const more = join(w.dir, 'more.yaml');
    await writeFile(more, 'version: 1\nclients:\n  - username: carol\n    domains: [carol.example, extra.example]\n');
    const moved = await run(['apply', more, '--auto-approve'], w.envWithSecrets);
    expect(moved.code, moved.stderr).toBe(0);
    const stale = await run(['apply', w.planFile, '--auto-approve'], w.envWithSecrets);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain('stale plan');
    // Taken again, planned again: applies.
    expect((await run(['snapshot', w.file, '--out', snapshot], w.env)).code).toBe(0);
    expect((await run(['plan', w.file, '--from-snapshot', snapshot, '--out', w.planFile], {})).code).toBe(0);
    const applied = await run(['apply', w.planFile, '--auto-approve'], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await run(['plan', w.file, '--detailed-exitcode'], w.env)).code).toBe(0);
  });

  it('refuses a damaged snapshot and one of a newer major format', async () => {
    const w = await live();
    const snapshot = join(w.dir, 'snapshot.json');
    expect((await run(['snapshot', w.file, '--out', snapshot], w.env)).code).toBe(0);
    await w.sim.close();
    const doc = JSON.parse(await readFile(snapshot, 'utf8')) as Record<string, unknown>;
    await writeFile(snapshot, JSON.stringify({ ...doc, format_version: '2.0' }));
    const newer = await run(['plan', w.file, '--from-snapshot', snapshot], {});
    expect(newer.code).toBe(1);
    expect(newer.stderr).toContain('has format 2.0; this version reads 1.x');
    expect(newer.stderr).toContain('upgrade panel-provision');
    await writeFile(snapshot, JSON.stringify({ ...doc, clients: [{ id: 'x', username: 'alice' }] }));
    const damaged = await run(['plan', w.file, '--from-snapshot', snapshot], {});
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain('"clients"[0]: "id" must be a positive integer');
    await writeFile(snapshot, JSON.stringify({ ...doc, clients: [{ id: 1, username: 'a', email: 'a@b.example' }] }));
    const clear = await run(['plan', w.file, '--from-snapshot', snapshot], {});
    expect(clear.code).toBe(1);
    expect(clear.stderr).toContain('clients[0].email is no sha256 digest');
  });
});
