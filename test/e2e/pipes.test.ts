/**
 * Every input is read once, whatever it is: a manifest or a saved plan given as a pipe
 * (`/dev/stdin`, `<(cat m.yaml)`, `-`) reaches apply whole; reading it twice would find it empty.
 * Outputs: a stdout or stderr whose reader has gone (`| head -1`) ends the command as it ends
 * a Unix tool, by SIGPIPE, without a word (it used to crash with Node's "Unhandled 'error'
 * event" and a stack trace); a stdout that cannot be written otherwise (a full disk) is said.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, DIST } from '../helpers/dist.js';
import { API_KEY, run, workspace } from '../helpers/cli.js';

function runWithStdin(
  args: string[],
  env: Record<string, string>,
  input: string,
  shell = false,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = shell
      ? spawn('bash', ['-c', `"${process.execPath}" "${BIN}" ${args.join(' ')}`], {
          env: { PATH: process.env.PATH ?? '', ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        })
      : spawn(process.execPath, [BIN, ...args], {
          env: { PATH: process.env.PATH ?? '', ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

describe('inputs from pipes', () => {
  it('apply reads a manifest from /dev/stdin, from -, and from a process substitution', async () => {
    const w = await workspace('version: 1\nclients: []\n');
    const manifest = (name: string): string => `version: 1\nclients:\n  - username: ${name}\n`;
    for (const [args, name, shell] of [
      [['apply', '/dev/stdin', '--auto-approve'], 'piped', false],
      [['apply', '-', '--auto-approve'], 'dashed', false],
      [
        ['apply', `<(printf 'version: 1\\nclients:\\n  - username: substituted\\n')`, '--auto-approve'],
        'substituted',
        true,
      ],
    ] as const) {
      const r = await runWithStdin([...args], w.envWithSecrets, manifest(name), shell);
      expect(r.code, r.stderr).toBe(0);
      expect(w.sim.state.clientNamed(name)?.username).toBe(name);
    }
  });
});

/** `provision <args>` with stdout or stderr on a pipe whose reader is gone before the process starts. */
async function withClosedReader(
  dir: string,
  stream: 'stdout' | 'stderr',
  args: string[],
  env: Record<string, string>,
  bin = BIN,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  // A FIFO opened for reading (without waiting for a writer), then for writing, then the reader
  // closed: every write to it fails with EPIPE, from the first byte on.
  const fifo = join(dir, `${stream}.fifo`);
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  closeSync(reader);
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', stream === 'stdout' ? writer : 'pipe', stream === 'stderr' ? writer : 'pipe'],
      });
      let output = '';
      (stream === 'stdout' ? child.stderr : child.stdout)?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => {
        resolve({ code, signal, output });
      });
    });
  } finally {
    closeSync(writer);
  }
}

/** A manifest of `count` new clients with a domain each: its plan is far larger than a pipe holds. */
function bigManifest(count: number): string {
  const clients = Array.from(
    { length: count },
    (_, i) => `  - username: client-${i}\n    domains: [client-${i}.example]\n`,
  );
  return `version: 1\nclients:\n${clients.join('')}`;
}

