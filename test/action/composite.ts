/**
 * A small stand-in for the Actions runner, enough to run action.yml's composite steps here:
 * each `run:` step with bash as the runner starts it (`bash --noprofile --norc -eo pipefail`),
 * its env and working-directory resolved from the inputs, the step outputs ($GITHUB_OUTPUT) and
 * runner.temp; each `if:` evaluated (`always()`, `&&`, `==` / `!=` against a string). A `uses:`
 * step is recorded with its resolved `with:`, not run. An expression it does not know fails the
 * test, so action.yml cannot grow one that this runner silently misreads.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ActionStep {
  readonly id?: string;
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  /** YAML scalars: a number stays a number until it is expanded. */
  readonly with?: Record<string, string | number | boolean>;
  readonly run?: string;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly 'working-directory'?: string;
}

export interface ActionFile {
  readonly inputs: Record<string, { default?: string; required?: boolean }>;
  readonly outputs: Record<string, { value: string }>;
  readonly runs: { using: string; steps: ActionStep[] };
}

export interface StepResult {
  readonly name: string;
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly code?: number;
  readonly stdout: string;
  readonly stderr: string;
  /** For a `uses:` step: what it would be given. */
  readonly uses?: string;
  readonly with?: Record<string, string>;
}

/** What the job's context offers the expressions: `github.*` values by path. */
export interface RunnerContext {
  readonly temp: string;
  readonly workspace: string;
  readonly github: Record<string, string>;
  /** The process env every step starts from (PATH, the fake npm, GITHUB_* of the job). */
  readonly env: Record<string, string>;
}

export async function runComposite(
  action: ActionFile,
  given: Record<string, string>,
  context: RunnerContext,
): Promise<{ steps: StepResult[]; outputs: Record<string, string>; failed: boolean }> {
  const outputs = new Map<string, Record<string, string>>();
  const inputs: Record<string, string> = {};
  const results: StepResult[] = [];
  let failed = false;
  const value = (path: string): string => {
    const [root, ...rest] = path.split('.');
    if (root === 'inputs' && rest.length === 1) return inputs[rest[0]!] ?? '';
    if (root === 'runner' && rest.join('.') === 'temp') return context.temp;
    if (root === 'github') {
      const key = rest.join('.');
      if (!(key in context.github)) throw new Error(`the test runner has no github.${key}`);
      return context.github[key]!;
    }
    if (root === 'steps' && rest.length === 3 && rest[1] === 'outputs') return outputs.get(rest[0]!)?.[rest[2]!] ?? '';
    throw new Error(`the test runner cannot evaluate ${path}`);
  };
  const expand = (text: string): string =>
    text
      .replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => value(path))
      .replace(/\$\{\{[^}]*\}\}/g, (e) => {
        throw new Error(`the test runner cannot evaluate ${e}`);
      });
  const condition = (text: string | undefined): boolean => {
    if (text === undefined) return !failed;
    const terms = text.split('&&').map((term) => term.trim());
    const always = terms.includes('always()');
    const holds = terms
      .filter((term) => term !== 'always()')
      .every((term) => {
        const match = /^([\w.-]+)\s*(==|!=)\s*'([^']*)'$/.exec(term);
        if (match === null) throw new Error(`the test runner cannot evaluate if: ${text}`);
        return (value(match[1]!) === match[3]) === (match[2] === '==');
      });
    return holds && (always || !failed);
  };
  for (const [name, spec] of Object.entries(action.inputs)) {
    const input = given[name] ?? (spec.default === undefined ? '' : expand(spec.default));
    if (spec.required === true && input === '') throw new Error(`input ${name} is required`);
    inputs[name] = input;
  }
  for (const unknown of Object.keys(given).filter((name) => !(name in action.inputs)))
    throw new Error(`action.yml has no input ${unknown}`);

  for (const step of action.runs.steps) {
    const name = step.name ?? step.uses ?? step.id ?? '?';
    if (!condition(step.if)) {
      results.push({ name, outcome: 'skipped', stdout: '', stderr: '' });
      continue;
    }
    if (step.uses !== undefined) {
      results.push({
        name,
        outcome: 'success',
        stdout: '',
        stderr: '',
        uses: step.uses,
        with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v))])),
      });
      continue;
    }
    if (step.shell !== 'bash' || step.run === undefined)
      throw new Error(`step ${name}: the test runner runs bash steps only`);
    const outputFile = join(context.temp, `output-${results.length}`);
    await writeFile(outputFile, '');
    const script = join(context.temp, `step-${results.length}.sh`);
    await writeFile(script, step.run);
    const env = {
      ...context.env,
      RUNNER_TEMP: context.temp,
      GITHUB_WORKSPACE: context.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ACTIONS: 'true',
      CI: 'true',
    };
    for (const [key, raw] of Object.entries(step.env ?? {})) env[key as 'CI'] = expand(raw);
    const cwd = step['working-directory'] === undefined ? context.workspace : expand(step['working-directory']);
    const r = await bash(script, env, cwd);
    const text = await readFile(outputFile, 'utf8');
    if (step.id !== undefined)
      outputs.set(
        step.id,
        Object.fromEntries(
          text
            .split('\n')
            .filter((l) => l.includes('='))
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        ),
      );
    results.push({
      name,
      outcome: r.code === 0 ? 'success' : 'failure',
      code: r.code,
      stdout: r.stdout,
      stderr: r.stderr,
    });
    if (r.code !== 0) failed = true;
  }
  const out = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, expand(v.value)]));
  return { steps: results, outputs: out, failed };
}

