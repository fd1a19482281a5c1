import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretsFile } from '../../src/secrets/file.js';
import { unansweredIntents } from '../../src/secrets/recovery.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const URL = 'https://panel.example/api/v2';
const record = (username: string, id: number) => ({
  created_at: '2026-01-01T00:00:00.000Z',
  panel_url: URL,
  kind: 'client' as const,
  name: username,
  username,
  id,
  password: `pw-${username}`,
});

describe('SecretsFile', () => {
  it('creates the file 0600 and writes one JSON line per call, in order, even when calls overlap', async () => {
    const path = join(dir, 's.jsonl');
    const file = await SecretsFile.open(path);
    await Promise.all([
      file.intend({ intent: 'create_client', at: 't', panel_url: URL, kind: 'client', name: 'a', username: 'a' }),
      file.record(record('a', 1)),
      file.record(record('b', 2)),
    ]);
    await file.close();
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
    expect((await readFile(path, 'utf8')).split('\n')).toEqual([
      JSON.stringify({ intent: 'create_client', at: 't', panel_url: URL, kind: 'client', name: 'a', username: 'a' }),
      JSON.stringify(record('a', 1)),
      JSON.stringify(record('b', 2)),
      '',
    ]);
  });

  it('lines written in one turn share one flush: the creates an apply starts at once wait for one, not two', async () => {
    const path = join(dir, 's.jsonl');
    const file = await SecretsFile.open(path);
    const handle = (file as unknown as { handle: FileHandle }).handle;
    const datasync = handle.datasync.bind(handle);
    let flushes = 0;
    handle.datasync = () => {
      flushes++;
      return datasync();
    };
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    await Promise.all(
      names.map((name) =>
        file.intend({ intent: 'create_client', at: 't', panel_url: URL, kind: 'client', name, username: name }),
      ),
    );
    expect(flushes).toBe(1);
    // Each call still resolves only once its line is flushed: a line of a later turn waits for its own.
    await file.record(record('a', 1));
    expect(flushes).toBe(2);
    await file.close();
    expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(names.length + 2);
  });

  it('ends a line torn by a crash before appending, so no record is glued to it', async () => {
    const path = join(dir, 's.jsonl');
    await writeFile(path, `${JSON.stringify(record('a', 1))}\n{"intent":"create_cl`, {
      mode: 0o600,
    });
    const file = await SecretsFile.open(path);
    await file.record(record('b', 2));
    await file.close();
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines[2]).toBe(JSON.stringify(record('b', 2)));
  });

  it('refuses a file that others can read', async () => {
    const path = join(dir, 's.jsonl');
    await writeFile(path, '', { mode: 0o640 });
    await expect(SecretsFile.open(path)).rejects.toMatchObject({
      code: 'secrets',
      message: expect.stringContaining('can be read by others (mode 640)') as unknown,
    });
  });
});

describe('unansweredIntents', () => {
  it('names intents of this panel with no created record after them', async () => {
    const path = join(dir, 's.jsonl');
    const intent = (username: string, panel_url = URL) =>
      JSON.stringify({ intent: 'create_client', at: 't', panel_url, username });
    await writeFile(
      path,
      [
        intent('a'),
        JSON.stringify(record('a', 1)),
        intent('b'),
        intent('c', 'https://other/api/v2'),
        '{"torn',
        intent('d'),
        '',
      ].join('\n'),
    );
    expect([...(await unansweredIntents(path, URL))].sort()).toEqual(['b', 'd']);
    expect(await unansweredIntents(join(dir, 'missing.jsonl'), URL)).toEqual(new Set());
  });
});

describe('not a regular file', () => {
  it('refuses a directory or a device as the secrets file, before anything is written', async () => {
    await expect(SecretsFile.open(dir)).rejects.toMatchObject({
      code: 'secrets',
      message: `the secrets file ${dir} is not a regular file`,
    });
    await expect(SecretsFile.open('/dev/null')).rejects.toMatchObject({
      code: 'secrets',
      message: 'the secrets file /dev/null is not a regular file',
    });
    await expect(unansweredIntents('/dev/null', URL)).rejects.toMatchObject({ code: 'secrets' });
  });
});
