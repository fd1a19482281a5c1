/**
 * The files the CLI rewrites (plan --out, export --out, export --into) are the user's
 * documents: each keeps its mode and owner across the atomic rewrite (git sees no mode change, a
 * file of another user's stays theirs), or nothing is written when the owner cannot be kept;
 * `--out -` makes no file named "-".
 */
import { spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, CAN_RUN_AS_NOBODY } from '../helpers/dist.js';
import { run, workspace } from '../helpers/cli.js';

const SEED = { hostingPlans: ['Basic'], clients: [{ username: 'alice', plan: 'Basic', domains: ['alice.example'] }] };
/** Lists alice without her domain: export --into adds it, so the file is rewritten. */
const MANIFEST = '# the panel\nversion: 1\nclients:\n  - username: alice\n    plan: Basic\n';

/** The file's mode bits (permissions and set-id bits) and owner. */
async function modeAndOwner(path: string): Promise<{ mode: string; uid: number; gid: number }> {
  const info = await stat(path);
  return { mode: (info.mode & 0o7777).toString(8), uid: info.uid, gid: info.gid };
}

const isRoot = process.getuid?.() === 0;

describe('a rewritten file keeps its mode and owner', () => {
  it.each(['440', '755', '600', '640', '2775'])('export --into on a %s manifest', async (octal) => {
    const mode = parseInt(octal, 8);
    const w = await workspace(MANIFEST, { seed: SEED });
    await chmod(w.file, mode);
    const r = await run(['export', '--into', w.file], w.env);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(w.file, 'utf8')).toContain('alice.example');
    expect((await modeAndOwner(w.file)).mode).toBe(octal);
    expect(await readdir(w.dir)).toEqual(['manifest.yaml']);
  });

  it.runIf(isRoot)(
    "plan --out and export --out over a file of another user's: owner, group and mode kept",
    async () => {
      const w = await workspace(MANIFEST, { seed: SEED });
      const exported = join(w.dir, 'exported.yaml');
      for (const [path, uid, gid, mode] of [
        [w.planFile, 1234, 1234, 0o600],
        [exported, 4321, 100, 0o664],
      ] as const) {
        await writeFile(path, 'old');
        await chown(path, uid, gid);
        await chmod(path, mode);
      }
      expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
      expect((await run(['export', '--out', exported], w.env)).code).toBe(0);
      expect(JSON.parse(await readFile(w.planFile, 'utf8'))).toHaveProperty('format_version');
      expect(await readFile(exported, 'utf8')).toContain('alice.example');
      expect(await modeAndOwner(w.planFile)).toEqual({ mode: '600', uid: 1234, gid: 1234 });
      expect(await modeAndOwner(exported)).toEqual({ mode: '664', uid: 4321, gid: 100 });
    },
  );

  it('a new file: 0644 (less the umask), as before', async () => {
    const w = await workspace(MANIFEST, { seed: SEED });
    expect((await run(['plan', w.file, '--out', w.planFile], w.env)).code).toBe(0);
    const reference = join(w.dir, 'reference');
    await writeFile(reference, '', { mode: 0o644 });
    expect((await modeAndOwner(w.planFile)).mode).toBe((await modeAndOwner(reference)).mode);
  });

  it.runIf(CAN_RUN_AS_NOBODY).each([
    ["root's file", 0, 'cannot keep the owner of PATH (user 0, group 0): EPERM', "run as the file's owner"],
    [
      'its own file in a group it is not in',
      65534,
      'cannot keep the group of PATH (group 0): EPERM',
      "change the file's group to one of yours",
    ],
  ] as const)(
    'a user who cannot give the file back its owner and group writes nothing (run as nobody over %s)',
    async (_, uid, message, hint) => {
      const w = await workspace(MANIFEST, { seed: SEED });
      // A directory anyone may write in (so the rename itself would succeed), holding the plan file.
      const dir = await mkdtemp(join(tmpdir(), 'provision-owner-'));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      await chmod(dir, 0o777);
      const manifest = join(dir, 'manifest.yaml');
      await writeFile(manifest, MANIFEST, { mode: 0o644 });
      const planFile = join(dir, 'plan.json');
      await writeFile(planFile, 'the old plan', { mode: 0o644 });
      await chown(planFile, uid, 0);
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'plan', manifest, '--out', planFile], {
          env: { PATH: process.env.PATH ?? '', ...w.env },
          uid: 65534,
          gid: 65534,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => {
          resolve({ code, stderr });
        });
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`error: ${message.replace('PATH', planFile)}: nothing was written`);
      expect(r.stderr).toContain(hint);
      expect(await readFile(planFile, 'utf8')).toBe('the old plan');
      expect((await readdir(dir)).sort()).toEqual(['manifest.yaml', 'plan.json']);
    },
  );
});

describe("--out - makes no file named '-'", () => {
  it.each([
    ['plan', ['plan', 'MANIFEST', '--out', '-'], '--format json prints the same plan document on stdout'],
    ['secrets keygen', ['secrets', 'keygen', '--out', '-'], 'without --out'],
    ['export', ['export', '--out', '-'], 'without --out the manifest goes to stdout'],
  ])('%s: refused before anything is read or sent, saying what prints to stdout', async (_, argv, hint) => {
    const w = await workspace(MANIFEST, { seed: SEED });
    const cwd = process.cwd();
    // Were the refusal gone, the file would land here: not left behind.
    onTestFinished(() => rm(join(cwd, '-'), { force: true }));
    const r = await run(
      argv.map((a) => (a === 'MANIFEST' ? w.file : a)),
      w.env,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("error: --out takes a file path, not '-' (standard output): nothing was written");
    expect(r.stderr).toContain(hint);
    expect(r.stderr).toContain('for a file named -, give ./-');
    expect(w.sim.requests).toHaveLength(0);
    await expect(stat(join(cwd, '-'))).rejects.toThrow();
  });
});