describe('outputs whose reader has gone', () => {
  it('provision plan big.yaml | head -1 and secrets decrypt f --all | head -1: the first line, then a quiet end by SIGPIPE', async () => {
    const w = await workspace(bigManifest(3000));
    const secrets = join(w.dir, 'secrets.jsonl');
    const records = Array.from(
      { length: 20_000 },
      (_, i) =>
        `${JSON.stringify({ created_at: 't', panel_url: w.sim.url, username: `client-${i}`, id: i + 1, password: `Password-Of-Client-${i}` })}\n`,
    );
    await writeFile(secrets, records.join(''), { mode: 0o600 });
    const errors = join(w.dir, 'stderr.txt');
    // A reader that is slow to start too: the output is then queued in the process, not blocked
    // on, and what the command says on stderr after it must wait for it to have left.
    for (const [command, first, reader] of [
      [`plan ${w.file}`, /^Changes to http:\/\/127\.0\.0\.1:\d+\/api\/v2:$/, 'head -1'],
      [`secrets decrypt ${secrets} --all`, /client-0/, 'head -1'],
      [`secrets decrypt ${secrets} --all`, /client-0/, '(sleep 0.3; head -1)'],
      [`secrets decrypt ${secrets}`, /client-0/, '(sleep 0.3; head -1)'],
    ] as const) {
      const shell = `"${process.execPath}" "${BIN}" ${command} 2>"${errors}" | ${reader}; echo "status=\${PIPESTATUS[0]}"`;
      // Not execFileSync: the simulator answers from this process.
      const { stdout } = await promisify(execFile)('bash', ['-c', shell], {
        env: { PATH: process.env.PATH ?? '', ...w.env },
        encoding: 'utf8',
      });
      const [line, status] = stdout.split('\n');
      expect(line, `${command} | ${reader}`).toMatch(first);
      // 128 + SIGPIPE, as for any Unix tool that writes on after its reader has gone.
      expect(status, `${command} | ${reader}`).toBe('status=141');
      expect(await readFile(errors, 'utf8'), `${command} | ${reader}`).toBe('');
    }
  });

  it.each([
    ['--version', 'stdout', ['--version']],
    ['help', 'stdout', ['--help']],
    ['plan', 'stdout', ['plan', 'MANIFEST']],
    ['plan --format json', 'stdout', ['plan', 'MANIFEST', '--format', 'json']],
    ['validate', 'stdout', ['validate', 'MANIFEST']],
    ['export', 'stdout', ['export']],
    ['secrets keygen', 'stdout', ['secrets', 'keygen']],
    ['an error', 'stderr', ['plan', 'MISSING']],
    ['a usage error', 'stderr', ['plan', '-no-such-flag']],
  ] as const)('%s, its %s closed: ends at the failed write by SIGPIPE, saying nothing', async (_, stream, args) => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n');
    const r = await withClosedReader(
      w.dir,
      stream,
      args.map((a) => (a === 'MANIFEST' ? w.file : a === 'MISSING' ? join(w.dir, 'missing.yaml') : a)),
      w.env,
    );
    expect(r.signal, r.output).toBe('SIGPIPE');
    // It ends at the failed write, as a C program does: nothing said after it on the other stream.
    expect(r.output).toBe('');
  });

  it.each([
    ['--help', 'stdout', ['--help']],
    ['a usage error', 'stderr', ['--no-such-flag']],
  ] as const)('provision-pr-comment %s, its %s closed: ends by SIGPIPE, saying nothing', async (_, stream, args) => {
    const w = await workspace('version: 1\nclients: []\n');
    const r = await withClosedReader(w.dir, stream, [...args], {}, join(DIST, 'action', 'pr-comment.js'));
    expect(r.signal, r.output).toBe('SIGPIPE');
    expect(r.output).toBe('');
  });

  it('apply, its stdout closed: stops as at a first Ctrl-C or ends by SIGPIPE, never a stack trace; a second apply finishes', async () => {
    const w = await workspace(bigManifest(20));
    const env = { ...w.envWithSecrets };
    const r = await withClosedReader(w.dir, 'stdout', ['apply', w.file, '--auto-approve'], env);
    expect(r.signal === 'SIGPIPE' || r.code === 130, `${r.code} ${r.signal} ${r.output}`).toBe(true);
    expect(r.output).not.toMatch(/EPIPE|Error|\n +at /);
    const again = await run(['apply', w.file, '--auto-approve'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(w.sim.state.clientNamed('client-19')).toBeDefined();
  });

  it('apply whose reader goes away mid-run stops as at a first Ctrl-C: in-flight requests finish, nothing new is sent, exit 130', async () => {
    // Every POST waits until the reader has gone: the first outcome line is written after it.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const w = await workspace(bigManifest(20), {
      intercept: async ({ method }) => {
        if (method === 'POST') await gate;
        return undefined;
      },
    });
    const r = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'apply', w.file, '--auto-approve', '--concurrency', '2'], {
          env: { PATH: process.env.PATH ?? '', ...w.envWithSecrets },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        // The plan's text arrives first; then the reader goes, and only then may the requests answer.
        child.stdout.once('data', () => {
          child.stdout.destroy();
        });
        child.stdout.on('close', () => {
          open();
        });
        child.on('error', reject);
        child.on('close', (code, signal) => {
          resolve({ code, signal, stderr });
        });
      },
    );
    expect(r.stderr).toContain('interrupted: requests in flight finish; nothing new is sent');
    expect(r.stderr).not.toMatch(/EPIPE|Error|\n +at /);
    expect(r.code).toBe(130);
    // The two requests in flight (--concurrency 2) finished, each starting at most one more as
    // it did before the stop took effect (as a Ctrl-C at that instant); nothing new after.
    const created = w.posts().filter((post) => post.startsWith('/clients '));
    expect(created.length).toBeGreaterThan(0);
    expect(created.length).toBeLessThanOrEqual(4);
    const again = await run(['apply', w.file, '--auto-approve'], w.envWithSecrets);
    expect(again.code, again.stderr).toBe(0);
    expect(w.sim.state.clientNamed('client-19')).toBeDefined();
  });

  it('apply 2>&1 | head: both streams on one pipe whose reader leaves mid-run: the stop still finishes, no password lost', async () => {
    // The reader leaves once the first POST is at the panel (the walk is running); the POSTs
    // answer only after it has gone.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let arrived: () => void = () => undefined;
    const firstPost = new Promise<void>((resolve) => (arrived = resolve));
    const w = await workspace(bigManifest(20), {
      intercept: async ({ method }) => {
        if (method !== 'POST') return undefined;
        arrived();
        await gate;
        return undefined;
      },
    });
    const r = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      // `exec … 2>&1`: stderr is the same pipe as stdout, as in `provision apply m.yaml 2>&1 | head`.
      const child = spawn(
        'bash',
        ['-c', 'exec "$0" "$@" 2>&1', process.execPath, BIN, 'apply', w.file, '--auto-approve', '--concurrency', '2'],
        { env: { PATH: process.env.PATH ?? '', ...w.envWithSecrets }, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      child.stdout.resume();
      void firstPost.then(() => child.stdout.destroy());
      child.stdout.on('close', () => {
        open();
      });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        resolve({ code, signal });
      });
    });
    // Stopped as at a first Ctrl-C (the stop's own note found the pipe closed too), not killed
    // by SIGPIPE with answers in flight.
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    const created = [...w.sim.state.clients.values()].filter((c) => c.username.startsWith('client-')).length;
    expect(created).toBeGreaterThan(0);
    const recorded = (await readFile(w.secrets, 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"password":')).length;
    expect(recorded).toBe(created);
    await expect(readFile(`${w.secrets}.lock`)).rejects.toThrow();
  });

  it('a stdout that cannot be written for another reason (a full disk): said on stderr, exit 1', () => {
    for (const args of [['--version'], ['--help']]) {
      let failure: { status: number; stderr: string } | undefined;
      try {
        execFileSync('bash', ['-c', `"${process.execPath}" "${BIN}" ${args.join(' ')} >/dev/full`], {
          env: { PATH: process.env.PATH ?? '', PROVISION_API_KEY: API_KEY },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (error) {
        failure = error as { status: number; stderr: string };
      }
      expect(failure?.status).toBe(1);
      expect(failure?.stderr).toBe('error: cannot write to standard output: ENOSPC: the output is incomplete\n');
    }
  });
});
