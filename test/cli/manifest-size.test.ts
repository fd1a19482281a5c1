/**
 * The manifest size limit (--max-manifest-mb; docs/reliability.md, "Sizes"): a file, or a part of
 * a directory, over it is refused before it is parsed, naming the file, its size, the limit and
 * the flag, on every command that reads a manifest. The files over the limit here are not YAML
 * at all: were they parsed, their diagnostics (file:line:column) would show.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readBytes, type SizeLimit } from '../../src/cli/files.js';
import type { Io } from '../../src/cli/io.js';
import { manifestSizeLimit } from '../../src/cli/manifest-input.js';
import { run } from '../helpers/cli.js';

const MB = 1024 * 1024;
const VALID = 'version: 1\nclients:\n  - username: alice\n';

/** `head`, then a comment that pads it to exactly `bytes`. */
function sized(head: string, bytes: number): string {
  const pad = bytes - head.length - 2;
  return `${head}#${'x'.repeat(pad)}\n`;
}

/** Text that is no manifest (a flow mapping never closed): any parse reports it at 1:1 or later. */
function junk(bytes: number): string {
  return `{ [ "unclosed\n${'- : ['.repeat(Math.ceil(bytes / 5))}`.slice(0, bytes);
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'provision-size-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A diagnostic line of the file (`path:1:1: error: ...`): the file was parsed. */
const parsed = (stderr: string, path: string): boolean => stderr.includes(`${path}:`);

describe('--max-manifest-mb', () => {
  it('refuses a manifest one byte over the limit unparsed, naming the file, its size, the limit and the flag; takes one at the limit', async () => {
    const dir = await tempDir();
    const over = join(dir, 'over.yaml');
    await writeFile(over, junk(MB + 1));
    const r = await run(['validate', over, '--max-manifest-mb', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: the manifest ${over} is 1.0 MB (1,048,577 bytes), over the manifest size limit of 1 MB: not read`,
    );
    expect(r.stderr).toContain('raise the limit with --max-manifest-mb N');
    expect(parsed(r.stderr, over)).toBe(false);

    const at = join(dir, 'at.yaml');
    await writeFile(at, sized(VALID, MB));
    const ok = await run(['validate', at, '--max-manifest-mb', '1']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe(`${at}: valid (1 client, 0 domains)\n`);
  });

  it('holds each part of a directory to the limit, naming the part', async () => {
    const dir = await tempDir();
    const parts = join(dir, 'panel');
    await mkdir(parts);
    await writeFile(join(parts, 'a.yaml'), VALID);
    await writeFile(join(parts, 'b.yaml'), junk(MB + 1));
    const r = await run(['validate', parts, '--max-manifest-mb', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: the manifest part ${join(parts, 'b.yaml')} is 1.0 MB (1,048,577 bytes)`);
    expect(parsed(r.stderr, join(parts, 'b.yaml'))).toBe(false);
  });

  it('stops reading a device or pipe past the limit', async () => {
    const r = await run(['validate', '/dev/zero', '--max-manifest-mb', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: the manifest /dev/zero holds more than 1 MB (1,048,576 bytes), over the manifest size limit of 1 MB',
    );
  });

  it('asks standard input for no more than the limit, and refuses what is over it', async () => {
    const asked: (number | undefined)[] = [];
    const io = {
      readStdin: (maxBytes?: number) => {
        asked.push(maxBytes);
        return Promise.resolve(new Uint8Array(MB + 1));
      },
    } as unknown as Io;
    const cap: SizeLimit = manifestSizeLimit({ 'max-manifest-mb': '1' });
    await expect(readBytes('-', io, 'manifest', undefined, cap)).rejects.toThrow(
      'the manifest on standard input holds more than 1 MB (1,048,576 bytes), over the manifest size limit of 1 MB',
    );
    expect(asked).toEqual([MB]);
  });

  it('is taken by every command that reads a manifest, and refused where none is read', async () => {
    const dir = await tempDir();
    const over = join(dir, 'over.yaml');
    await writeFile(over, junk(MB + 1));
    const env = { PROVISION_URL: 'http://127.0.0.1:9', PROVISION_API_KEY: 'k'.repeat(32) };
    for (const argv of [
      ['plan', over],
      ['apply', over, '--auto-approve'],
      ['snapshot', over],
      ['export', '--into', over],
    ]) {
      const r = await run([...argv, '--max-manifest-mb', '1'], env);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr, argv.join(' ')).toMatch(/is 1\.0 MB \(1,048,577 bytes\), over the manifest size limit of 1 MB/);
      expect(parsed(r.stderr, over), argv.join(' ')).toBe(false);
      // Refused before the panel is asked anything: port 9 would have failed otherwise.
      expect(r.stderr, argv.join(' ')).not.toContain('127.0.0.1');
    }
    const exported = await run(['export', '--max-manifest-mb', '1'], env);
    expect(exported.stderr).toContain('--max-manifest-mb works with --into only');
    const bad = await run(['validate', over, '--max-manifest-mb', '0']);
    expect(bad.stderr).toContain('--max-manifest-mb takes a whole number from 1 to 500');
  });

  it('does not hold a saved plan given to apply to the manifest limit', async () => {
    const dir = await tempDir();
    const plan = join(dir, 'plan.json');
    // A plan document (its first key) padded past the limit: read whole, then refused as a plan.
    await writeFile(plan, `{\n  "format_version": "0",${' '.repeat(MB)}\n  "x": 1\n}\n`);
    const r = await run(['apply', plan, '--max-manifest-mb', '1'], {
      PROVISION_URL: 'http://127.0.0.1:9',
      PROVISION_API_KEY: 'k'.repeat(32),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('manifest size limit');
    expect(r.stderr).toContain(plan);
  });
});
