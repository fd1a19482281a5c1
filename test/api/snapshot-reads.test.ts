/**
 * A snapshot says which kinds it read (`reads.kinds`, format 1.1): a kind not read is held as
 * not read, never as a panel without any, and a plan whose manifest needs it is refused. An
 * older snapshot (format 1.0, the fixtures written by ce21a9e) reads and plans exactly as
 * before: as having read the kinds of its time. Through the CLI against the simulator, and the
 * library's parseSnapshot and snapshotDocument on real files.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseSnapshot, snapshotDocument } from '../../src/api/index.js';
import { KINDS_OF_FIRST_SNAPSHOTS, READ_ORDER } from '../../src/kinds/reads.js';
import { run, workspace } from '../helpers/cli.js';

const FIXTURES = new URL('../fixtures/snapshots/', import.meta.url).pathname;
const fixture = (name: string): string => join(FIXTURES, name);
const MANIFEST = readFileSync(fixture('manifest-ce21a9e.yaml'), 'utf8');

const valid = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(new URL('../../schemas/snapshot.schema.json', import.meta.url), 'utf8')) as object,
);

/** The panel of the fixtures: alice with a zone and a domain with settings, bob, carol. */
const SEED = {
  seed: {
    clients: [
      {
        username: 'alice',
        plan: 'Basic',
        email: 'alice@example.com',
        domains: [
          { name: 'alice.example', dns: { records: [{ host: '@', type: 'A', value: '192.0.2.99', ttl: 3600 }] } },
          { name: 'shop.alice.example', security: { id_certificate: 5, lets_encrypt: true } },
        ],
      },
      { username: 'bob', plan: 'Basic', email: 'bob@example.com', domains: ['bob.example'] },
      { username: 'carol', email: 'carol@example.com', domains: ['carol.example'] },
    ],
  },
};

type Document = Record<string, unknown> & { reads: Record<string, unknown> & { kinds: Record<string, unknown> } };

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-snapshot-reads-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const withoutSnapshotNote = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !line.startsWith('note: Planned against the snapshot'))
    .join('\n');

/** The lines of an error's details (`  the DNS zone of "alice.example": not read`). */
const details = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('  '));

describe('a snapshot written today', () => {
  it('names the kinds it read, with or without a manifest, and is valid against the schema', async () => {
    const w = await workspace(MANIFEST, SEED);
    for (const args of [[w.file], []]) {
      const out = join(w.dir, 'snapshot.json');
      const taken = await run(['snapshot', ...args, '--out', out], w.env);
      expect(taken.code, taken.stderr).toBe(0);
      const doc = JSON.parse(await readFile(out, 'utf8')) as Document;
      expect(valid(doc), JSON.stringify(valid.errors)).toBe(true);
      expect(doc.format_version).toBe('1.1');
      expect(Object.keys(doc.reads.kinds)).toEqual([...READ_ORDER]);
      // The kinds of today are read whatever the manifest: the zones say which they asked for.
      for (const name of KINDS_OF_FIRST_SNAPSHOTS) expect(doc.reads.kinds[name]).toEqual({ read: true });
      const back = parseSnapshot(await readFile(out, 'utf8'), out);
      for (const name of KINDS_OF_FIRST_SNAPSHOTS) expect(back.reads.kinds[name]).toEqual({ read: true });
    }
  });

  it('holds a kind it did not read as not read, leaves its part out, and says so when written again', async () => {
    const dir = await scratch();
    const doc = JSON.parse(await readFile(fixture('snapshot-ce21a9e.json'), 'utf8')) as Document;
    const reason = 'GET /api/v2/hosting-plans answered 404';
    const rest = Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'hosting_plans'));
    const kinds = { hosting_plan: { read: false, reason }, domain: { read: true }, dns_zone: { read: true } };
    const edited = { ...rest, format_version: '1.1', reads: { ...doc.reads, kinds } };
    const file = join(dir, 'edited.json');
    await writeFile(file, JSON.stringify(edited));
    const snapshot = parseSnapshot(await readFile(file, 'utf8'), file);
    expect(snapshot.reads.kinds.hosting_plan).toEqual({ read: false, reason });
    // A kind the document does not name is not read either.
    expect(snapshot.reads.kinds.client).toEqual({ read: false, reason: 'the snapshot does not say it read them' });
    const written = JSON.parse(snapshotDocument(snapshot)) as Document;
    expect(written.reads.kinds.hosting_plan).toEqual({ read: false, reason });
    expect(written).not.toHaveProperty('hosting_plans');
    expect(written).not.toHaveProperty('clients');
    expect(written).toHaveProperty('domains');
    expect(written).toHaveProperty('zones');
    // A reading that is neither: refused, naming it.
    await writeFile(file, JSON.stringify({ ...doc, reads: { ...doc.reads, kinds: { client: { read: false } } } }));
    expect(() => parseSnapshot(readFileSync(file, 'utf8'), file)).toThrow(
      /needs "reads\.kinds\.client" with a "reason" where "read" is false/,
    );
  });
});

