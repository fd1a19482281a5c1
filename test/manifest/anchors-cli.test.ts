/**
 * Top-level `x-` keys are ignored, a place for YAML anchors, and merge keys (`<<: *defaults`)
 * work in client entries (docs/manifest.md, "Anchors and x- keys"): through `provision validate`
 * and `provision plan` on real files, small ones read whole and large ones read in chunks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Alias } from 'yaml';
import { CHUNKED_DIAGNOSTICS_ABOVE } from '../../src/manifest/load.js';
import { run, workspace } from '../helpers/cli.js';

async function manifestFile(text: string, name = 'manifest.yaml'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-anchors-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

const ANCHORED = `version: 1
x-defaults: &defaults
  email: team@example.com
  language: de
x-https: &https
  https: {lets_encrypt: true, force: true}
clients:
  - <<: *defaults
    username: alice
    domains:
      - name: alice.example
        <<: *https
  - <<: *defaults
    username: bob
    language: fr
`;

describe('x- keys and merge keys', () => {
  it('validate accepts x- keys with anchors, and merge keys in clients and domains', async () => {
    const path = await manifestFile(ANCHORED);
    const r = await run(['validate', path]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${path}: valid (2 clients, 1 domain)\n`);
  });

  it('plan takes the merged values; a key of the entry itself wins over the merged one', async () => {
    const w = await workspace(ANCHORED);
    const r = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { changes: { name: string; request: { body: unknown } }[] };
    expect(plan.changes.map((c) => [c.name, c.request.body])).toEqual(
      expect.arrayContaining([
        ['alice', expect.objectContaining({ username: 'alice', email: 'team@example.com', language: 'de' })],
        ['bob', expect.objectContaining({ username: 'bob', email: 'team@example.com', language: 'fr' })],
      ]),
    );
  });

  it('an x- key may hold anything, also in JSON; other unknown top-level keys are still refused', async () => {
    const json = await manifestFile(
      '{"version": 1, "x-note": {"owner": "ops", "list": [1, 2]}, "clients": [{"username": "alice"}]}\n',
      'manifest.json',
    );
    expect((await run(['validate', json])).code).toBe(0);
    const typo = await manifestFile('version: 1\nx-note: hello\nclient: []\n');
    const r = await run(['validate', typo]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${typo}:3:1: error: unknown key "client"`);
  });

  it('a problem a merge brings in is located at the merge, each client at its own', async () => {
    const path = await manifestFile(
      'version: 1\nx-defaults: &d\n  emial: team@example.com\nclients:\n  - <<: *d\n    username: alice\n',
    );
    const r = await run(['validate', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path}:5:9: error: unknown key "emial" in client "alice": did you mean "email"?`);
  });

  it('a merge of what is not a mapping is refused at its value, in words', async () => {
    const path = await manifestFile('version: 1\nx-plan: &p Basic\nclients:\n  - <<: *p\n    username: alice\n');
    const r = await run(['validate', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${path}:4:9: error: a merge key ("<<") takes an anchored mapping ("<<: *defaults") or a list of them`,
    );
  });

  it.each([
    ['a list of one alias, read through yaml', '[*d]', 20_000],
    ['one alias, read without yaml (simple-items.ts)', '*d', 0],
  ])('aliases resolve in linear time: 20,000 clients each merging one anchor, %s', async (_, merge, resolved) => {
    // yaml resolves an alias by scanning every alias and anchor before it: quadratic, minutes
    // for a 1 MB manifest of merges. Each resolution must look at its one anchor only; the fast
    // read of plain items merges `<<: *d` itself, with no resolution at all.
    const clients = Array.from({ length: 20_000 }, (_, i) => `  - <<: ${merge}\n    username: user${i}\n`).join('');
    const path = await manifestFile(`version: 1\nx-d: &d\n  language: de\nclients:\n${clients}`);
    let calls = 0;
    let scanned = 0;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with each alias as `this`
    const original = Alias.prototype.resolve;
    const spy = vi.spyOn(Alias.prototype, 'resolve').mockImplementation(function (this: Alias, doc, ctx) {
      calls++;
      const cache = (ctx as { aliasResolveCache?: unknown[] } | undefined)?.aliasResolveCache;
      scanned += cache?.length ?? 0;
      return original.call(this, doc, ctx);
    });
    onTestFinished(() => {
      spy.mockRestore();
    });
    const r = await run(['validate', path]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${path}: valid (20000 clients, 0 domains)\n`);
    if (resolved === 0) expect(calls).toBe(0);
    else expect(calls).toBeGreaterThanOrEqual(resolved);
    expect(scanned).toBeLessThanOrEqual(calls);
  });

  it('layered defaults, each used by a hundred clients, are not an alias bomb', async () => {
    const base = Array.from({ length: 70 }, (_, i) => `  - {<<: *base, username: b${i}}\n`).join('');
    const eu = Array.from({ length: 160 }, (_, i) => `  - {<<: *eu, username: e${i}}\n`).join('');
    const path = await manifestFile(
      'version: 1\nx-base: &base\n  language: de\nx-eu: &eu\n  <<: *base\n  email: eu@example.com\n' +
        `clients:\n${base}${eu}`,
    );
    const r = await run(['validate', path]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${path}: valid (230 clients, 0 domains)\n`);
  });

  it('large manifests: an x- key and merge keys are read in chunks, with the same answer', async () => {
    const clients = (merge: boolean): string =>
      Array.from(
        { length: 3000 },
        (_, i) => `  - ${merge ? '<<: *d\n    ' : ''}username: user${i}\n    domains: [u${i}.example]\n`,
      ).join('');
    const plain = `version: 1\nx-note: generated\nclients:\n${clients(false)}`;
    const merged = `version: 1\nx-d: &d\n  language: de\nclients:\n${clients(true)}`;
    for (const text of [plain, merged]) {
      expect(text.length).toBeGreaterThan(CHUNKED_DIAGNOSTICS_ABOVE);
      const path = await manifestFile(text);
      const r = await run(['validate', path]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(`${path}: valid (3000 clients, 3000 domains)\n`);
    }
  });
});
