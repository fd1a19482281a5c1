/**
 * Every input is read once, whatever it is: a manifest or a saved plan given as a pipe
 * (`/dev/stdin`, `<(cat m.yaml)`, `-`) reaches apply whole; reading it twice would find it empty.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/dist.js';
import { workspace } from '../helpers/cli.js';

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