describe('an older snapshot (format 1.0, written by ce21a9e)', () => {
  it('reads as having read the kinds of its time, and no other', () => {
    for (const name of ['snapshot-ce21a9e.json', 'lists-ce21a9e.json']) {
      const snapshot = parseSnapshot(readFileSync(fixture(name), 'utf8'), name);
      expect(snapshot.formatVersion).toBe('1.0');
      for (const kind of READ_ORDER)
        expect(snapshot.reads.kinds[kind].read, kind).toBe(KINDS_OF_FIRST_SNAPSHOTS.includes(kind));
    }
  });

  it('plans exactly as before: the same changes, fingerprint and text', async () => {
    const dir = await scratch();
    const manifest = join(dir, 'manifest.yaml');
    await writeFile(manifest, MANIFEST);
    const snapshot = fixture('snapshot-ce21a9e.json');
    const json = await run(['plan', manifest, '--from-snapshot', snapshot, '--format', 'json'], {});
    expect(json.code, json.stderr).toBe(0);
    const planned = JSON.parse(json.stdout) as { changes: unknown; fingerprint: string };
    expect({ changes: planned.changes, fingerprint: planned.fingerprint }).toEqual(
      JSON.parse(readFileSync(fixture('plan-ce21a9e.json'), 'utf8')),
    );
    const text = await run(['plan', manifest, '--from-snapshot', snapshot, '--no-color'], {});
    expect(text.code, text.stderr).toBe(0);
    expect(withoutSnapshotNote(text.stdout)).toBe(readFileSync(fixture('plan-ce21a9e.txt'), 'utf8'));
  });

  it('taken without a manifest, is refused for what it lacks as before, and as one taken today', async () => {
    const w = await workspace(MANIFEST, { ...SEED, clientListFields: false });
    const today = join(w.dir, 'lists.json');
    expect((await run(['snapshot', '--out', today], w.env)).code).toBe(0);
    const expected = [
      '  client "alice": plan, email (GET /clients leaves it out; not read one by one)',
      '  client "bob": plan, email, suspended (GET /clients leaves it out; not read one by one)',
      '  the DNS zone of "alice.example": not read',
    ];
    for (const snapshot of [fixture('lists-ce21a9e.json'), today]) {
      const r = await run(['plan', w.file, '--from-snapshot', snapshot], {});
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the snapshot ${snapshot} lacks 3 reads the manifest needs: nothing was planned`);
      expect(details(r.stderr)).toEqual(expected);
    }
  });
});

describe('a plan from a snapshot that did not read a kind', () => {
  /** The fixture taken with the manifest, its reading of `kind` made "not read" and its part left out. */
  async function unread(kind: string, key: string): Promise<{ file: string; manifest: string; reason: string }> {
    const dir = await scratch();
    const doc = JSON.parse(await readFile(fixture('snapshot-ce21a9e.json'), 'utf8')) as Document;
    const reason = 'it was taken without a manifest';
    const kinds = Object.fromEntries(READ_ORDER.map((name) => [name, { read: true }]));
    const edited = {
      ...Object.fromEntries(Object.entries(doc).filter(([name]) => name !== key)),
      format_version: '1.1',
      reads: { ...doc.reads, kinds: { ...kinds, [kind]: { read: false, reason } } },
    };
    const file = join(dir, 'snapshot.json');
    await writeFile(file, JSON.stringify(edited));
    const manifest = join(dir, 'manifest.yaml');
    await writeFile(manifest, MANIFEST);
    return { file, manifest, reason };
  }

  it('is refused when the manifest needs it, naming the kind and saying what to do', async () => {
    const { file, manifest, reason } = await unread('dns_zone', 'zones');
    const r = await run(['plan', manifest, '--from-snapshot', file], {});
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`the snapshot ${file} lacks 1 read the manifest needs: nothing was planned`);
    expect(details(r.stderr)).toEqual([`  zones: not read (${reason}), and the manifest needs them`]);
    expect(r.stderr).toContain(`take the snapshot again with this manifest`);
    expect(r.stderr).toContain(`provision snapshot ${manifest} --out ${file}`);
    const json = await run(['plan', manifest, '--from-snapshot', file, '--format', 'json'], {});
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('usage');
  });

  it('plans when the manifest does not need it (what the ask gates)', async () => {
    const { file, manifest } = await unread('dns_zone', 'zones');
    // The same manifest without its zone: the ask reads no zone.
    await writeFile(manifest, MANIFEST.replace(/ {6}- name: alice\.example\n( {8}.*\n)+/, '      - alice.example\n'));
    const r = await run(['plan', manifest, '--from-snapshot', file, '--no-color'], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('dns "alice.example"');
    expect(r.stdout).toContain('domain "shop.alice.example"');
  });

  it('is refused for a kind every plan needs (the hosting plans), whatever the manifest', async () => {
    const { file, manifest, reason } = await unread('hosting_plan', 'hosting_plans');
    await writeFile(manifest, 'version: 1\nclients:\n  - username: erin\n    domains: [erin.example]\n');
    const r = await run(['plan', manifest, '--from-snapshot', file], {});
    expect(r.code).toBe(1);
    expect(details(r.stderr)).toEqual([`  hosting plans: not read (${reason}), and the manifest needs them`]);
  });
});
