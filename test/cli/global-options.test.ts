/**
 * What every command takes: `provision help <command>` (the command's --help) and `--no-color`
 * (NO_COLOR for the run, on a terminal too), as a Terraform user expects.
 */
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

describe('help <command>', () => {
  it("prints the command's own help, and suggests the nearest command for a typo", async () => {
    const viaHelp = await run(['help', 'plan']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe((await run(['plan', '--help'])).stdout);
    expect(viaHelp.stdout).toMatch(/^Usage: provision plan /);
    const typo = await run(['help', 'plna']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('did you mean plan?');
    expect((await run(['help'])).stdout).toContain('Commands:');
  });
});

describe('--no-color', () => {
  it('turns colours off on a terminal, for any command, wherever it stands', async () => {
    const w = await workspace('version: 1\nclients:\n  - username: alice\n');
    const coloured = await run(['plan', w.file], w.env, { tty: true });
    expect(coloured.stdout).toContain('\u001b[');
    for (const argv of [
      ['plan', w.file, '--no-color'],
      ['--no-color', 'plan', w.file],
    ]) {
      const plain = await run(argv, w.env, { tty: true });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).not.toContain('\u001b[');
      expect(plain.stdout).toContain('Plan: 1 to create (1 client).');
    }
  });
});
