/**
 * `provision show plan.json`: a saved plan printed again, as plan printed it, without the panel
 * (no URL, no key: the environment is empty), and refused as apply refuses it when edited.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    plan: Basic
    domains: [alice.example, bücher.example]
  - username: bob
    state: absent
`;
const SEED = {
  seed: {
    clients: [
      { username: 'bob', domains: ['bob.example'] },
      { username: 'zed', domains: ['zed.example'] },
    ],
  },
};

/** `provision <argv>` with `stdin` as standard input and nothing in the environment. */
async function runWithStdin(argv: string[], stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (t) => (stdout += t), isTTY: false },
    stderr: { write: (t) => (stderr += t), isTTY: false },
    env: {},
    untilStopped: () => new Promise<void>(() => undefined),
    readStdin: () => Promise.resolve(new TextEncoder().encode(stdin)),
  });
  return { code, stdout, stderr };
}

describe('provision show', () => {
  it('prints a saved plan in each format as plan printed it, with no URL or key in the environment', async () => {
    const w = await workspace(MANIFEST, SEED);
    const made = await run(['plan', w.file, '--out', w.planFile], w.env);
    expect(made.code, made.stderr).toBe(0);
    for (const format of ['text', 'json', 'markdown']) {
      const planned = await run(['plan', w.file, '--format', format], w.env);
      const requests = w.sim.requests.length;
      const shown = await run(['show', w.planFile, '--format', format], {});
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout, format).toBe(planned.stdout);
      expect(w.sim.requests.length, 'show sends nothing').toBe(requests);
    }
    // JSON is the saved document itself, byte for byte; text by default.
    expect((await run(['show', w.planFile, '--format', 'json'])).stdout).toBe(await readFile(w.planFile, 'utf8'));
    expect((await run(['show', w.planFile])).stdout).toContain('Not in the manifest, left alone: 1 client, 1 domain.');
    const markdown = (await run(['show', w.planFile, '--format', 'markdown'])).stdout;
    expect(markdown).not.toContain(w.sim.url);
    expect(markdown).toContain(
      '# domain "xn--bcher-kva.example" (bücher.example) of client "alice"\n+ POST /domains {"domain":"xn--bcher-kva.example"',
    );
    expect((await run(['show', w.planFile, '--format', 'markdown', '--show-url'])).stdout).toContain(
      `against <code>${w.sim.url}</code>`,
    );
  });

  it('apply of a plan saved without names still counts the unmanaged accounts, as plan did', async () => {
    const w = await workspace(MANIFEST, SEED);
    await run(['plan', w.file, '--out', w.planFile], w.env);
    const applied = await run(['apply', w.planFile], w.envWithSecrets);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Not in the manifest, left alone: 1 client, 1 domain.');
  });

  it('plan: the Markdown and the step summary name the panel URL only with --show-url', async () => {
    const w = await workspace(MANIFEST, SEED);
    const summary = `${w.dir}/summary.md`;
    const env = { ...w.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
    const quiet = await run(['plan', w.file, '--format', 'markdown'], env);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toContain('(bücher.example)');
    expect(quiet.stdout + (await readFile(summary, 'utf8'))).not.toContain(w.sim.url);
    const told = await run(['plan', w.file, '--format', 'markdown', '--show-url'], env);
    expect(told.stdout).toContain(`against <code>${w.sim.url}</code>`);
    expect(await readFile(summary, 'utf8')).toContain(`against <code>${w.sim.url}</code>`);
    // Text names the panel it was read from: a terminal or a log, not a comment.
    expect((await run(['plan', w.file], w.env)).stdout).toContain(`Changes to ${w.sim.url}:`);
  });

  it('keeps unmanaged names only when the plan was made with them', async () => {
    const w = await workspace(MANIFEST, SEED);
    await run(['plan', w.file, '--out', w.planFile, '--show-unmanaged'], w.env);
    const shown = await run(['show', w.planFile]);
    expect(shown.stdout).toContain('  client zed\n  domain zed.example\n');
    expect((await run(['show', w.planFile, '--format', 'json'])).stdout).toBe(await readFile(w.planFile, 'utf8'));
  });

  it('reads standard input given as -', async () => {
    const w = await workspace(MANIFEST, SEED);
    await run(['plan', w.file, '--out', w.planFile], w.env);
    const text = await readFile(w.planFile, 'utf8');
    const shown = await runWithStdin(['show', '-', '--format', 'json'], text);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(text);
  });

  it('refuses an edited plan as apply does, and a manifest with what to run instead', async () => {
    const w = await workspace(MANIFEST, SEED);
    await run(['plan', w.file, '--out', w.planFile], w.env);
    const text = await readFile(w.planFile, 'utf8');
    await writeFile(w.planFile, text.replace('"alice.example"', '"alice2.example"'));
    const shown = await run(['show', w.planFile]);
    const applied = await run(['apply', w.planFile], w.env);
    expect(shown.code).toBe(1);
    expect(shown.stdout).toBe('');
    expect(shown.stderr).toContain('error: ');
    expect(shown.stderr).toBe(applied.stderr);

    const manifest = await run(['show', w.file]);
    expect(manifest.code).toBe(1);
    expect(manifest.stderr).toContain(`error: "${w.file}" is a manifest, not a saved plan`);
    expect(manifest.stderr).toContain(`hint: run provision plan ${w.file}`);

    const missing = await run(['show', `${w.dir}/nope.json`]);
    expect(missing.stderr).toContain('cannot read the manifest or plan file');
  });
});
