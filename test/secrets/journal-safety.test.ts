/**
 * The secrets journal is ours alone and never loses a record: links and other users' files are
 * refused before anything is written, a write that fails halfway never swallows the next
 * record, and lines nobody can read are skipped, not fatal.
 */
import { chown, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretsFile } from '../../src/secrets/file.js';
import { parseJournal } from '../../src/secrets/journal.js';
import { findLostIntents, unansweredIntents } from '../../src/secrets/recovery.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provision-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const URL = 'https://panel.example/api/v2';
const record = (username: string, id: number, password = `pw-${username}`) => ({
  created_at: '2026-01-01T00:00:00.000Z',
  panel_url: URL,
  kind: 'client' as const,
  name: username,
  username,
  id,
  password,
});

describe('the secrets file is ours alone', () => {
  it('refuses a symbolic link, to a file or dangling, and writes nothing through it', async () => {
    const target = join(dir, 'elsewhere.jsonl');
    await writeFile(target, '', { mode: 0o600 });
    const link = join(dir, 'secrets.jsonl');
    await symlink(target, link);
    await expect(SecretsFile.open(link)).rejects.toMatchObject({
      code: 'secrets',
      message: `the secrets file ${link} is a symbolic link`,
    });
    expect(await readFile(target, 'utf8')).toBe('');

    const dangling = join(dir, 'dangling.jsonl');
    const missing = join(dir, 'created-through-the-link.jsonl');
    await symlink(missing, dangling);
    await expect(SecretsFile.open(dangling)).rejects.toMatchObject({
      code: 'secrets',
      message: `the secrets file ${dangling} is a symbolic link`,
    });
    await expect(stat(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.runIf(process.getuid?.() === 0)('refuses a file that belongs to another user, before writing to it', async () => {
    const path = join(dir, 'secrets.jsonl');
    await writeFile(path, '', { mode: 0o600 });
    await chown(path, 65_534, 65_534);
    await expect(SecretsFile.open(path)).rejects.toMatchObject({
      code: 'secrets',
      message: `the secrets file ${path} belongs to another user (uid 65534)`,
    });
    expect(await readFile(path, 'utf8')).toBe('');
  });
});

describe('a write that fails halfway', () => {
  it('never glues the next record onto the torn line: it starts on a line of its own', async () => {
    const path = join(dir, 'secrets.jsonl');
    const file = await SecretsFile.open(path);
    await file.record(record('alice', 1));
    // The disk fills halfway through the next write, then space is freed again.
    const handle = (file as unknown as { handle: FileHandle }).handle;
    const appendFile = handle.appendFile.bind(handle);
    handle.appendFile = async (data) => {
      handle.appendFile = appendFile;
      await appendFile(String(data).slice(0, 20));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await expect(file.record(record('bob', 2))).rejects.toThrow('ENOSPC');
    await file.record(record('carol', 3));
    await file.close();

    const lines = parseJournal(await readFile(path, 'utf8'));
    expect(lines.map((l) => l.kind)).toEqual(['password', 'unreadable', 'password']);
    expect(lines[2]).toMatchObject({ kind: 'password', entry: record('carol', 3) });
  });

  it('a torn last line left by a killed run is ended when the file is opened again', async () => {
    const path = join(dir, 'secrets.jsonl');
    await writeFile(path, `${JSON.stringify(record('alice', 1))}\n{"created_at":"2026`, {
      mode: 0o600,
    });
    const file = await SecretsFile.open(path);
    await file.record(record('bob', 2));
    await file.close();
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual([
      'password',
      'unreadable',
      'password',
    ]);
  });
});

describe('lines nobody can read, and intents the panel refused', () => {
  it('skips null, arrays, strings and torn lines, and names them, without failing', async () => {
    const path = join(dir, 'secrets.jsonl');
    const intent = JSON.stringify({
      intent: 'create_client',
      at: 't',
      panel_url: URL,
      username: 'alice',
    });
    await writeFile(path, ['null', '[1]', '"text"', '{"torn', intent, ''].join('\n'), {
      mode: 0o600,
    });
    const { lost, skipped } = await findLostIntents(path, URL, [{ username: 'alice', id: 7 }]);
    expect(lost).toEqual([{ kind: 'client', name: 'alice', id: 7 }]);
    expect(skipped.map((l) => [l.line, l.why])).toEqual([
      [1, 'not a JSON object'],
      [2, 'not a JSON object'],
      [3, 'not a JSON object'],
      [4, 'not a JSON record (torn by a crash?)'],
    ]);
  });

  it('an intent closed as refused is not a lost password', async () => {
    const path = join(dir, 'secrets.jsonl');
    const file = await SecretsFile.open(path);
    await file.intend({
      intent: 'create_client',
      intent_id: 'i1',
      at: 't',
      panel_url: URL,
      kind: 'client',
      name: 'alice',
      username: 'alice',
    });
    await file.refused({
      at: 't',
      panel_url: URL,
      kind: 'client',
      name: 'alice',
      username: 'alice',
      intent_id: 'i1',
      refused: 'POST /api/v2/clients answered 422',
    });
    await file.intend({
      intent: 'create_client',
      at: 't',
      panel_url: URL,
      kind: 'client',
      name: 'bob',
      username: 'bob',
    });
    await file.close();
    expect([...(await unansweredIntents(path, URL))]).toEqual(['bob']);
    expect(parseJournal(await readFile(path, 'utf8')).map((l) => l.kind)).toEqual(['intent', 'refused', 'intent']);
  });
});
