/**
 * Help texts say only what the code does: every exit code comes from the table in
 * src/cli/exit.ts (each command's help ends with its exitCodesHelp line, and no source file of
 * the CLI writes one by hand), and each numeric flag's help line gives the range its parser
 * enforces (read from the parser's own refusal, so the two cannot drift apart).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, loadCommand } from '../../src/cli/main.js';
import { EXIT, exitCodesHelp } from '../../src/cli/exit.js';
import { run, workspace } from '../helpers/cli.js';

const CODES = new Map(Object.entries(EXIT).map(([name, code]) => [code as number, name as keyof typeof EXIT]));
const SOURCES = join(import.meta.dirname, '..', '..', 'src', 'cli');

describe('exit codes in help texts', () => {
  it.each(COMMAND_NAMES)('%s: every "exit N" is a code of EXIT, and the help ends with exitCodesHelp', async (name) => {
    const command = await loadCommand(name);
    const text = `${command.usage}\n${command.summary}\n${command.help}`;
    for (const match of text.matchAll(/\bexit(?:\s+codes?:)?\s+(\d+)|\$\? -eq (\d+)/gi))
      expect(CODES.has(Number(match[1] ?? match[2])), match[0]).toBe(true);
    const last = command.help.trimEnd().split('\n').at(-1) ?? '';
    const listed = last
      .replace(/^Exit codes: /, '')
      .split('; ')
      .map((part) => CODES.get(Number(/^\d+/.exec(part)?.[0])));
    expect(listed.every((code) => code !== undefined)).toBe(true);
    expect(last).toBe(exitCodesHelp(listed.filter((code) => code !== undefined)));
  });

  it('no source file of the CLI writes an exit code as a literal', async () => {
    for (const file of await readdir(SOURCES)) {
      const source = await readFile(join(SOURCES, file), 'utf8');
      expect(source.match(/\bexit(?:\s+codes?:?)?\s+\d|\$\? -eq \d/gi), file).toBeNull();
    }
  });
});

/** The string flags of each command whose parser takes a number, as probing finds them. */
const NUMERIC = {
  plan: ['max-answer-mb', 'max-creates', 'max-deletes', 'max-manifest-mb'],
  apply: ['concurrency', 'max-answer-mb', 'max-creates', 'max-deletes', 'max-manifest-mb', 'settle-timeout'],
  simulator: [
    'ambiguous-post-rate',
    'ambiguous-put-rate',
    'error-rate',
    'fault-seed',
    'latency',
    'not-ready',
    'port',
    'reset-rate',
    'zone-race-rate',
  ],
  validate: ['max-manifest-mb'],
  export: ['max-answer-mb', 'max-manifest-mb'],
  secrets: [],
  show: [],
  doctor: ['max-answer-mb'],
  snapshot: ['max-answer-mb', 'max-manifest-mb'],
} as const;

describe('numeric flags', () => {
  it.each(COMMAND_NAMES)("%s: each one's help line gives the range its parser enforces", async (name) => {
    const command = await loadCommand(name);
    const w = await workspace('version: 1\nclients:\n  - username: alice\n');
    const found: string[] = [];
    for (const [flag, option] of Object.entries(command.options ?? {})) {
      if (option.type !== 'string' || flag === 'api-key') continue;
      // Not a number, and harmless as a path (--out, --state, --secrets-file write in the workspace).
      const value = join(w.dir, 'not-a-number');
      const argv =
        name === 'simulator'
          ? ['simulator', '--api-key', 'sim-key-1', `--${flag}`, value]
          : name === 'secrets'
            ? ['secrets', 'decrypt', w.secrets, `--${flag}`, value]
            : name === 'export'
              ? ['export', '--into', w.file, `--${flag}`, value]
              : name === 'doctor'
                ? ['doctor', `--${flag}`, value]
                : [name, w.file, `--${flag}`, value];
      const r = await run(argv, w.envWithSecrets, { stop: Promise.resolve() });
      const match = new RegExp(`--${flag} takes [^\\n]*? (?:from (\\d+) to|between (\\d+) and) (\\d+)`).exec(r.stderr);
      if (match === null) continue;
      const range = [match[1] ?? match[2], match[3]];
      found.push(flag);
      const lines = command.help.split('\n');
      const start = lines.findIndex((line) => line.startsWith(`  --${flag} `));
      const end = lines.findIndex((line, i) => i > start && !/^ {20,}\S/.test(line));
      expect(lines.slice(start, end).join(' '), flag).toContain(`${range[0]} to ${range[1]}`);
    }
    expect(found.sort()).toEqual(NUMERIC[name]);
  });
});

/** The flags every command takes, handled by main (src/cli/main.ts dispatch). */
const GLOBAL_FLAGS = new Set(['help', 'version', 'no-color']);
/**
 * A command named in running text: `provision apply plan.json --secrets-file`, `'provision plan
 * --out'`, `plan --out` (a bare name right before a flag): the flags after it are its own.
 */
const NAMES = COMMAND_NAMES.join('|');
const NAMED_COMMAND = new RegExp(`(?:provision |')(${NAMES})(?= )|(?:^|[\\s(])(${NAMES})(?= --)`, 'g');

describe('every flag in the help, every flag of the help', () => {
  it.each(COMMAND_NAMES)(
    '%s: each option has its line in the options table (with its short alias), and each --flag the help names exists',
    async (name) => {
      const command = await loadCommand(name);
      const options = command.options ?? {};
      const { stdout } = await run([name, '--help']);
      for (const [flag, option] of Object.entries(options)) {
        const line = new RegExp(
          `^ +--${flag}(?=[ ,=]|$)${option.short === undefined ? '' : `|^ +-${option.short}, --${flag}(?=[ ,=]|$)`}`,
          'm',
        );
        expect(stdout, `--${flag} has no line of its own in provision ${name} --help`).toMatch(line);
        if (option.short !== undefined) expect(stdout, `-${option.short}`).toContain(`-${option.short}, --${flag}`);
      }
      const owners = new Map(
        await Promise.all(
          COMMAND_NAMES.map(
            async (other) => [other, new Set(Object.keys((await loadCommand(other)).options ?? {}))] as const,
          ),
        ),
      );
      for (const line of stdout.split('\n')) {
        for (const match of line.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) {
          const flag = match[1] ?? '';
          // The flag belongs to the command named last before it on the line, else to this one.
          const last = [...line.slice(0, match.index + 2).matchAll(NAMED_COMMAND)].at(-1);
          const named = (last?.[1] ?? last?.[2]) as typeof name | undefined;
          const owner = named ?? name;
          expect(
            GLOBAL_FLAGS.has(flag) || owners.get(owner)?.has(flag),
            `provision ${name} --help names --${flag} (of ${owner}), which ${owner} does not take: ${line.trim()}`,
          ).toBe(true);
        }
      }
    },
  );

  it('help <command> prints the same as <command> --help, for every command; the global help lists them all', async () => {
    const global = await run(['--help']);
    for (const name of COMMAND_NAMES) {
      const viaHelp = await run(['help', name]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe((await run([name, '--help'])).stdout);
      expect(viaHelp.stdout).toMatch(/^Usage: provision /);
      expect(global.stdout, name).toMatch(new RegExp(`^ {2}${name} `, 'm'));
    }
  });
});
