/**
 * Plan-time problems reach the manifest's lines: under GitHub Actions a conflict is a workflow
 * annotation at the entry that causes it (beside the plan output, which still prints), and the
 * annotation names no other customer (it shows on the pull request).
 */
import { describe, expect, it } from 'vitest';
import { run, workspace } from '../helpers/cli.js';

const MANIFEST = `version: 1
clients:
  - username: alice
    domains:
      - alice.example
      - taken.example
      - name: old.alice.example
        state: absent
`;
const SEED = {
  seed: {
    clients: [
      {
        username: 'alice',
        domains: ['alice.example', 'old.alice.example', 'www.old.alice.example'],
      },
      { username: 'zed', domains: ['taken.example'] },
    ],
  },
};

describe('conflicts on the manifest lines', () => {
  it('under GitHub Actions: one annotation per conflict at its entry, after the plan', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file], { ...w.env, GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('belongs to client "zed" on the panel');
    const annotations = r.stderr.split('\n').filter((line) => line.startsWith('::'));
    const file = w.file.replaceAll(':', '%3A').replaceAll(',', '%2C');
    expect(annotations).toEqual([
      `::error file=${file},line=6,col=9::domain "taken.example" is listed under client "alice" but belongs to another client on the panel`,
      `::error file=${file},line=7,col=15::domain "old.alice.example" of client "alice" is to be deleted, but its subdomains "www.old.alice.example" stay on the panel: mark them absent too, or keep the domain`,
    ]);
    expect(r.stderr).toContain(
      `  ${w.file}:6:9: error: domain "taken.example" is listed under client "alice" but belongs to another client`,
    );
    expect(annotations.join('\n')).not.toContain('zed');
  });

  it('apply of the manifest annotates the same lines, and sends nothing', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['apply', w.file], { ...w.envWithSecrets, GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    const file = w.file.replaceAll(':', '%3A').replaceAll(',', '%2C');
    expect(r.stderr).toContain(`::error file=${file},line=6,col=9::`);
    expect(r.stderr).toContain(`::error file=${file},line=7,col=15::`);
    expect(w.sim.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('outside GitHub Actions: the located lines, no annotation; JSON and Markdown stay on stdout', async () => {
    const w = await workspace(MANIFEST, SEED);
    const r = await run(['plan', w.file, '--format', 'json'], w.env);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ summary: { conflicts: 2 } });
    expect(r.stderr).toContain(`${w.file}:6:9: error: `);
    expect(r.stderr).not.toContain('::error');
  });
});
