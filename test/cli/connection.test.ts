import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { connect, readApiKey } from '../../src/cli/connection.js';
import type { Io } from '../../src/cli/io.js';
import { ProvisionError } from '../../src/errors.js';
import { Redactions } from '../../src/redact.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cli-connection-'));
  dirs.push(dir);
  return dir;
}

function io(env: Record<string, string> = {}): Io {
  return {
    stdout: { write: () => undefined, isTTY: false },
    stderr: { write: () => undefined, isTTY: false },
    env,
    untilStopped: () => new Promise(() => undefined),
  };
}

async function rejection(promise: Promise<unknown>): Promise<ProvisionError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProvisionError);
  return error as ProvisionError;
}

describe('readApiKey', () => {
  test('a key file larger than 4 KB is refused unread, a device too', async () => {
    const dir = await tempDir();
    const file = join(dir, 'big');
    await writeFile(file, 'k'.repeat(5000));
    expect(await rejection(readApiKey(file, io()))).toMatchObject({
      code: 'usage',
      message: `the API key file ${file} holds more than 4096 bytes: too much for one`,
    });
    expect((await rejection(readApiKey('/dev/zero', io()))).message).toBe(
      'the API key file /dev/zero holds more than 4096 bytes: too much for one',
    );
  });

  test('from the environment, trimmed', async () => {
    expect(await readApiKey(undefined, io({ PROVISION_API_KEY: '  abc123\n' }))).toBe('abc123');
  });

  test('from a file, trimmed; the file wins over the environment', async () => {
    const dir = await tempDir();
    const file = join(dir, 'key');
    await writeFile(file, 'file-key-42\n');
    expect(await readApiKey(file, io({ PROVISION_API_KEY: 'env-key' }))).toBe('file-key-42');
  });

  test.each([
    ['neither', {}, undefined, /no API key: PROVISION_API_KEY is not set/, 'usage'],
    ['an empty variable', { PROVISION_API_KEY: '  ' }, undefined, /from PROVISION_API_KEY is empty/, 'usage'],
    // The path is not repeated: it may be the key itself, pasted by mistake.
    ['a missing file', {}, 'missing', /^cannot read the API key file of --api-key-file: ENOENT/, 'io'],
  ])('refuses %s', async (_label, env, file, message, code) => {
    const dir = await tempDir();
    const error = await rejection(readApiKey(file === undefined ? undefined : join(dir, file), io(env)));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(/PROVISION_API_KEY/);
  });

  test('an empty or two-line file is refused without echoing its content', async () => {
    const dir = await tempDir();
    const empty = join(dir, 'empty');
    await writeFile(empty, '\n');
    expect((await rejection(readApiKey(empty, io()))).message).toMatch(/API key file .*empty is empty/);
    const twoLines = join(dir, 'two');
    await writeFile(twoLines, 'first-line-secret\nsecond-line-secret\n');
    const error = await rejection(readApiKey(twoLines, io()));
    expect(error.message).toMatch(/line breaks/);
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain('secret');
  });
});

describe('--ca-file', () => {
  test('an unreadable or non-PEM CA file is refused before anything is sent, naming the file', async () => {
    const dir = await tempDir();
    const env = { PROVISION_API_KEY: 'k-123456' };
    const missing = await rejection(
      connect({ url: 'https://panel.example', 'ca-file': join(dir, 'none.pem') }, io(env), {
        redactions: new Redactions(),
        apiKey: undefined,
      }),
    );
    expect(missing).toMatchObject({
      code: 'io',
      message: expect.stringMatching(/^cannot read the CA file .*none\.pem: ENOENT/) as unknown,
    });
    await writeFile(join(dir, 'bad.pem'), 'hello');
    const bad = await rejection(
      connect({ url: 'https://panel.example', 'ca-file': join(dir, 'bad.pem') }, io(env), {
        redactions: new Redactions(),
        apiKey: undefined,
      }),
    );
    expect(bad).toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/^the CA file .*bad\.pem holds no PEM certificate$/) as unknown,
    });
  });
});
