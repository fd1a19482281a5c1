import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBytes, readJson, writeAllAtomically, writeAtomically } from '../../src/cli/files.js';
import type { Io } from '../../src/cli/io.js';
import { ProvisionError } from '../../src/errors.js';

const io: Io = {
  stdout: { write: () => undefined, isTTY: false },
  stderr: { write: () => undefined, isTTY: false },
  env: {},
  untilStopped: () => new Promise(() => undefined),
};
const withStdin: Io = {
  ...io,
  readStdin: () => Promise.resolve(new TextEncoder().encode('from stdin')),
};

describe('the CLI reads and writes files in one place', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-files-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('throws an io error for a missing file, naming it and saying what to check', async () => {
    const file = join(dir, 'missing.yaml');
    const error: unknown = await readBytes(file, io, 'manifest').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProvisionError);
    expect(error).toMatchObject({
      code: 'io',
      message: `cannot read the manifest ${file}: ENOENT: no such file or directory`,
      hint: 'check the path: a relative path starts from the current directory',
    });
  });

  it('throws an io error for a directory', async () => {
    await expect(readBytes(dir, io, 'manifest')).rejects.toMatchObject({
      code: 'io',
      message: `cannot read the manifest ${dir}: EISDIR: illegal operation on a directory`,
    });
  });

  it('reads - from standard input, and refuses it when there is none', async () => {
    expect(new TextDecoder().decode(await readBytes('-', withStdin))).toBe('from stdin');
    await expect(readBytes('-', io, 'manifest')).rejects.toMatchObject({
      code: 'usage',
      message: 'no standard input to read the manifest from',
    });
  });

  it('names a JSON file that does not parse', async () => {
    const file = join(dir, 'seed.json');
    await writeFile(file, '{"clients": [');
    await expect(readJson(file, io, 'seed file')).rejects.toMatchObject({
      code: 'io',
      message: expect.stringContaining(`the seed file ${file} is not valid JSON`) as unknown,
    });
  });

  it('writes through a temporary file and leaves nothing else behind, also when the write fails', async () => {
    const file = join(dir, 'plan.json');
    await writeAtomically(file, 'one');
    await writeAtomically(file, 'two');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['plan.json']);
    await expect(writeAtomically(join(dir, 'no-such-dir', 'plan.json'), 'x')).rejects.toMatchObject({
      code: 'io',
      message: expect.stringContaining('ENOENT') as unknown,
    });
    expect(await readdir(dir)).toEqual(['plan.json']);
  });

  it('replaces only a regular file: a pipe, a device, a directory or a link is refused and left as it was', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const target = join(dir, 'elsewhere.txt');
    await writeFile(target, 'keep');
    const link = join(dir, 'link.json');
    await symlink(target, link);
    await mkdir(join(dir, 'sub'));
    for (const [path, kind] of [
      [fifo, 'a pipe (FIFO)'],
      ['/dev/null', 'a device'],
      [join(dir, 'sub'), 'a directory'],
      [link, 'a symbolic link'],
    ] as const) {
      await expect(writeAtomically(path, 'plan'), path).rejects.toMatchObject({
        code: 'io',
        message: `${path} is ${kind}, not a regular file: nothing was written`,
      });
    }
    expect(await readFile(target, 'utf8')).toBe('keep');
    expect((await readdir(dir)).sort()).toEqual(['elsewhere.txt', 'fifo', 'link.json', 'sub']);
  });

  it('writes several files all or none: one that cannot be written leaves every other as it was, no temporary file behind', async () => {
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    await writeFile(a, 'old a');
    await writeFile(b, 'old b');
    await expect(
      writeAllAtomically([
        { path: a, text: 'new a' },
        { path: b, text: 'new b' },
        { path: join(dir, 'no-such-dir', 'c.yaml'), text: 'new c' },
      ]),
    ).rejects.toMatchObject({ code: 'io', message: expect.stringContaining('no file was written') as unknown });
    expect([await readFile(a, 'utf8'), await readFile(b, 'utf8')]).toEqual(['old a', 'old b']);
    expect((await readdir(dir)).sort()).toEqual(['a.yaml', 'b.yaml']);
    await writeAllAtomically([
      { path: a, text: 'new a' },
      { path: b, text: 'new b' },
    ]);
    expect([await readFile(a, 'utf8'), await readFile(b, 'utf8')]).toEqual(['new a', 'new b']);
    expect((await readdir(dir)).sort()).toEqual(['a.yaml', 'b.yaml']);
  });

  it('refuses to replace a file that changed since it was read (an edit saved meanwhile is never lost): none written', async () => {
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    await writeFile(a, 'old a');
    await writeFile(b, 'old b');
    const read = { a: await readFile(a), b: await readFile(b) };
    await writeFile(b, 'old b, and my edit');
    await expect(
      writeAllAtomically([
        { path: a, text: 'new a', unchangedFrom: read.a },
        { path: b, text: 'new b', unchangedFrom: read.b },
      ]),
    ).rejects.toMatchObject({ code: 'io', message: `${b} changed since it was read: no file was written` });
    expect([await readFile(a, 'utf8'), await readFile(b, 'utf8')]).toEqual(['old a', 'old b, and my edit']);
    expect((await readdir(dir)).sort()).toEqual(['a.yaml', 'b.yaml']);
  });
});
