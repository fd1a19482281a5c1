/** What the action's tests share: action.yml parsed, the package, a workspace with a manifest, fake npm, a node spy. */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { parse } from 'yaml';
import { tempDir } from '../helpers/sim-http.js';
import { type ActionFile, fakeNpm } from './composite.js';
import type { FakeGitHub } from './fake-github.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as ActionFile;
export const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};
export const TOKEN = 'ghs_FAKEtoken0123456789abcdefTOKEN';

export async function setup(
  manifest: string,
  fake: FakeGitHub,
  pullRequest: string,
): Promise<{
  temp: string;
  workspace: string;
  npmLog: string;
  env: Record<string, string>;
  github: Record<string, string>;
}> {
  const temp = await tempDir();
  const workspace = join(temp, 'workspace');
  await mkdir(join(workspace, 'panel'), { recursive: true });
  await writeFile(join(workspace, 'panel', 'manifest.yaml'), manifest);
  const { env: npmEnv, npmLog } = await fakeNpm(temp);
  await gitRemote(temp, workspace);
  const env = { ...npmEnv, GITHUB_API_URL: fake.url, GITHUB_REPOSITORY: 'acme/panel' };
  return {
    temp,
    workspace,
    npmLog,
    env,
    github: {
      token: TOKEN,
      'event.pull_request.number': pullRequest,
      'event.repository.private': 'true',
      action_path: ROOT,
    },
  };
}

const git = promisify(execFile);

/**
 * The workspace as actions/checkout leaves it: a git repository whose `origin` is "the same
 * repository", here a bare one in `temp` (returned): the secrets branch is pushed there.
 */
export async function gitRemote(temp: string, workspace: string): Promise<string> {
  const remote = join(temp, 'remote.git');
  await git('git', ['init', '--quiet', '--bare', remote]);
  await git('git', ['init', '--quiet', workspace]);
  await git('git', ['-C', workspace, 'remote', 'add', 'origin', remote]);
  return remote;
}

/** The pinned actions action.yml uses, by name (test/e2e/workflows.test.ts checks every pin's form). */
export const SETUP_NODE = action.runs.steps[0]!.uses!;
export const UPLOAD = action.runs.steps.find(
  (step) => step.uses?.startsWith('actions/upload-artifact@') === true,
)!.uses!;
export const DOWNLOAD = action.runs.steps.find(
  (step) => step.uses?.startsWith('actions/download-artifact@') === true,
)!.uses!;

export const CHANGES = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example]\n';
export const CONFLICT = 'version: 1\nclients:\n  - username: alice\n    domains: [alice.example, shop.alice.example]\n';

/** One `node` the action's steps started: the script (or -e), its first argument, which of PROVISION_URL and PROVISION_API_KEY it had. */
export interface NodeCall {
  readonly script: string;
  readonly arg: string;
  readonly vars: readonly string[];
}

/**
 * A `node` first on PATH that records each start (the bins the install step writes call `node`
 * by name), then runs the real one: which of the panel's two variables (names only, set even
 * when empty) each process had.
 * `env` goes over setup()'s; `calls()` reads the record.
 */
export async function spyNode(
  temp: string,
  base: Record<string, string>,
): Promise<{
  env: Record<string, string>;
  calls: () => Promise<NodeCall[]>;
}> {
  const dir = join(temp, 'spybin');
  const log = join(temp, 'node-calls.log');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'node'),
    `#!/bin/sh\nprintf '%s\\t%s\\t%s\\n' "$1" "$2" "$(env | awk -F= '/^PROVISION_(URL|API_KEY)=/ { print $1 }' | sort | tr '\\n' ' ')" >> "${log}"\nexec "${process.execPath}" "$@"\n`,
  );
  await chmod(join(dir, 'node'), 0o755);
  return {
    env: { ...base, PATH: `${dir}:${base.PATH ?? ''}` },
    calls: async () =>
      (await readFile(log, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [script = '', arg = '', vars = ''] = line.split('\t');
          return { script, arg, vars: vars.split(' ').filter((v) => v !== '') };
        }),
  };
}

/** The provision step's name in action.yml. */
export const RUN = 'provision ${{ inputs.command }}';

/** The step of a run by its name (action.yml's step names are unique). */
export function stepNamed<T extends { readonly name: string }>(r: { readonly steps: readonly T[] }, name: string): T {
  const found = r.steps.find((step) => step.name === name);
  if (found === undefined) throw new Error(`no step ${name}`);
  return found;
}