function bash(
  script: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/**
 * A fake `npm` on PATH. `npm ci` and `npm run` (the action building its own checkout) log their
 * cwd and arguments to `$NPM_LOG.build` and do nothing: the action path the tests give is this
 * checkout, built by the tests' global setup. `npm install` logs its cwd and arguments to
 * `$NPM_LOG` and installs this checkout's build under --prefix as npm lays a global install
 * out: a copy of the package in lib/node_modules/@panel-provision/cli (its node_modules a link
 * to this checkout's), and its bin a symbolic link into it, which the action must replace, never
 * write through.
 */
const FAKE_NPM = `#!/bin/sh
case "$1" in
  ci|run) { pwd; printf '%s\\n' "$@"; } >> "$NPM_LOG.build"; exit 0 ;;
esac
{ pwd; printf '%s\\n' "$@"; } > "$NPM_LOG"
prefix=""; prev=""
for a in "$@"; do [ "$prev" = "--prefix" ] && prefix="$a"; prev="$a"; done
package="$prefix/lib/node_modules/@panel-provision/cli"
mkdir -p "$prefix/bin" "$package"
cp -R "$PACKAGE_ROOT/package.json" "$PACKAGE_ROOT/bundle" "$PACKAGE_ROOT/dist" "$package/"
ln -s "$PACKAGE_ROOT/node_modules" "$package/node_modules"
ln -s ../lib/node_modules/@panel-provision/cli/bundle/bin.js "$prefix/bin/provision"
`;

/**
 * Puts the fake `npm` in `<temp>/fakebin`: the action's install step then "builds" its own
 * checkout (`npmLog`.build says what it was asked) or "installs" this checkout's build (made by
 * the tests' global setup) as npm would, and logs what it was asked in `npmLog`.
 * `env` is the PATH and what the fake reads.
 */
export async function fakeNpm(temp: string): Promise<{ env: Record<string, string>; npmLog: string }> {
  const fakeBin = join(temp, 'fakebin');
  await mkdir(fakeBin, { recursive: true });
  await writeFile(join(fakeBin, 'npm'), FAKE_NPM);
  await chmod(join(fakeBin, 'npm'), 0o755);
  const npmLog = join(temp, 'npm.log');
  const env = {
    PATH: `${fakeBin}:${process.env.PATH ?? ''}`,
    NPM_LOG: npmLog,
    PACKAGE_ROOT: join(import.meta.dirname, '..', '..'),
  };
  return { env, npmLog };
}
